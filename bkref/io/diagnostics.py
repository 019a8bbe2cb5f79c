"""Diagnostics: what the referee found, where, and how it is printed.

>>> d = Diagnostic("game.jsonl", 41, "pick", "D2", "bob picks A7, which is not in bob's hand: B4, C5")
>>> d.text()
"game.jsonl:41: D2 bob picks A7, which is not in bob's hand: B4, C5"
>>> Diagnostic("g.jsonl", 1, None, "F1", "unknown event type " + chr(13)).message
'unknown event type \\\\r'
"""

from __future__ import annotations

import re
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


_NOT_ASCII = re.compile("[^\n -~]")  # a candidate for escaping: anything but a line end and printable ASCII


def json_printable(encoded: str) -> str:
    """JSON text with every character outside printable text (``printable``'s) written as a
    ``\\u`` escape: the same values once parsed, and nothing a terminal acts upon. msgspec
    escapes U+0000 to U+001F, and writes U+009B (a C1 CSI), U+2028 or U+202E as they are.

    >>> print(json_printable(msgspec.json.encode(["a" + chr(0x9B) + "é" + chr(0x202E) + chr(0xE0001)]).decode()))
    ["a\\u009bé\\u202e\\udb40\\udc01"]
    """
    return _NOT_ASCII.sub(_json_escape, encoded)


def _json_escape(match: re.Match[str]) -> str:
    c = match.group()
    if c.isprintable():
        return c
    code = ord(c)
    if code > 0xFFFF:  # a UTF-16 surrogate pair, as JSON writes a character past U+FFFF
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


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
