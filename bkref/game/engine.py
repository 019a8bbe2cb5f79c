"""The referee's engine: a game state and the events applied to it.

``State`` is the one state object; ``state.play(event)`` applies an event in place and
returns the violations it found (empty when legal), and ``apply(state, event)`` is the
pure form, which leaves ``state`` untouched and returns the next state. Replay and
stepping back keep the states. There is no I/O here: reading logs is ``bkref.io.logfile``.

An illegal event is reported and skipped, so that one run lists every problem: its
effects are not applied. Some events are still applied after a report, because what
they record did happen at the table and skipping them would only bury the real problem
under consequences: a deal or draw whose cards are not the deck's next ones (D1, P3) or
exceed a card's copies (S4); a pick whose cards break D2/D3/D5, which still counts as
that player's pick of the turn (none of its cards is played); a harvest with a wrong
trading post declaration (H1: an undeclared post produces nothing); an end with a
wrong copy choice (E7: that card copies nothing). And when a log moves on to a later
turn or round while events of the current one are missing (a pick, a draw, a harvest),
the gap is reported once (T1) and closed, and the log is followed from there.

>>> from bkref.game.events import Game, Deal
>>> state = State()
>>> state.play(Game(format="bkref/1", players=["ann", "bob", "cid"]))
[]
>>> [v.rule for v in state.play(Deal(round=2, hands={}))]
['T1']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Final, NamedTuple

from bkref.game import scoring
from bkref.game.catalog import BOARD, CARDS, COPY_CARDS, DECK_SIZE
from bkref.game.events import FORMAT, Build, Deal, Draw, End, Event, Game, Harvest, Pick, Rulings
from bkref.game.fiefs import Board, Harvested, connected, fiefs, harvest, harvest_carrots
from bkref.game.position import Position
from bkref.game.results import Fief, FinalScore
from bkref.game.words import count

ROUNDS: Final = 4
_KIND: Final = {card.id: card.kind for card in CARDS.values()}
RABBITS: Final = 36  # each player's (S5)
_DECK: Final = sorted(card.id for card in CARDS.values() for _ in range(card.copies))
"""Every card of the deck (S4), sorted by id."""
HAND_SIZE: Final = {2: 10, 3: 12, 4: 10}
KEEP: Final = {2: 1, 3: 2, 4: 2}


class Violation(NamedTuple):
    """One broken rule: its id in RULES.md (or F1, X1) and a sentence for players."""

    rule: str
    message: str


class Due(NamedTuple):
    """The decision a game waits for: its ``kind`` and the ``players`` who make it.

    Kinds: ``game`` and ``deal`` (nobody's decision: the log's header, the deck),
    ``pick`` (the players yet to pick this turn), ``draw`` (the owner of the oldest
    provisions card to resolve), ``build`` (construction: any player may place
    buildings, and the harvest with each player's trading post declarations closes
    it), ``end`` (the copy choices of the players owning a copy card), ``over``.
    """

    kind: str
    players: tuple[str, ...]


class Skip(Exception):
    """Raised by a check when the event cannot be applied."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.violation = Violation(rule, message)


def _cards(ids: list[str]) -> str:
    return ", ".join(ids) if ids else "nothing"


class State:
    """A game in progress, as the referee sees it.

    Phases: ``setup`` (no game event yet), ``dealing`` (the next round's deal is due),
    ``exploring``, ``building``, ``ending`` (after the 4th harvest), ``over``.
    """

    def __init__(self) -> None:
        self.seat(())
        self.rulings = Rulings()
        self.deck: list[str] | None = None
        self.deck_pos = 0
        self.used: dict[str, int] = {}  # how often each card was used, with no deck (S4)
        self.phase = "setup"
        self.round = 0
        self.turn = 0
        self.hands: dict[str, list[str]] = {}
        self.reserves: dict[str, list[str]] = {}
        self.picks: dict[str, Pick | None] = {}
        self.passed: dict[str, list[str]] = {}  # the hands passed at the last turn, by who passed them (D5)
        self.pending: list[tuple[str, int]] = []
        self.position = Position()
        self.supply: dict[str, dict[str, int]] = {}  # each player's buildings not yet placed (P2): card to count
        self.parchments: dict[str, list[str]] = {}
        self.camps_played: dict[str, int] = {}
        self.camps_placed: dict[str, int] = {}
        self.camp_floor = 0
        self.harvests: list[Mapping[str, list[Fief]]] = []  # each harvest's fiefs, by player
        self.board_fiefs: Harvested | None = None  # the fiefs of the board as it stands, if known
        self.copies: dict[str, dict[str, str | None]] = {}
        self.final: FinalScore | None = None  # points only: see final_explained

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (S1). Read-only: ``seat`` sets them, with what follows from them."""
        return self._players

    def seat(self, players: tuple[str, ...]) -> None:
        """Seat ``players`` (S1), as the game event does: ``players`` in seat order, their
        number ``seats``, each one's neighbours ``left`` and ``right``, the turns of a round."""
        self._players = players
        self.seats = n = len(players)
        self.left = {p: players[(i + 1) % n] for i, p in enumerate(players)}  # each player's neighbours
        self.right = {p: players[(i - 1) % n] for i, p in enumerate(players)}
        self.turns_per_round = HAND_SIZE[n] // KEEP[n] if n in HAND_SIZE else 0

    # -- keeping states --------------------------------------------------------------

    def copy(self) -> State:
        """An independent copy: playing events on it leaves this state as it is."""
        new = State()
        new._players, new.seats, new.left, new.right = self._players, self.seats, self.left, self.right
        new.turns_per_round = self.turns_per_round
        new.rulings = self.rulings
        new.deck = self.deck  # never changed in place
        new.deck_pos = self.deck_pos
        new.used = dict(self.used)
        new.phase, new.round, new.turn = self.phase, self.round, self.turn
        new.hands = {p: list(h) for p, h in self.hands.items()}
        new.reserves = {p: list(h) for p, h in self.reserves.items()}
        new.picks = dict(self.picks)
        new.passed = dict(self.passed)
        new.pending = list(self.pending)
        new.position = self.position.copy()
        new.supply = {p: dict(c) for p, c in self.supply.items()}
        new.parchments = {p: list(c) for p, c in self.parchments.items()}
        new.camps_played = dict(self.camps_played)
        new.camps_placed = dict(self.camps_placed)
        new.camp_floor = self.camp_floor
        new.harvests = list(self.harvests)
        new.board_fiefs = self.board_fiefs
        new.copies = {p: dict(c) for p, c in self.copies.items()}
        new.final = self.final
        return new

    def fields(self) -> dict[str, object]:
        """Every field of the state by name, as ``vars`` gives them (the compiled build's
        states have no ``__dict__``)."""
        return {name: getattr(self, name) for name in _FIELDS}

    # -- questions -------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self.phase == "over"

    def left_of(self, player: str) -> str:
        """The player on ``player``'s left: the next seat clockwise (S1)."""
        return self.left[player]

    def right_of(self, player: str) -> str:
        """The player on ``player``'s right: the previous seat (S1)."""
        return self.right[player]

    def hand_now(self, player: str) -> list[str]:
        """The hand ``player`` picks from this turn: with 2 players, plus the next reserve card (D3)."""
        hand = self.hands[player]
        return [*hand, self.reserves[player][self.turn - 1]] if self.seats == 2 else hand

    def harvest_total(self, player: str) -> int:
        return sum(harvest_carrots(harvest, player) for harvest in self.harvests)

    def due(self) -> Due:
        """The decision the game waits for now, and whose it is (see ``Due``)."""
        phase = self.phase
        if phase == "exploring":
            if self.pending:
                return Due("draw", (self.pending[0][0],))
            return Due("pick", tuple(p for p in self.players if p not in self.picks))
        if phase == "building":
            return Due("build", self.players)
        if phase == "ending":
            return Due("end", tuple(p for p in self.players if COPY_CARDS.intersection(self.parchments[p])))
        return Due({"setup": "game", "dealing": "deal"}.get(phase, "over"), ())

    def is_legal(self, event: Event) -> bool:
        """True when ``event`` breaks no rule now (and leaves this state as it is)."""
        return not self.copy().play(event)

    def legal_moves(self, player: str | None = None) -> list[Event]:
        """Every legal event at the decision now due (``bkref.game.moves.legal_moves``)."""
        from bkref.game.moves import legal_moves

        return list(legal_moves(self, player))

    # What a player or a program may ask of one player; each answer is a new object.

    def hand_of(self, player: str) -> list[str]:
        """The cards ``player`` holds (during exploration; empty before and after)."""
        return list(self.hands.get(player, ()))

    def reserve_of(self, player: str) -> list[str]:
        """The cards left in ``player``'s face-down reserve, next first (2 players, D1, D3)."""
        reserve = self.reserves.get(player, [])
        return list(reserve[self.turn - 1 + (player in self.picks) :]) if self.phase == "exploring" else []

    def supply_of(self, player: str) -> dict[str, int]:
        """The buildings in ``player``'s supply, not yet placed (P2): card id to count, sorted."""
        return {card: n for card, n in sorted(self.supply.get(player, {}).items()) if n > 0}

    def parchments_of(self, player: str) -> list[str]:
        """The parchments ``player`` owns (P4), in the order they came."""
        return list(self.parchments.get(player, ()))

    def squares_of(self, player: str) -> list[str]:
        """The squares ``player`` controls (P1, C6), in board order."""
        owner = self.position.owner
        return [sq for sq in BOARD if owner.get(sq) == player]

    def fiefs_of(self, player: str) -> list[Fief]:
        """``player``'s fiefs on the board as it stands (H2-H4), with the latest declarations."""
        return fiefs(self.position, player)

    def carrots_of(self, player: str) -> int:
        """The golden carrots ``player`` has so far: the harvests, then the final total once scored."""
        return self.final.players[player].total if self.final is not None else self.harvest_total(player)

    def final_explained(self) -> FinalScore | None:
        """``final`` with what each parchment counted; ``final`` itself holds the points only,
        unless an ``expect`` of the end event disagreed (X1)."""
        return None if self.final is None else scoring.final_score(self, self._board())

    def _board(self) -> Board | None:
        """The board as it stands read into bitmasks, if a harvest read it and nothing changed since."""
        return None if self.board_fiefs is None else self.board_fiefs.board

    def where(self) -> str:
        """Where the game stands, in words: "round 2, turn 3", "after the 4th harvest"."""
        return _WHERE[self.phase].format(round=self.round, next=self.round + 1, turn=self.turn)

    # -- applying events -------------------------------------------------------------

    def play(self, event: Event) -> list[Violation]:
        """Apply ``event`` in place; return what it broke (empty when legal)."""
        found: list[Violation] = []
        try:
            # the two most frequent events by name, which the compiled build calls directly
            if type(event) is Pick:
                _on_pick(self, event, found)
            elif type(event) is Build:
                _on_build(self, event, found)
            else:
                _HANDLERS[type(event)](self, event, found)
        except Skip as skip:
            found.append(skip.violation)
        return found

    def finish(self) -> list[Violation]:
        """What the end of the log breaks: a game stops only after its end event (T1)."""
        if self.phase in ("setup", "over"):
            return []
        return [Violation("T1", f"the log ends {self.where()}; a game has 4 rounds and an end event")]

    # -- checks shared by the handlers -----------------------------------------------

    def _player(self, player: str, field: str = "player") -> None:
        if player not in self.left:
            raise Skip("F1", f"{field} {player!r} is not a player of this game ({', '.join(self.players)})")

    def _players_in(self, named: Mapping[str, object] | None, field: str) -> None:
        """F1 unless every key of ``named`` (a field of the event: ``hands``, ``expect``, …) is a player."""
        if named and not self.left.keys() >= named.keys():
            for player in named:
                self._player(player, field)

    def _expect_phase(self, phase: str, what: str, *args: object) -> None:
        """T1 unless the game is in ``phase``; ``what % args`` names the event (formatted only then)."""
        if self.phase != phase:
            raise Skip("T1", f"{what % args} comes {self.where()}")

    def _expect_round(self, rnd: int, what: str) -> None:
        if rnd != self.round:
            raise Skip("T1", f"{what} is marked round {rnd}, but the game is in round {self.round}")

    def _conserve(self, cards: list[str], found: list[Violation]) -> None:
        """Conservation mode (no deck): no card used more often than its copies (S4)."""
        used = self.used
        for card in cards:
            used[card] = used.get(card, 0) + 1
        over = sorted({c for c in cards if used[c] > CARDS[c].copies})
        for card in over:
            copies = CARDS[card].copies
            found.append(
                Violation(
                    "S4",
                    f"{card} is used {used[card]} times, the game has {copies} {'copy' if copies == 1 else 'copies'}",
                )
            )

    def from_deck(self, count: int) -> list[str] | None:
        """The next ``count`` cards of the deck (fewer at its end), or None when the game gave no deck."""
        if self.deck is None:
            return None
        return self.deck[self.deck_pos : self.deck_pos + count]

    # -- playing cards (P1-P4) -------------------------------------------------------

    def play_card(self, player: str, card: str) -> None:
        """Give ``card``'s effect to ``player`` as when it is played (P1-P4), without checking anything."""
        kind = _KIND[card]
        if kind == "territory":
            position = self.position
            if card in position.building and position.building[card].startswith("camp"):
                del position.building[card]  # P1: a camp leaves, whoever's it was
            position.claim(card, player)
            self.board_fiefs = None
        elif kind in ("treasure", "mission"):
            self.parchments[player].append(card)
        elif kind == "provisions":
            self.pending.append((player, self.turn))
        else:
            supply = self.supply[player]
            supply[card] = supply.get(card, 0) + 1
            if kind == "camp":
                self.camps_played[player] += 1


_WHERE: Final = {
    "setup": "before the game event",
    "dealing": "before the deal of round {next}",
    "exploring": "in round {round}, turn {turn}",
    "building": "in the construction of round {round}",
    "ending": "after the 4th harvest, before the end event",
    "over": "after the end event",
}
"""Where a game in each phase stands, in words (``State.where``)."""

_FIELDS: Final = (
    *("_players", "seats", "left", "right", "turns_per_round", "rulings", "deck", "deck_pos", "used"),
    *("phase", "round", "turn", "hands", "reserves", "picks", "passed", "pending", "position", "supply"),
    *("parchments", "camps_played", "camps_placed", "camp_floor", "harvests", "board_fiefs", "copies", "final"),
)
"""The names of a state's fields (see ``State.fields``), in the order ``__init__`` sets them."""


def _on_game(state: State, event: Game, found: list[Violation]) -> None:
    if state.phase != "setup":
        raise Skip("T1", "a second game event: a log holds one game")
    if event.format != FORMAT:
        raise Skip("F1", f"format is {event.format!r}; this referee reads {FORMAT!r}")
    players = event.players
    if not 2 <= len(players) <= 4:
        raise Skip("S1", f"{count(len(players), 'player')}; Bunny Kingdom is for 2 to 4")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise Skip("S1", f"player {twice[0]!r} has two seats; players must be distinct")
    state.seat(tuple(players))
    state.rulings = event.rulings
    state.phase = "dealing"
    for p in players:
        state.supply[p] = {}
        state.parchments[p] = []
        state.camps_played[p] = 0
        state.camps_placed[p] = 0
    if event.deck is not None:
        wrong = _deck_problems(event.deck)
        if not wrong:
            state.deck = list(event.deck)
            return
        shown = "; ".join(wrong[:3]) + (f"; and {len(wrong) - 3} more" if len(wrong) > 3 else "")
        found.append(
            Violation("S4", f"the deck is not the game's {DECK_SIZE} cards: it has {shown}; checking without it")
        )


def _deck_problems(deck: list[str]) -> list[str]:
    """What keeps ``deck`` from being the game's cards (S4), in words; empty when it is them."""
    try:  # the usual case, quickly: sorted, the deck is the game's cards (the decoder gives their very strings)
        if sorted(deck) == _DECK:
            return []
    except TypeError:  # not all strings: a deck made in Python, which the decoder did not check
        pass
    counts = Counter(deck)  # also a deck of objects that equal the ids but do not sort
    wrong = [
        f"{c} x{counts[c]} (the game has {CARDS[c].copies})"
        for c in sorted(CARDS)  # the deck's ids are cards: the decoder checked them
        if counts[c] != CARDS[c].copies
    ]
    extra = len(deck) - DECK_SIZE
    if not wrong and extra:  # every card as often as the game has it, and other items besides
        wrong = [f"{count(extra, 'item')} that {'is' if extra == 1 else 'are'} no card"]
    return wrong


def _on_deal(state: State, event: Deal, found: list[Violation]) -> None:
    if event.round == state.round + 1 and state.phase in ("exploring", "building"):
        _close_round(state, found)
    state._expect_phase("dealing", "the deal of round %d", event.round)
    if event.round != state.round + 1:
        raise Skip("T1", f"the deal is marked round {event.round}; round {state.round + 1} is due")
    n = len(state.players)
    size = HAND_SIZE[n]
    state._players_in(event.hands, "hands")
    state._players_in(event.reserves, "reserves")
    missing = [p for p in state.players if p not in event.hands]
    if missing:
        raise Skip("D1", f"no hand is dealt to {', '.join(missing)}; every player gets {size} cards")
    for p in state.players:
        if len(event.hands[p]) != size:
            raise Skip("D1", f"{p} is dealt {len(event.hands[p])} cards; with {n} players each gets {size}")
    if n == 2:
        reserves = event.reserves or {}
        for p in state.players:
            got = len(reserves.get(p, ()))
            if got != size:
                raise Skip("D1", f"{p}'s reserve has {got} cards; with 2 players each gets a reserve of {size}")
    elif event.reserves:
        raise Skip("D1", f"reserves are dealt only with 2 players, this game has {n}")
    dealt = [c for p in state.players for c in event.hands[p]]
    if n == 2:
        dealt += [c for p in state.players for c in event.reserves[p]]  # type: ignore[index]
    expected = state.from_deck(len(dealt))
    if expected is None:
        state._conserve(dealt, found)
    elif dealt != expected:
        i = next(i for i, (a, b) in enumerate(zip(dealt, expected + [""] * len(dealt))) if a != b)
        deck_card = expected[i] if i < len(expected) else "nothing (the deck is empty)"
        block, at = divmod(i, size)
        whose = state.players[block % n] + ("'s reserve" if block >= n else "'s hand")
        found.append(
            Violation(
                "D1",
                f"the deal does not follow the deck: card {at + 1} of {whose} is {dealt[i]}, "
                f"but card {state.deck_pos + i + 1} of the deck is {deck_card}",
            )
        )
    state.deck_pos += len(dealt)
    state.round = event.round
    state.turn = 1
    state.phase = "exploring"
    state.hands = {p: list(event.hands[p]) for p in state.players}
    state.reserves = {p: list(event.reserves[p]) for p in state.players} if n == 2 else {}  # type: ignore[index]
    state.picks = {}
    state.passed = {}


def _pass_direction(rnd: int) -> str:
    return "left" if rnd % 2 == 1 else "right"


def _passing_to(state: State) -> dict[str, str]:
    """Whom each player passes their hand to this round (D5)."""
    return state.left if _pass_direction(state.round) == "left" else state.right


def _on_pick(state: State, event: Pick, found: list[Violation]) -> None:
    p = event.player
    if state.phase != "exploring" or event.round != state.round or p not in state.left:
        state._expect_phase("exploring", "a pick for round %d, turn %d", event.round, event.turn)
        state._expect_round(event.round, "the pick")
        state._player(p)
    if event.turn != state.turn:
        if state.turn < event.turn <= state.turns_per_round:
            while state.turn < event.turn:
                _close_turn(state, found)
        if event.turn != state.turn:
            raise Skip("T1", f"the pick is marked turn {event.turn}, but the round is in turn {state.turn}")
    picks = state.picks
    if p in picks:
        raise Skip("T1", f"{p} picks a second time in turn {state.turn}")
    picks[p] = _legal_pick(state, event, p, found)
    if len(picks) == state.seats:
        _reveal(state, found)


def _legal_pick(state: State, event: Pick, p: str, found: list[Violation]) -> Pick | None:
    """The pick if its cards are legal; otherwise report it and return None (D2, D3, D5).

    Either way the player's hand becomes what they pass on: the rest after a legal pick,
    the whole hand after an illegal one.
    """
    n, keep = state.seats, event.keep  # p is event.player, read once
    if n == 2:
        hand = state.hands[p] = state.hand_now(p)
        rule = "D3"
        discard = event.discard or []
        if len(keep) != 1 or len(discard) != 1:
            found.append(
                Violation(
                    rule,
                    f"{p} keeps {count(len(keep), 'card')} and discards "
                    f"{len(discard)}; with 2 players each turn keeps 1 card and discards 1",
                )
            )
            return None
        chosen = keep + discard
    else:
        hand = state.hands[p]
        rule = "D2"
        if event.discard is not None:
            found.append(Violation(rule, f"{p} discards {_cards(event.discard)}; only 2-player games discard"))
            return None
        if len(keep) != 2:
            found.append(
                Violation(rule, f"{p} keeps {count(len(keep), 'card')}; with {n} players each turn keeps exactly 2")
            )
            return None
        chosen = keep
    rest = hand.copy()
    try:
        for card in chosen:
            rest.remove(card)
    except ValueError:  # card: the first card named more often than the hand holds it
        pass
    else:
        state.hands[p] = rest
        return event
    verb = "keeps" if card in keep else "discards"
    where = "hand (with the reserve card)" if n == 2 else "hand"
    if card in hand:  # named more often than the hand holds it
        found.append(
            Violation(
                rule,
                f"{p} picks {card} {chosen.count(card)} times, but {p}'s {where} holds "
                f"only {hand.count(card)}: {_cards(hand)}",
            )
        )
        return None
    wrong_way = state.passed.get(_passing_to(state)[p])  # what p would hold had hands passed the other way
    if wrong_way is not None and card in wrong_way:
        direction = _pass_direction(state.round)
        found.append(
            Violation(
                "D5",
                f"{p} {verb} {card}, which would be in {p}'s hand only if hands passed the "
                f"wrong way; in round {state.round} hands pass to the {direction}",
            )
        )
    else:
        found.append(Violation(rule, f"{p} {verb} {card}, which is not in {p}'s {where}: {_cards(hand)}"))
    return None  # refused


def _reveal(state: State, found: list[Violation]) -> None:
    """Every player has picked: play the kept cards in seat order (D4) and pass (D5)."""
    picks = state.picks
    limited = state.rulings.rabbit_limit == "pieces"  # R6: a territory may find no rabbit left (S5)
    for p in state.players:
        pick = picks[p]
        if pick is not None:  # an illegal pick plays nothing
            for card in pick.keep:
                if limited:
                    _play_claiming(state, p, card, found)
                else:
                    state.play_card(p, card)
    to = _passing_to(state)
    state.passed = passed = state.hands
    state.hands = {to[p]: rest for p, rest in passed.items()}
    _next_turn(state)


def _close_turn(state: State, found: list[Violation]) -> None:
    """The log moves past the current turn: report what it lacks (T1), then close the turn."""
    where = f"turn {state.turn} of round {state.round}"
    missing = [p for p in state.players if p not in state.picks]
    if missing:
        found.append(Violation("T1", f"{where} has no pick by {', '.join(missing)}; that hand passes on unplayed"))
        for p in missing:
            state.picks[p] = None
            state.hands[p] = state.hand_now(p)
        _reveal(state, found)
    if state.pending:
        never = ", ".join(f"{who}'s (turn {turn})" for who, turn in state.pending)
        found.append(Violation("T1", f"a provisions card of {where} is never drawn: {never}; its cards are not played"))
        state.deck_pos += 2 * len(state.pending)  # the cards left the deck all the same (P3)
        state.pending.clear()
        _next_turn(state)


def _close_round(state: State, found: list[Violation]) -> None:
    """The log moves on to the next round: close this one (T1), harvesting with no declarations."""
    while state.phase == "exploring":
        _close_turn(state, found)
    found.append(
        Violation("T1", f"round {state.round} has no harvest event; it is harvested with no trading post declared")
    )
    _harvest(state, {})


def _next_turn(state: State) -> None:
    """Once a turn's picks and draws are all in, move to the next turn or to construction."""
    if len(state.picks) < state.seats or state.pending:
        return
    if state.turn >= state.turns_per_round:
        state.phase = "building"
        state.camp_floor = 0
    else:
        state.turn += 1
    state.picks = {}


def _on_draw(state: State, event: Draw, found: list[Violation]) -> None:
    state._expect_phase("exploring", "a draw for round %d, turn %d", event.round, event.turn)
    state._expect_round(event.round, "the draw")
    state._player(event.player)
    if event.turn != state.turn:
        raise Skip("T1", f"the draw is marked turn {event.turn}, but the round is in turn {state.turn}")
    if not state.pending:
        # A provisions card waits only once every player has picked: the turn moves on as
        # soon as its picks are in and nothing waits (_next_turn). So a draw with nothing
        # waiting comes before a pick.
        waiting = [p for p in state.players if p not in state.picks]
        raise Skip(
            "D4",
            f"{event.player} draws before {', '.join(waiting)} picked in turn {state.turn}; "
            "kept cards are played only once every player has picked",
        )
    owner, _ = state.pending[0]
    if owner != event.player:
        raise Skip("P3", f"{event.player} draws, but the oldest provisions card to resolve is {owner}'s")
    if len(event.cards) != 2:
        raise Skip("P3", f"{event.player}'s provisions draws {count(len(event.cards), 'card')}; it draws exactly 2")
    expected = state.from_deck(2)
    if expected is None:
        state._conserve(event.cards, found)
    elif event.cards != expected:
        found.append(
            Violation(
                "P3", f"{event.player} draws {_cards(event.cards)}, but the top of the deck is {_cards(expected)}"
            )
        )
    state.deck_pos += 2
    state.pending.pop(0)
    for card in event.cards:
        _play_claiming(state, event.player, card, found)
    _next_turn(state)


def _no_rabbit(state: State, player: str, square: str, then: str) -> str | None:
    """Why ``player`` has no rabbit to claim ``square`` under R6 ``pieces`` (S5), or None;
    ``then`` says what follows.

    Each claimed square holds one of the player's 36 rabbits, one marks the score, and a
    second marks the +100 space once a harvest has taken the player past 100 carrots.
    A square the player controls already (their own camp) needs no new rabbit.
    """
    if state.rulings.rabbit_limit != "pieces" or state.position.owner.get(square) == player:
        return None
    claimed = state.position.owned.get(player, 0).bit_count()
    track = 2 if state.harvest_total(player) > 100 else 1
    if claimed + track < RABBITS:
        return None
    on_track = "the score track and its +100 space" if track == 2 else "the score track"
    return (
        f"{player} has no rabbit left to claim {square}: {claimed} squares and {on_track} hold all "
        f"{RABBITS} (R6 pieces); {then}"
    )


def _play_claiming(state: State, player: str, card: str, found: list[Violation]) -> None:
    """Play ``card`` for ``player`` (P1-P4); a territory with no rabbit left to claim it breaks S5 (R6)."""
    if _KIND[card] == "territory" and state.rulings.rabbit_limit == "pieces":
        problem = _no_rabbit(state, player, card, f"{card} stays unclaimed")
        if problem:
            found.append(Violation("S5", problem))
            return
    state.play_card(player, card)


def _on_build(state: State, event: Build, found: list[Violation]) -> None:
    p, card_id, at = event.player, event.card, event.at
    if state.phase != "building" or event.round != state.round or p not in state.left:
        state._expect_phase("building", "%s's %s build", p, card_id)
        state._expect_round(event.round, "the build")
        state._player(p)
    position = state.position
    card = CARDS[card_id]
    kind = card.kind
    if kind in ("territory", "provisions", "treasure", "mission"):
        rule, what = {
            "territory": ("P1", "a territory card claims its square when it is played"),
            "provisions": ("P3", "a provisions card draws 2 cards when it is played"),
            "treasure": ("P4", "a parchment stays face down until the end"),
            "mission": ("P4", "a parchment stays face down until the end"),
        }[kind]
        raise Skip(rule, f"{p} builds {card_id}, which is not a building: {what}")
    supply = state.supply[p]
    if not supply.get(card_id):
        raise Skip("P2", f"{p} builds {card_id}, but has none in supply; a building must be played first")
    count = 2 if kind == "sky_tower" else 1
    if len(at) != count:
        rule = "C5" if kind == "sky_tower" else "C3"
        raise Skip(rule, f"{card_id} is placed on {len(at)} squares; it takes {count}")
    for sq in at:
        if position.occupied(sq):
            if kind == "camp":
                raise Skip(
                    "C6",
                    f"{p} places {card_id} on {sq}, which holds {_describe(position, sq)}; "
                    "a camp goes only on an empty square",
                )
            raise Skip("C3", f"{p} builds {card_id} on {sq}, which already holds {_describe(position, sq)}")
    if kind == "camp":
        sq = at[0]
        if sq in position.owner:
            raise Skip(
                "C6",
                f"{p} places {card_id} on {sq}, where {position.owner[sq]} has a rabbit; "
                "a camp goes only on an empty square",
            )
        if card.priority < state.camp_floor:
            raise Skip(
                "C7",
                f"{p} places {card_id} after camp{state.camp_floor} in this construction; "
                "camps go in ascending priority order",
            )
        problem = _no_rabbit(state, p, sq, f"the {card_id} is not placed")
        if problem:
            raise Skip("S5", problem)
    else:
        for sq in at:
            if position.owner.get(sq) != p:
                holder = position.owner.get(sq)
                whose = f"{holder} controls it" if holder else "nobody controls it"
                raise Skip("C2", f"{p} builds {card_id} on {sq}, which {p} does not control ({whose})")
        terrain, requires = BOARD[at[0]].terrain, card.requires_terrain
        if requires and terrain != requires:
            raise Skip(
                "C4",
                f"{p} builds {card_id} on {at[0]}, a {terrain} square; {card_id} goes only on a {requires}",
            )
    if kind == "sky_tower":
        a, b = at
        if a == b:
            raise Skip("C5", f"both sky tower tokens are placed on {a}; they go on two different squares")
        if connected(position, p, a, b):
            raise Skip("C5", f"{a} and {b} are already in one fief of {p}; a sky tower joins two different fiefs")
        position.towers.append((a, b))
    supply[card_id] -= 1
    state.board_fiefs = None
    for sq in at:
        position.building[sq] = card_id
    if kind == "camp":
        position.claim(at[0], p)
        state.camp_floor = card.priority
        state.camps_placed[p] += 1


def _describe(position: Position, square: str) -> str:
    if BOARD[square].printed_city:
        return "a printed city"
    building = position.building[square]
    who = position.owner.get(square)
    return f"{who}'s {building}" if who else building


def _on_harvest(state: State, event: Harvest, found: list[Violation]) -> None:
    state._expect_phase("building", "the harvest of round %d", event.round)
    state._expect_round(event.round, "the harvest")
    state._players_in(event.trading_posts, "trading_posts")
    state._players_in(event.expect, "expect")
    position = state.position
    owner = position.owner
    posts = {sq: owner[sq] for sq, on in position.building.items() if on == "trading_post" and sq in owner}
    declared: dict[str, str] = {}
    for p, squares in event.trading_posts.items():
        for sq, resource in squares.items():
            if posts.get(sq) != p:
                found.append(
                    Violation(
                        "H1",
                        f"{p} declares {resource} for {sq}, where {p} has no trading post; the declaration is ignored",
                    )
                )
            else:
                declared[sq] = resource
    for sq in sorted(sq for sq in posts if sq not in declared):
        found.append(
            Violation(
                "H1",
                f"{posts[sq]}'s trading post on {sq} is not declared, so it produces nothing "
                "this harvest; each post produces the wood, fish or carrot its owner declares",
            )
        )
    harvested = _harvest(state, declared)
    for p, expected in (event.expect or {}).items():
        got = harvested.carrots[p]
        if got != expected:
            detail = (
                "; ".join(
                    f"fief of {f.squares[0]} ({count(len(f.squares), 'square')}) {f.strength}x{f.wealth}"
                    for f in harvested[p]
                    if f.carrots
                )
                or "no fief yields carrots"
            )
            found.append(
                Violation(
                    "X1",
                    f"{p} harvests {count(got, 'carrot')} in round {state.round} ({detail}), "
                    f"the log expects {expected}",
                )
            )


def _harvest(state: State, declared: dict[str, str]) -> Harvested:
    """Harvest every player's fiefs (H1-H4) and close the round."""
    state.position.declared = declared
    harvested = state.board_fiefs = harvest(state.position, state.players, whole=state.round == ROUNDS)
    state.harvests.append(harvested)
    state.phase = "ending" if state.round == ROUNDS else "dealing"
    return harvested


def _on_end(state: State, event: End, found: list[Violation]) -> None:
    state._expect_phase("ending", "the end event")
    state._players_in(event.copies, "copies")
    state._players_in(event.expect, "expect")
    state.copies = _legal_copies(state, event, found)
    board = state._board()
    final = state.final = scoring.final_score(state, board, explain=False)  # points only
    state.phase = "over"
    for p, expected in (event.expect or {}).items():
        got = final.players[p].total
        if got != expected:
            row = final.players[p]
            state.final = scoring.final_score(state, board)  # with what each parchment counted
            found.append(
                Violation(
                    "X1",
                    f"{p} ends with {got} carrots (harvests {row.harvest} + parchments "
                    f"{row.parchment_total}), the log expects {expected}",
                )
            )


def _legal_copies(state: State, event: End, found: list[Violation]) -> dict[str, dict[str, str | None]]:
    """The copy choices (E7, R3); a wrong one is reported and copies nothing."""
    copies: dict[str, dict[str, str | None]] = {}
    for p in state.players:
        owned = COPY_CARDS.intersection(state.parchments[p])
        chosen = event.copies.get(p, {})
        for card in sorted(chosen.keys() - owned):
            found.append(Violation("E7", f"{p} names a copy for {card}, but does not own {card}"))
        for card in sorted(owned):
            problem = _copy_problem(state, p, card, chosen)
            if problem:
                found.append(Violation("E7", f"{problem}; it is scored as copying nothing"))
            copies.setdefault(p, {})[card] = None if problem else chosen[card]
    if state.rulings.copy_of_copy == "follow":
        for p, chosen in copies.items():
            for card, target in chosen.items():
                if target is not None and scoring.resolve_copy(state.players, copies, p, card) is scoring.CYCLE:
                    found.append(
                        Violation(
                            "E7",
                            f"{p}'s {card} copies {target}, a chain of copies that leads back "
                            "to itself (ruling R3 copy_of_copy: follow); it is scored as copying "
                            "nothing",
                        )
                    )
                    chosen[card] = None
    return copies


def _copy_problem(state: State, p: str, card: str, chosen: dict[str, str | None]) -> str | None:
    """Why ``p``'s copy card ``card`` cannot copy what ``chosen`` names, or None if it can."""
    neighbour = state.right_of(p) if card == "liberal" else state.left_of(p)
    side = "right" if card == "liberal" else "left"
    theirs = state.parchments[neighbour]
    copyable = sorted({c for c in theirs if state.rulings.copy_of_copy == "follow" or c not in COPY_CARDS})
    if card not in chosen:
        return f"{p}'s {card} has no copy choice; name the parchment of {neighbour} (on the {side}) it copies, or null"
    target = chosen[card]
    if target is None:
        if copyable:
            return f"{p}'s {card} copies nothing, but {neighbour} (on the {side}) has {_cards(copyable)}"
        return None
    if target not in theirs:
        return f"{p}'s {card} copies {target}, which {neighbour} (on the {side}) does not have"
    if target not in copyable:
        return f"{p}'s {card} copies {target}; a copy card may not copy a copy card (ruling R3 copy_of_copy: forbidden)"
    return None  # it copies what it names


_HANDLERS: Final[dict[type, Callable[[State, Event, list[Violation]], None]]] = {
    Game: _on_game,  # type: ignore[dict-item]
    Deal: _on_deal,  # type: ignore[dict-item]
    Draw: _on_draw,  # type: ignore[dict-item]
    Harvest: _on_harvest,  # type: ignore[dict-item]
    End: _on_end,  # type: ignore[dict-item]
}
"""The handler of each event type but the two most frequent, which ``State.play`` calls by name."""


def apply(state: State, event: Event) -> tuple[State, list[Violation]]:
    """The pure form of ``State.play``: the next state and the violations, ``state`` unchanged."""
    new = state.copy()
    return new, new.play(event)


class History:
    """A game played event by event that can step back, like a chess board's push and pop.

    >>> from bkref.game.events import Game, Deal
    >>> game = History()
    >>> game.push(Game(format="bkref/1", players=["ann", "bob", "cid"]))
    []
    >>> game.state.due().kind, len(game.events)
    ('deal', 1)
    >>> game.pop().players, game.state.due().kind
    (['ann', 'bob', 'cid'], 'game')
    """

    def __init__(self) -> None:
        self.states = [State()]
        self.events: list[Event] = []

    @property
    def state(self) -> State:
        """The state after the events so far (do not change it: ``push`` the next event)."""
        return self.states[-1]

    def push(self, event: Event) -> list[Violation]:
        """Play ``event`` on a copy of the state, keep both, and return what it broke."""
        after, found = apply(self.state, event)
        self.states.append(after)
        self.events.append(event)
        return found

    def pop(self) -> Event:
        """Step back over the last event; return it. ``IndexError`` when there is none."""
        event = self.events.pop()
        self.states.pop()
        return event
