"""Small helpers for the sentences bkref writes.

>>> count(1, "card"), count(2, "card"), count(3, "city", "cities")
('1 card', '2 cards', '3 cities')
>>> joined(["A1"]), joined(["A1", "B2"]), joined(["A1", "B2", "C3"])
('A1', 'A1 and B2', 'A1, B2 and C3')
>>> cards(["A1", "city2"]), cards([])
('A1, city2', 'nothing')
"""

from __future__ import annotations

from collections.abc import Sequence


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` things, in words: "1 card", "2 cards" (``many`` when the plural is not ``one`` + s)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (empty for no items)."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def cards(ids: Sequence[str]) -> str:
    """Card ids in a sentence: "A1, city2", or "nothing" for none."""
    return ", ".join(ids) if ids else "nothing"
