"""``bkref replay``."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import ToOption, app, fail, write_output


class By(StrEnum):
    event = "event"
    turn = "turn"
    round = "round"


@app.command(short_help="Show a game on the board, position by position.")
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
            "elsewhere one line per key: Enter or n next, b back, r next round, a number goes to that event, q quits.",
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
                "The game as PLAYER saw it: their own hand, the others' hand sizes, no one else's parchments, "
                "and no words of problems that could name another's cards."
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
        typer.Option("--svg", metavar="FILE|-", help="Write the position as an SVG picture instead (- for stdout)."),
    ] = None,
    html: Annotated[
        str | None,
        typer.Option("--html", metavar="FILE", help="Write the whole game as one self-contained HTML page instead."),
    ] = None,
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
    from bkref.views.stepper import ReplayError
    from bkref.views.stepper import replay as show_replay

    if svg is not None or html is not None:
        if step:
            raise fail("--step walks through the game in the terminal; --svg and --html write files: give one")
        if as_ is not None:  # they show every hand: no spoiler-free page by mistake
            raise fail("--as is for the replay in the terminal; --svg and --html show every player's cards")
        from bkref.views.page import page
        from bkref.views.stepper import load, start
        from bkref.views.stepper import status as log_status
        from bkref.views.svg import picture

        try:
            steps = load(log, sys.stdin)
            index = start(steps, to=to, round_=round_, default=len(steps) - 1)
        except ReplayError as error:
            raise fail(str(error)) from None
        for target, draw in ((svg, picture), (html, page)):
            if target is not None and write_output(draw(steps, index, str(log)), target):
                print(f"wrote {target}")
        raise typer.Exit(log_status(steps))
    try:
        status = show_replay(log, step=step, to=to, round_=round_, color=not no_color, by=by.value, as_=as_)
    except ReplayError as error:
        raise fail(str(error)) from None
    raise typer.Exit(status)
