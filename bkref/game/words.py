"""Small helpers for the sentences bkref writes.

>>> count(1, "card"), count(2, "card"), count(3, "city", "cities")
('1 card', '2 cards', '3 cities')
"""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` things, in words: "1 card", "2 cards" (``many`` when the plural is not ``one`` + s)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
