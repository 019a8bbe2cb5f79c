"""What the engine works out, as msgspec types: fiefs (H2-H4) and final scores (E1-E9).

They live apart from the rules that compute them (``fiefs``, ``scoring``) so that the
optional compiled build can compile those modules: mypyc would drop msgspec's class
options (``frozen``, ``gc``, ``kw_only``), so msgspec types are never compiled.
"""

from __future__ import annotations

import msgspec


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


class ParchmentRow(msgspec.Struct, kw_only=True):
    """One parchment of one player: what it counted and what it scores.

    ``copied`` is the parchment a copy card stands for (E7, at the end of a chain of
    copies under R3 follow). ``rulings`` holds the ids of the rulings that settled this
    row, because the row is in the case the ruling is about: R1 a tie for most
    territories, R2 a tie for second place, R3 a copy of a copy, R4 a treasure of a
    player with several Treasure Hunters, R5 every Colonist.
    """

    card: str
    copied: str | None = None
    counted: str
    points: int
    rulings: list[str] = []


class PlayerScore(msgspec.Struct):
    """One player's final score: the 4 harvests and their sum, every parchment row, the total."""

    harvests: list[int]
    harvest: int
    parchments: list[ParchmentRow]
    parchment_total: int
    total: int


class FinalScore(msgspec.Struct):
    """A finished game's score: each player's, the ranking (best first), the winners, the rulings."""

    players: dict[str, PlayerScore]
    ranking: list[str]
    winners: list[str]
    rulings: dict[str, str]
