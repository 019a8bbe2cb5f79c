"""``bkref score``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import OutputFormat, app, fail


@app.command(short_help="Show where every golden carrot of a game came from.")
def score(
    log: Annotated[
        Path,
        typer.Argument(
            help="A game log (.jsonl), finished or stopped after any round; - for standard input.",
            metavar="LOG",
            show_default=False,
        ),
    ],
    output: Annotated[
        OutputFormat, typer.Option("--format", metavar="FORMAT", help="text for people, json for machines.")
    ] = OutputFormat.text,
    player: Annotated[
        str | None, typer.Option("--player", metavar="NAME", help="Show only this player.", show_default=False)
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text, even on a terminal.")] = False,
) -> None:
    """Show where every golden carrot came from: each harvest's fiefs, each parchment, the winners.

    Exit status: 0 a legal log, 1 illegal moves or mismatched expects (listed;
    the score skips the illegal events), 2 an unreadable log (no score) or bad usage.
    """
    from bkref.views.scoreview import ScoreError, run

    try:
        status = run(
            log,
            as_json=output is OutputFormat.json,
            player=player,
            no_color=no_color,
            out=sys.stdout,
            err=sys.stderr,
            stdin=sys.stdin,
        )
    except ScoreError as error:
        raise fail(str(error)) from None
    raise typer.Exit(status)
