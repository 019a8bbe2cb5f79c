"""The Typer application and what its commands share: output formats, one-line errors, writing files."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from bkref.io.batch import Runner

app = typer.Typer(
    name="bkref",
    help="Referee and replay tool for Bunny Kingdom game logs (bkref/1).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        import bkref

        print(f"bkref {bkref.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_print_version, is_eager=True, help="Print bkref's version and exit."),
    ] = False,
) -> None:
    """Referee and replay tool for Bunny Kingdom game logs (bkref/1)."""


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class ValidateFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def fail(message: str) -> typer.Exit:
    """Report bad usage in one line on stderr, its names and paths escaped (``printable``); exit status 2."""
    from bkref.io.diagnostics import printable

    print(f"bkref: error: {printable(message)}", file=sys.stderr)
    return typer.Exit(2)


def write_output(text: str, output: str) -> bool:
    """Write ``text`` to the file ``output``, or to standard output for ``-``; True for a file.

    A file that cannot be written (its folder missing, say: no folder is made) is a
    one-line error (exit status 2).
    """
    if output == "-":
        sys.stdout.write(text)
        return False
    target = Path(output)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None
    return True


DaskOption = Annotated[
    str | None,
    typer.Option(
        "--dask",
        metavar="ADDRESS",
        help="Run the per-game work on the Dask cluster whose scheduler is at ADDRESS (the dask extra).",
        show_default=False,
    ),
]


ToOption = Annotated[
    str | None, typer.Option("--to", metavar="N", help="The position after event N (events count from 1).")
]


@contextmanager
def on_runner(jobs: int, dask: str | None) -> Iterator[Runner]:
    """Where the per-game work runs: ``jobs`` local processes, or the Dask cluster at ``dask``.

    A cluster that cannot be used is a one-line error (exit status 2).
    """
    from bkref.io.batch import ClusterError, runner

    if dask is not None and jobs > 1:
        raise fail("-j and --dask cannot be used together: the cluster decides how many workers run")
    try:
        with runner(jobs, dask) as run:
            yield run
    except ClusterError as error:
        raise fail(str(error)) from None
