"""Replaying a log: its positions, the one an option names, and stepping through them.

``load`` plays the log through the referee once and keeps every state
(``referee.play(keep=True)``), so going back is only a look at an earlier state. ``move``
turns one typed line into the event to show; ``run`` is the loop around it. It reads
whole lines, so it works the same in a terminal and with its keys piped on stdin.

>>> from pathlib import Path
>>> steps = load(Path("replays/worked-example.jsonl"))
>>> len(steps), steps[0].line
(23, 4)
>>> move(steps, 0, ""), move(steps, 0, "b"), move(steps, 5, "12"), move(steps, 5, "q")
((1, ''), (0, 'this is the first event'), (11, ''), (None, ''))
>>> start(steps, to=None, round_="2", default=0)
Traceback (most recent call last):
...
bkref.views.stepper.ReplayError: --round 2: this log has no harvest of round 2; it stops before the deal of round 2
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console

from bkref.game.engine import ROUNDS
from bkref.io.diagnostics import Diagnostic, exit_status
from bkref.io.referee import Step, play
from bkref.views.render import position
from bkref.views.terminal import console as make_console
from bkref.views.terminal import emit


class ReplayError(Exception):
    """A log that cannot be replayed, or an option that names no position: one line for the user."""


def load(path: Path) -> list[Step]:
    """Every event of the log at ``path`` with the state after it.

    A log that stops early replays as far as it goes. A line that is not an event (F1)
    is shown with the event after it (the last one if none follows).
    """
    if not path.exists():
        raise ReplayError(f"{path}: no such file")
    if path.is_dir():
        raise ReplayError(f"{path}: is a directory, not a log file")
    steps: list[Step] = []
    unread: list[Diagnostic] = []
    try:
        for item in play(path, keep=True, partial=True):
            if isinstance(item, Diagnostic):
                unread.append(item)
            else:
                steps.append(item._replace(diagnostics=unread + item.diagnostics))
                unread = []
    except OSError as error:
        raise ReplayError(f"{path}: cannot read the file: {error.strerror or error}") from None
    if not steps:
        raise ReplayError(unread[0].text() if unread else f"{path}: the log holds no event")
    if unread:
        steps[-1] = steps[-1]._replace(diagnostics=steps[-1].diagnostics + unread)
    gc.collect()
    gc.freeze()  # the states live as long as the replay: no collection need walk them again
    return steps


def start(steps: Sequence[Step], *, to: str | None, round_: str | None, default: int) -> int:
    """The index of the event that ``--to N`` or ``--round R`` names, else ``default``."""
    if to is not None and round_ is not None:
        raise ReplayError("--to and --round both name a position; give one of them")
    if to is not None:
        if not to.strip().isdecimal() or not 1 <= int(to) <= len(steps):
            raise ReplayError(f"--to {to}: give an event number; this log has events 1 to {len(steps)}")
        return int(to) - 1
    if round_ is not None:
        if not round_.strip().isdecimal() or not 1 <= int(round_) <= ROUNDS:
            raise ReplayError(f"--round {round_}: give a round number, 1 to {ROUNDS}")
        wanted = int(round_)
        for i, step in enumerate(steps):
            if len(step.state.harvests) >= wanted:
                return i
        raise ReplayError(
            f"--round {wanted}: this log has no harvest of round {wanted}; it stops {steps[-1].state.where()}"
        )
    return default


def move(steps: Sequence[Step], index: int, key: str) -> tuple[int | None, str]:
    """Where one typed line leads from event ``index``: the next index (None to quit) and a note."""
    last = len(steps) - 1
    key = key.strip().lower()
    if key in ("", "n"):
        return (index + 1, "") if index < last else (index, "this is the last event")
    if key == "b":
        return (index - 1, "") if index > 0 else (index, "this is the first event")
    if key == "r":
        now = steps[index].state.round
        later = next((i for i in range(index + 1, len(steps)) if steps[i].state.round > now), last)
        return (later, "") if later > index else (index, "this is the last event")
    if key == "q":
        return None, ""
    if key.isdecimal():
        if 1 <= int(key) <= len(steps):
            return int(key) - 1, ""
        return index, f"no event {key}: this log has events 1 to {len(steps)}"
    return index, f"unknown key {key!r}: {HELP}"


HELP = "Enter or n next, b back, r next round, a number goes to that event, q quits"


def show(console: Console, steps: Sequence[Step], index: int, label: str) -> None:
    """Print the position after event ``index``."""
    emit(console, position(steps, index, label), crop=False)  # not cropped: a problem stays on one line


def run(console: Console, steps: Sequence[Step], index: int, label: str, keys: TextIO, *, echo: bool) -> None:
    """Show event ``index``, then move as each line read from ``keys`` says, until q or the end of input.

    With colour, each position replaces the last one on the screen; otherwise they follow each other.
    """
    shown = None
    while True:
        if index != shown:
            if console.color_system is not None:
                console.clear()
            show(console, steps, index, label)
            shown = index
        console.print(f"[{HELP}] > ", end="")
        line = keys.readline()
        if echo or not line:
            console.print(line.rstrip("\n"))
        target, note = move(steps, index, line) if line else (None, "")
        if target is None:
            return
        index = target
        if note:
            console.print(note)


def replay(path: Path, *, step: bool, to: str | None, round_: str | None, color: bool) -> int:
    """``bkref replay``: print one position, or step through the log from it.

    Returns the exit status of the whole log, as ``validate`` gives it (a log that stops
    early is not a problem here): 0 legal, 1 illegal events, 2 lines that are not events.
    """
    steps = load(path)
    index = start(steps, to=to, round_=round_, default=0 if step else len(steps) - 1)
    console = make_console(sys.stdout, no_color=not color)
    if step:
        try:
            run(console, steps, index, str(path), sys.stdin, echo=not sys.stdin.isatty())
        except KeyboardInterrupt:
            console.print()
    else:
        show(console, steps, index, str(path))
    return status(steps)


def status(steps: Sequence[Step]) -> int:
    """The exit status of the whole log, as ``validate`` gives it (a log that stops early is not a problem)."""
    return exit_status([d for s in steps for d in s.diagnostics])
