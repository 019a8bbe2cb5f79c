"""The replay printed, one position after another: what ``bkref replay`` prints, and ``--step``
off a terminal (keys piped on stdin), which reads whole lines.

``position_printout`` is everything shown after one event: the header, the event in
words (``narration``), its problems, the board (``boardtext``) and the tables
(``tables``). ``step_by_lines`` shows one, then moves as each line read says
(``navigation.move``), until q or the end of input.

>>> import io
>>> from pathlib import Path
>>> from bkref.views.navigation import load
>>> from bkref.views.terminal import console
>>> out, keys = io.StringIO(), io.StringIO("n\\nn\\n")
>>> step_by_lines(console(out), load(Path("replays/worked-example.jsonl")), 21, "w", keys, echo=True)
>>> print("\\n".join(line for line in out.getvalue().splitlines() if line.startswith(("w:", "this"))))
w: event 22 of 23 (line 25)
w: event 23 of 23 (line 26)
this is the last event
"""

from __future__ import annotations

import codecs
import os
import select
from collections.abc import Iterator
from typing import Final, TextIO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from bkref.io.diagnostics import printable
from bkref.views.boardtext import board_text, legend_text
from bkref.views.narration import describe, earlier_problems, stage, stops_here
from bkref.views.navigation import HELP, Replay, move, state_before, stops
from bkref.views.palette import PROBLEM_STYLE
from bkref.views.seenby import problems_seen
from bkref.views.tables import final_scores, harvest_table, players_table
from bkref.views.terminal import emit


def position_printout(steps: Replay, index: int, label: str, seen_by: str | None = None) -> Group:
    """Everything shown after event ``index + 1`` of a replay: header, event, board, players."""
    step = steps[index]
    state = step.state
    before = state_before(steps, index)
    parts: list[RenderableType] = [
        Text(
            f"{printable(label)}: event {index + 1} of {len(steps)} (line {step.line})", no_wrap=True, overflow="ignore"
        ),
        Text(stage(state, step.event), style="bold"),
    ]
    lines = describe(step, before, seen_by)
    parts.append(Text(lines[0], style="bold"))
    parts += [Text(line) for line in lines[1:]]
    # A problem stays on one line, as validate prints it (print the position with crop=False).
    parts += [
        Text(d.text(), style=PROBLEM_STYLE, no_wrap=True, overflow="ignore") for d in problems_seen(step, seen_by)
    ]
    parts += [Text(line) for line in (earlier_problems(steps, index), stops_here(steps, index)) if line]
    parts += [Text(""), board_text(state), Text(""), legend_text(state), Text(""), players_table(state, seen_by)]
    if state.harvests_done > before.harvests_done:  # a harvest event, or a deal that closes a round (T1)
        parts += [Text(""), harvest_table(state)]
    if state.final is not None:
        parts += [Text(""), final_scores(state)]
    return Group(*parts)


def show(console: Console, steps: Replay, index: int, label: str, seen_by: str | None = None) -> None:
    """Print the position after event ``index`` (as player ``seen_by`` saw it, if given)."""
    emit(
        console, position_printout(steps, index, label, seen_by), crop=False
    )  # not cropped: a problem stays on one line


def step_by_lines(
    console: Console,
    steps: Replay,
    index: int,
    label: str,
    keys: TextIO,
    *,
    echo: bool,
    by: str = "event",
    seen_by: str | None = None,
) -> None:
    """Show event ``index``, then move as each line read from ``keys`` says, until q or the end of input.

    With colour, each position replaces the last one on the screen; otherwise they follow each other.
    """
    shown = None
    landing = stops(steps, by)
    typed = typed_lines(keys)
    while True:
        if index != shown:
            if console.color_system is not None:
                console.clear()
            show(console, steps, index, label, seen_by)
            shown = index
        console.print(f"[{HELP}] > ", end="")
        line = next(typed, "")
        if echo or not line:
            console.print(line.rstrip("\n"))
        target, note = move(steps, index, line, landing) if line else (None, "")
        if target is None:
            return
        index = target
        if note:
            console.print(note)


WAKE: Final = 0.1
"""How often the wait for a typed line wakes, in seconds, to handle a Ctrl-C that came just before it."""


def typed_lines(keys: TextIO) -> Iterator[str]:
    """The lines typed or piped on ``keys``, unread so far, as they come: each ends at ``\\n``
    and keeps it, but the last may lack one.

    Python runs a signal's handler between two steps of the interpreter, and a read that has
    not begun yet is not interrupted: a Ctrl-C that came just before the read of a line would
    wait for the next line. So a stream with a file descriptor ``select`` can wait on is read
    straight from it, and the wait for a line wakes every ``WAKE`` seconds; another stream
    (in memory, or off POSIX) is read a line at a time.

    >>> import io
    >>> list(typed_lines(io.StringIO("n\\n12\\nq")))
    ['n\\n', '12\\n', 'q']
    """
    fd = _descriptor(keys)
    if fd is None:
        yield from iter(keys.readline, "")
        return
    decode = codecs.getincrementaldecoder(keys.encoding)(keys.errors or "strict").decode
    text = ""
    while True:
        end = text.find("\n") + 1
        if end:
            yield text[:end]
            text = text[end:]
        elif select.select([fd], [], [], WAKE)[0]:
            data = os.read(fd, _READ)
            text += decode(data, final=not data)
            if not data:
                break
    if text:
        yield text


_READ: Final = 1024


def _descriptor(stream: TextIO) -> int | None:
    """The file descriptor of ``stream`` for ``select``, or None: a stream in memory has none,
    and off POSIX ``select`` waits on sockets only."""
    if os.name != "posix":
        return None
    try:
        return stream.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return None
