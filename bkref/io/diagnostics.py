"""Diagnostics: what the referee found, where, and how it is printed.

>>> d = Diagnostic("game.jsonl", 41, "pick", "D2", "bob picks A7, which is not in bob's hand: B4, C5")
>>> d.text()
"game.jsonl:41: D2 bob picks A7, which is not in bob's hand: B4, C5"
>>> print(Diagnostic("g.jsonl", 1, None, "F1", "unknown event type " + chr(13)).text())
g.jsonl:1: F1 unknown event type \\r
"""

from __future__ import annotations

import re

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
        """The ``path:line: RULE message`` line; control characters in it are escaped, so it stays one line."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return _CONTROL.sub(_escape, f"{where}: {self.rule} {self.message}")


_CONTROL = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode()


def exit_status(diagnostics: list[Diagnostic]) -> int:
    """0 legal, 1 illegal moves or mismatched expects, 2 unreadable (any F1)."""
    if any(d.rule == "F1" for d in diagnostics):
        return EXIT_UNREADABLE
    return EXIT_ILLEGAL if diagnostics else EXIT_LEGAL
