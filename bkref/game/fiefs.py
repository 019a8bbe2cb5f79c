"""Fiefs and harvests (H2-H4), computed from a board position.

A fief is a maximal set of squares one player controls, connected through adjacency
(S3: a shared side with no lava between) and through that player's sky tower pairs
(C5). Its strength is the sum of its cities' strengths (a printed city counts 1), its
wealth the number of different resources it produces, and it yields
strength x wealth golden carrots.

>>> from bkref.game.position import Position
>>> p = Position()
>>> for sq in ("A2", "A3", "A4", "B2", "B3", "B4"): p.owner[sq] = "ann"
>>> p.building.update({"B2": "city3", "A3": "farm_mushroom"})
>>> [(f.squares, f.strength, f.resources, f.carrots) for f in fiefs(p, "ann")]
[(('A2', 'A3', 'A4', 'B2', 'B3', 'B4'), 5, ('wood', 'fish', 'mushroom'), 15)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from bkref.game.catalog import ADJACENT, BASIC_RESOURCES, BOARD, BOARD_ORDER, CARDS, LUXURY_RESOURCES, SQUARES
from bkref.game.results import Fief

if TYPE_CHECKING:
    from bkref.game.position import Position


_PRINTED = frozenset(name for name, square in BOARD.items() if square.printed_city)
_TERRAIN = {name: square.resource for name, square in BOARD.items()}
_STRENGTH = {card.id: card.strength for card in CARDS.values() if card.kind == "city"}
_MAKES = {card.id: card.produces for card in CARDS.values() if card.produces}


def city_strength(position: Position, square: str) -> int:
    """The strength of the city on ``square`` (printed cities count 1), 0 if none."""
    if square in _PRINTED:
        return 1
    return _STRENGTH.get(position.building.get(square, ""), 0)


def produces(position: Position, square: str) -> list[str]:
    """What ``square`` produces: its terrain resource, then its farm's (E2, H3)."""
    out = []
    terrain = _TERRAIN[square]
    if terrain:
        out.append(terrain)
    building = position.building.get(square)
    made = position.declared.get(square) if building == "trading_post" else _MAKES.get(building or "")
    if made:
        out.append(made)
    return out


_STATIC = {name: (1 if name in _PRINTED else 0, _TERRAIN[name]) for name in SQUARES}
"""Each square's printed strength and terrain resource."""


def tally(position: Position, squares: Iterable[str]) -> tuple[Counter[str], int]:
    """What ``squares`` produce, unit by unit (E2), and how many hold a city (E3).

    >>> from bkref.game.position import Position
    >>> p = Position()
    >>> p.building.update({"A1": "farm_mushroom", "A2": "city2"})
    >>> tally(p, ["A1", "A2", "A4"])
    (Counter({'wood': 2, 'mushroom': 1}), 2)
    """
    building, declared = position.building, position.declared
    production: Counter[str] = Counter()
    cities = 0
    for sq in squares:
        printed, terrain = _STATIC[sq]
        if terrain:
            production[terrain] += 1
        on = building.get(sq)
        if on:
            if on in _STRENGTH:
                cities += 1
            made = declared.get(sq) if on == "trading_post" else _MAKES.get(on)
            if made:
                production[made] += 1
        elif printed:
            cities += 1
    return production, cities


def yield_of(fiefs: Iterable[Fief]) -> int:
    """The golden carrots ``fiefs`` yield together at a harvest (H4)."""
    return sum(f.carrots for f in fiefs)


def fiefs(position: Position, player: str) -> list[Fief]:
    """Every fief of ``player`` in ``position`` (H2), in board order."""
    return harvest(position, (player,))[player]


def regions(position: Position, player: str) -> list[tuple[str, ...]]:
    """The player's fiefs as square tuples in board order, sorted by first square."""
    return [_names(mask, SQUARES) for mask, _, _ in _areas(position, player)]


def connected(position: Position, player: str, a: str, b: str) -> bool:
    """True when squares ``a`` and ``b`` lie in one fief of ``player`` (H2)."""
    both = _BIT[a] | _BIT[b]
    return any(mask & both == both for mask, _, _ in _areas(position, player))


# -- fiefs on bitmasks ----------------------------------------------------------------
# Square i of SQUARES (board order) is bit i; resource k of _RESOURCES is bit k. A fief
# is kept as (squares, strength, resources) in those bits until its Fief is asked for.

_RESOURCES = BASIC_RESOURCES + LUXURY_RESOURCES
_BIT = {name: 1 << i for i, name in enumerate(SQUARES)}
_RESOURCE_BIT = {name: 1 << k for k, name in enumerate(_RESOURCES)}
_ADJACENT = [sum(_BIT[other] for other in ADJACENT[name]) for name in SQUARES]
_PRINTED_STRENGTH = [1 if name in _PRINTED else 0 for name in SQUARES]
_TERRAIN_RESOURCE = [_RESOURCE_BIT[r] if (r := _TERRAIN[name]) else 0 for name in SQUARES]
_MAKES_BIT = {farm: _RESOURCE_BIT[made] for farm, made in _MAKES.items() if made}
_NOTHING = [0] * len(SQUARES)
"""No strength and no resources on any square: for fiefs asked for their squares only."""

Group = tuple[int, int, int]
"""A fief as bitmasks: its squares, its strength, its resources."""


def _masks(position: Position, players: tuple[str, ...]) -> dict[str, int]:
    """Each player's controlled squares as a bitmask."""
    mine = dict.fromkeys(players, 0)
    bit = _BIT
    for sq, who in position.owner.items():
        if who in mine:
            mine[who] |= bit[sq]
    return mine


def _links(position: Position) -> list[int]:
    """Each square's neighbours for fiefs: S3 adjacency, and the sky tower pairs (C5)."""
    if not position.towers:
        return _ADJACENT
    links = list(_ADJACENT)
    for a, b in position.towers:
        links[BOARD_ORDER[a]] |= _BIT[b]
        links[BOARD_ORDER[b]] |= _BIT[a]
    return links


def _areas(position: Position, player: str) -> list[Group]:
    """``player``'s fiefs by their squares only (strength and resources left at 0), by first square."""
    return _split(_masks(position, (player,))[player], _links(position), _NOTHING, _NOTHING)


def _yields(position: Position) -> tuple[list[int], list[int]]:
    """Each square's city strength (H3) and the resources it produces (E2, H1), by square."""
    strength, resources = list(_PRINTED_STRENGTH), list(_TERRAIN_RESOURCE)
    declared = position.declared
    for sq, on in position.building.items():
        i = BOARD_ORDER[sq]
        if on in _STRENGTH:
            strength[i] += _STRENGTH[on]
        elif on == "trading_post":
            made = declared.get(sq)
            if made:
                resources[i] |= _RESOURCE_BIT[made]
        elif on in _MAKES_BIT:
            resources[i] |= _MAKES_BIT[on]
    return strength, resources


def _split(mine: int, links: list[int], strength: list[int], resources: list[int]) -> list[Group]:
    """The squares of ``mine`` split into fiefs (a breadth-first search on bits), by first square."""
    out = []
    rest = mine
    while rest:
        todo = group = rest & -rest
        rest ^= todo
        total = made = 0
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
        out.append((group, total, made))
    return out


def _names(mask: int, names: tuple[str, ...]) -> tuple[str, ...]:
    """The names of the bits set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(names[low.bit_length() - 1])
    return tuple(out)


class Harvested(Mapping[str, list[Fief]]):
    """Every player's fiefs at one harvest, by player; ``carrots`` holds each one's yield.

    The fiefs are kept as bitmasks: a player's ``Fief`` objects are built the first time
    they are asked for (``harvested[player]``), by the score, the replay or an X1 message.
    """

    __slots__ = ("_built", "_groups", "carrots")

    def __init__(self, groups: dict[str, list[Group]]) -> None:
        self._groups = groups
        self._built: dict[str, list[Fief]] = {}
        self.carrots = {p: sum(strength * made.bit_count() for _, strength, made in g) for p, g in groups.items()}

    def __getitem__(self, player: str) -> list[Fief]:
        built = self._built.get(player)
        if built is None:
            built = self._built[player] = [_fief(*group) for group in self._groups[player]]
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._groups)

    def __reduce__(self) -> tuple[type[Harvested], tuple[dict[str, list[Group]]]]:
        return Harvested, (self._groups,)  # pickled and copied as its bitmasks, in both builds

    def __len__(self) -> int:
        return len(self._groups)


def _fief(squares: int, strength: int, made: int) -> Fief:
    resources = _names(made, _RESOURCES)
    return Fief(_names(squares, SQUARES), strength, resources, strength * len(resources))


def harvest(position: Position, players: tuple[str, ...]) -> Harvested:
    """Every player's fiefs at once (H2-H4), with one pass over the board."""
    links = _links(position)
    strength, resources = _yields(position)
    return Harvested({p: _split(mine, links, strength, resources) for p, mine in _masks(position, players).items()})


def harvest_carrots(harvested: Mapping[str, list[Fief]], player: str) -> int:
    """The golden carrots ``player`` harvested at ``harvested`` (H4)."""
    if isinstance(harvested, Harvested):
        return harvested.carrots.get(player, 0)
    return yield_of(harvested.get(player, ()))
