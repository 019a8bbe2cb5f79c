"""A progress bar for long runs, on standard error, only where a person watches it: the
steps done, the time elapsed and the time left.

The bar shows on a terminal, once a run has lasted ``DELAY`` seconds; never in a pipe,
a file, or CI (the ``CI`` environment variable set, as CI services do). While it is
up, what the command prints on standard error (and on standard output, when that is
the terminal too) goes above it, in batches every ``HOLD`` seconds, and the bar
leaves nothing behind when it ends. Commands take ``sys.stdout`` and ``sys.stderr``
for their output inside the ``with`` block.

>>> import io
>>> with progress(3, "validate", stream=io.StringIO()) as advance:
...     for _ in range(3):
...         advance()
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from bkref.io.diagnostics import printable

DELAY = 1.0
"""Seconds a run lasts before its bar shows: a quick run prints no bar at all."""


def shown(stream: TextIO) -> bool:
    """Whether a bar would show on ``stream``: a terminal, outside CI."""
    return stream.isatty() and not os.environ.get("CI")


def _nothing(note: str | None = None) -> None:
    pass


HOLD = 0.1
"""Seconds between two batches of the lines printed above the bar."""


class _Above(io.TextIOBase):
    """A standard stream while a bar may show: written through until the bar is up, then
    held and printed above the bar in batches (one line at a time would redraw the bar
    for each line, and make a long run of short lines twice as slow)."""

    def __init__(self, stream: TextIO, held: list[str] | None) -> None:
        self.stream = stream
        self.held = held  # None until the bar is up

    def write(self, text: str) -> int:
        if self.held is None:
            return self.stream.write(text)
        self.held.append(text)
        return len(text)

    def flush(self) -> None:
        if self.held is None:
            self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding


@contextmanager
def progress(
    total: int, label: str, *, stream: TextIO | None = None, noted: bool = False
) -> Iterator[Callable[..., None]]:
    """A bar of ``total`` steps named ``label`` on ``stream`` (standard error); yields the
    function to call after each step. With ``noted``, the bar ends with a note that each
    call may change (``advance("leader: greedy")``)."""
    stream = sys.stderr if stream is None else stream
    if not shown(stream):
        yield _nothing
        return
    from rich.console import Console  # only here: a run in a pipe never loads them
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("elapsed,"),
        TimeRemainingColumn(),
        TextColumn("left"),
        *([TextColumn("{task.fields[note]}")] if noted else []),
        console=Console(file=stream, highlight=False),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    task = bar.add_task(label, total=total, note="")
    # standard output is held too when it shares the terminal, so that the lines keep their order
    streams = [_Above(stream, None), *([_Above(sys.stdout, None)] if sys.stdout.isatty() else [])]
    held: list[str] = []
    shows_at = time.monotonic() + DELAY
    released = 0.0

    def release() -> None:
        """Print the whole lines held, above the bar."""
        text = "".join(held)
        whole, _, rest = text.rpartition("\n")
        held[:] = [rest] if rest else []
        if whole or _:
            bar.console.print(Text.from_ansi(whole), soft_wrap=True)

    def advance(note: str | None = None) -> None:
        nonlocal released
        if note is None:
            bar.advance(task)
        else:
            bar.update(task, advance=1, note=printable(note))
        now = time.monotonic()
        if streams[0].held is None:
            if now < shows_at:
                return
            for above in streams:
                above.stream.flush()
                above.held = held
            bar.start()
        elif now - released >= HOLD:
            release()
            released = now

    saved = sys.stderr, sys.stdout
    sys.stderr = streams[0] if stream is sys.stderr else sys.stderr
    sys.stdout = streams[-1] if len(streams) > 1 else sys.stdout
    try:
        yield advance
    finally:
        if streams[0].held is not None:
            release()
            bar.stop()
        sys.stderr, sys.stdout = saved
