"""``bkref moves``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import OutputFormat, ToOption, app, fail


@app.command(short_help="List the legal moves at a position of a log.")
def moves(
    log: Annotated[
        Path, typer.Argument(help="A game log (.jsonl); - for standard input.", metavar="LOG", show_default=False)
    ],
    to: ToOption = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format", metavar="FORMAT", help="text: the moves in words; json: one bkref/1 event per line, to append."
        ),
    ] = OutputFormat.text,
) -> None:
    """List the legal moves at a position: the end of the log, or after event N.

    Each move of --format json, appended to the log cut after that event, is legal
    (bkref validate --partial). Exit status: that of the log up to the position, as
    validate --partial gives it (its problems go to standard error); 2 for a log that
    cannot be read, or bad usage.
    """
    from bkref.views.movelist import MovesError, run

    try:
        status = run(log, to=to, as_json=output is OutputFormat.json, out=sys.stdout, err=sys.stderr, stdin=sys.stdin)
    except MovesError as error:
        raise fail(str(error)) from None
    raise typer.Exit(status)
