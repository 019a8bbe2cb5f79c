"""Fiefs and harvests (H2-H4), computed from a board position.

A fief is a maximal set of squares one player controls, connected through adjacency
(S3: a shared side with no lava between) and through that player's sky tower pairs
(C5). Its strength is the sum of its cities' strengths (a printed city counts 1), its
wealth the number of different resources it produces, and it yields
strength x wealth golden carrots.

>>> from bkref.game.position import Position
>>> p = Position()
>>> for sq in ("A2", "A3", "A4", "B2", "B3", "B4"): p.claim(sq, "ann")
>>> p.building.update({"B2": "city3", "A3": "farm_mushroom"})
>>> [(f.squares, f.strength, f.resources, f.carrots) for f in fiefs_of(p, "ann")]
[(('A2', 'A3', 'A4', 'B2', 'B3', 'B4'), 5, ('wood', 'fish', 'mushroom'), 15)]

The work is done on bitmasks: square i of the board (reading order, A1 first) is bit
i, resource k of ``RESOURCES`` is bit k. A position is read once into a ``BitBoard`` of
such masks, and a fief is kept as ``(squares, strength, resources)`` in those bits
until its ``Fief`` is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Final

from bkref.game.catalog import (
    ADJACENT,
    BASIC_RESOURCES,
    BOARD,
    BOARD_ORDER,
    CARDS,
    CITY_STRENGTH,
    LUXURY_RESOURCES,
    SQUARES,
)
from bkref.game.position import SQUARE_BIT
from bkref.game.results import Fief

if TYPE_CHECKING:
    from bkref.game.position import Position

RESOURCES: Final = BASIC_RESOURCES + LUXURY_RESOURCES
"""Every resource, basic then luxury: the order a fief lists what it produces."""

RESOURCE_INDEX: Final = {name: k for k, name in enumerate(RESOURCES)}
"""Each resource's place in ``RESOURCES``: its bit in a fief's resources."""
_ADJACENT: Final = [sum(SQUARE_BIT[other] for other in ADJACENT[name]) for name in SQUARES]
_STRENGTH: Final = CITY_STRENGTH  # a constant of this module: the compiled build reads it directly
MAKES: Final = {card.id: card.produces for card in CARDS.values() if card.produces}
"""What each farm card produces (E2); a trading post produces what its owner declares (H1)."""
_PRINTED_CITIES: Final = sum(SQUARE_BIT[name] for name, square in BOARD.items() if square.printed_city)
_PRINTED_STRENGTH: Final = [1 if BOARD[name].printed_city else 0 for name in SQUARES]
_TERRAIN_RESOURCE: Final = [1 << RESOURCE_INDEX[r] if (r := BOARD[name].resource) else 0 for name in SQUARES]
TERRAIN: Final = tuple(sum(SQUARE_BIT[name] for name in SQUARES if BOARD[name].resource == r) for r in RESOURCES)
"""For each resource of ``RESOURCES``, the squares whose terrain produces it."""
_PRODUCING_TERRAIN: Final = sum(TERRAIN)
"""The squares whose terrain produces something."""
_NOTHING: Final = [0] * len(SQUARES)
"""No strength and no resources on any square: for fiefs asked for their squares only."""

Group = tuple[int, int, int]
"""A fief as bitmasks: its squares, its strength, its resources."""


def mask(squares: Iterable[str]) -> int:
    """The bitmask of ``squares``."""
    return sum(SQUARE_BIT[sq] for sq in squares)


def names(bits: int, of: tuple[str, ...] = SQUARES) -> tuple[str, ...]:
    """The names (squares, or ``RESOURCES``) of the bits set in ``bits``, lowest first.

    >>> names(0b1011, RESOURCES)
    ('wood', 'fish', 'mushroom')
    """
    table = _SQUARE_BYTES if of is SQUARES else _RESOURCE_BYTES if of is RESOURCES else _by_byte(of)
    if bits < 256:  # one byte: most sets of resources
        return table[0][bits]
    out: list[str] = []
    for at, byte in enumerate(bits.to_bytes((bits.bit_length() + 7) // 8, "little")):
        if byte:
            out += table[at][byte]
    return tuple(out)


def _by_byte(of: tuple[str, ...]) -> list[list[tuple[str, ...]]]:
    """What ``names`` reads a bitmask of ``of`` with, a byte at a time: for each byte of the
    bitmask, lowest first, the names of each value it can hold."""
    tables = []
    for at in range(0, len(of), 8):
        table: list[tuple[str, ...]] = [()]
        for name in of[at : at + 8]:  # the values with this bit, the highest so far, follow those without
            table += [(*before, name) for before in table]
        tables.append(table)
    return tables


_SQUARE_BYTES: Final = _by_byte(SQUARES)
_RESOURCE_BYTES: Final = _by_byte(RESOURCES)


def fief_groups(mine: int, seeds: int, links: list[int], strength: list[int], resources: list[int]) -> list[Group]:
    """The fiefs of the squares ``mine`` that hold a square of ``seeds`` (all of them when
    ``seeds`` is ``mine``), by first square: a breadth-first search on bits."""
    out = []
    rest = mine
    while seeds:
        group = seeds & -seeds
        rest ^= group
        i = group.bit_length() - 1
        todo = links[i] & rest
        if not todo:  # a fief of one square: the most common kind
            seeds ^= group
            out.append((group, strength[i], resources[i]))
            continue
        total, made = strength[i], resources[i]
        rest ^= todo
        group |= todo
        while todo:
            low = todo & -todo
            todo ^= low
            i = low.bit_length() - 1
            total += strength[i]
            made |= resources[i]
            new = links[i] & rest
            if new:
                rest ^= new
                todo |= new
                group |= new
        seeds &= rest
        out.append((group, total, made))
    return out


def _links(position: Position) -> list[int]:
    """Each square's neighbours for fiefs: S3 adjacency, and the sky tower pairs (C5)."""
    if not position.towers:
        return _ADJACENT
    links = list(_ADJACENT)
    for a, b in position.towers:
        links[BOARD_ORDER[a]] |= SQUARE_BIT[b]
        links[BOARD_ORDER[b]] |= SQUARE_BIT[a]
    return links


class BitBoard:
    """A position read into bitmasks once (``BitBoard.of``): what harvests and the final
    scoring count. It is a snapshot: later changes to the position do not reach it.

    ``owned`` holds each player's squares; ``strength`` and ``resources`` each square's
    city strength (H3) and what it produces (E2, H1: a trading post only what its owner
    declared); ``cities`` the squares holding a city, printed or built; ``made`` for
    each resource of ``RESOURCES``, the squares whose building makes it (terrain is
    ``TERRAIN``).
    """

    __slots__ = ("_groups", "cities", "links", "made", "owned", "resources", "strength")

    def __init__(
        self,
        owned: dict[str, int],
        links: list[int],
        strength: list[int],
        resources: list[int],
        cities: int,
        made: list[int],
    ) -> None:
        self.owned = owned
        self.links = links
        self.strength = strength
        self.resources = resources
        self.cities = cities
        self.made = made
        self._groups: dict[str, list[Group]] = {}

    @classmethod
    def of(cls, position: Position, players: tuple[str, ...]) -> BitBoard:
        """The board of ``position`` for ``players`` (the squares of others are left out)."""
        held = position.owned
        owned = {p: held.get(p, 0) for p in players}
        strength, resources = list(_PRINTED_STRENGTH), list(_TERRAIN_RESOURCE)
        cities = _PRINTED_CITIES
        made = [0] * len(RESOURCES)
        declared = position.declared
        for sq, on in position.building.items():
            i = BOARD_ORDER[sq]
            if on in _STRENGTH:
                strength[i] += _STRENGTH[on]
                cities |= 1 << i
                continue
            product = declared.get(sq) if on == "trading_post" else MAKES.get(on)
            if product:
                k = RESOURCE_INDEX[product]
                resources[i] |= 1 << k
                made[k] |= 1 << i
        return cls(owned, _links(position), strength, resources, cities, made)

    def __reduce__(
        self,
    ) -> tuple[type[BitBoard], tuple[dict[str, int], list[int], list[int], list[int], int, list[int]]]:
        return BitBoard, (self.owned, self.links, self.strength, self.resources, self.cities, self.made)

    def groups(self, player: str) -> list[Group]:
        """``player``'s fiefs, by first square (found once, then kept)."""
        found = self._groups.get(player)
        if found is None:
            mine = self.owned[player]
            found = self._groups[player] = fief_groups(mine, mine, self.links, self.strength, self.resources)
        return found

    def carrots(self, player: str) -> int:
        """What ``player``'s fiefs yield at a harvest (H4). Only a fief with a city yields,
        so unless all of them are known already, only those are searched."""
        fiefs = self._groups.get(player)
        if fiefs is None:
            mine = self.owned[player]
            fiefs = fief_groups(mine, mine & self.cities, self.links, self.strength, self.resources)
        total = 0
        for _, strength, made in fiefs:
            total += strength * made.bit_count()
        return total

    def produced(self, player: str, resource: int) -> int:
        """How many units of resource ``resource`` (its index in ``RESOURCES``) ``player``'s
        squares produce (E2): terrain and buildings both count."""
        mine = self.owned[player]
        return (mine & TERRAIN[resource]).bit_count() + (mine & self.made[resource]).bit_count()

    def producing(self) -> int:
        """The squares that produce anything (E2)."""
        out = _PRODUCING_TERRAIN
        for made in self.made:
            out |= made
        return out


def fief_of_group(group: Group) -> Fief:
    """The ``Fief`` of a fief kept as bitmasks."""
    squares, strength, made = group
    resources = names(made, RESOURCES)
    return Fief(names(squares), strength, resources, strength * len(resources))


def fiefs_of(position: Position, player: str) -> list[Fief]:
    """Every fief of ``player`` in ``position`` (H2), in board order."""
    return [fief_of_group(group) for group in BitBoard.of(position, (player,)).groups(player)]


def fief_squares(position: Position, player: str) -> list[tuple[str, ...]]:
    """The player's fiefs as square tuples in board order, sorted by first square."""
    return [names(group) for group, _, _ in square_groups(position, player)]


def connected(position: Position, player: str, a: str, b: str) -> bool:
    """True when squares ``a`` and ``b`` lie in one fief of ``player`` (H2)."""
    mine = position.owned.get(player, 0)
    both = SQUARE_BIT[a] | SQUARE_BIT[b]
    if mine & both != both:
        return False
    [(group, _, _)] = fief_groups(mine, SQUARE_BIT[a], _links(position), _NOTHING, _NOTHING)  # the fief of a
    return group & both == both


def square_groups(position: Position, player: str) -> list[Group]:
    """``player``'s fiefs by their squares only (strength and resources left at 0), by first square."""
    mine = position.owned.get(player, 0)
    return fief_groups(mine, mine, _links(position), _NOTHING, _NOTHING)


def yield_of(fiefs: Iterable[Fief]) -> int:
    """The golden carrots ``fiefs`` yield together at a harvest (H4)."""
    return sum(f.carrots for f in fiefs)


class Harvested(Mapping[str, list[Fief]]):
    """Every player's fiefs at one harvest, by player; ``carrots`` holds each one's yield.

    It keeps the ``board`` it was harvested on: a player's ``Fief`` objects are built the
    first time they are asked for (``harvested[player]``), by the score, the replay or an
    X1 message.
    """

    __slots__ = ("_built", "board", "carrots")

    def __init__(self, board: BitBoard) -> None:
        self.board = board
        self._built: dict[str, list[Fief]] = {}
        self.carrots = {p: board.carrots(p) for p in board.owned}

    def __getitem__(self, player: str) -> list[Fief]:
        built = self._built.get(player)
        if built is None:
            built = self._built[player] = [fief_of_group(group) for group in self.board.groups(player)]
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self.board.owned)

    def __reduce__(self) -> tuple[type[Harvested], tuple[BitBoard]]:
        return Harvested, (self.board,)  # pickled and copied as its bitmasks, in both builds

    def __len__(self) -> int:
        return len(self.board.owned)


def harvest(position: Position, players: tuple[str, ...], *, whole: bool = False) -> Harvested:
    """Every player's harvest at once (H2-H4), with one pass over the board: the carrots now,
    found from the fiefs that hold a city (the others yield nothing), and every fief when
    it is asked for.

    ``whole`` finds every fief now: the last harvest's board is the final one, whose fiefs
    the missions count (E2-E4).
    """
    board = BitBoard.of(position, players)
    if whole:
        for p in players:
            board.groups(p)
    return Harvested(board)


def harvest_carrots(harvested: Mapping[str, list[Fief]], player: str) -> int:
    """The golden carrots ``player`` harvested at ``harvested`` (H4)."""
    if type(harvested) is Harvested:  # not isinstance: a Mapping's check runs in Python
        return harvested.carrots.get(player, 0)
    return yield_of(harvested.get(player, ()))
