"""What stands on the board: who controls each square, the buildings, the sky towers."""

from __future__ import annotations

from dataclasses import dataclass, field

from bkref.game.catalog import BOARD


@dataclass(slots=True)
class Position:
    """The board part of a game state.

    ``owner`` maps a controlled square to its player (a rabbit, or a camp's rabbit);
    ``building`` maps a square to the building card placed on it (printed cities are
    board facts, not entries); ``towers`` lists sky tower pairs; ``declared`` holds the
    latest harvest's trading post declarations (H1, E2).
    """

    owner: dict[str, str] = field(default_factory=dict)
    building: dict[str, str] = field(default_factory=dict)
    towers: list[tuple[str, str]] = field(default_factory=list)
    declared: dict[str, str] = field(default_factory=dict)

    def copy(self) -> Position:
        return Position(dict(self.owner), dict(self.building), list(self.towers), dict(self.declared))

    def occupied(self, square: str) -> bool:
        """True when ``square`` holds a building: a printed city, a camp, anything (C3)."""
        return BOARD[square].printed_city or square in self.building

    def controlled(self, player: str) -> list[str]:
        return [sq for sq, who in self.owner.items() if who == player]
