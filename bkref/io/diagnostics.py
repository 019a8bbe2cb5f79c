"""Diagnostics: what the referee found, where, and how it is printed.

>>> d = Diagnostic("game.jsonl", 41, "pick", "D2", "bob picks A7, which is not in bob's hand: B4, C5")
>>> d.text()
"game.jsonl:41: D2 bob picks A7, which is not in bob's hand: B4, C5"
>>> Diagnostic("g.jsonl", 1, None, "F1", "unknown event type " + chr(13)).message
'unknown event type \\\\r'
"""

from __future__ import annotations

from collections.abc import Collection

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

    def __post_init__(self) -> None:
        if not self.message.isprintable():  # a value quoted from the log may hold any character
            msgspec.structs.force_setattr(self, "message", printable(self.message))

    def text(self) -> str:
        """The ``path:line: RULE message`` line; it stays one line whatever the file's name holds."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return printable(f"{where}: {self.rule} {self.message}")


def printable(text: str) -> str:
    """``text`` with every character outside printable text escaped as Python does: ``\\n``, ``\\x85``, ``\\u202e``.

    >>> print(printable("a" + chr(10) + "b" + chr(0x202E)))
    a\\nb\\u202e
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def exit_status(diagnostics: list[Diagnostic]) -> int:
    """0 legal, 1 illegal moves or mismatched expects, 2 unreadable (any F1)."""
    return rules_status({d.rule for d in diagnostics})


def rules_status(rules: Collection[str]) -> int:
    """The exit status of problems with these rule ids (``exit_status``), when only they are kept.

    >>> rules_status({"D2": 3}), rules_status({"D2": 1, "F1": 1}), rules_status({})
    (1, 2, 0)
    """
    if "F1" in rules:
        return EXIT_UNREADABLE
    return EXIT_ILLEGAL if rules else EXIT_LEGAL
