"""Legal moves: every event the rules allow at a decision point of a game.

Functions of a ``State``; no I/O, and no state of the module's own: what a listing keeps
for the next is the caller's (a ``Lister``, one a game). What they list is what the engine
accepts (``State.is_legal`` is the engine itself, and the tests check that the two agree
both ways; each copy card's targets are what the end's own check allows,
``ending.copy_targets``). Each list comes in a fixed order, so a seeded program that
chooses among them plays the same game on every run. A move is a value: a later listing
by the same lister may hold the same object (``builds`` keeps each player's last builds
of each card), so change none in place. What each gives:

- ``LegalMoves(state, player, lister)`` (or ``state.legal_moves(player, lister)``): the one
  answer to "what may they do now", as python-chess's ``board.legal_moves``: the moves of
  the decision due (``bkref.game.flow.due``), with ``len``, the n-th and ``in``; picks and
  builds counted and chosen without the list (``counts``, ``build``), the builds of one
  card (``builds``), what closes the construction (``closing``). ``legal_moves(state,
  player)``: the same as a list.

- ``picks(state, player)``: every distinct pick of the turn (D2, D3): two cards kept
  (3-4 players), or one kept and one other discarded (2 players, the reserve card in
  the hand, D3); kept cards in sorted order.
- ``builds(state, player, card)``: every legal build of the construction (C1-C7):
  player in seat order, then card id, then squares in board order (camps: only those
  not below the camps already placed, C7; sky towers: two free squares of the player
  in different fiefs, C5; farms on their terrain, C4).
  ``builds_at_construction(state, player, card)``: the same for one card not yet kept,
  as if the construction began now, each with the state after it (what a player weighs
  when choosing cards).
  ``placements(position, player, card)``: where a building could go on a board,
  construction or not (what a player's view can weigh).
- ``declarations(state, player)``: every way ``player`` can declare their trading
  posts (H1), each as a ``Harvest`` holding that player's declarations only;
  ``harvests(state)``: every complete ``Harvest`` (all players' declarations).
- ``ends(state)``: every legal set of copy choices (E7, R3).
- ``deal(state)`` and ``draw(state)``: the one deal or draw the deck allows (no choice;
  only when the game event gave the deck).

>>> from bkref.game.engine import State
>>> from bkref.game.events import Game, Deal
>>> state = State()
>>> state.play(Game(format="bkref/1", players=["ann", "bob", "cid"]))
[]
>>> hands = {"ann": ["A1", "A2", *["city1"] * 8, "city2", "city2"]}
>>> rows = {"bob": ("B", "C"), "cid": ("D", "E")}
>>> hands |= {p: [f"{r}{i}" for i in range(1, 11)] + [f"{s}1", f"{s}2"] for p, (r, s) in rows.items()}
>>> state.play(Deal(round=1, hands=hands))
[]
>>> [" ".join(pick.keep) for pick in picks(state, "ann")]  # the same cards kept only once
['A1 A2', 'A1 city1', 'A1 city2', 'A2 city1', 'A2 city2', 'city1 city1', 'city1 city2', 'city2 city2']
>>> moves = state.legal_moves("ann")  # the decision due, ann's part of it
>>> moves.due, len(moves), moves[5].keep  # without the list
(Due(kind='pick', players=('ann', 'bob', 'cid')), 8, ['city1', 'city1'])
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, TypeVar

from bkref.game.building import build as place
from bkref.game.catalog import BASIC_RESOURCES, BOARD, BOARD_ORDER, CARDS, COPY_CARDS, SKY_TOWERS, SQUARES
from bkref.game.ending import copy_targets
from bkref.game.events import Build, Deal, Draw, End, Harvest, Pick
from bkref.game.exploring import play_card
from bkref.game.fiefs import mask, names, square_groups
from bkref.game.flow import due, start_construction
from bkref.game.position import SQUARE_BIT, Position
from bkref.game.scoring import CYCLE, resolve_copy
from bkref.game.table import HAND_SIZE, KEEP, Skip, Table

Move = Pick | Build | Harvest | End | Deal | Draw
T = TypeVar("T", bound=Table)

_ALL: Final = mask(SQUARES)
_PRINTED_CITIES: Final = mask(sq for sq in SQUARES if BOARD[sq].printed_city)
_ON_TERRAIN: Final = {
    t: mask(sq for sq in SQUARES if BOARD[sq].terrain == t) for t in {s.terrain for s in BOARD.values()}
}
"""The squares of each terrain (C4)."""
_ON: Final = {
    card.id: _ALL if card.requires_terrain is None else _ON_TERRAIN[card.requires_terrain]
    for card in CARDS.values()
    if card.is_building and card.kind not in ("camp", "sky_tower")
}
"""The squares each building on one square but a camp may stand on by terrain (C4)."""
_CAMP_PRIORITY: Final = {card.id: card.priority for card in CARDS.values() if card.kind == "camp"}
_PICK: Final = Pick
_BUILD: Final = Build
_TOWERS: Final = SKY_TOWERS
"""``Pick`` and ``Build``, called with their fields in order, once for each move listed, and
the sky towers: as constants, which the compiled build reads directly (an imported name, it
looks up each time)."""


def picks(state: Table, player: str) -> list[Pick]:
    """Every distinct pick ``player`` may make now (D2, D3); empty when no pick of theirs is due."""
    return _picks(state, player, _pick_pairs(state, player))


def _picks(state: Table, player: str, pairs: Iterable[tuple[str, str]]) -> list[Pick]:
    """The picks of ``player`` now of ``pairs`` (``_pick_pairs``)."""
    r: Any = state.round  # boxed once: the compiled build then hands the same objects to each pick
    t: Any = state.turn
    if KEEP[state.seats] == 1:  # 2 players: one kept, one other discarded
        return [_PICK(r, t, player, [keep], [other]) for keep, other in pairs]
    return [_PICK(r, t, player, [first, second]) for first, second in pairs]


def _pick(state: Table, player: str, pair: tuple[str, str]) -> Pick:
    """The pick of ``player`` now of ``pair`` (``_pick_pairs``)."""
    first, second = pair
    if KEEP[state.seats] == 1:
        return Pick(state.round, state.turn, player, [first], [second])
    return Pick(state.round, state.turn, player, [first, second])


def _pick_pairs(state: Table, player: str) -> Iterable[tuple[str, str]]:
    """The picks of ``player`` now, in order, as pairs (to go through once): each card kept
    first (the distinct cards of the hand, sorted), with each card that can go with it, sorted:
    the other card kept (3-4 players: a later one, or itself if the hand holds it twice), or
    the card discarded (2 players: any other, or itself if the hand holds it twice)."""
    if state.phase != "exploring" or state.pending or player not in state.left or player in state.picks:
        return []
    hand = state.hand_now(player)
    cards = sorted(set(hand))
    one = KEEP[state.seats] == 1
    if len(cards) == len(hand):  # no card twice
        return itertools.permutations(cards, 2) if one else itertools.combinations(cards, 2)
    twice = {c for c in cards if hand.count(c) > 1}
    pairs = itertools.product(cards, repeat=2) if one else itertools.combinations_with_replacement(cards, 2)
    return [(first, second) for first, second in pairs if first != second or first in twice]


def placements(position: Position, player: str, card: str, lister: Lister | None = None) -> list[list[str]]:
    """Every set of squares where ``player`` could place building ``card`` in ``position``
    (C2-C6), in board order: camps on any empty square nobody controls (C6; their order,
    C7, is the construction's), sky towers on two free squares of the player in different
    fiefs (C5), the others on a free square of the player, farms on their terrain (C4).
    ``lister`` keeps what it names for the next (``Lister``)."""
    return _Board(position, Lister() if lister is None else lister).placements(player, card)


_NAMED_MOST: Final = 1024
"""The most bitmasks a ``Lister`` keeps named, and fiefs by their squares, before it forgets them all."""
_LISTED_MOST: Final = 16
"""The most players a ``Lister`` keeps the builds of, before it forgets them all."""

_Key = int | tuple[int, tuple[int, ...]]
"""What a player's kept builds of a card follow from (``_listed``): a bitmask of squares, or
(sky towers) the player's free squares and their fiefs."""
_Kept = dict[str, tuple[int, _Key, tuple[Build, ...], tuple[tuple[int, int], ...]]]
"""A player's builds listed last of each card (``_listed``): with their round, what they
follow from, and (sky towers) each first square with its seconds, as bitmasks."""


class Lister:
    """What the listings keep between calls, owned by whoever lists: a game, a search, a
    measurement (the rules hold no state of their own). A fresh one remembers nothing and
    lists as fast as one decision allows; one kept through a game lists each decision from
    the one before, as a player's squares change by one at a time. Each store is bounded.

    - ``named``: the squares of a bitmask, named (``fiefs.names``), as placements asked them
      lately (most placements of a construction are those of the decision before);
    - ``fiefs``: a player's fiefs by their squares (``_Board.fiefs``), by the player's squares
      and the sky towers that join them (C5): the same through a construction, unless a camp
      or a tower joins some;
    - ``listed``: the builds of each player and card listed last (``_listed``), with their round
      and the squares they follow from (a build takes a square of its builder only, so most
      lists of a construction are those of the decision before, or those less a square);
    - ``held``: the squares with a building of the position asked last, by its squares in the
      order they were built.

    A move is a value: a later listing by the same lister may hold the same object, so
    change none in place (a lister whose moves were changed is dropped, never reused).
    """

    def __init__(self) -> None:
        self.named: dict[int, tuple[str, ...]] = {}
        self.fiefs: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[int, ...]] = {}
        self.listed: dict[str, _Kept] = {}
        self.held: tuple[tuple[str, ...], int] = ((), _PRINTED_CITIES)

    def squares_held(self, building: dict[str, str]) -> int:
        """The squares that hold a building, printed cities included (C3): from those of the
        position asked last (``held``) when its buildings come first in ``building`` (a building
        stays where it is built, and a dict keeps the order its squares came in)."""
        squares = tuple(building)
        last, held = self.held
        if squares[: len(last)] != last:  # another game's, or a camp left (P1)
            last, held = (), _PRINTED_CITIES
        for sq in squares[len(last) :]:
            held |= SQUARE_BIT[sq]
        self.held = (squares, held)
        return held

    def names(self, bits: int) -> tuple[str, ...]:
        """``fiefs.names(bits)``, kept in ``named``."""
        named = self.named.get(bits)
        if named is None:
            if len(self.named) >= _NAMED_MOST:
                self.named.clear()
            named = self.named[bits] = names(bits)
        return named

    def kept(self, player: str) -> _Kept:
        """The builds of ``player`` listed last, by card (``listed``)."""
        kept = self.listed.get(player)
        if kept is None:
            if len(self.listed) >= _LISTED_MOST:
                self.listed.clear()
            kept = self.listed[player] = {}
        return kept


class _Board:
    """What the placements of one position share, read once as bitmasks (``bkref.game.fiefs``):
    the free squares (no building, printed city included: C3), each player's, and the empty
    squares nobody controls (C6), each found once when asked for, and named once."""

    def __init__(self, position: Position, lister: Lister) -> None:
        self.position = position
        self.lister = lister
        self.free = _ALL & ~lister.squares_held(position.building)
        self.mine: dict[str, int] = {}
        self.empty: int | None = None

    def one(self, player: str, card: str) -> int:
        """The squares where ``player`` could place ``card``, a building on one square: camps on
        the empty squares nobody controls (C6), the others on the player's free squares (C2-C3),
        farms on their terrain (C4)."""
        on = _ON.get(card)
        if on is not None:
            return self.mine_of(player) & on
        if self.empty is None:  # a camp (C6)
            taken = 0
            for bits in self.position.owned.values():
                taken |= bits
            self.empty = self.free & ~taken
        return self.empty

    def pairs(self, player: str) -> list[tuple[str, int, tuple[str, ...]]]:
        """Where ``player`` could place a sky tower (C5): each free square of theirs, in board
        order, with every later one of another fief, as a bitmask and named."""
        mine = self.mine_of(player)
        shared = {}  # the free squares of each fief that has two or more
        for group in self.fiefs(player):
            free = group & mine
            if free & (free - 1):
                for sq in names(free):
                    shared[sq] = free
        spots = []
        later = mine
        squares = self.lister.names(mine)
        for i, a in enumerate(squares):
            later ^= SQUARE_BIT[a]
            fief = shared.get(a)
            if fief is None:  # alone in its fief: every later square
                spots.append((a, later, squares[i + 1 :]))
            else:
                seconds = later & ~fief
                spots.append((a, seconds, names(seconds)))
        return spots

    def placements(self, player: str, card: str) -> list[list[str]]:
        if card in _TOWERS:  # each first square, with its seconds among the later ones
            return [[a, b] for a, _, seconds in self.pairs(player) for b in seconds]
        return [[b] for b in self.lister.names(self.one(player, card))]

    def mine_of(self, player: str) -> int:
        """The free squares of ``player``."""
        mine = self.mine.get(player)
        if mine is None:
            mine = self.mine[player] = self.position.owned.get(player, 0) & self.free
        return mine

    def fiefs(self, player: str) -> tuple[int, ...]:
        """The squares of each of ``player``'s fiefs (``fiefs.square_groups``), kept in the lister's ``fiefs``."""
        position = self.position
        key = (position.owned.get(player, 0), tuple([(a, b) for a, b in position.towers]))
        kept = self.lister.fiefs
        found = kept.get(key)
        if found is None:
            if len(kept) >= _NAMED_MOST:
                kept.clear()
            found = kept[key] = tuple([group for group, _, _ in square_groups(position, player)])
        return found

    def count(self, player: str, card: str) -> int:
        if card in _TOWERS:  # the pairs of free squares, less those in one fief
            mine = self.mine_of(player)
            each = [(group & mine).bit_count() for group in self.fiefs(player)]
            return (sum(each) ** 2 - sum([n * n for n in each])) // 2
        return self.one(player, card).bit_count()

    def nth(self, player: str, card: str, index: int) -> list[str]:
        """``placements(player, card)[index]``, without the others (a negative index from the end)."""
        at = index + self.count(player, card) if index < 0 else index
        if at >= 0 and card in _TOWERS:
            for a, _, seconds in self.pairs(player):
                if at < len(seconds):
                    return [a, seconds[at]]
                at -= len(seconds)
        elif at >= 0:
            bits = self.one(player, card)
            if at < bits.bit_count():
                for _ in range(at):
                    bits &= bits - 1  # the first square left out
                return [SQUARES[(bits & -bits).bit_length() - 1]]
        raise IndexError(f"{player} has no placement {index} of {card}")


def _placeable(supply: dict[str, int], floor: int, card: str | None) -> list[str]:
    """The cards of a player's ``supply`` that ``builds`` lists the builds of, sorted: those
    held, a camp only if not below the last placed (``floor``, C7); only ``card`` if given."""
    if card is None:
        cards = sorted([c for c, n in supply.items() if n > 0])
    else:
        cards = [card] if supply.get(card, 0) > 0 else []
    if floor:
        return [c for c in cards if _CAMP_PRIORITY.get(c, floor) >= floor]
    return cards


def builds(
    state: Table, player: str | None = None, card: str | None = None, lister: Lister | None = None
) -> list[Build]:
    """Every build the engine accepts now, of ``player`` (default: every player) and ``card``
    (default: any); ``lister`` keeps them for the next listing (``Lister``)."""
    if state.phase != "building":
        return []
    found: list[Build] = []
    if lister is None:
        lister = Lister()
    board = _Board(state.position, lister)
    r, floor = state.round, state.camp_floor
    for p in state.players if player is None else [q for q in state.players if q == player]:
        cards = _placeable(state.supply[p], floor, card)
        if cards:
            kept, mine = lister.kept(p), board.mine_of(p)
            for c in cards:
                found += _listed(board, kept, mine, r, p, c)
    return found


def _listed(board: _Board, kept: _Kept, mine: int, r: int, p: str, c: str) -> tuple[Build, ...]:
    """The builds of ``p`` and ``c`` in round ``r`` on ``board`` (``mine``: the free squares of
    ``p``), in ``builds``' order: those listed last of the same player and card in the same round
    (``kept``) when the squares they follow from are the same, less the builds on squares taken
    since (a build takes a square of its builder's; a sky tower's pairs change with the fiefs
    they join, C5)."""
    held = kept.get(c)
    if held is not None and held[0] != r:
        held = None  # another round's builds
    spots: tuple[tuple[int, int], ...] = ()
    if c in _TOWERS:
        fiefs = board.fiefs(p)
        key: _Key = (mine, fiefs)
        if held is not None and held[1] == key:  # the same squares: the same builds
            return held[2]
        if held is not None and isinstance(was := held[1], tuple) and was[1] == fiefs and not mine & ~was[0]:
            listed, spots = _towers_without(held[2], held[3], was[0] ^ mine)
        else:
            pairs = board.pairs(p)
            listed = tuple([_BUILD(r, p, c, [a, b]) for a, _, seconds in pairs for b in seconds])
            spots = tuple([(SQUARE_BIT[a], seconds) for a, seconds, _ in pairs])
    else:
        on = _ON.get(c)
        if on is None:  # a camp: on the empty squares nobody controls (C6)
            key, on = board.one(p, c), _ALL
        else:  # on a free square of the player's (C2-C3), of its terrain (C4)
            key = mine
        if held is not None and held[1] == key:  # the same squares: the same builds
            return held[2]
        if held is not None and isinstance(was := held[1], int) and not key & ~was:
            listed = _without(held[2], was & on, (was ^ key) & on)
        else:
            listed = tuple([_BUILD(r, p, c, [b]) for b in board.lister.names(key & on)])
    kept[c] = (r, key, listed, spots)
    return listed


def _without(listed: tuple[Build, ...], squares: int, gone: int) -> tuple[Build, ...]:
    """``listed``, one build on each of ``squares`` in board order, less those on ``gone``."""
    while gone:  # the last first, so that the earlier keep their places
        last = 1 << (gone.bit_length() - 1)
        gone ^= last
        i = (squares & (last - 1)).bit_count()
        listed = listed[:i] + listed[i + 1 :]
    return listed


def _towers_without(
    listed: tuple[Build, ...], spots: tuple[tuple[int, int], ...], gone: int
) -> tuple[tuple[Build, ...], tuple[tuple[int, int], ...]]:
    """The sky towers ``listed`` (each first square of ``spots`` with its seconds, in order), and
    their spots, less those on a square of ``gone``: the fiefs the same."""
    kept: list[Build] = []
    left = []
    start = 0
    for a, seconds in spots:
        end = start + seconds.bit_count()
        if not a & gone:
            kept += _without(listed[start:end], seconds, seconds & gone)
            left.append((a, seconds & ~gone))
        start = end
    return tuple(kept), tuple(left)


def builds_at_construction(state: T, player: str, card: str) -> list[tuple[Build, T]]:
    """Every build of ``card`` that ``player`` could make if the construction began now with
    ``card`` in their supply, each with the state after it: what a player weighs when
    choosing a card to keep. ``state`` is left as it is."""
    now = state.copy()
    play_card(now, player, card)  # P2: into the supply
    start_construction(now)
    found = []
    for build in builds(now, player, card):
        after = now.copy()
        with contextlib.suppress(Skip):  # a camp with no rabbit left (S5): nothing is placed
            place(after, build)
        found.append((build, after))
    return found


def trading_posts(state: Table) -> dict[str, list[str]]:
    """Each player's trading posts on the board (H1): players in seat order, squares in board order."""
    position = state.position
    posts: dict[str, list[str]] = {}
    for sq in sorted([sq for sq, on in position.building.items() if on == "trading_post"], key=BOARD_ORDER.__getitem__):
        posts.setdefault(position.owner[sq], []).append(sq)
    return {p: posts[p] for p in state.players if p in posts}


def _declare(posts: Sequence[str]) -> list[dict[str, str]]:
    return [dict(zip(posts, choice)) for choice in itertools.product(BASIC_RESOURCES, repeat=len(posts))]


def declarations(state: Table, player: str) -> list[Harvest]:
    """Every way ``player`` can declare their trading posts now (H1); empty when they have none."""
    if state.phase != "building":
        return []
    posts = trading_posts(state).get(player, [])
    if not posts:
        return []
    return [Harvest(round=state.round, trading_posts={player: declared}) for declared in _declare(posts)]


def harvests(state: Table) -> list[Harvest]:
    """Every harvest that may close the construction now: each combination of declarations (H1)."""
    if state.phase != "building":
        return []
    posts = trading_posts(state)
    each = [[(p, declared) for declared in _declare(squares)] for p, squares in posts.items()]
    return [Harvest(round=state.round, trading_posts=dict(choice)) for choice in itertools.product(*each)]


def ends(state: Table) -> list[End]:
    """Every legal set of copy choices (E7, R3): each copy card on each parchment of its
    neighbour it may copy (``ending.copy_targets``), and no chain of copies that leads back
    to itself (R3 ``follow``)."""
    if state.phase != "ending":
        return []
    cards = [(p, card) for p in state.players for card in sorted(COPY_CARDS & set(state.parchments[p]))]
    choices = [copy_targets(state, p, card) for p, card in cards]
    follow = state.rulings.copy_of_copy == "follow"
    found = []
    for combination in itertools.product(*choices):
        copies: dict[str, dict[str, str | None]] = {}
        for (p, card), target in zip(cards, combination):
            copies.setdefault(p, {})[card] = target
        if follow and any(resolve_copy(state, copies, p, card) is CYCLE for p, card in cards):
            continue  # R3 follow: a chain of copies that leads back to itself
        found.append(End(copies=copies))
    return found


def deal(state: Table) -> Deal | None:
    """The next round's deal as the deck gives it (D1): every hand, then (2 players) every reserve."""
    if state.phase != "dealing":
        return None
    n = state.seats
    size = HAND_SIZE[n]
    cards = state.from_deck(size * n * (2 if n == 2 else 1))
    if cards is None:
        return None
    blocks = [cards[i : i + size] for i in range(0, len(cards), size)]
    hands = dict(zip(state.players, blocks))
    reserves = dict(zip(state.players, blocks[n:])) or None
    return Deal(round=state.round + 1, hands=hands, reserves=reserves)


def draw(state: Table) -> Draw | None:
    """The draw of the oldest provisions card waiting, as the deck gives it (P3)."""
    if state.phase != "exploring" or not state.pending or (cards := state.from_deck(2)) is None:
        return None
    owner, _ = state.pending[0]
    return Draw(round=state.round, turn=state.turn, player=owner, cards=cards)


def legal_moves(state: Table, player: str | None = None) -> list[Move]:
    """Every legal event at the decision now due (see ``bkref.game.flow.due``), of ``player``
    if given: ``LegalMoves`` as a list."""
    return list(LegalMoves(state, player))


class LegalMoves:
    """The legal moves of ``player`` (default: every player it is due from) at the decision due
    on ``state`` (``bkref.game.flow.due``, kept as ``due``), as python-chess's
    ``board.legal_moves``: iterate them, ``len``, the n-th (``moves[i]``, from the end when
    negative) and ``move in moves``, in a fixed order, so that a seeded program that chooses
    among them plays the same game on every run. The count and the n-th come without making
    the list for picks and builds (``random.choice(moves)`` draws the pick ``random`` makes), and
    so do the builds of each player and card (``counts``, ``build``).

    Exploring: the picks of the players yet to pick, or the draw due. Construction: the
    builds, then what closes it (``closing``: the harvests; a player's, their trading post
    declarations). The end: the copy choices. Each kind also comes as a list of its own type
    (``picks``, ``builds``, ``closing``, ``ends``). A deal or draw is listed only when the deck
    is known (it is then the only one). The moves are those of ``state`` as it is when they
    are made: after a move is played, ask again. ``lister`` (default: a fresh one) keeps
    what they list for the next decision (``Lister``).

    >>> from bkref.game.engine import State
    >>> from bkref.game.events import Game, Deal
    >>> state = State()
    >>> state.play(Game(format="bkref/1", players=["ann", "bob", "cid"]))
    []
    >>> rows = zip((1, 2, 3), state.players, "ABC")
    >>> hands = {p: [f"{r}{i}" for i in range(1, 11)] + ["city1", f"camp{n}"] for n, p, r in rows}
    >>> state.play(Deal(round=1, hands=hands))
    []
    >>> moves = LegalMoves(state, "bob")
    >>> moves.due, len(moves), moves[-1].keep
    (Due(kind='pick', players=('ann', 'bob', 'cid')), 66, ['camp2', 'city1'])
    >>> moves[0] in moves, Pick(1, 1, "bob", ["A1", "A2"]) in moves
    (True, False)
    """

    __slots__ = (
        "_board",
        "_closing",
        "_count",
        "_counts",
        "_listed",
        "_pairs",
        "due",
        "lister",
        "player",
        "players",
        "state",
    )

    def __init__(self, state: Table, player: str | None = None, lister: Lister | None = None) -> None:
        self.state = state
        self.player = player
        self.lister = Lister() if lister is None else lister
        self.due = now = due(state)
        self.players = now.players if player is None else (player,) if player in now.players else ()
        """The players whose moves these are: those the decision is due from, or ``player`` alone."""
        self._pairs: list[list[tuple[str, str]]] | None = None
        self._board: _Board | None = None
        self._count: int | None = None
        self._counts: list[tuple[str, str, int]] | None = None
        self._closing: list[Harvest] | None = None
        self._listed: list[Move] | None = None

    def __iter__(self) -> Iterator[Move]:
        return iter(self._every())

    def __len__(self) -> int:
        if self._count is None:
            kind = self.due.kind
            if kind == "pick":
                self._count = sum([len(pairs) for pairs in self._pairs_each()])
            elif kind == "build":
                self._count = sum([n for _, _, n in self.counts()]) + len(self.closing())
            else:
                self._count = len(self._every())
        return self._count

    def __getitem__(self, index: int) -> Move:
        """The move at ``index``, from the end when negative: ``IndexError`` beyond either end."""
        n = len(self)
        at = index + n if index < 0 else index
        if not 0 <= at < n:
            raise IndexError(f"no legal move {index} of {n}{self._whose()}")
        kind = self.due.kind
        if kind == "pick":
            for p, pairs in zip(self.players, self._pairs_each()):
                if at < len(pairs):
                    return _pick(self.state, p, pairs[at])
                at -= len(pairs)
        if kind == "build":
            for p, c, count in self.counts():
                if at < count:
                    return self.build(p, c, at)
                at -= count
            return self.closing()[at]
        return self._every()[at]

    def choose(self, choose: Callable[[int], int]) -> Move:
        """``self[choose(len(self))]``: the move at the index ``choose`` gives for their number,
        counted once, ``choose`` not asked when there is none (``IndexError``). ``random.choice(moves)``
        draws the same as ``moves.choose(rng.randrange)``.

        >>> from bkref.game.engine import State
        >>> State().legal_moves().choose(len)
        Traceback (most recent call last):
        ...
        IndexError: no legal move to choose: no decision is due
        """
        if self.due.kind == "pick" and len(self.players) == 1:  # one player's picks: their pairs alone
            pairs = self._pairs_each()[0]
            if pairs:
                return _pick(self.state, self.players[0], pairs[choose(len(pairs))])
        elif n := len(self):
            return self[choose(n)]
        raise IndexError(f"no legal move to choose{self._whose()}")

    def __contains__(self, move: object) -> bool:
        return any(move == legal for legal in self._every())

    def picks(self) -> list[Pick]:
        """The picks among these moves (exploring), in seat order (``picks``)."""
        if self.due.kind != "pick":
            return []
        state = self.state
        each = [_picks(state, p, pairs) for p, pairs in zip(self.players, self._pairs_each())]
        return each[0] if len(each) == 1 else [pick for theirs in each for pick in theirs]

    def ends(self) -> list[End]:
        """The sets of copy choices among these moves (the end: ``ends``)."""
        return ends(self.state) if self.due.kind == "end" and self._theirs() else []

    def builds(self, card: str | None = None) -> list[Build]:
        """The builds among these moves (construction), of ``card`` only if given (``builds``)."""
        return builds(self.state, self.player, card, self.lister)

    def counts(self) -> list[tuple[str, str, int]]:
        """How many builds there are of each player and card, in the order of ``builds``, as
        (player, card, count), without making them; a card with none is left out. (Made once:
        change none of these lists.)"""
        if self._counts is not None:
            return self._counts
        found = []
        if self.due.kind == "build":
            board = self._board_now()
            state = self.state
            for p in self.players:
                mine = board.mine_of(p)
                for c in _placeable(state.supply[p], state.camp_floor, None):
                    on = _ON.get(c)  # most buildings stand on one of the player's free squares
                    n = (mine & on).bit_count() if on is not None else board.count(p, c)
                    if n:
                        found.append((p, c, n))
        self._counts = found
        return found

    def build(self, player: str, card: str, index: int) -> Build:
        """``player``'s build of ``card`` at ``index`` among theirs (``builds``), without making the others."""
        return Build(round=self.state.round, player=player, card=card, at=self._board_now().nth(player, card, index))

    def closing(self) -> list[Harvest]:
        """What may close the construction: every harvest (``harvests``), or with ``player``, their
        trading post declarations (``declarations``); empty outside construction."""
        if self._closing is None:
            self._closing = harvests(self.state) if self.player is None else declarations(self.state, self.player)
        return self._closing

    def _pairs_each(self) -> list[list[tuple[str, str]]]:
        """The picks of each of ``players`` as pairs (``_pick_pairs``), in their order: made once."""
        if self._pairs is None:
            state = self.state
            self._pairs = each = []
            for p in self.players:
                each.append(list(_pick_pairs(state, p)))
        return self._pairs

    def _board_now(self) -> _Board:
        if self._board is None:
            self._board = _Board(self.state.position, self.lister)
        return self._board

    def _every(self) -> list[Move]:
        """The moves, as a list: made once."""
        if self._listed is None:
            self._listed = self._listing()
        return self._listed

    def _whose(self) -> str:
        """Whose moves these are, for an error: `` of ann and bob``, or that no decision is theirs."""
        return f" of {' and '.join(self.players)}" if self.players else ": no decision is due"

    def _theirs(self) -> bool:
        """Whether the decision due is ``player``'s (or no player was given)."""
        return self.player is None or self.player in self.due.players

    def _listing(self) -> list[Move]:
        kind = self.due.kind
        if kind in ("deal", "draw"):
            forced = deal(self.state) if kind == "deal" else draw(self.state)
            return [forced] if forced is not None and self._theirs() else []
        if kind == "build":
            return [*self.builds(), *self.closing()]
        return [*self.picks(), *self.ends()]
