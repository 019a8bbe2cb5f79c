"""Replaying a log: its positions, the one an option names, and stepping through them.

``load`` plays the log through the referee once and keeps every state
(``referee.play(keep=True)``), so going back is only a look at an earlier state. ``move``
turns one typed line into the event to show; ``run`` is the loop around it. It reads
whole lines: that is how ``--step`` works off a terminal (keys piped on stdin). On a
terminal, ``bkref.views.viewer`` shows the same steps full screen, one key per move.

``stops`` are the events a move lands on with ``--by event``, ``turn`` or ``round``:
a turn stops once all its picks are revealed and its provisions drawn (a round's
construction is one stop too); a round stops at its harvest.

>>> from pathlib import Path
>>> steps = load(Path("replays/worked-example.jsonl"))
>>> len(steps), steps[0].line
(23, 4)
>>> move(steps, 0, ""), move(steps, 0, "b"), move(steps, 5, "12"), move(steps, 5, "q")
((1, ''), (0, 'this is the first event'), (11, ''), (None, ''))
>>> stops(steps, "turn")[:4], stops(steps, "round")
([0, 1, 4, 7], [0, 22])
>>> move(steps, 2, "", stops(steps, "turn")), move(steps, 2, "b", stops(steps, "turn"))
((4, ''), (1, ''))
>>> start(steps, to=None, round_="2", default=0)
Traceback (most recent call last):
...
bkref.views.stepper.ReplayError: --round 2: this log has no harvest of round 2; it stops before the deal of round 2
"""

from __future__ import annotations

import codecs
import gc
import os
import select
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final, TextIO

from rich.console import Console

from bkref.game.engine import ROUNDS
from bkref.game.events import Build, Draw, Event, Pick
from bkref.io.diagnostics import Diagnostic, exit_status
from bkref.io.referee import Step, play
from bkref.io.sources import STDIN, one_log
from bkref.views.render import position
from bkref.views.terminal import console as make_console
from bkref.views.terminal import emit


class ReplayError(Exception):
    """A log that cannot be replayed, or an option that names no position: one line for the user."""


def load(path: Path, stdin: TextIO | None = None) -> list[Step]:
    """Every event of the log at ``path`` (``-``: read from ``stdin``) with the state after it.

    A log that stops early replays as far as it goes. A line that is not an event (F1)
    is shown with the event after it (the last one if none follows).
    """
    steps: list[Step] = []
    unread: list[Diagnostic] = []
    with one_log(path, stdin, ReplayError) as (source, label):
        for item in play(source, label, keep=True, partial=True):
            if isinstance(item, Diagnostic):
                unread.append(item)
            else:
                steps.append(item._replace(diagnostics=unread + item.diagnostics))
                unread = []
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


BY = ("event", "turn", "round")
"""What one move goes over (``--by``)."""


def _group(event: Event) -> tuple[object, ...] | None:
    """The turn or construction an event belongs to; None for an event that stands alone."""
    if isinstance(event, Pick | Draw):
        return ("turn", event.round, event.turn)
    if isinstance(event, Build):
        return ("build", event.round)
    return None


def stops(steps: Sequence[Step], by: str) -> list[int]:
    """The indices a move lands on, ``by`` event, turn or round (always the first and the last)."""
    last = len(steps) - 1
    if by == "event":
        return list(range(len(steps)))
    if by == "turn":
        groups = [_group(s.event) for s in steps]
        return [i for i, g in enumerate(groups) if i in (0, last) or g is None or g != groups[i + 1]]
    harvested = [i for i in range(1, last) if len(steps[i].state.harvests) > len(steps[i - 1].state.harvests)]
    return sorted({0, *harvested, last})


def after(stops: Sequence[int], index: int) -> int | None:
    """The first stop after ``index``, if any."""
    return next((i for i in stops if i > index), None)


def before(stops: Sequence[int], index: int) -> int | None:
    """The last stop before ``index``, if any."""
    return next((i for i in reversed(stops) if i < index), None)


def move(steps: Sequence[Step], index: int, key: str, by: Sequence[int] | None = None) -> tuple[int | None, str]:
    """Where one typed line leads from event ``index``: the next index (None to quit) and a note.

    Enter, ``n`` and ``b`` go to the next or previous of the stops ``by`` (every event if None).
    """
    last = len(steps) - 1
    key = key.strip().lower()
    if key in ("", "n"):
        target = index + 1 if by is None else after(by, index)
        return (target, "") if target is not None and index < last else (index, "this is the last event")
    if key == "b":
        target = index - 1 if by is None else before(by, index)
        return (target, "") if target is not None and index > 0 else (index, "this is the first event")
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


def show(console: Console, steps: Sequence[Step], index: int, label: str, seen_by: str | None = None) -> None:
    """Print the position after event ``index`` (as player ``seen_by`` saw it, if given)."""
    emit(console, position(steps, index, label, seen_by), crop=False)  # not cropped: a problem stays on one line


def run(
    console: Console,
    steps: Sequence[Step],
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


def player(steps: Sequence[Step], name: str | None) -> str | None:
    """The player ``--as`` names, checked against the game's players."""
    players = steps[-1].state.players
    if name is None or name in players:
        return name
    known = f"this game's players are {', '.join(players)}" if players else "this log names no players"
    raise ReplayError(f"--as {name}: {known}")


def replay(
    path: Path,
    *,
    step: bool,
    to: str | None,
    round_: str | None,
    color: bool,
    by: str = "event",
    as_: str | None = None,
) -> int:
    """``bkref replay``: print one position, or step through the log from it.

    On a terminal (keys and output), ``--step`` is the full-screen viewer; elsewhere it reads
    one line per key. Returns the exit status of the whole log, as ``validate`` gives it (a
    log that stops early is not a problem here): 0 legal, 1 illegal events, 2 lines that are
    not events; 130 when Ctrl-C stops the stepping.
    With ``-`` the log is read from standard input, and ``step`` reads its keys from the
    terminal.
    """
    steps = load(path, sys.stdin)
    index = start(steps, to=to, round_=round_, default=0 if step else len(steps) - 1)
    seen_by = player(steps, as_)
    if not step:
        show(make_console(sys.stdout, no_color=not color), steps, index, str(path), seen_by)
        return status(steps)
    keys = sys.stdin
    if path == STDIN:  # the log came on standard input: the keys come from the terminal
        try:
            keys = open("/dev/tty")  # noqa: SIM115 (open while the replay runs, closed below)
        except OSError:
            raise ReplayError(
                "replay --step -: the log comes on standard input, and there is no terminal to read keys from"
            ) from None
    elif keys is None:  # bkref replay --step LOG <&-
        raise ReplayError("replay --step: the keys come on standard input, and it is closed")
    try:
        if keys.isatty() and sys.stdout.isatty():
            from bkref.views.viewer import view  # termios: only where a terminal is

            try:
                view(steps, index, path.name, by=by, seen_by=seen_by, color=color, keys=keys.fileno(), out=sys.stdout)
            except KeyboardInterrupt:
                return 130
        else:
            console = make_console(sys.stdout, no_color=not color)
            try:
                run(console, steps, index, str(path), keys, echo=not keys.isatty(), by=by, seen_by=seen_by)
            except KeyboardInterrupt:
                console.print()
                return 130
    finally:
        if keys is not sys.stdin:
            keys.close()
    return status(steps)


def status(steps: Sequence[Step]) -> int:
    """The exit status of the whole log, as ``validate`` gives it (a log that stops early is not a problem)."""
    return exit_status([d for s in steps for d in s.diagnostics])
