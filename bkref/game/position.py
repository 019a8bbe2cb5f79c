"""What stands on the board: who controls each square, the buildings, the sky towers.

>>> p = Position(owner={"A1": "ann"})
>>> p.claim("A2", "ann"); p.claim("A1", "bob")
>>> dict(p.owner), bin(p.owned["ann"]), bin(p.owned["bob"])
({'A1': 'bob', 'A2': 'ann'}, '0b10', '0b1')
>>> p
Position(owner={'A1': 'bob', 'A2': 'ann'}, building={}, towers=[], declared={})
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from bkref.game.catalog import BOARD, BOARD_ORDER

SQUARE_BIT: Final = {square: 1 << i for square, i in BOARD_ORDER.items()}
"""Each square's bit in a bitmask of squares: bit i is square i in reading order, A1 first."""
_PRINTED_CITIES: Final = frozenset(name for name, square in BOARD.items() if square.printed_city)


class Position:
    """The board part of a game state.

    ``owner`` maps a controlled square to its player (a rabbit, or a camp's rabbit). It is a
    read-only view: only ``claim`` changes who controls a square, and it keeps ``owned``
    with it: each player's squares as a bitmask (bit i is square i of the board in reading
    order, A1 first). Neither is assigned anew.
    ``building`` maps a square to the building card placed on it (printed cities are
    board facts, not entries); ``towers`` lists sky tower pairs; ``declared`` holds the
    latest harvest's trading post declarations (H1, E2).
    """

    __slots__ = ("_owner", "building", "declared", "owned", "owner", "towers")

    def __init__(
        self,
        owner: Mapping[str, str] | None = None,
        building: dict[str, str] | None = None,
        towers: list[tuple[str, str]] | None = None,
        declared: dict[str, str] | None = None,
    ) -> None:
        self._owner: dict[str, str] = {}
        self.owner: Mapping[str, str] = MappingProxyType(self._owner)
        self.owned: dict[str, int] = {}
        for square, player in (owner or {}).items():
            self.claim(square, player)
        self.building = {} if building is None else building
        self.towers = [] if towers is None else towers
        self.declared = {} if declared is None else declared

    def claim(self, square: str, player: str) -> None:
        """``player`` controls ``square`` from now on, whoever did before (P1, C6)."""
        bit = SQUARE_BIT[square]
        owner, owned = self._owner, self.owned
        before = owner.get(square)
        if before is not None:
            owned[before] ^= bit
        owner[square] = player
        owned[player] = owned.get(player, 0) | bit

    def copy(self) -> Position:
        new = Position(None, dict(self.building), list(self.towers), dict(self.declared))
        new._owner.update(self._owner)
        new.owned.update(self.owned)
        return new

    def _fields(self) -> tuple[dict[str, str], dict[str, str], list[tuple[str, str]], dict[str, str]]:
        return dict(self._owner), self.building, self.towers, self.declared

    def __reduce__(self) -> tuple[type[Position], tuple[object, ...]]:
        return Position, self._fields()  # pickled as its fields: the read-only view of owner is not picklable

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if isinstance(other, Position) else NotImplemented

    def __repr__(self) -> str:
        return (
            f"Position(owner={self._owner!r}, building={self.building!r}, towers={self.towers!r}, "
            f"declared={self.declared!r})"
        )

    def occupied(self, square: str) -> bool:
        """True when ``square`` holds a building: a printed city, a camp, anything (C3)."""
        return square in _PRINTED_CITIES or square in self.building

    def controlled(self, player: str) -> list[str]:
        return [sq for sq, who in self.owner.items() if who == player]
