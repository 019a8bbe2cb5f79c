"""``bkref replay``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import app, fail


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="The game log (.jsonl) to replay.", metavar="LOG", show_default=False)],
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Step through the events: Enter or n next, b back, r next round, "
            "a number goes to that event, q quits.",
        ),
    ] = False,
    to: Annotated[
        str | None, typer.Option("--to", metavar="N", help="The position after event N (events count from 1).")
    ] = None,
    round_: Annotated[
        str | None, typer.Option("--round", metavar="R", help="The position at the end of round R (its harvest).")
    ] = None,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="Plain text (always so when the output is not a terminal).")
    ] = False,
) -> None:
    """Show a game on the board, position by position.

    With no option, the final position and scores; with --to or --round, that position;
    with --step, walk through the game from there (or from the first event). An illegal
    event is shown at its step with validate's diagnostic, and the replay goes on.

    Exit status, for the whole log as validate gives it: 0 legal (a log that stops early
    included), 1 illegal events or mismatched expects, 2 lines that are not events, a log
    that cannot be read, or bad usage.
    """
    from bkref.views.stepper import ReplayError
    from bkref.views.stepper import replay as show_replay

    try:
        status = show_replay(log, step=step, to=to, round_=round_, color=not no_color)
    except ReplayError as error:
        raise fail(str(error)) from None
    raise typer.Exit(status)
