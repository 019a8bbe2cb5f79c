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

import functools
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
def blocks_of(source: LogSource) -> Iterator[Iterable[bytes]]:
    """The raw text of ``source`` in blocks of whole lines (each line with its line end, but
    the log's last line may lack one), opened for as long as the block runs.

    A file, or the log's own text, comes line by line up to its first event, then in
    blocks of whole lines as they are read, about 64 KiB at most: the referee decodes a
    block at once (see ``bkref.io.logfile.decode_block``). A pipe gives what has
    arrived, so a game still being written is checked as its lines come. A stream comes
    line by line. ``lines(blocks)`` splits blocks into lines.

    Raises ``OSError`` when a path cannot be opened or a stream cannot be read.
    """
    if isinstance(source, str) and not is_text(source):
        source = Path(source)
    if isinstance(source, os.PathLike):
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_BINARY", 0))  # no stat: a folder fails to read
        try:
            yield _blocks(functools.partial(os.read, fd))
        finally:
            os.close(fd)
    elif isinstance(source, str):
        yield _blocks(io.BytesIO(source.encode("utf-8", "surrogateescape")).read)
    elif isinstance(source, bytes | bytearray):
        yield _blocks(io.BytesIO(source).read)
    else:
        yield _stream_lines(source)


_BLOCK: Final = 1 << 16


def _blocks(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """The text that ``read(size)`` gives, in blocks of whole lines: the first ones, to the
    first that is not blank or a comment (the game event), one line to a block."""
    head = True
    pending: list[bytes] = []  # the start of a line not read to its end yet
    while chunk := read(_BLOCK):
        end = chunk.rfind(b"\n") + 1
        if not end:
            pending.append(chunk)
            continue
        pending.append(chunk[:end])
        block = b"".join(pending)
        pending = [chunk[end:]] if end < len(chunk) else []
        if head:
            start = 0
            while head and start < len(block):
                stop = block.index(b"\n", start) + 1
                raw = block[start:stop]
                yield raw
                start = stop
                text = raw.strip()
                head = not text or text[0] == 35  # "#"
            block = block[start:]
        if block:
            yield block
    if pending:
        yield b"".join(pending)


def lines(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of ``blocks`` (from ``blocks_of``), each with its line end."""
    for block in blocks:
        yield from io.BytesIO(block)


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
        with blocks_of(source) as blocks:
            yield from read_lines(lines(blocks))
    except OSError as error:
        yield Problem(0, None, f"{name_of(source)}: {unreadable(error)}")
