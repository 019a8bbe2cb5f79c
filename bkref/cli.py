"""The ``bkref`` command line: a thin layer over the referee, the scorer and the renderer."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="bkref",
    help="Referee and replay tool for Bunny Kingdom game logs (bkref/1).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def _fail(message: str) -> typer.Exit:
    """Report bad usage in one line on stderr; exit status 2."""
    print(f"bkref: error: {message}", file=sys.stderr)
    return typer.Exit(2)


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(help="Game logs (.jsonl) to check.", show_default=False)],
    output: Annotated[OutputFormat, typer.Option("--format", help="text for people, json for machines.")] = OutputFormat.text,
    partial: Annotated[
        bool, typer.Option("--partial", help="Accept a log that stops before the game's end (a game in progress).")
    ] = False,
) -> None:
    """Check game logs against the rules; print one line per problem.

    Exit status: 0 every log legal, 1 an illegal move or a mismatched expect,
    2 an unreadable log (F1) or bad usage.
    """
    from bkref.diagnostics import EXIT_UNREADABLE, Diagnostic
    from bkref.referee import Report, check
    from bkref.report import print_json, print_text

    reports = []
    for path in files:
        if not path.exists():
            report = Report(str(path))
            report.diagnostics.append(Diagnostic(str(path), 0, None, "F1", "no such file"))
        elif path.is_dir():
            report = Report(str(path))
            report.diagnostics.append(Diagnostic(str(path), 0, None, "F1", "is a directory, not a log file"))
        else:
            report = check(path, partial=partial)
        reports.append(report)
    (print_json if output is OutputFormat.json else print_text)(reports, sys.stdout, sys.stderr)
    status = max(r.status for r in reports)
    raise typer.Exit(min(status, EXIT_UNREADABLE))


@app.command()
def schema(
    output: Annotated[
        str, typer.Option("--output", "-o", help="Where to write the schema; - for standard output.")
    ] = "schemas/bkref-1.schema.json",
) -> None:
    """Write the JSON Schema of the bkref/1 log format, generated from the event types."""
    from bkref.schema import log_schema

    text = log_schema()
    if output == "-":
        sys.stdout.write(text)
        return
    target = Path(output)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot write {output}: {error.strerror or error}") from None
    print(f"wrote {output}")


def main() -> None:
    app()
