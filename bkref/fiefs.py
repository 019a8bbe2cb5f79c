"""Fiefs and harvests (H2-H4), computed from a board position.

A fief is a maximal set of squares one player controls, connected through adjacency
(S3: a shared side with no lava between) and through that player's sky tower pairs
(C5). Its strength is the sum of its cities' strengths (a printed city counts 1), its
wealth the number of different resources it produces, and it yields
strength x wealth golden carrots.

>>> from bkref.position import Position
>>> p = Position.empty()
>>> for sq in ("A2", "A3", "A4", "B2", "B3", "B4"): p.owner[sq] = "ann"
>>> p.building.update({"B2": "city3", "A3": "farm_mushroom"})
>>> [(f.squares, f.strength, f.resources, f.carrots) for f in fiefs(p, "ann")]
[(('A2', 'A3', 'A4', 'B2', 'B3', 'B4'), 5, ('wood', 'fish', 'mushroom'), 15)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from bkref.catalog import ADJACENT, BASIC_RESOURCES, BOARD, CARDS, LUXURY_RESOURCES, SQUARES

if TYPE_CHECKING:
    from bkref.position import Position

_ORDER = {name: i for i, name in enumerate(SQUARES)}
_RESOURCE_ORDER = {name: i for i, name in enumerate(BASIC_RESOURCES + LUXURY_RESOURCES)}


class Fief(msgspec.Struct, frozen=True):
    """One fief at a harvest: its squares in board order and what it yields."""

    squares: tuple[str, ...]
    strength: int
    resources: tuple[str, ...]
    carrots: int

    @property
    def wealth(self) -> int:
        return len(self.resources)


def city_strength(position: Position, square: str) -> int:
    """The strength of the city on ``square`` (printed cities count 1), 0 if none."""
    if BOARD[square].printed_city:
        return 1
    building = position.building.get(square)
    return CARDS[building].strength if building else 0


def produces(position: Position, square: str) -> list[str]:
    """What ``square`` produces: its terrain resource, then its farm's (E2, H3)."""
    out = []
    terrain = BOARD[square].resource
    if terrain:
        out.append(terrain)
    building = position.building.get(square)
    if building == "trading_post":
        declared = position.declared.get(square)
        if declared:
            out.append(declared)
    elif building:
        made = CARDS[building].produces
        if made:
            out.append(made)
    return out


def regions(position: Position, player: str) -> list[tuple[str, ...]]:
    """The player's fiefs as square tuples in board order, sorted by first square."""
    mine = {sq for sq, who in position.owner.items() if who == player}
    links: dict[str, list[str]] = {}
    for a, b in position.towers:
        if a in mine and b in mine:
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    seen: set[str] = set()
    out = []
    for start in sorted(mine, key=_ORDER.__getitem__):
        if start in seen:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            sq = stack.pop()
            group.append(sq)
            for other in (*ADJACENT[sq], *links.get(sq, ())):
                if other in mine and other not in seen:
                    seen.add(other)
                    stack.append(other)
        out.append(tuple(sorted(group, key=_ORDER.__getitem__)))
    return out


def fief_of(squares: tuple[str, ...], position: Position) -> Fief:
    """Strength, resources and carrots (H3, H4) of one group of squares."""
    strength = sum(city_strength(position, sq) for sq in squares)
    found = {r for sq in squares for r in produces(position, sq)}
    resources = tuple(sorted(found, key=_RESOURCE_ORDER.__getitem__))
    return Fief(squares, strength, resources, strength * len(resources))


def fiefs(position: Position, player: str) -> list[Fief]:
    """Every fief of ``player`` in ``position`` (H2), in board order."""
    return [fief_of(group, position) for group in regions(position, player)]
