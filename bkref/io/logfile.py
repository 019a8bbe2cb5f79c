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

from bkref.game.events import EVENT_TYPES, Build, Deal, Draw, End, Event, Game, Harvest, Pick, Rulings, event_type

decode: Final = msgspec.json.Decoder(Event).decode
"""Decode one line's JSON into its event (``msgspec.DecodeError`` when it is not one)."""


MAX_LINE: Final = 1 << 20
"""The longest a line may be, in bytes with its line end (1 MiB); a longer one is F1, and
the sources (``bkref.io.sources``) give the reader only its first ``MAX_LINE + 1`` bytes."""

MAX_DEPTH: Final = 100
"""The deepest a line may nest objects and arrays; a deeper one is F1 (however deep Python could go)."""


def decode_run(lines: list[bytes], start: int) -> list[Event]:
    """The events of ``lines[start:]``, one per line, up to the first line that is not one
    (blank, a comment, a problem), which ``LineReader`` then reads.

    Decoding a run of lines at once, then playing its events, is faster than taking turns
    line by line. It is for the lines after the game event: the first ones go through the
    reader. The work is in proportion to the run, however many lines follow it.

    The run ends before a line that may give a key twice (``_keys_once``). The quotes are
    counted in the whole run at once: a line never holds fewer than twice the strings its
    event needs, so a run that holds no more than twice theirs gives each key once on every
    line; else each line is looked at in turn.

    >>> lines = [b'{"type":"harvest","round":1}\\n', b'{"type":"end"}\\n', b"# a comment\\n", b'{"type":"end"}\\n']
    >>> [type(e).__name__ for e in decode_run(lines, 0)], decode_run(lines, 2), len(decode_run(lines, 3))
    (['Harvest', 'End'], [], 1)
    >>> len(decode_run([lines[0], b'{"type":"end","copies":{},"copies":{}}\\n', lines[1]], 0))  # up to the key twice
    1
    """
    events: list[Event] = []
    append = events.append
    strings = 0
    try:
        for raw in islice(lines, start, None):  # not lines[start:], a copy for every run
            if len(raw) > _CLOSED_DEEP and _deep_or_long(raw):
                break
            event = decode(raw)
            strings += _strings(event, raw)
            append(event)
    except (msgspec.DecodeError, RecursionError):
        pass  # the events before the line that is not one (or may not be: the reader tells)
    if _count(b"".join(islice(lines, start, start + len(events))), b'"') != 2 * strings:  # a key twice, maybe
        for at, raw in enumerate(islice(lines, start, start + len(events))):
            if not _keys_once(raw, events[at]):
                return events[:at]
    return events


_count: Final = bytes.count
"""``bytes.count`` as a function: in the compiled core, ``raw.count`` looks the method up each call."""

_CLOSED_DEEP: Final = 2 * MAX_DEPTH + 1
"""The shortest a line that is JSON and nests past ``MAX_DEPTH`` can be (``[[…]]``): a shorter
one past it is not JSON, which the reader reports (as past ``MAX_DEPTH``, as it checks first)."""


def _deep_or_long(raw: bytes) -> bool:
    """Whether the line may be longer than ``MAX_LINE`` or nest deeper than ``MAX_DEPTH``: a
    quick look, for lines longer than ``MAX_DEPTH`` (a shorter one cannot nest deeper)."""
    return len(raw) > MAX_LINE or _count(raw, b"{") + _count(raw, b"[") > MAX_DEPTH


_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)


def depth(raw: bytes) -> int:
    """How deep the line's JSON nests objects and arrays (brackets in strings do not count).

    >>> depth(b'{"a":[1,{"b":"[[["}]}'), depth(b"[[[["), depth(b"1")
    (3, 4, 0)
    """
    deepest = level = 0
    for char in _STRING.sub(b"", raw):
        if char == 123 or char == 91:  # { [
            level += 1
            deepest = max(deepest, level)
        elif char == 125 or char == 93:  # } ]
            level -= 1
    return deepest


def _keys_once(raw: bytes, event: Event) -> bool:
    """Whether the line surely gives each key of its objects once: it holds no more quotes
    than the keys and strings of ``event`` need (a key given twice adds quotes msgspec drops).

    The quotes of the text are never fewer; an escaped one (``\\"``) adds one, and so does
    a default value written out (``"discard":null``): then the answer is False, and the
    reader looks for a key given twice in full (``duplicate_key``). It is quick: the
    engine plays most lines that pass it.
    """
    return _count(raw, b'"') == 2 * _strings(event, raw)


_PICK: Final = Pick
_BUILD: Final = Build
_DRAW: Final = Draw
_DEAL: Final = Deal
_HARVEST: Final = Harvest
_END: Final = End
_GAME: Final = Game
"""The event types ``_strings`` tells apart: in the compiled core, a name imported is looked up
in the module's dictionary at each use, a ``Final`` one is read from where mypyc keeps it."""


def _strings(event: Event, raw: bytes) -> int:
    """How many strings (keys included) the line ``raw`` of ``event`` holds when it gives each
    key once and writes no default value but an empty ``trading_posts`` or ``copies``;
    -1 for a game event."""
    # type() is, not isinstance: a miss of isinstance calls the metaclass's __instancecheck__
    if type(event) is _PICK:
        n = 7 + len(event.keep)  # type round turn player keep: 5 keys, and "pick" and the player
        return n if event.discard is None else n + 1 + len(event.discard)
    if type(event) is _BUILD:
        return 8 + len(event.at)  # type round player card at, "build", the player and the card
    if type(event) is _DRAW:
        return 7 + len(event.cards)
    if type(event) is _DEAL:
        n = 4 + len(event.hands) + sum(len(cards) for cards in event.hands.values())
        reserves = event.reserves
        if reserves is not None:
            n += 1 + len(reserves) + sum(len(cards) for cards in reserves.values())
        return n
    if type(event) is _HARVEST:
        n = 3  # type round, "harvest"
        posts = event.trading_posts
        if posts:
            n += 1 + len(posts) + 2 * sum(len(declared) for declared in posts.values())
        elif b'"trading_posts"' in raw:  # written empty, as many logs do (or a player's name)
            n += _written(raw, b'"trading_posts"', event.expect)
        expect = event.expect
        return n if expect is None else n + 1 + len(expect)
    if type(event) is _END:
        n = 2  # type, "end"
        copies = event.copies
        if copies:
            n += 1 + len(copies)
            for chosen in copies.values():
                n += len(chosen) + sum(card is not None for card in chosen.values())
        elif b'"copies"' in raw:
            n += _written(raw, b'"copies"', event.expect)
        expect = event.expect
        return n if expect is None else n + 1 + len(expect)
    if type(event) is _GAME:
        if event.rulings != _DEFAULT_RULINGS:
            return -1  # rare: the reader looks in full
        n = 5 + len(event.players)  # type format players, "game" and the format
        if event.deck is not None:
            n += 1 + len(event.deck)
        meta = event.meta
        if meta is not None:
            n += 1 + _json_strings(meta)
        said = _count(raw, b'"rulings"')
        if said:  # written empty, as many logs do: once, if not only as a player's name or in meta
            said -= event.players.count("rulings") + (0 if meta is None else _mentions(meta, "rulings"))
            n += said == 1
        return n
    return -1


_DEFAULT_RULINGS: Final = Rulings()


def _written(raw: bytes, key: bytes, expect: dict[str, int] | None) -> int:
    """1 if the empty field ``key`` is written once (not only as a player's name in ``expect``), else 0."""
    found = _count(raw, key) - (expect is not None and key[1:-1].decode() in expect)
    return 1 if found == 1 else 0


def _mentions(value: object, word: str) -> int:
    """How many of the strings (keys included) of ``value``, decoded JSON, are ``word``."""
    if isinstance(value, str):
        return value == word
    if isinstance(value, dict):
        return sum((key == word) + _mentions(item, word) for key, item in value.items())
    if isinstance(value, list):
        return sum(_mentions(item, word) for item in value)
    return 0


def _json_strings(value: object) -> int:
    """How many strings (keys included) ``value``, decoded JSON, holds (``MAX_DEPTH`` bounds the depth)."""
    if isinstance(value, str):
        return 1
    if isinstance(value, dict):
        return sum(1 + _json_strings(item) for item in value.values())
    if isinstance(value, list):
        return sum(_json_strings(item) for item in value)
    return 0


def duplicate_key(raw: bytes) -> str | None:
    """The first key that an object of the line gives twice, if one does (the line is JSON).

    >>> duplicate_key(b'{"type":"pick","a":{"x":1,"x":2}}'), duplicate_key(b'{"a":{"x":1},"b":{"x":1}}')
    ('x', None)
    """
    import json

    twice: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> None:
        keys = [key for key, _ in items]
        if not twice and len(set(keys)) < len(keys):
            twice.append(next(key for i, key in enumerate(keys) if key in keys[:i]))

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    return twice[0] if twice else None


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


_LITERALS: Final = (b"null", b"true", b"false")


def _bad_byte(raw: bytes, at: int) -> int:
    """The byte msgspec's error at byte ``at`` is about: in a misspelt ``null``, ``true`` or
    ``false``, msgspec points to a byte after its start (one, or the word's length, after),
    where an editor would point to the first wrong letter.

    >>> _bad_byte(b"not json", 4), _bad_byte(b'{"a":nulx}', 6), _bad_byte(b'{"a":-x}', 6)
    (1, 8, 6)
    """
    for literal in _LITERALS:
        for start in (at - 1, at - len(literal)):
            if start >= 0 and raw[start : start + 1] == literal[:1]:
                word = raw[start : start + len(literal)]
                wrong = next((i for i in range(len(word)) if word[i] != literal[i]), len(word))
                if wrong < len(literal):
                    return start + wrong
    return at


def _explain(error: msgspec.DecodeError, raw: bytes, line: int, kind: str | None, offset: int) -> str:
    """Turn a msgspec error on the line ``raw`` (its JSON) into a sentence that names the field
    (``offset``: bytes before the line's JSON)."""
    text = str(error)
    if text == "Input data was truncated":
        return f"line {line} is not complete JSON: it stops before the end of the object"
    malformed = _MALFORMED.fullmatch(text)
    if malformed:
        column = _bad_byte(raw, int(malformed[2])) + offset + 1
        return f"line {line} is not JSON: {malformed[1]} at column {column}"
    at = _AT.fullmatch(text)
    body, key, path = (at[1], at[2], at[3]) if at else (text, None, "")
    if not at and body.startswith("Expected `object`, got `"):
        got = body.split("`")[3]
        return f"line {line} is not an event: a JSON {_JSON_NAMES.get(got, got)} where an object is needed"
    if key and body.startswith("Invalid enum value "):
        return _bad_key(body.removeprefix("Invalid enum value "), path.split("[")[0])
    if "[...]" in path:
        path = _keyed(path, raw, body)
    what = f"the {kind} event" if kind else "the event"
    subject = f"a key of {path} in {what}" if key else f"{what}'s {path}" if path else what
    for pattern, message in _MESSAGES:
        match = pattern.fullmatch(body)
        if match:
            return message(match, subject, path)
    return f"{subject} does not fit the bkref/1 format"


_STEP: Final = re.compile(r"\.?([A-Za-z_]\w*)|\[(\d+)\]|\[\.\.\.\]")
_GOT: Final = re.compile(r"Expected `[a-z| ]+`, got `(\w+)`")
_INVALID: Final = re.compile(r"Invalid (?:enum )?value (.*)", re.DOTALL)
_JSON_KIND: Final = {
    str: "str",
    bool: "bool",
    int: "int",
    float: "float",
    type(None): "null",
    list: "array",
    dict: "object",
}


def _keyed(path: str, raw: bytes, body: str) -> str:
    """``path`` with each ``[...]`` (msgspec's mark for a key of an object, which it does not
    name) made the key of the first value of the line that fits the error ``body``: a value of
    the JSON type it got, or the value it calls invalid; ``path`` as it is when none can be found.

    >>> _keyed("expect[...]", b'{"expect":{"ann":2,"bob":"x"}}', "Expected `int`, got `str`")
    'expect["bob"]'
    >>> _keyed("hands[...][0]", b'{"hands":{"ann":["A1"],"bob":["dragon"]}}', "Invalid enum value 'dragon'")
    'hands["bob"][0]'
    """
    got, invalid = _GOT.fullmatch(body), _INVALID.fullmatch(body)
    if got is None and invalid is None:
        return path
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return path
    steps = [step[0].lstrip(".") for step in _STEP.finditer(path)]
    wanted = got[1] if got is not None else None
    bad = invalid[1] if invalid is not None else None
    return _found(value, steps, 0, "", wanted, bad) or path


def _found(node: object, steps: list[str], i: int, shown: str, kind: str | None, bad: str | None) -> str | None:
    """The path, as ``_keyed`` shows it, of the first value below ``node`` at ``steps[i:]`` of
    the JSON ``kind`` (msgspec's name), or shown as ``bad``; None if there is none."""
    if i == len(steps):
        if kind is not None:
            return shown if _JSON_KIND.get(type(node)) == kind else None
        return shown if bad in (repr(node), str(node)) else None
    step = steps[i]
    if step == "[...]":
        for key, each in node.items() if isinstance(node, dict) else ():
            found = _found(each, steps, i + 1, f"{shown}[{msgspec.json.encode(key).decode()}]", kind, bad)
            if found is not None:
                return found
        return None
    if step.startswith("["):
        at = int(step[1:-1])
        return (
            _found(node[at], steps, i + 1, shown + step, kind, bad)
            if isinstance(node, list) and at < len(node)
            else None
        )
    if isinstance(node, dict) and step in node:
        return _found(node[step], steps, i + 1, f"{shown}.{step}" if shown else step, kind, bad)
    return None


_TYPE: Final = re.compile(rb'"type"\s*:\s*"([a-z]+)"')


def _type_of(raw: bytes) -> str | None:
    """The event type a broken line was meant to have, if it can be seen."""
    found = _TYPE.search(raw)
    kind = found.group(1).decode() if found else None
    return kind if kind in EVENT_TYPES else None


_UTF16: Final = 'this file is UTF-16 text (Windows\' "Unicode"); bkref/1 logs are UTF-8: save it as UTF-8'
_UTF32: Final = "this file is UTF-32 text; bkref/1 logs are UTF-8: save it as UTF-8"


def _wide(raw: bytes) -> str | None:
    """The problem of a file whose first line is UTF-32 or UTF-16 text: a byte order mark, or
    ASCII with NUL bytes between; None for any other (NUL bytes alone, too).

    >>> _wide("{}".encode("utf-32")) == _UTF32, _wide("{}".encode("utf-16-le")) == _UTF16, _wide(bytes(8))
    (True, True, None)
    """
    if raw.startswith((b"\xff\xfe\0\0", b"\0\0\xfe\xff")):
        return _UTF32
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _UTF16
    if b"\0" not in raw[:4] or not raw.strip(b"\0\n"):
        return None
    if sum(not raw[i::4].strip(b"\0") for i in range(4)) == 3:  # three bytes of four NUL
        return _UTF32
    if any(not half.strip(b"\0") for half in (raw[0::2], raw[1::2])):
        return _UTF16
    return None


def _beyond_limits(number: int, raw: bytes) -> str | None:
    """Why line ``number`` is past a limit of the format (``MAX_LINE``, ``MAX_DEPTH``), or None."""
    if len(raw) > MAX_LINE:
        return f"line {number} is longer than {MAX_LINE:,} bytes (1 MiB), the longest a line may be"
    deepest = depth(raw)
    return _too_deep(number, deepest) if deepest > MAX_DEPTH else None


def _twice(number: int, key: str) -> str:
    return f"line {number} gives the key {key!r} twice in one object; each key may appear once"


def _too_deep(number: int, deepest: int) -> str:
    return f"line {number} nests objects and arrays {deepest} deep; a line may nest them {MAX_DEPTH} deep at most"


def _not_text(number: int, raw: bytes, offset: int) -> Problem | None:
    """A fatal problem if ``raw`` is not text (a NUL byte, or not UTF-8): a binary file, or another encoding.

    A line cut at ``MAX_LINE`` may end inside a character: that is no fault.
    """
    if b"\0" in raw:
        return Problem(number, None, f"line {number} holds a NUL byte: this is a binary file, not a JSON-lines log")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if len(raw) > MAX_LINE and error.reason == "unexpected end of data":
            return None
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
            wide = _wide(raw)
            if wide is not None:
                self.over = True
                return Problem(1, None, wide)
            if raw.startswith(_BOM):
                raw, offset = raw[len(_BOM) :], len(_BOM)
        if raw[:1] != b"{":  # not the usual line: blank, a "#" comment (never decoded, but text), or a problem
            text = raw.strip()
            if not text or text[0] == 35:
                problem = _not_text(number, raw, offset) if text else None
                self.over = problem is not None
                return problem
        if len(raw) > MAX_DEPTH and _deep_or_long(raw):
            beyond = _beyond_limits(number, raw)
            if beyond is not None:
                return self._problem(number, raw, offset, beyond)
        try:
            event = decode(raw)  # JSON allows the line end, LF or CRLF, as trailing white space
        except msgspec.DecodeError as error:
            twice = duplicate_key(raw)  # the first thing to mend: msgspec saw the last of them only
            kind = None if twice == "type" else _type_of(raw)
            message = _twice(number, twice) if twice else _explain(error, raw, number, kind, offset)
            return self._problem(number, raw, offset, message, kind)
        except RecursionError:  # called from deep in the stack: what a line past MAX_DEPTH gets
            return self._problem(number, raw, offset, _too_deep(number, depth(raw)))
        if not _keys_once(raw, event):
            twice = duplicate_key(raw)
            if twice is not None:
                self.over = not self.game_seen
                return Problem(number, None if twice == "type" else event_type(event), _twice(number, twice))
        if not self.game_seen:
            if not isinstance(event, Game):
                kind = event_type(event)
                self.over = True
                return Problem(number, kind, f"the first event is a {kind}; a log starts with a game event")
            self.game_seen = True
        return event

    def _problem(self, number: int, raw: bytes, offset: int, message: str, kind: str | None = "") -> Problem:
        """The F1 problem ``message`` with line ``number``, of the event type ``kind`` (by default
        as far as it can be seen); a line that is not text is that problem instead, and fatal."""
        problem = _not_text(number, raw, offset)
        if problem:
            self.over = True
            return problem
        self.over = not self.game_seen
        return Problem(number, _type_of(raw) if kind == "" else kind, message)

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
