"""``bkref validate``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import DaskOption, DaskTimeoutOption, ValidateFormat, app, fail, fault_lines, on_runner


@app.command("validate", short_help="Check game logs against the rules.", epilog="Manual: docs/refereeing.md")
def validate(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Game logs (.jsonl), folders (every *.jsonl below them), or - for standard input.",
            metavar="LOG|DIR|-...",
            show_default=False,
        ),
    ],
    output: Annotated[
        ValidateFormat,
        typer.Option("--format", metavar="FORMAT", help="text for people; json, github (annotations) or sarif."),
    ] = ValidateFormat.text,
    partial: Annotated[
        bool, typer.Option("--partial", help="Accept a log that stops before the game's end (a game in progress).")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=1, metavar="N", help="Check the logs in this many processes; same output."),
    ] = 1,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="No summary line for a legal log, even for one log alone (text format)."),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="A summary line for every log, legal ones too, also with several logs (text format).",
        ),
    ] = False,
    dask: DaskOption = None,
    dask_timeout: DaskTimeoutOption = 30,
    stdin_name: Annotated[
        str, typer.Option("--stdin-name", metavar="NAME", help="The file name diagnostics give standard input (-).")
    ] = "-",
) -> None:
    """Check game logs against the rules; print one line per problem, as soon as it is found.

    Each problem is one line of standard output, file:line: RULE message. A summary
    line per log (legal, illegal or unreadable, with counts by rule) goes to standard
    error, and with several logs a last line of totals; the summaries of legal logs
    only for one log alone or with --verbose.

    With -, the log is read from standard input as it is written:
    engine | bkref validate -, or tail -n +1 -f game.jsonl | bkref validate --partial -.

    Exit status: 0 every log legal, 1 an illegal move or a mismatched expect,
    2 an unreadable log (F1) or bad usage.
    """
    from collections.abc import Callable
    from contextlib import AbstractContextManager, nullcontext
    from functools import partial as bind

    from bkref.io.referee import check_item, log_paths
    from bkref.io.report import OUTPUTS, Totals
    from bkref.io.sources import STDIN
    from bkref.views.progress import progress

    if quiet and verbose:
        raise fail("--quiet and --verbose cannot be used together")
    items = log_paths(paths)
    legal_lines = verbose or (len(items) == 1 and not quiet)  # many logs: the problems and the totals
    totals = Totals()
    bar: AbstractContextManager[Callable[[], None]] = progress(len(items), "validate")
    if STDIN in paths:  # standard input is read here, and each problem printed as soon as found (no bar holds it)
        jobs, dask, bar = 1, None, nullcontext(lambda: None)
    with on_runner(jobs, dask, dask_timeout) as run, bar as advance:
        printer = OUTPUTS[output.value](sys.stdout, sys.stderr, quiet=not legal_lines)  # under the bar, if one shows
        if jobs <= 1 and dask is None:
            work = bind(
                check_item, partial=partial, stdin=sys.stdin, stdin_name=stdin_name, on_diagnostic=printer.diagnostic
            )
        else:
            work = bind(check_item, partial=partial)
        notes = []
        for report in run.map(work, items):
            printer.file(report)
            totals.add(report)
            notes += fault_lines(report.path, report.meta)
            advance()
        printer.finish(totals)
    sys.stderr.writelines(notes)
    raise typer.Exit(totals.status)
