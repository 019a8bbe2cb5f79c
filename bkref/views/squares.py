"""What each square of the board shows, in letters and codes: the same in the terminal, in SVG
and in the HTML page.

A square is its owner's letter (``seat_letters``), its terrain's letter (``TERRAIN``) and
what stands on it (``building_on``, in three characters ``building_code``).

>>> from bkref.game.position import Position
>>> p = Position(owner={"A3": "ann", "B2": "bob", "D10": "ann"})
>>> p.building.update({"A3": "farm_mushroom", "B2": "city3", "D10": "camp4"})
>>> letters = {"ann": "a", "bob": "b"}
>>> [square_text(p, sq, letters) for sq in ("A3", "B2", "D10", "A4", "A5")]
['aFmus', 'bM[3]', 'aF^4 ', ' #(1)', ' S   ']
"""

from __future__ import annotations

from collections.abc import Sequence

from bkref.game.catalog import BOARD, CARDS
from bkref.game.engine import State
from bkref.game.position import Position

TERRAIN = {
    "forest": ("F", "forest (wood)"),
    "sea": ("S", "sea (fish)"),
    "field": ("C", "field (carrot)"),
    "plains": ("P", "plains"),
    "mountain": ("M", "mountain"),
    "city": ("#", "city space"),
}
"""Each terrain's letter on the board and its name in the legends."""

FARM_CODES = {
    "wood": "woo",
    "fish": "fis",
    "carrot": "car",
    "mushroom": "mus",
    "pearl": "pea",
    "carrot_powder": "pow",
    "diamond": "dia",
    "gold": "gol",
    "copper": "cop",
    "steel": "ste",
}
"""Each resource in three letters, as a farm or a trading post shows it."""


def seat_letters(players: Sequence[str]) -> dict[str, str]:
    """One character per player for the board: the first letter, or the seat if two share one.

    >>> seat_letters(["ann", "bob"]), seat_letters(["ann", "Alf", "bob"])
    ({'ann': 'a', 'bob': 'b'}, {'ann': '1', 'Alf': '2', 'bob': '3'})
    """
    first = [p[0].lower() for p in players]
    if len(set(first)) == len(first) and all(c.isalpha() and c.isascii() for c in first):
        return dict(zip(players, first))
    return {p: str(i) for i, p in enumerate(players, start=1)}


def building_on(position: Position, square: str) -> tuple[str, str] | None:
    """What stands on ``square`` as ``(kind, detail)``, or None: a ``printed city`` (detail 1), a
    ``city`` (its strength), a ``camp`` (its priority), a ``sky tower`` (the number of its pair),
    a ``farm`` (its resource) or a ``trading post`` (the resource of its latest declaration, or "").

    >>> from bkref.game.position import Position
    >>> p = Position(building={"B2": "city3", "D10": "camp4", "E5": "trading_post"})
    >>> [building_on(p, sq) for sq in ("A4", "B2", "D10", "E5", "A5")]
    [('printed city', '1'), ('city', '3'), ('camp', '4'), ('trading post', ''), None]
    """
    if BOARD[square].printed_city:
        return "printed city", "1"
    card = position.building.get(square)
    if card is None:
        return None
    info = CARDS[card]
    if info.kind == "city":
        return "city", str(info.strength)
    if info.kind == "camp":
        return "camp", str(info.priority)
    if info.kind == "sky_tower":
        pair = next(i for i, pair in enumerate(position.towers, start=1) if square in pair)
        return "sky tower", str(pair)
    if info.produces is None:
        return "trading post", position.declared.get(square, "")
    return "farm", info.produces


def building_code(position: Position, square: str) -> str:
    """The three characters that say what stands on ``square``: a city, farm, camp or tower."""
    match building_on(position, square):
        case None:
            return "   "
        case ("printed city", _):
            return "(1)"
        case ("city", strength):
            return f"[{strength}]"
        case ("camp", priority):
            return f"^{priority} "
        case ("sky tower", pair):
            return f"T{pair} "
        case ("trading post", declared):
            return "tp" + (declared[0] if declared else "?")
        case (_, resource):
            return FARM_CODES[resource]


def square_text(position: Position, square: str, letters: dict[str, str]) -> str:
    """Five characters: the owner's letter (or a space), the terrain letter, the building."""
    owner = position.owner.get(square)
    letter = TERRAIN[BOARD[square].terrain][0]
    return f"{letters[owner] if owner else ' '}{letter}{building_code(position, square)}"


def changed_squares(before: State, after: State) -> frozenset[str]:
    """The squares an event claimed, built on or freed: the last move, to mark on the board."""
    old, new = before.position, after.position
    held = old.owner.keys() | new.owner.keys() | old.building.keys() | new.building.keys()
    return frozenset(
        sq for sq in held if old.owner.get(sq) != new.owner.get(sq) or old.building.get(sq) != new.building.get(sq)
    )
