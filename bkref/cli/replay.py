"""``bkref replay``."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bkref.cli.app import ToOption, a_name, app, fail, fault_lines, not_an_input, write_output

if TYPE_CHECKING:
    from bkref.views.navigation import Replay


PAGE_EVENTS = 5000
"""The most events ``--html`` makes a page of: a page is for people, and a game has fewer than 200."""


class By(StrEnum):
    event = "event"
    turn = "turn"
    round = "round"


class Shown(StrEnum):
    text = "text"
    seen = "seen"


@app.command("replay", short_help="Show a game on the board, position by position.", epilog="Manual: docs/replays.md")
def replay(
    log: Annotated[
        Path,
        typer.Argument(
            help="The game log (.jsonl) to replay; - for standard input.", metavar="LOG", show_default=False
        ),
    ],
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Step through the events. On a terminal, full screen with single keys (? lists them); "
            "elsewhere one line per key: Enter or n next, b back, t/T next/previous turn, r/R next/previous round's "
            "harvest, g/G the first/last event, a number goes to that event, q quits.",
        ),
    ] = False,
    by: Annotated[
        By,
        typer.Option(
            "--by",
            metavar="UNIT",
            help="What one step of --step goes over: event, turn (all its picks "
            "revealed at once) or round (harvest to harvest).",
        ),
    ] = By.event,
    as_: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="PLAYER",
            help=(
                "The game as PLAYER saw it (RULES.md I1-I6): their own hand, the others' hand sizes, no one "
                "else's parchments, and no words of problems that could name another's cards; "
                "with --svg or --html, PLAYER's own picture or page."
            ),
        ),
    ] = None,
    to: ToOption = None,
    round_: Annotated[
        str | None, typer.Option("--round", metavar="R", help="The position at the end of round R (its harvest).")
    ] = None,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="Plain text (always so when the output is not a terminal).")
    ] = False,
    svg: Annotated[
        str | None,
        typer.Option(
            "--svg",
            callback=a_name,
            metavar="FILE|-",
            help="Write the position as an SVG picture instead (- for stdout).",
        ),
    ] = None,
    html: Annotated[
        str | None,
        typer.Option(
            "--html",
            callback=a_name,
            metavar="FILE",
            help="Write the whole game as one self-contained HTML page instead.",
        ),
    ] = None,
    shown: Annotated[
        Shown,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="text: the game on the board; seen: the log as the player of --as saw it "
            "(up to --to or --round), one JSON seen event per line (bkref schema --seen).",
        ),
    ] = Shown.text,
) -> None:
    """Show a game on the board, position by position.

    With no option, the final position and scores; with --to or --round, that position;
    with --step, walk through the game from there (or from the first event). An illegal
    event is shown at its step with validate's diagnostic, and the replay goes on.
    --svg draws the position as a picture; --html writes a page that replays the whole
    game in a browser (opening at that position), with no network needed.

    Exit status, for the whole log as validate gives it: 0 legal (a log that stops early
    included), 1 illegal events or mismatched expects, 2 lines that are not events, a log
    that cannot be read, or bad usage; 130 when Ctrl-C stops --step.
    """
    if (svg is not None or html is not None) and step:
        raise fail("--step walks through the game in the terminal; --svg and --html write files: give one")
    if shown is Shown.seen and (step or svg is not None or html is not None):
        raise fail("--format seen prints the seen events; --step, --svg and --html show the game: give one")
    for target in (svg, html):
        if target is not None:
            not_an_input(target, str(log))
    if shown is Shown.seen and as_ is None:
        raise fail("--format seen is the log as one player saw it: give --as PLAYER")
    from bkref.views.navigation import exit_status_of

    steps = _steps(log)
    index = _start(steps, to=to, round_=round_, default=0 if step else len(steps) - 1)
    players = steps[-1].state.players
    if as_ is not None and as_ not in players:
        from bkref.cli import errors

        raise errors.seen_by(as_, players)
    if as_ is not None and shown is Shown.seen:
        import msgspec

        from bkref.game.knowledge import seen_events
        from bkref.io.diagnostics import json_printable

        seen = seen_events(steps.events[: index + 1], as_)
        sys.stdout.writelines(json_printable(msgspec.json.encode(event).decode()) + "\n" for event in seen)
        raise _shown(log, steps)
    if html is not None and len(steps) > PAGE_EVENTS:
        raise fail(
            f"{log}: {len(steps)} events; --html makes a page of at most {PAGE_EVENTS} (a game has fewer than 200)"
        )
    if svg is not None or html is not None:
        from bkref.io.diagnostics import printable
        from bkref.views.page import page
        from bkref.views.svg import picture

        for target, draw in ((svg, picture), (html, page)):
            if target is not None and write_output(draw(steps, index, str(log), as_), target):
                print(printable(f"wrote {target}"))
        raise _shown(log, steps)
    if not step:
        from bkref.views.printout import show
        from bkref.views.terminal import console

        show(console(sys.stdout, no_color=no_color), steps, index, str(log), as_)
        raise _shown(log, steps)
    if _step(log, steps, index, by=by.value, seen_by=as_, color=not no_color):
        raise typer.Exit(130)
    raise typer.Exit(exit_status_of(steps))


def _shown(log: Path, steps: Replay) -> typer.Exit:
    """Once the game is shown (not stepped through): say on stderr the faults of its bots, as
    ``validate`` does, and return the exit to raise, the log's status."""
    from bkref.game.events import Game
    from bkref.views.navigation import exit_status_of

    first = steps.events[0]
    sys.stdout.flush()
    sys.stderr.writelines(fault_lines(log, first.meta if isinstance(first, Game) else None))
    return typer.Exit(exit_status_of(steps))


def _steps(log: Path) -> Replay:
    """The steps of the log, or a one-line error: a path that is no log, a log without any event."""
    from bkref.io.referee import NoEvent
    from bkref.io.sources import one_log
    from bkref.views.navigation import load

    try:
        with one_log(log, sys.stdin, fail) as (source, label):
            return load(source, label)
    except NoEvent as error:
        raise fail(str(error)) from None


def _start(steps: Replay, *, to: str | None, round_: str | None, default: int) -> int:
    """The index of the event that ``--to N`` or ``--round R`` names, else ``default``."""
    from bkref.cli import errors
    from bkref.game.engine import ROUNDS
    from bkref.views.navigation import NoHarvest, NoSuchEvent, event_index, harvest_index

    if to is not None and round_ is not None:
        raise fail("--to and --round both name a position; give one of them")
    if to is not None:
        if not to.strip().isdecimal():
            raise errors.event_number(to, len(steps))
        try:
            return event_index(steps, int(to))
        except NoSuchEvent as error:
            raise errors.no_such_event(to, error) from None
    if round_ is not None:
        if not round_.strip().isdecimal() or not 1 <= int(round_) <= ROUNDS:
            raise errors.round_number(round_)
        try:
            return harvest_index(steps, int(round_))
        except NoHarvest as error:
            raise errors.no_harvest(error) from None
    return default


def _step(log: Path, steps: Replay, index: int, *, by: str, seen_by: str | None, color: bool) -> bool:
    """Step through the log from ``index``; True when Ctrl-C stops it.

    On a terminal (keys and output), the full-screen viewer; elsewhere one line per key.
    With ``-`` the log came on standard input, and the keys come from the terminal.
    """
    from bkref.io.sources import STDIN

    keys = sys.stdin
    if log == STDIN:  # the log came on standard input: the keys come from the terminal
        try:
            keys = open("/dev/tty")  # noqa: SIM115 (open while the replay runs, closed below)
        except OSError:
            raise fail(
                "replay --step -: the log comes on standard input, and there is no terminal to read keys from"
            ) from None
    elif keys is None:  # bkref replay --step LOG <&-
        raise fail("replay --step: the keys come on standard input, and it is closed")
    try:
        if keys.isatty() and sys.stdout.isatty():
            from bkref.views.viewer import view  # termios: only where a terminal is

            try:
                view(steps, index, log.name, by=by, seen_by=seen_by, color=color, keys=keys.fileno(), out=sys.stdout)
            except KeyboardInterrupt:
                return True
        else:
            from bkref.views.printout import step_by_lines
            from bkref.views.terminal import console

            lines = console(sys.stdout, no_color=not color)
            try:
                step_by_lines(lines, steps, index, str(log), keys, echo=not keys.isatty(), by=by, seen_by=seen_by)
            except KeyboardInterrupt:
                lines.print()
                return True
    finally:
        if keys is not sys.stdin:
            keys.close()
    return False
