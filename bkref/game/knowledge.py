"""What one player knows (RULES.md I1-I6): the view of a position, and the log as they saw it.

This is the one implementation of I1-I6; every consumer that shows a game to one player
(``replay --as``, a policy, a bot) goes through it.

``view(state, player)`` is the position as ``player`` sees it: a small read-only object
that holds the live state and copies nothing; each property reads the state when asked
and returns an immutable value (a tuple, a frozen record, a read-only mapping), so a view
costs next to nothing until it is read. It follows the live state: read later, it gives
the later position, as the same player sees it then, so one view per seat can serve a
whole game; the values it gives do not change. ``View.struct()`` gives the whole
view at once as one msgspec object (``bkref.game.seen.SeenView``, JSON Schema
``schemas/bkref-view-1.schema.json``): what a bot program is sent.

``Seer(player)`` follows a game event by event and gives the *seen events* of
docs/bot-protocol.md: each event with every card ``player`` may not know as ``None``, the
``None`` last in their list. The picks of a turn are held back until the turn's last
pick and then given together in seat order (I3). ``seen_events(events, player)`` is the
whole log so. Neither plays the engine: a seen log costs less than validating the log.

>>> from bkref.game.engine import State
>>> from bkref.game.events import Deal, Game, Pick
>>> hands = {p: [f"{row}{c}" for c in range(1, 11)] + ["city1", "royal_ring"]
...          for p, row in zip(["ann", "bob", "cid"], "ABC")}
>>> log = [Game(format="bkref/1", players=["ann", "bob", "cid"]), Deal(round=1, hands=hands),
...        Pick(round=1, turn=1, player="bob", keep=["B1", "royal_ring"]),
...        Pick(round=1, turn=1, player="ann", keep=["A1", "A2"]),
...        Pick(round=1, turn=1, player="cid", keep=["C1", "city1"])]
>>> state = State()
>>> for event in log[:3]:
...     found = state.play(event)
>>> ann = view(state, "ann")
>>> ann.hand[:3], ann.hand_size("bob"), ann.picks, ann.deck
(('A1', 'A2', 'A3'), 12, mappingproxy({}), 146)
>>> for event in log[3:]:
...     found = state.play(event)
>>> ann.turn, ann.hand[:2], ann.squares("bob"), ann.parchment_count("bob"), ann.supply("cid")
(2, ('C2', 'C3'), ('B1',), 1, mappingproxy({'city1': 1}))
>>> seen = seen_events(log, "ann")
>>> seen[1].hands["bob"][:2], [(e.player, e.keep) for e in seen[2:]]
([None, None], [('ann', ['A1', 'A2']), ('bob', ['B1', None]), ('cid', ['C1', 'city1'])])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

from bkref.game.catalog import BOARD, BOARD_ORDER, CARDS, CITY_STRENGTH, DECK_SIZE
from bkref.game.engine import State
from bkref.game.events import Build, Deal, Draw, End, Event, Game, Harvest, Pick, Rulings
from bkref.game.fiefs import mask, names
from bkref.game.position import Position
from bkref.game.seen import BoardView, SeatView, SeenDeal, SeenDraw, SeenEvent, SeenGame, SeenPick, SeenView

_PARCHMENTS: Final = frozenset(card.id for card in CARDS.values() if card.is_parchment)
_PRINTED_CITY_BITS: Final = mask(name for name, square in BOARD.items() if square.printed_city)
_STRENGTH: Final = CITY_STRENGTH  # a constant of this module: the compiled build reads it directly


def _unseen(cards: list[str]) -> list[str | None]:
    """``cards`` as another player sees them: each parchment ``None`` (I4), put last."""
    shown: list[str | None] = [card for card in cards if card not in _PARCHMENTS]
    if len(shown) < len(cards):
        shown += [None] * (len(cards) - len(shown))
    return shown


def seen_pick(pick: Pick, player: str) -> SeenPick:
    """``pick`` as ``player`` sees it once revealed: their own as made; another's kept parchment
    ``None`` (I4) and 2-player discard ``[None]`` (D3)."""
    keep: list[str | None]
    discard: list[str | None] | None
    if pick.player == player:
        keep, discard = list(pick.keep), None if pick.discard is None else list(pick.discard)
    else:
        keep, discard = _unseen(pick.keep), None if pick.discard is None else [None] * len(pick.discard)
    return SeenPick(pick.round, pick.turn, pick.player, keep, discard)


def seen_draw(draw: Draw, player: str) -> SeenDraw:
    """``draw`` as ``player`` sees it: both cards, another player's parchment ``None`` (I1, I4)."""
    cards: list[str | None] = list(draw.cards) if draw.player == player else _unseen(draw.cards)
    return SeenDraw(draw.round, draw.turn, draw.player, cards)


# -- the view ------------------------------------------------------------------------


class View:
    """The position of ``state`` as ``player`` sees it: read-only, typed, computed only when read (see
    the module); ``ValueError`` if ``player`` has no seat. ``view(state, player)`` is the same.

    The fields of docs/bot-protocol.md's view: ``round``, ``turn``, ``phase``; the player's own
    ``hand``, ``parchments`` and ``reserve`` size; for every player ``squares``,
    ``supply``, ``parchment_count``, ``hand_size``, ``reserve_size`` and ``carrots``; the
    board (``owner``, ``buildings``, ``cities``, ``towers``, ``declared``, or all of it as
    a ``position()`` to look ahead on); ``deck``, the cards left in it; and what else the
    player knows: this turn's ``picks``, the parchments ``revealed`` after the 4th harvest,
    the end's ``copies``.
    """

    __slots__ = ("_state", "player")

    def __init__(self, state: State, player: str) -> None:
        if player not in state.left:
            raise ValueError(f"{player!r} is not a player of this game ({', '.join(state.players) or 'no game yet'})")
        self._state = state
        self.player = player

    def __repr__(self) -> str:
        return f"<View of {self.player} {self._state.where()}>"

    @property
    def players(self) -> tuple[str, ...]:
        """Every player, in seat order (S1)."""
        return self._state.players

    @property
    def rulings(self) -> Rulings:
        return self._state.rulings

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def phase(self) -> str:
        """``setup``, ``dealing``, ``exploring``, ``building``, ``ending`` or ``over`` (``State``'s phases)."""
        return self._state.phase

    @property
    def hand(self) -> tuple[str, ...]:
        """The player's own hand (I2): the hand they pick from, with 2 players the turn's reserve card
        in it (D3); once they have picked, what they pass on; empty outside exploration."""
        state = self._state
        if state.phase != "exploring":
            return ()
        if self.player in state.picks:
            return tuple(state.hands[self.player])
        return tuple(state.hand_now(self.player))

    @property
    def parchments(self) -> tuple[str, ...]:
        """The player's own parchments (I4), in the order they came."""
        return tuple(self._state.parchments.get(self.player, ()))

    @property
    def reserve(self) -> int:
        """How many cards the player's 2-player reserve holds (I5: its cards are unknown to them too)."""
        return self.reserve_size(self.player)

    @property
    def deck(self) -> int:
        """How many cards are left in the deck (I1)."""
        return max(0, DECK_SIZE - self._state.deck_pos)

    def squares(self, player: str) -> tuple[str, ...]:
        """The squares ``player`` controls (P1, C6), in board order."""
        return tuple(self._state.squares_of(player))

    def supply(self, player: str) -> Mapping[str, int]:
        """``player``'s buildings not yet placed (P2): card to count, sorted."""
        return MappingProxyType(self._state.supply_of(player))

    def parchment_count(self, player: str) -> int:
        """How many parchments ``player`` has (P4)."""
        return len(self._state.parchments.get(player, ()))

    def hand_size(self, player: str) -> int:
        """How many cards ``player``'s hand holds: another player's as at the start of the turn until
        its picks are revealed (I3: a pick is secret, and so is whether it is made)."""
        if player == self.player:
            return len(self.hand)
        state = self._state
        if state.phase != "exploring":
            return 0
        picks = state.picks
        if player not in picks:
            return len(state.hands[player]) + (1 if state.seats == 2 else 0)
        pick = picks[player]
        held = len(state.hands[player])
        if len(picks) == state.seats or pick is None:  # revealed and passed on, or a refused pick
            return held
        return held + len(pick.keep) + len(pick.discard or ())

    def reserve_size(self, player: str) -> int:
        """How many cards ``player``'s 2-player reserve holds; a turn's card joins the hand as the turn starts (D3)."""
        state = self._state
        reserve = state.reserves.get(player)
        if state.phase != "exploring" or reserve is None:
            return 0
        return max(0, len(reserve) - state.turn)

    def carrots(self, player: str) -> int:
        """``player``'s golden carrots so far: the harvests, then the final total once the end is scored."""
        return self._state.carrots_of(player)

    @property
    def owner(self) -> Mapping[str, str]:
        """Who controls each controlled square, in board order."""
        return MappingProxyType(_owner(self._state.position))

    @property
    def buildings(self) -> Mapping[str, str]:
        """The building card on each square that holds one, in board order (camps and sky towers included)."""
        return MappingProxyType(_buildings(self._state.position.building))

    @property
    def cities(self) -> Mapping[str, int]:
        """The strength of every city on the board, printed (1) or built, in board order."""
        return MappingProxyType(_cities(self._state.position.building))

    @property
    def towers(self) -> tuple[tuple[str, str], ...]:
        """The two squares of each sky tower, in the order they were built (C5)."""
        return tuple(self._state.position.towers)

    @property
    def declared(self) -> Mapping[str, str]:
        """Each trading post's latest declaration (H1)."""
        return MappingProxyType(dict(self._state.position.declared))

    def position(self) -> Position:
        """A copy of the board (all of it is public, I6), to look ahead on: ``bkref.game.fiefs`` reads it."""
        return self._state.position.copy()

    @property
    def picks(self) -> Mapping[str, SeenPick]:
        """This turn's picks as the player knows them (I3): their own once made; every one, in seat
        order, once the turn's last pick is made, until the next turn starts. Each a new record."""
        state = self._state
        picks = state.picks
        if state.phase != "exploring" or not picks:
            return MappingProxyType({})
        if len(picks) < state.seats:
            own = picks.get(self.player)
            return MappingProxyType({} if own is None else {self.player: seen_pick(own, self.player)})
        player = self.player
        return MappingProxyType(
            {p: seen_pick(pick, player) for p in state.players if (pick := picks.get(p)) is not None}
        )

    @property
    def revealed(self) -> Mapping[str, tuple[str, ...]] | None:
        """Every player's parchments once revealed after the 4th harvest (E1); None before."""
        state = self._state
        if state.phase not in ("ending", "over"):
            return None
        return MappingProxyType({p: tuple(state.parchments[p]) for p in state.players})

    @property
    def copies(self) -> Mapping[str, Mapping[str, str | None]] | None:
        """The copy choices of the end (E7) once it is played; None before."""
        state = self._state
        if state.phase != "over":
            return None
        return MappingProxyType({p: MappingProxyType(dict(chosen)) for p, chosen in state.copies.items()})

    def struct(self) -> SeenView:
        """The whole view as one msgspec object (its JSON is what a bot is sent); a new one at each call."""
        return structs(self._state, (self.player,))[0]


def _owner(position: Position) -> dict[str, str]:
    owner, controlled = position.owner, 0
    for bits in position.owned.values():
        controlled |= bits
    return {sq: owner[sq] for sq in names(controlled)}


def _buildings(building: dict[str, str]) -> dict[str, str]:
    return {sq: building[sq] for sq in sorted(building, key=BOARD_ORDER.__getitem__)}


def _cities(building: dict[str, str]) -> dict[str, int]:
    built = {sq: _STRENGTH[card] for sq, card in building.items() if card in _STRENGTH}
    return {sq: built.get(sq, 1) for sq in names(_PRINTED_CITY_BITS | mask(built))}


class Kept:
    """What ``structs`` keeps of the board from one call to the next, for one seat or game: who
    controls each square, and the buildings and cities, each with the board facts it was read
    from (the players' squares as bits; the buildings as placed), read again only when those
    differ. Between two decisions of a seat the board mostly changes in one of them: a pick
    claims squares and builds nothing, a build places a building and mostly claims nothing."""

    __slots__ = ("_buildings", "_built", "_cities", "_owned", "_owner")

    def __init__(self) -> None:
        self._owned: tuple[tuple[str, int], ...] | None = None
        self._built: tuple[tuple[str, str], ...] | None = None
        self._owner: dict[str, str] = {}
        self._buildings: dict[str, str] = {}
        self._cities: dict[str, int] = {}

    def owner(self, position: Position) -> dict[str, str]:
        """``_owner(position)``, read again only when someone's squares changed."""
        owned = tuple(position.owned.items())
        if owned != self._owned:
            self._owned, self._owner = owned, _owner(position)
        return self._owner

    def buildings(self, position: Position) -> tuple[dict[str, str], dict[str, int]]:
        """The buildings and the cities, read again only when a building was placed or left."""
        built = tuple(position.building.items())
        if built != self._built:
            self._built = built
            self._buildings, self._cities = _buildings(position.building), _cities(position.building)
        return self._buildings, self._cities


def structs(state: State, players: Sequence[str], kept: Kept | None = None) -> list[SeenView]:
    """The views of ``players`` on ``state`` at once, each ``view(state, p).struct()``: what every
    player sees alike (the board, each seat's squares, supply, parchments, reserve and carrots,
    the deck, the reveal and the copies) is read once, and those objects are shared by the views;
    with ``kept``, the board's parts that have not changed since its last call are its objects."""
    views = [View(state, player) for player in players]
    if not views:
        return []
    public, position = views[0], state.position
    if kept is None:
        kept = Kept()
    buildings, cities = kept.buildings(position)
    order = list(state.players)
    owned = {p: list(names(position.owned.get(p, 0))) for p in order}
    supply = {p: state.supply_of(p) for p in order}
    counts = {p: len(state.parchments.get(p, ())) for p in order}
    reserves = {p: public.reserve_size(p) for p in order}
    carrots = {p: state.carrots_of(p) for p in order}
    board = BoardView(
        owner=kept.owner(position),
        buildings=buildings,
        cities=cities,
        towers=list(position.towers),
        declared=dict(position.declared),
    )
    revealed, copies = public.revealed, public.copies
    shown = None if revealed is None else {p: list(cards) for p, cards in revealed.items()}
    chosen = None if copies is None else {p: dict(copied) for p, copied in copies.items()}
    deck = public.deck
    return [
        SeenView(
            player=seen.player,
            players=order,
            rulings=state.rulings,
            round=state.round,
            turn=state.turn,
            phase=state.phase,
            hand=list(seen.hand),
            parchments=list(seen.parchments),
            reserve=reserves[seen.player],
            deck=deck,
            seats={
                p: SeatView(owned[p], supply[p], counts[p], seen.hand_size(p), reserves[p], carrots[p]) for p in order
            },
            board=board,
            picks=dict(seen.picks),
            revealed=shown,
            copies=chosen,
        )
        for seen in views
    ]


view: Final = View
"""``view(state, player)``: the position of ``state`` as ``player`` sees it (a ``View``)."""


# -- the seen events -----------------------------------------------------------------


class Seer:
    """A game followed event by event as ``player`` sees it (docs/bot-protocol.md, seen events).

    ``see(event)`` gives the seen events that ``event`` lets through, in the order of the
    game: one for most events; none for a pick that is not the turn's last; the turn's
    picks in seat order at its last pick. A log that skips a pick reveals the turn where
    the engine closes it (T1): at a pick of a later turn of the round, or the next deal;
    until then, in a log out of order, the other events pass and the picks stay held.
    ``held`` is how many picks wait. Builds, harvests and the end are the log's own
    event objects.
    """

    __slots__ = ("_held", "_picked", "_seats", "_turn", "_turns", "player")

    def __init__(self, player: str) -> None:
        self.player = player
        self._seats: dict[str, int] = {}
        self._turns = 0  # turns per round
        self._held: list[Pick] = []
        self._picked: set[str] = set()  # the seats with a pick of the held turn
        self._turn: tuple[int, int] = (0, 0)  # the held turn: round, turn

    @property
    def held(self) -> int:
        """How many picks of the turn are held back, secret until its last pick (I3)."""
        return len(self._held)

    def see(self, event: Event) -> list[SeenEvent]:
        """The seen events ``event`` lets through (see the class)."""
        if type(event) is Pick:
            return self._pick(event)
        if type(event) is Build or type(event) is Harvest or type(event) is End:
            return [event]
        if type(event) is Draw:
            return [seen_draw(event, self.player)]
        if type(event) is Deal:
            out: list[SeenEvent] = self._release() if self._held and event.round == self._turn[0] + 1 else []
            out.append(self._deal(event))
            return out
        if type(event) is Game:
            seats = State()
            seats.seat(tuple(event.players))
            self._seats = {p: i for i, p in enumerate(event.players)}
            self._turns = seats.turns_per_round
            deck = None if event.deck is None else [None] * len(event.deck)
            return [SeenGame(event.format, list(event.players), deck, event.rulings)]
        return []

    def _pick(self, pick: Pick) -> list[SeenEvent]:
        out: list[SeenEvent] = []
        when = (pick.round, pick.turn)
        if self._held and when[0] == self._turn[0] and self._turn[1] < when[1] <= self._turns:
            out = self._release()  # the engine closes the held turn (T1)
        if not self._held:
            self._turn = when
        self._held.append(pick)
        if when == self._turn and pick.player in self._seats:
            picked = self._picked
            picked.add(pick.player)
            if len(picked) == len(self._seats):
                out += self._release()
        return out

    def _release(self) -> list[SeenEvent]:
        """The held picks, revealed: in seat order (a name that is no seat last), each as the player sees it."""
        held, self._held = self._held, []
        self._picked = set()
        seats, last = self._seats, len(self._seats)
        held.sort(key=lambda pick: seats.get(pick.player, last))
        return [seen_pick(pick, self.player) for pick in held]

    def _deal(self, deal: Deal) -> SeenDeal:
        me = self.player
        hands: dict[str, list[str | None]] = {
            p: list(cards) if p == me else [None] * len(cards) for p, cards in deal.hands.items()
        }
        reserves = None if deal.reserves is None else {p: [None] * len(c) for p, c in deal.reserves.items()}
        return SeenDeal(deal.round, hands, reserves)


def seen_events(events: Iterable[Event], player: str) -> list[SeenEvent]:
    """The log as ``player`` saw it (see ``Seer``). The picks of a turn the log leaves unfinished
    are not in it: they are still secret."""
    seer = Seer(player)
    see = seer.see
    return [seen for event in events for seen in see(event)]
