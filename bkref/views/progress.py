"""A progress bar for long runs, on standard error, only where a person watches it.

The bar shows on a terminal, once a run has lasted ``DELAY`` seconds; never in a pipe,
a file, or CI (the ``CI`` environment variable set, as CI services do). While it is
up, what the command prints on standard error (and on standard output, when that is
the terminal too) goes above it, and it leaves nothing behind when it ends. Commands
take ``sys.stdout`` and ``sys.stderr`` for their output inside the ``with`` block.

>>> import io
>>> with progress(3, "validate", stream=io.StringIO()) as advance:
...     for _ in range(3):
...         advance()
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY = 1.0
"""Seconds a run lasts before its bar shows: a quick run prints no bar at all."""


def shown(stream: TextIO) -> bool:
    """Whether a bar would show on ``stream``: a terminal, outside CI."""
    return stream.isatty() and not os.environ.get("CI")


def _nothing() -> None:
    pass


@contextmanager
def progress(total: int, label: str, *, stream: TextIO | None = None) -> Iterator[Callable[[], None]]:
    """A bar of ``total`` steps named ``label`` on ``stream`` (standard error); yields the
    function to call after each step."""
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

    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(file=stream, highlight=False),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),  # only when standard output shares the terminal
        redirect_stderr=True,
    )
    task = bar.add_task(label, total=total, visible=False)
    shows_at = time.monotonic() + DELAY
    visible = False

    def advance() -> None:
        nonlocal visible
        bar.advance(task)
        if not visible and time.monotonic() >= shows_at:
            visible = True
            bar.update(task, visible=True, refresh=True)

    with bar:
        yield advance
