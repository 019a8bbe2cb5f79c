"""Where a log comes from: a path, its text, its bytes, or an open stream.

A ``LogSource`` is any of:

- a path: a ``pathlib.Path`` (or any ``os.PathLike``), or a ``str`` naming a file;
- the log itself: ``bytes``, or a ``str`` holding a line break or starting with ``{``
  (any other ``str`` is a path);
- an open stream, binary or text: a file, ``io.BytesIO``/``io.StringIO``,
  ``sys.stdin``. A text stream with an underlying binary buffer (``sys.stdin``, files
  opened in text mode) is read through that buffer, so its bytes are judged exactly
  as a file's would be (line ends, byte order mark, encoding). Streams are read line
  by line as the lines arrive, and are not closed.

``blocks_of(source)`` opens it as blocks of raw lines for ``bkref.io.referee``;
``read(source)`` gives the records and F1 problems, never an exception.

>>> [type(r).__name__ for r in read('{"type":"game","format":"bkref/1","players":["a","b"]}\\n')]
['Record']
>>> list(read("no/such/log.jsonl"))
[Problem(line=0, event=None, message='no/such/log.jsonl: cannot read the file: No such file or directory')]
>>> name_of(b"{}"), name_of("replays/2p-ann-bob.jsonl")
('<bytes>', 'replays/2p-ann-bob.jsonl')
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final

from bkref.io.logfile import Problem, Record, read_lines

LogSource = str | os.PathLike[str] | bytes | bytearray | IO[str] | IO[bytes]
"""A path, the log's text or bytes, or an open text or binary stream (see the module)."""


def is_text(source: str) -> bool:
    """True when the ``str`` ``source`` is a log's text rather than a path."""
    return "\n" in source or source.lstrip().startswith("{")


def name_of(source: LogSource) -> str:
    """The name diagnostics give ``source``: its path, a stream's name, else ``<text>``, ``<bytes>``, ``<stream>``."""
    if isinstance(source, str):
        return "<text>" if is_text(source) else source
    if isinstance(source, os.PathLike):
        return os.fspath(source)
    if isinstance(source, bytes | bytearray):
        return "<bytes>"
    name = getattr(source, "name", None)
    if name == "<stdin>":
        return "-"
    return name if isinstance(name, str) else "<stream>"


@contextmanager
def blocks_of(source: LogSource) -> Iterator[Iterable[list[bytes]]]:
    """The raw lines of ``source`` (each with its line end, but the log's last line may lack
    one) in blocks, open for as long as the ``with`` statement runs.

    A file, or the log's own text, comes in blocks of the whole lines that each read of up
    to 64 KiB completes (``blocks``): the referee decodes a block's event lines in one go
    (``bkref.io.logfile.decode_run``). A pipe gives what has arrived, so a game still
    being written is checked as its lines come. A stream comes one line to a block.

    Raises ``OSError`` when a path cannot be opened or a stream cannot be read.
    """
    if isinstance(source, str) and not is_text(source):
        source = Path(source)
    if isinstance(source, os.PathLike):
        path = os.fspath(source)

        def read_file(size: int) -> bytes:
            try:
                return os.read(fd, size)
            except OSError as error:
                error.filename = path  # os.read does not name the file
                raise

        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))  # no stat: a folder fails to read
        try:
            yield blocks(read_file)
        finally:
            os.close(fd)
    elif isinstance(source, str):
        yield blocks(io.BytesIO(source.encode("utf-8", "surrogateescape")).read)
    elif isinstance(source, bytes | bytearray):
        yield blocks(io.BytesIO(source).read)
    else:
        yield ([line] for line in _stream_lines(source))


_BLOCK: Final = 1 << 16


def blocks(read: Callable[[int], bytes]) -> Iterator[list[bytes]]:
    """The lines of the text that ``read(size)`` gives (each with its line end, but the last
    may lack one), a block of them for each read that completes a line.

    >>> text = io.BytesIO(b'{"a":1}\\n{"b":2}\\n{"c"')
    >>> list(blocks(lambda size: text.read(10)))
    [[b'{"a":1}\\n'], [b'{"b":2}\\n'], [b'{"c"']]
    """
    pending: list[bytes] = []  # the start of a line not read to its end yet
    while chunk := read(_BLOCK):
        end = chunk.rfind(b"\n") + 1
        if not end:
            pending.append(chunk)
            continue
        pending.append(chunk[:end])
        yield io.BytesIO(b"".join(pending)).readlines()  # not splitlines(), which also ends a line at a CR
        pending = [chunk[end:]] if end < len(chunk) else []
    if pending:
        yield [b"".join(pending)]


def _stream_lines(stream: IO[Any]) -> Iterable[bytes]:
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:  # a text stream over bytes: read the bytes themselves
        return iter(buffer.readline, b"")
    first = stream.read(0)
    if isinstance(first, str):
        return (line.encode("utf-8", "surrogateescape") for line in iter(stream.readline, ""))
    return iter(stream.readline, b"")


STDIN: Final = Path("-")
"""The path that names standard input on the command line."""


def not_a_log_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as one log file (``score``, ``replay``), or None: anything
    that exists and is not a folder is read, so an empty file (``/dev/null``) is reported
    as the log it is (F1, no game event)."""
    if path.is_dir():
        return f"{path}: is a directory, not a log file"
    return None if path.exists() else f"{path}: no such file"


def unreadable(error: OSError) -> str:
    """What bkref says of a log it cannot read, after the log's name."""
    return f"cannot read the file: {error.strerror or error}"


@contextmanager
def one_log(
    path: Path, stdin: IO[str] | None, error: Callable[[str], Exception]
) -> Iterator[tuple[LogSource, str | None]]:
    """The one log a command reads (``score``, ``replay``, ``moves``): ``path``, or ``stdin``
    for ``-``; as ``(source, label)`` for ``bkref.io.referee.play``.

    A path that cannot be a log, or cannot be read in the block, raises ``error(message)``.
    """
    source: tuple[LogSource, str | None]
    if path == STDIN and stdin is not None:
        source = (stdin, "-")
    else:
        refused = not_a_log_file(path)
        if refused:
            raise error(refused)
        source = (path, None)
    try:
        yield source
    except OSError as failed:
        raise error(f"{path}: {unreadable(failed)}") from None


def read(source: LogSource) -> Iterator[Record | Problem]:
    """The events of the log (each with its line number) and its F1 problems, as they are read.

    Never raises for bad input: a log that cannot be opened or read is one ``Problem``
    on line 0.
    """
    try:
        with blocks_of(source) as opened:
            yield from read_lines(line for block in opened for line in block)
    except OSError as error:
        yield Problem(0, None, f"{name_of(source)}: {unreadable(error)}")
