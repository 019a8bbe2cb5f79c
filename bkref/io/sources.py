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
[Problem(line=0, event=None, message='no/such/log.jsonl: no such file')]
>>> name_of(b"{}"), name_of("replays/2p-ann-bob.jsonl")
('<bytes>', 'replays/2p-ann-bob.jsonl')
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any, Final

from bkref.io.logfile import MAX_LINE, Problem, Record, read_lines

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
    A line longer than ``MAX_LINE`` comes as its first ``MAX_LINE`` bytes and a few more,
    and the rest of it is skipped unread: memory stays bounded, whatever the input.

    A relative path is read from ``RELATIVE_TO`` when it is set (on a Dask worker).

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

        here = RELATIVE_TO.get()
        opened = os.path.join(here, path) if here is not None else path
        # no stat: a folder fails to read; a named pipe with no writer is opened at once, not
        # waited on, and then read (blocking again) as empty: it has no event
        fd = os.open(opened, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
        os.set_blocking(fd, True)
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

    A line that grows past ``MAX_LINE`` with no end is yielded as what was read of it,
    and the rest of it is skipped.

    >>> text = io.BytesIO(b'{"a":1}\\n{"b":2}\\n{"c"')
    >>> list(blocks(lambda size: text.read(10)))
    [[b'{"a":1}\\n'], [b'{"b":2}\\n'], [b'{"c"']]
    """
    pending: list[bytes] = []  # the start of a line not read to its end yet
    held = 0  # its length
    skipping = False  # the rest of a line past MAX_LINE is being dropped
    while chunk := read(_BLOCK):
        if skipping:
            first = chunk.find(b"\n") + 1
            if not first:
                continue
            chunk, skipping = chunk[first:], False
        end = chunk.rfind(b"\n") + 1
        if not end:
            if chunk:
                pending.append(chunk)
                held += len(chunk)
            if held > MAX_LINE:  # the reader gets what was read of it (F1), and no more is kept
                yield [b"".join(pending)]
                pending, held, skipping = [], 0, True
            continue
        pending.append(chunk[:end])
        yield io.BytesIO(b"".join(pending)).readlines()  # not splitlines(), which also ends a line at a CR
        pending = [chunk[end:]] if end < len(chunk) else []
        held = len(chunk) - end
    if pending:
        yield [b"".join(pending)]


def _stream_lines(stream: IO[Any]) -> Iterable[bytes]:
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:  # a text stream over bytes: read the bytes themselves
        return _lines(buffer.readline, b"\n")
    first = stream.read(0)
    if isinstance(first, str):
        return (line.encode("utf-8", "surrogateescape") for line in _lines(stream.readline, "\n"))
    return _lines(stream.readline, b"\n")


def _lines(readline: Callable[[int], Any], end: Any) -> Iterator[Any]:
    """The lines ``readline`` gives, a line past ``MAX_LINE`` cut there and the rest of it skipped.

    >>> [len(line) for line in _lines(io.BytesIO(bytes(MAX_LINE + 5) + b"\\n{}").readline, b"\\n")]
    [1048577, 2]
    """
    while line := readline(MAX_LINE + 1):
        yield line
        if len(line) > MAX_LINE and not line.endswith(end):
            while (rest := readline(MAX_LINE + 1)) and not rest.endswith(end):
                pass


STDIN: Final = Path("-")
"""The path that names standard input on the command line."""

RELATIVE_TO: Final[ContextVar[str | None]] = ContextVar("RELATIVE_TO", default=None)
"""The folder relative paths are read from, when it is not this process's own (``bkref.io.batch``)."""


def not_a_log_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as one log file (``score``, ``replay``), or None: anything
    that exists and is not a folder is read, so an empty file (``/dev/null``) is reported
    as the log it is (F1, no game event)."""
    if path.is_dir():
        return f"{path}: is a directory, not a log file"
    try:
        path.stat()
    except OSError as error:
        return f"{path}: {missing(path, error)}"
    return None


def not_a_file(path: Path) -> str | None:
    """Why a ``*.jsonl`` entry of a folder is not read as a log, or None for a file: a link
    to nothing, a link loop, a named pipe (never opened: that would wait for a writer), a
    device or a socket."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        return missing(path, error)
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a log file: not read"
    return "is not a regular file (a device or a socket): not read"


def missing(path: Path, error: OSError) -> str:
    """What bkref says of a ``path`` it cannot find (``error``, from ``stat``)."""
    if error.errno == errno.ENOENT and path.is_symlink():
        return f"is a symbolic link to {os.readlink(path)}, which does not exist"
    return unreadable(error)


def unreadable(error: OSError) -> str:
    """What bkref says of a log it cannot read, after the log's name: a missing file, a
    folder and a link loop in the words of the command line.

    >>> unreadable(FileNotFoundError(errno.ENOENT, "No such file or directory"))
    'no such file'
    """
    if error.errno == errno.ENOENT:
        return "no such file"
    if error.errno == errno.EISDIR:
        return "is a directory, not a log file"
    if error.errno == errno.ELOOP:
        return "is a symbolic link in a loop: it never reaches a file"
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
