"""``bkref validate``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import DaskOption, ValidateFormat, app, on_runner


@app.command()
def validate(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Game logs (.jsonl), or folders: every *.jsonl below them.", metavar="LOG|DIR...", show_default=False
        ),
    ],
    output: Annotated[
        ValidateFormat, typer.Option("--format", help="text for people; json, github (annotations) or sarif.")
    ] = ValidateFormat.text,
    partial: Annotated[
        bool, typer.Option("--partial", help="Accept a log that stops before the game's end (a game in progress).")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Check the logs in this many processes; same output.")
    ] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary line for legal logs (text format).")] = False,
    dask: DaskOption = None,
) -> None:
    """Check game logs against the rules; print one line per problem.

    Exit status: 0 every log legal, 1 an illegal move or a mismatched expect,
    2 an unreadable log (F1) or bad usage.
    """
    from functools import partial as bind

    from bkref.io.referee import check_item, log_paths
    from bkref.io.report import OUTPUTS, Totals
    from bkref.views.progress import progress

    items = list(log_paths(paths))
    totals = Totals()
    with on_runner(jobs, dask) as run, progress(len(items), "validate") as advance:
        printer = OUTPUTS[output.value](sys.stdout, sys.stderr, quiet=quiet)  # under the bar, if one shows
        for report in run.map(bind(check_item, partial=partial), items):
            printer.file(report)
            totals.add(report)
            advance()
        printer.finish(totals)
    raise typer.Exit(totals.status)
