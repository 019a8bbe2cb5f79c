"""Reading ``bkref/1`` logs: bytes in, numbered events (or format problems) out.

This is the only place that knows about JSON lines; the rules live in
``bkref.game.engine``. Lines are decoded as they are read, runs of them at a time
(``decode_run``), so a log of any length is checked in constant memory. Every problem
with the text itself is a ``Problem`` with rule ``F1`` and the physical line number
(from 1).

>>> game = b'{"type":"game","format":"bkref/1","players":["a","b"]}\\n'
>>> records = list(read_lines([game, b'# a comment\\n', b'{"type":"deal"\\n']))
>>> records[0].line, type(records[0].event).__name__
(1, 'Game')
>>> records[1]
Problem(line=3, event='deal', message='line 3 is not complete JSON: it stops before the end of the object')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Final, NamedTuple

import msgspec

from bkref.game.events import EVENT_TYPES, Event, Game, event_type

decode: Final = msgspec.json.Decoder(Event).decode
"""Decode one line's JSON into its event (``msgspec.DecodeError`` when it is not one)."""


def decode_run(lines: list[bytes], start: int) -> list[Event]:
    """The events of ``lines[start:]``, one per line, up to the first line that is not one
    (blank, a comment, a problem), which ``LineReader`` then reads.

    Decoding a run of lines at once, then playing its events, is faster than taking turns
    line by line. It is for the lines after the game event: the first ones go through the
    reader. The work is in proportion to the run, however many lines follow it.

    >>> lines = [b'{"type":"harvest","round":1}\\n', b'{"type":"end"}\\n', b"# a comment\\n", b'{"type":"end"}\\n']
    >>> [type(e).__name__ for e in decode_run(lines, 0)], decode_run(lines, 2), len(decode_run(lines, 3))
    (['Harvest', 'End'], [], 1)
    """
    events: list[Event] = []
    append = events.append
    try:
        for raw in islice(lines, start, None):  # not lines[start:], a copy for every run
            append(decode(raw))
    except msgspec.DecodeError:
        pass  # the events before the line that is not one
    return events


_BOM: Final = b"\xef\xbb\xbf"


class Record(NamedTuple):
    """One event of the log and the line it stands on."""

    line: int
    event: Event


class Problem(NamedTuple):
    """A line that is not a ``bkref/1`` event (rule F1); ``event`` is its type if known."""

    line: int
    event: str | None
    message: str


_FIELD_KINDS: Final = {
    "at": "square",
    "card": "card",
    "keep": "card",
    "discard": "card",
    "cards": "card",
    "hands": "card",
    "reserves": "card",
    "deck": "card",
    "copies": "card",
}


def _bad_key(value: str, top: str) -> str:
    if top == "copies":
        return f"{value} in copies is not a copy card (liberal or socialist)"
    return f"{value} in {top} is not a square of the board (A1 to J10)"


def _bad_value(value: str, path: str) -> str:
    top = re.split(r"[.\[]", path)[0]
    if top == "type":
        return f"unknown event type {value}; the types are {', '.join(EVENT_TYPES)}"
    if top == "trading_posts":
        return f"{value} in trading_posts is not a resource a trading post declares (wood, fish or carrot)"
    if top == "rulings":
        return f"{value} is not a value of ruling {path.split('.')[-1]} (see RULES.md R1-R6)"
    if top == "copies":
        return f"{value} in copies is not a card id of cards.csv"
    noun = _FIELD_KINDS.get(top)
    if noun == "square":
        return f"{value} in {path} is not a square of the board (A1 to J10)"
    if noun == "card":
        return f"{value} in {path} is not a card id of cards.csv or a square"
    return f"{value} is not allowed in {path}"


# The JSON types msgspec names, as a player reads them.
_KINDS: Final = {
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
    "bool": "true or false",
    "null": "null",
    "array": "an array",
    "object": "an object",
}


_JSON_NAMES: Final = {"int": "number", "float": "number", "str": "string", "bool": "boolean"}


def _kinds(expected: str) -> str:
    """``array | null`` becomes ``an array or null``."""
    return " or ".join(_KINDS.get(kind, kind) for kind in expected.split(" | "))


# msgspec's error texts (without their `` - at `$.path` `` tail), each with the sentence it becomes,
# given what the error is about ("the deal event's round") and the path ("round").
_MESSAGES: Final[list[tuple[re.Pattern[str], Callable[[re.Match[str], str, str], str]]]] = [
    (
        re.compile(r"Object contains unknown field `(.*)`", re.DOTALL),
        lambda m, subject, path: f"{subject} has an unknown field {m[1]!r}",
    ),
    (
        re.compile(r"Object missing required field `(.*)`", re.DOTALL),
        lambda m, subject, path: f"{subject} lacks the required field {m[1]!r}",
    ),
    (re.compile(r"Invalid (?:enum )?value (.*)", re.DOTALL), lambda m, subject, path: _bad_value(m[1], path)),
    (
        re.compile(r"Expected `([a-z| ]+)`, got `(\w+)`"),
        lambda m, subject, path: f"{subject} must be {_kinds(m[1])}, not {_KINDS.get(m[2], m[2])}",
    ),
    (re.compile(r"Expected `str` of length >= 1"), lambda m, subject, path: f"{subject} must not be an empty string"),
    (
        re.compile(r"Expected `([a-z| ]+)` ([<>]=) (-?\d+)"),
        lambda m, subject, path: f"{subject} must be {'at least' if m[2] == '>=' else 'at most'} {m[3]}",
    ),
    (re.compile(r"Expected `([a-z| ]+)`"), lambda m, subject, path: f"{subject} must be {_kinds(m[1])}"),
]
_AT: Final = re.compile(r"(.*) - at (`key` in )?`\$\.?([^`]*)`", re.DOTALL)
_MALFORMED: Final = re.compile(r"JSON is malformed: (.+) \(byte (\d+)\)")


def _explain(error: msgspec.DecodeError, line: int, kind: str | None, offset: int) -> str:
    """Turn a msgspec error into a sentence that names the field (``offset``: bytes before the line's JSON)."""
    text = str(error)
    if text == "Input data was truncated":
        return f"line {line} is not complete JSON: it stops before the end of the object"
    malformed = _MALFORMED.fullmatch(text)
    if malformed:
        return f"line {line} is not JSON: {malformed[1]} at column {int(malformed[2]) + offset + 1}"
    at = _AT.fullmatch(text)
    body, key, path = (at[1], at[2], at[3]) if at else (text, None, "")
    if not at and body.startswith("Expected `object`, got `"):
        got = body.split("`")[3]
        return f"line {line} is not an event: a JSON {_JSON_NAMES.get(got, got)} where an object is needed"
    if key and body.startswith("Invalid enum value "):
        return _bad_key(body.removeprefix("Invalid enum value "), path.split("[")[0])
    what = f"the {kind} event" if kind else "the event"
    subject = f"a key of {path} in {what}" if key else f"{what}'s {path}" if path else what
    for pattern, message in _MESSAGES:
        match = pattern.fullmatch(body)
        if match:
            return message(match, subject, path)
    return f"{subject} does not fit the bkref/1 format"


_TYPE: Final = re.compile(rb'"type"\s*:\s*"([a-z]+)"')


def _type_of(raw: bytes) -> str | None:
    """The event type a broken line was meant to have, if it can be seen."""
    found = _TYPE.search(raw)
    kind = found.group(1).decode() if found else None
    return kind if kind in EVENT_TYPES else None


_UTF16: Final = 'this file is UTF-16 text (Windows\' "Unicode"); bkref/1 logs are UTF-8: save it as UTF-8'


def _utf16(raw: bytes) -> bool:
    """Whether the first line of a file is UTF-16: a UTF-16 byte order mark, or ASCII with NUL bytes between."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    return b"\0" in raw[:2] and any(not half.strip(b"\0") for half in (raw[0::2], raw[1::2]))


def _not_text(number: int, raw: bytes, offset: int) -> Problem | None:
    """A fatal problem if ``raw`` is not text (a NUL byte, or not UTF-8): a binary file, or another encoding."""
    if b"\0" in raw:
        return Problem(number, None, f"line {number} holds a NUL byte: this is a binary file, not a JSON-lines log")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        column = error.start + offset + 1
        return Problem(
            number,
            None,
            f"line {number} is not UTF-8 text: byte 0x{raw[error.start]:02X} at column {column}; "
            "bkref/1 logs are UTF-8: save the file as UTF-8",
        )
    return None


class LineReader:
    """Reads a log one raw line at a time (``read``), keeping what ``read_lines`` knows between lines.

    A file that is not UTF-8 text, or any problem before a ``game`` event was read, is
    fatal: ``over`` turns true, because nothing after it can be checked.
    """

    __slots__ = ("game_seen", "over")

    def __init__(self) -> None:
        self.game_seen = False
        self.over = False

    def read(self, number: int, raw: bytes) -> Event | Problem | None:
        """The event on line ``number`` (``raw``, with its line end), the F1 problem with it,
        or None for a blank or comment line."""
        offset = 0  # bytes before the line's text: a byte order mark
        if number == 1:
            if _utf16(raw):
                self.over = True
                return Problem(1, None, _UTF16)
            if raw.startswith(_BOM):
                raw, offset = raw[len(_BOM) :], len(_BOM)
        if raw[:1] != b"{":  # not the usual line: blank, a "#" comment (never decoded, but text), or a problem
            text = raw.strip()
            if not text or text[0] == 35:
                problem = _not_text(number, raw, offset) if text else None
                self.over = problem is not None
                return problem
        try:
            event = decode(raw)  # JSON allows the line end, LF or CRLF, as trailing white space
        except msgspec.DecodeError as error:
            problem = _not_text(number, raw, offset)
            if problem:
                self.over = True
                return problem
            kind = _type_of(raw)
            self.over = not self.game_seen
            return Problem(number, kind, _explain(error, number, kind, offset))
        if not self.game_seen:
            if not isinstance(event, Game):
                kind = event_type(event)
                self.over = True
                return Problem(number, kind, f"the first event is a {kind}; a log starts with a game event")
            self.game_seen = True
        return event

    def end(self) -> Problem | None:
        """The problem of a log that ended with no game event, if it did."""
        return None if self.game_seen else Problem(1, None, "the log holds no event: it needs at least a game event")


def read_lines(lines: Iterable[bytes]) -> Iterator[Record | Problem]:
    """Decode raw lines (each with its line end) into records and F1 problems (see ``LineReader``).

    Lines may end with LF or CRLF, and a UTF-8 byte order mark at the start is ignored.
    A fatal problem is the last thing yielded.
    """
    reader = LineReader()
    read = reader.read
    for number, raw in enumerate(lines, start=1):
        item = read(number, raw)
        if item is None:
            continue
        yield item if isinstance(item, Problem) else Record(number, item)
        if reader.over:
            return
    problem = reader.end()
    if problem is not None:
        yield problem
