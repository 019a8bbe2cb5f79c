"""Looking ahead at a player's fiefs: those a build or a claim would remake, without
copying the board (``Lookahead``). It is the greedy policies' outlook, built on the fiefs
of ``bkref.game.fiefs`` as bitmasks; the rules themselves never look ahead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from bkref.game.catalog import BOARD_ORDER, CARDS, CITY_STRENGTH
from bkref.game.fiefs import MAKES, RESOURCE_INDEX, BitBoard, Group, fief_groups, mask
from bkref.game.position import SQUARE_BIT

if TYPE_CHECKING:
    from bkref.game.position import Position

__all__ = ["Lookahead"]

_STRENGTH: Final = CITY_STRENGTH  # constants of this module: the compiled build reads them directly
_MAKES: Final = MAKES


class Lookahead:
    """``player``'s fiefs in ``position`` (as bitmasks, ``groups``), and those a change would
    remake: what looking ahead on a copy of the board would find, without the copy.

    ``built`` and ``claimed`` each return the fiefs that change, as they are now and as
    they would be (every other fief stays as it is).

    >>> from bkref.game.fiefs import names
    >>> from bkref.game.position import Position
    >>> p = Position()
    >>> for sq in ("A2", "A3", "C2"): p.claim(sq, "ann")
    >>> ahead = Lookahead(p, "ann")
    >>> [names(squares) for squares, _, _ in ahead.groups]
    [('A2', 'A3'), ('C2',)]
    >>> before, after = ahead.built("city2", ["A3"])  # strength 2 more, on the fief of A2 and A3
    >>> [(names(squares), strength) for squares, strength, _ in before + after]
    [(('A2', 'A3'), 0), (('A2', 'A3'), 2)]
    >>> before, after = ahead.claimed(["B2"])  # B2 joins both fiefs into one
    >>> [names(squares) for squares, _, _ in before], [names(squares) for squares, _, _ in after]
    ([('A2', 'A3'), ('C2',)], [('A2', 'A3', 'B2', 'C2')])
    """

    __slots__ = ("board", "fief", "groups", "mine", "player")

    def __init__(self, position: Position, player: str, board: BitBoard | None = None) -> None:
        """``board``: ``position`` read already (``BitBoard.of``, for ``player`` among others)."""
        self.player = player
        self.board = board = BitBoard.of(position, (player,)) if board is None else board
        self.mine = board.owned[player]
        self.groups = board.groups(player)
        self.fief: dict[int, Group] = {}  # each square of the player (its index) to its fief
        groups: list[Any] = self.groups  # each fief as the tuple it is: the compiled build stores it, not a copy
        for group in groups:
            bits: int = group[0]
            while bits:
                low = bits & -bits
                bits ^= low
                self.fief[low.bit_length() - 1] = group

    def built(self, card: str, at: list[str], declared: str | None = None) -> tuple[list[Group], list[Group]]:
        """The fiefs that placing ``card`` on ``at`` changes (C2-C6), before and after: a city
        adds its strength, a farm its resource (a trading post the resource ``declared``, H1),
        a sky tower joins two fiefs (C5), a camp claims its square (C6)."""
        kind = CARDS[card].kind
        if kind == "camp":  # its square and the fiefs next to it become one
            i = BOARD_ORDER[at[0]]
            board = self.board
            joined = self._of(board.links[i] & self.mine)
            squares, strength, made = 1 << i, board.strength[i], board.resources[i]
            for group in joined:
                squares |= group[0]
                strength += group[1]
                made |= group[2]
            return joined, [(squares, strength, made)]
        if kind == "sky_tower":  # its two fiefs become one
            joined = self._of(SQUARE_BIT[at[0]] | SQUARE_BIT[at[1]])
            if len(joined) == 1:
                return joined, joined
            (a, s, m), (b, t, n) = joined
            return joined, [(a | b, s + t, m | n)]
        group = self.fief[BOARD_ORDER[at[0]]]
        squares, strength, made = group
        if kind == "city":
            return [group], [(squares, strength + _STRENGTH[card], made)]
        product = declared if card == "trading_post" else _MAKES.get(card)
        return [group], [(squares, strength, made | (1 << RESOURCE_INDEX[product]) if product else made)]

    def linked(self, a: str, b: str) -> bool:
        """Whether squares ``a`` and ``b`` are next to each other for fiefs (S3; or a sky tower pair, C5)."""
        return bool(self.board.links[BOARD_ORDER[a]] & SQUARE_BIT[b])

    def fief_of(self, square: str) -> Group:
        """The player's fief that holds ``square``, one of theirs."""
        return self.fief[BOARD_ORDER[square]]

    def claimed(self, squares: Iterable[str]) -> tuple[list[Group], list[Group]]:
        """The fiefs that claiming ``squares`` changes (P1), before and after."""
        board = self.board
        added = mask(squares)
        after = fief_groups(self.mine | added, added, board.links, board.strength, board.resources)
        covered = 0
        for group, _, _ in after:
            covered |= group
        return [group for group in self.groups if group[0] & covered], after

    def _of(self, squares: int) -> list[Group]:
        """The fiefs that hold any of ``squares`` (the player's), once each."""
        found: list[Group] = []
        while squares:
            low = squares & -squares
            squares ^= low
            group = self.fief[low.bit_length() - 1]
            squares &= ~group[0]
            found.append(group)
        return found
