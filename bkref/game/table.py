"""The table of a game: every field of a game state, declared once, and what can be asked of it.

``Table`` is the state as data: the seats, the deck, the hands and reserves, each player's
supply and parchments, the board, the harvests, where the game stands (``phase``,
``round``, ``turn``). Its fields are declared once, in ``__init__``, each with its type
and its value in a new game; ``copy()`` and ``fields()`` follow from them. Its questions
are the facts of the rules about a state that several modules ask (who sits on whose
left, what a copy card copies from, how many cards a reserve holds, how many harvests
are done), each answered here only.

It plays nothing: ``bkref.game.engine.State`` is the table that plays events, the
stage modules (``dealing``, ``exploring``, ``building``, ``harvesting``, ``ending``)
hold each event's checks and effects, and ``flow`` what is due next.

>>> table = Table()
>>> table.seat(("ann", "bob", "cid"))
>>> table.left_of("ann"), table.right_of("ann"), table.turns_per_round
('bob', 'cid', 6)
>>> table.copies_from("ann", "liberal"), table.copies_from("ann", "socialist")
('cid', 'bob')
>>> table.phase, table.where(), table.harvests_done
('setup', 'before the game event', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, NamedTuple, Self, cast

import msgspec

from bkref.game.catalog import CARDS
from bkref.game.events import Pick, Rulings
from bkref.game.fiefs import Harvested, fiefs_of, harvest_carrots, names
from bkref.game.position import Position
from bkref.game.results import Fief, FinalScore

ROUNDS: Final = 4
RABBITS: Final = 36  # each player's (S5)
HAND_SIZE: Final = {2: 10, 3: 12, 4: 10}
KEEP: Final = {2: 1, 3: 2, 4: 2}

Phase = Literal["setup", "dealing", "exploring", "building", "ending", "over"]
"""Where a game stands: ``setup`` (no game event yet), ``dealing`` (the next round's deal
is due), ``exploring``, ``building``, ``ending`` (after the 4th harvest), ``over``."""

COPY_SIDE: Final = {"liberal": "right", "socialist": "left"}
"""The neighbour each copy card copies a parchment of (E7): Liberal the right's, Socialist the left's."""


class Violation(NamedTuple):
    """One broken rule: its id in RULES.md (or F1, X1) and a sentence for players."""

    rule: str
    message: str


class Skip(Exception):
    """Raised by a check when the event cannot be applied."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.violation = Violation(rule, message)


class Due(msgspec.Struct, frozen=True, gc=False):
    """The decision a game waits for: its ``kind`` and the ``players`` who make it.

    Kinds: ``game`` and ``deal`` (nobody's decision: the log's header, the deck),
    ``pick`` (the players yet to pick this turn), ``draw`` (the owner of the oldest
    provisions card to resolve), ``build`` (construction: any player may place
    buildings, and the harvest with each player's trading post declarations closes
    it), ``end`` (the copy choices of the players owning a copy card), ``over``.

    A value (frozen: compared, hashed, printed), read by its fields' names: it is no tuple to
    unpack or index (it was a named tuple before self-play asked it at every decision, and a
    struct costs less to make).
    """

    kind: str
    players: tuple[str, ...]


def _copied(value: object) -> object:
    """What a copy of a state holds for ``value``: a copy of a dict or a list, with a copy
    of each dict or list it holds; a copy of a ``Position``; anything else as it is (it is
    immutable, or only ever replaced whole)."""
    if type(value) is dict:
        return {key: inner.copy() if type(inner) in (dict, list) else inner for key, inner in value.items()}
    if type(value) is list:
        return [inner.copy() if type(inner) in (dict, list) else inner for inner in value]
    if type(value) is Position:
        return value.copy()
    return value


class Table:
    """A game's state as one typed record; see the module's docstring.

    ``__init__`` declares every field, once, with its type and its value in a new game;
    ``copy`` and ``fields`` follow it (through ``__getstate__``, which both builds give).
    """

    def __init__(self) -> None:
        self.seat(())  # _players, seats, left, right, turns_per_round: see seat
        self.rulings = Rulings()
        self.deck: list[str] | None = None  # the deck (S4), never changed in place
        self.deck_pos = 0  # the next card's place in it
        self.used: dict[str, int] = {}  # how often each card was used, with no deck (S4)
        self.phase: Phase = "setup"
        self.round = 0
        self.turn = 0
        self.hands: dict[str, list[str]] = {}
        self.reserves: dict[str, list[str]] = {}
        self.picks: dict[str, Pick | None] = {}  # this turn's picks, None for an illegal one
        self.passed: dict[str, list[str]] = {}  # the hands passed at the last turn, by who passed them (D5)
        self.pending: list[tuple[str, int]] = []  # the provisions cards to resolve: (owner, turn) (P3)
        self.position = Position()
        self.supply: dict[str, dict[str, int]] = {}  # each player's buildings not yet placed (P2): card to count
        self.parchments: dict[str, list[str]] = {}
        self.camps_played: dict[str, int] = {}
        self.camps_placed: dict[str, int] = {}
        self.camp_floor = 0  # the priority of the last camp placed in this construction (C7)
        self.harvests: list[Mapping[str, list[Fief]]] = []  # each harvest's fiefs, by player
        self.board_fiefs: Harvested | None = None  # the fiefs of the board as it stands, if known
        self.copies: dict[str, dict[str, str | None]] = {}  # the copy choices as they count (E7)
        self.final: FinalScore | None = None  # points only: see State.final_explained

    def copy(self) -> Self:
        """An independent copy: playing events on it leaves this one as it is."""
        new = type(self).__new__(type(self))
        for name, value in self.fields().items():
            setattr(new, name, _copied(value))
        return new

    def fields(self) -> dict[str, object]:
        """Every field of the state by name, as ``vars`` gives them (the compiled build's
        states have no ``__dict__``)."""
        return dict(cast("dict[str, object]", self.__getstate__()))

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (S1). Read-only: ``seat`` sets them, with what follows from them."""
        return self._players

    def seat(self, players: tuple[str, ...]) -> None:
        """Seat ``players`` (S1), as the game event does: ``players`` in seat order, their
        number ``seats``, each one's neighbours ``left`` and ``right``, the turns of a round."""
        self._players = players
        self.seats = n = len(players)
        self.left = {p: players[(i + 1) % n] for i, p in enumerate(players)}
        self.right = {p: players[(i - 1) % n] for i, p in enumerate(players)}
        self.turns_per_round = HAND_SIZE[n] // KEEP[n] if n in HAND_SIZE else 0

    # -- questions -------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self.phase == "over"

    @property
    def harvests_done(self) -> int:
        """How many harvests the game has had: the rounds closed so far (H1-H4)."""
        return len(self.harvests)

    def left_of(self, player: str) -> str:
        """The player on ``player``'s left: the next seat clockwise (S1)."""
        return self.left[player]

    def right_of(self, player: str) -> str:
        """The player on ``player``'s right: the previous seat (S1)."""
        return self.right[player]

    def copies_from(self, player: str, card: str) -> str:
        """The neighbour whose parchments ``player``'s copy ``card`` copies (E7; see ``COPY_SIDE``)."""
        return self.right[player] if COPY_SIDE[card] == "right" else self.left[player]

    def hand_now(self, player: str) -> list[str]:
        """The hand ``player`` picks from this turn: with 2 players, plus the next reserve card (D3)."""
        hand = self.hands[player]
        return [*hand, self.reserves[player][self.turn - 1]] if self.seats == 2 else hand

    def _reserve_next(self, player: str) -> int:
        """The index in ``player``'s reserve of the next card to join the hand (D3)."""
        return self.turn - 1 + (player in self.picks)

    def reserve_of(self, player: str) -> list[str]:
        """The cards left in ``player``'s face-down reserve, next first (2 players, D1, D3)."""
        reserve = self.reserves.get(player, [])
        return list(reserve[self._reserve_next(player) :]) if self.phase == "exploring" else []

    def reserve_size(self, player: str) -> int:
        """How many cards are left in ``player``'s reserve: ``len(reserve_of(player))``, without the list."""
        if self.phase != "exploring" or player not in self.reserves:
            return 0
        return len(self.reserves[player]) - self._reserve_next(player)

    @property
    def has_reserves(self) -> bool:
        """True once a 2-player deal has given each player a face-down reserve (D1)."""
        return bool(self.reserves)

    def last_harvest(self, player: str) -> list[Fief]:
        """``player``'s fiefs as the latest harvest scored them (H2-H4); the harvest's own list, not a copy."""
        return self.harvests[-1][player]

    def owner_of(self, square: str) -> str | None:
        """The player who controls ``square`` (P1, C6), or None."""
        return self.position.owner.get(square)

    def harvest_total(self, player: str) -> int:
        return sum(harvest_carrots(harvest, player) for harvest in self.harvests)

    # What a player or a program may ask of one player; each answer is a new object.

    def hand_of(self, player: str) -> list[str]:
        """The cards ``player`` holds (during exploration; empty before and after)."""
        return list(self.hands.get(player, ()))

    def supply_of(self, player: str) -> dict[str, int]:
        """The buildings in ``player``'s supply, not yet placed (P2): card id to count, sorted."""
        return {card: n for card, n in sorted(self.supply.get(player, {}).items()) if n > 0}

    def parchments_of(self, player: str) -> list[str]:
        """The parchments ``player`` owns (P4), in the order they came."""
        return list(self.parchments.get(player, ()))

    def squares_of(self, player: str) -> list[str]:
        """The squares ``player`` controls (P1, C6), in board order (read from their bits)."""
        return list(names(self.position.owned.get(player, 0)))

    def fiefs_of(self, player: str) -> list[Fief]:
        """``player``'s fiefs on the board as it stands (H2-H4), with the latest declarations."""
        return fiefs_of(self.position, player)

    def carrots_of(self, player: str) -> int:
        """The golden carrots ``player`` has so far: the harvests, then the final total once scored."""
        return self.final.players[player].total if self.final is not None else self.harvest_total(player)

    def where(self) -> str:
        """Where the game stands, in words: "round 2, turn 3", "after the 4th harvest"."""
        return _WHERE[self.phase].format(round=self.round, next=self.round + 1, turn=self.turn)

    def follow_deck(self, cards: list[str]) -> None:
        """After a deal or a draw that is not the deck's next ``cards`` (D1, P3): if the deck
        holds them a few cards further or back, follow the log from there (an earlier draw
        or deal left out, or made twice); else read on from where they would have been."""
        deck, pos, n = self.deck, self.deck_pos, len(cards)
        assert deck is not None
        for shift in sorted(range(-_RESYNC, _RESYNC + 1), key=abs):
            at = pos + shift
            if at >= 0 and deck[at : at + n] == cards:
                self.deck_pos = at
                return

    def from_deck(self, count: int) -> list[str] | None:
        """The next ``count`` cards of the deck (fewer at its end), or None when the game gave no deck."""
        if self.deck is None:
            return None
        return self.deck[self.deck_pos : self.deck_pos + count]


_RESYNC: Final = 12
"""How far (in cards) ``Table.follow_deck`` looks for the cards a log dealt or drew."""

_WHERE: Final = {
    "setup": "before the game event",
    "dealing": "before the deal of round {next}",
    "exploring": "in round {round}, turn {turn}",
    "building": "in the construction of round {round}",
    "ending": "after the 4th harvest, before the end event",
    "over": "after the end event",
}
"""Where a game in each phase stands, in words (``Table.where``)."""


# -- checks every stage makes ----------------------------------------------------------


def expect_player(table: Table, player: str, field: str) -> None:
    """F1 unless ``player`` (the ``field`` of an event) is a player of the game."""
    if player not in table.left:
        raise Skip("F1", f"{field} {player!r} is not a player of this game ({', '.join(table.players)})")


def expect_players(table: Table, named: Mapping[str, object] | None, field: str) -> None:
    """F1 unless every key of ``named`` (a field of the event: ``hands``, ``expect``, …) is a player."""
    if named and not table.left.keys() >= named.keys():
        for player in named:
            expect_player(table, player, field)


def conserve(table: Table, cards: list[str], found: list[Violation]) -> None:
    """Conservation mode (no deck): no card used more often than its copies (S4)."""
    used = table.used
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


def no_rabbit(table: Table, player: str, square: str, then: str) -> str | None:
    """Why ``player`` has no rabbit to claim ``square`` under R6 ``pieces`` (S5), or None;
    ``then`` says what follows.

    Each claimed square holds one of the player's 36 rabbits, one marks the score, and a
    second marks the +100 space once a harvest has taken the player past 100 carrots.
    A square the player controls already (their own camp) needs no new rabbit.
    """
    if table.rulings.rabbit_limit != "pieces" or table.position.owner.get(square) == player:
        return None
    claimed = table.position.owned.get(player, 0).bit_count()
    track = 2 if table.harvest_total(player) > 100 else 1
    if claimed + track < RABBITS:
        return None
    on_track = "the score track and its +100 space" if track == 2 else "the score track"
    return (
        f"{player} has no rabbit left to claim {square}: {claimed} squares and {on_track} hold all "
        f"{RABBITS} (R6 pieces); {then}"
    )
