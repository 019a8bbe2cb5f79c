"""Reading ``bkref/1`` logs: bytes in, numbered events (or format problems) out.

This is the only place that knows about files and JSON lines; the rules live in
``bkref.game.engine``. Lines are decoded one at a time as they are read, so a log of any
length is checked in constant memory. Every problem with the text itself is a
``Problem`` with rule ``F1`` and the physical line number (from 1).

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
from typing import NamedTuple

import msgspec

from bkref.game.events import EVENT_TYPES, Event, Game, event_type

_DECODER = msgspec.json.Decoder(Event)
_BOM = b"\xef\xbb\xbf"


class Record(NamedTuple):
    """One event of the log and the line it stands on."""

    line: int
    event: Event


class Problem(NamedTuple):
    """A line that is not a ``bkref/1`` event (rule F1); ``event`` is its type if known."""

    line: int
    event: str | None
    message: str


_FIELD_KINDS = {
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
        return f"{value} is not a value of ruling {path.split('.')[-1]} (see RULES.md R1-R5)"
    if top == "copies":
        return f"{value} in copies is not a card id of cards.csv"
    noun = _FIELD_KINDS.get(top)
    if noun == "square":
        return f"{value} in {path} is not a square of the board (A1 to J10)"
    if noun == "card":
        return f"{value} in {path} is not a card id of cards.csv or a square"
    return f"{value} is not allowed in {path}"


def _lower(text: str) -> str:
    text = text.replace("`", "")
    return text[0].lower() + text[1:]


# msgspec's error texts, each with the sentence it becomes (``what`` names the event).
_MESSAGES: list[tuple[re.Pattern[str], Callable[[re.Match[str], int, str], str]]] = [
    (
        re.compile(r"Object contains unknown field `(.+)`(?: - at `\$\.?(.*)`)?$"),
        lambda m, line, what: f"{what} has an unknown field {m[1]!r}" + (f" in {m[2]}" if m[2] else ""),
    ),
    (
        re.compile(r"Object missing required field `(.+)`(?: - at `\$(.*)`)?$"),
        lambda m, line, what: f"{what} lacks the required field {m[1]!r}",
    ),
    (re.compile(r"Invalid enum value (.+) - at `key` in `\$\.(\w+)"), lambda m, line, what: _bad_key(m[1], m[2])),
    (re.compile(r"Invalid (?:enum )?value (.+) - at `\$\.?(.*)`$"), lambda m, line, what: _bad_value(m[1], m[2])),
    (
        re.compile(r"Expected `object`, got `(\w+)`$"),
        lambda m, line, what: f"line {line} is not an event: a JSON {m[1]} where an object is needed",
    ),
    (
        re.compile(r"JSON is malformed: (.+) \(byte (\d+)\)$"),
        lambda m, line, what: f"line {line} is not JSON: {m[1]} at column {int(m[2]) + 1}",
    ),
    (re.compile(r"(.+) - at `\$\.?(.*)`$"), lambda m, line, what: f"{what}: {m[2] or 'the event'}: {_lower(m[1])}"),
    (
        re.compile(r"Input data was truncated$"),
        lambda m, line, what: f"line {line} is not complete JSON: it stops before the end of the object",
    ),
]


def _explain(error: msgspec.DecodeError, line: int, kind: str | None) -> str:
    """Turn a msgspec error into a sentence that names the field."""
    text = str(error)
    what = f"the {kind} event" if kind else "the event"
    for pattern, message in _MESSAGES:
        match = pattern.match(text)
        if match:
            return message(match, line, what)
    return f"{what}: {_lower(text)}"


_TYPE = re.compile(rb'"type"\s*:\s*"([a-z]+)"')


def _type_of(raw: bytes) -> str | None:
    """The event type a broken line was meant to have, if it can be seen."""
    found = _TYPE.search(raw)
    kind = found.group(1).decode() if found else None
    return kind if kind in EVENT_TYPES else None


def _not_text(number: int, raw: bytes) -> Problem | None:
    """A fatal problem if ``raw`` is not text (a NUL byte, or not UTF-8): a binary file."""
    if b"\0" in raw:
        return Problem(number, None, f"line {number} holds a NUL byte: this is a binary file, not a JSON-lines log")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return Problem(number, None, f"line {number} is not UTF-8 text: this is not a JSON-lines log")
    return None


def read_lines(lines: Iterable[bytes]) -> Iterator[Record | Problem]:
    """Decode raw lines (each with its line end) into records and F1 problems.

    A binary file, or any problem before a ``game`` event was read, is fatal: it is the
    last thing yielded, because nothing after it can be checked.
    """
    crlf_reported = False
    game_seen = False
    decode = _DECODER.decode
    for number, raw in enumerate(lines, start=1):
        if number == 1 and raw.startswith(_BOM):
            yield Problem(
                1,
                None,
                "the file starts with a UTF-8 byte order mark; bkref/1 logs are UTF-8 without "
                "one (save it without the BOM)",
            )
            raw = raw[len(_BOM) :]
        if raw.endswith(b"\r\n") and not crlf_reported:
            crlf_reported = True
            yield Problem(number, None, "lines end with CRLF (Windows line ends); bkref/1 logs end lines with LF alone")
        if raw[:1] != b"{":  # not the usual line: blank, a "#" comment (never decoded, but text), or a problem
            raw = raw.strip()
            if not raw or raw[0] == 35:
                problem = _not_text(number, raw) if raw else None
                if problem:
                    yield problem
                    return
                continue
        try:
            event = decode(raw)  # JSON allows the line end as trailing white space
        except msgspec.DecodeError as error:
            problem = _not_text(number, raw)
            if problem:
                yield problem
                return
            kind = _type_of(raw)
            yield Problem(number, kind, _explain(error, number, kind))
            if not game_seen:
                return
            continue
        if not game_seen:
            if not isinstance(event, Game):
                kind = event_type(event)
                yield Problem(number, kind, f"the first event is a {kind}; a log starts with a game event")
                return
            game_seen = True
        yield Record(number, event)
    if not game_seen:
        yield Problem(1, None, "the log holds no event: it needs at least a game event")
