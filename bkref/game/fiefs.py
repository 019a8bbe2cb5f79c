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
from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from bkref.game.catalog import ADJACENT, BASIC_RESOURCES, BOARD, BOARD_ORDER, CARDS, LUXURY_RESOURCES, SQUARES

if TYPE_CHECKING:
    from bkref.game.position import Position

_RESOURCE_ORDER = {name: i for i, name in enumerate(BASIC_RESOURCES + LUXURY_RESOURCES)}


class Fief(msgspec.Struct, frozen=True, gc=False):
    """One fief at a harvest: its squares in board order and what it yields.

    It holds only strings and numbers, so the garbage collector need not track it.
    """

    squares: tuple[str, ...]
    strength: int
    resources: tuple[str, ...]
    carrots: int

    @property
    def wealth(self) -> int:
        return len(self.resources)


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


def _groups(mine: set[str], towers: list[tuple[str, str]]) -> list[tuple[str, ...]]:
    """``mine`` split into connected groups (S3 adjacency and sky tower pairs), in board order."""
    links: dict[str, list[str]] = {}
    for a, b in towers:
        if a in mine and b in mine:
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    remaining = set(mine)
    out = []
    for start in sorted(mine, key=BOARD_ORDER.__getitem__):
        if start not in remaining:
            continue
        remaining.discard(start)
        group = [start]
        for sq in group:  # grows while it is walked: a breadth-first search
            for other in (*ADJACENT[sq], *links[sq]) if sq in links else ADJACENT[sq]:
                if other in remaining:
                    remaining.discard(other)
                    group.append(other)
        if len(group) > 1:
            group.sort(key=BOARD_ORDER.__getitem__)
        out.append(tuple(group))
    return out


def regions(position: Position, player: str) -> list[tuple[str, ...]]:
    """The player's fiefs as square tuples in board order, sorted by first square."""
    return _groups({sq for sq, who in position.owner.items() if who == player}, position.towers)


def connected(position: Position, player: str, a: str, b: str) -> bool:
    """True when squares ``a`` and ``b`` lie in one fief of ``player`` (H2)."""
    owner = position.owner
    links: dict[str, list[str]] = {}
    for x, y in position.towers:
        links.setdefault(x, []).append(y)
        links.setdefault(y, []).append(x)
    seen = {a}
    group = [a]
    for sq in group:
        for other in (*ADJACENT[sq], *links.get(sq, ())):
            if other not in seen and owner.get(other) == player:
                if other == b:
                    return True
                seen.add(other)
                group.append(other)
    return False


_STATIC = {name: (1 if name in _PRINTED else 0, _TERRAIN[name]) for name in SQUARES}
"""Each square's printed strength and terrain resource."""


def fief_of(squares: tuple[str, ...], position: Position) -> Fief:
    """Strength, resources and carrots (H3, H4) of one group of squares."""
    building, declared = position.building, position.declared
    strength = 0
    found = set()
    for sq in squares:
        printed, terrain = _STATIC[sq]
        strength += printed
        if terrain:
            found.add(terrain)
        on = building.get(sq)
        if on:
            strength += _STRENGTH.get(on, 0)
            made = declared.get(sq) if on == "trading_post" else _MAKES.get(on)
            if made:
                found.add(made)
    resources = tuple(sorted(found, key=_RESOURCE_ORDER.__getitem__)) if len(found) > 1 else tuple(found)
    return Fief(squares, strength, resources, strength * len(resources))


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
    return [fief_of(group, position) for group in regions(position, player)]


def harvest(position: Position, players: tuple[str, ...]) -> dict[str, list[Fief]]:
    """Every player's fiefs at once: ``fiefs`` for each, with one pass over the board."""
    mine: dict[str, set[str]] = {p: set() for p in players}
    for sq, who in position.owner.items():
        mine[who].add(sq)
    return {p: [fief_of(group, position) for group in _groups(mine[p], position.towers)] for p in players}
