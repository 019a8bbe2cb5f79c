"""Diagnostics: what the referee found, where, and how it is printed.

>>> d = Diagnostic("game.jsonl", 41, "pick", "D2", "bob picks A7, which is not in bob's hand: B4, C5")
>>> d.text()
"game.jsonl:41: D2 bob picks A7, which is not in bob's hand: B4, C5"
"""

from __future__ import annotations

import msgspec

EXIT_LEGAL = 0
EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2


class Diagnostic(msgspec.Struct, frozen=True):
    """One problem: the file, its line (from 1), the event's type, the rule id, a sentence."""

    file: str
    line: int
    event: str | None
    rule: str
    message: str

    def text(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.rule} {self.message}"


def exit_status(diagnostics: list[Diagnostic]) -> int:
    """0 legal, 1 illegal moves or mismatched expects, 2 unreadable (any F1)."""
    if any(d.rule == "F1" for d in diagnostics):
        return EXIT_UNREADABLE
    return EXIT_ILLEGAL if diagnostics else EXIT_LEGAL
