"""The Typer application and what its commands share: output formats, one-line errors, writing files."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path

import typer

app = typer.Typer(
    name="bkref",
    help="Referee and replay tool for Bunny Kingdom game logs (bkref/1).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class ValidateFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def fail(message: str) -> typer.Exit:
    """Report bad usage in one line on stderr; exit status 2."""
    print(f"bkref: error: {message}", file=sys.stderr)
    return typer.Exit(2)


def write_output(text: str, output: str, *, make_folders: bool = False) -> bool:
    """Write ``text`` to the file ``output``, or to standard output for ``-``; True for a file.

    A file that cannot be written is a one-line error (exit status 2).
    """
    if output == "-":
        sys.stdout.write(text)
        return False
    target = Path(output)
    try:
        if make_folders:
            target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None
    return True
