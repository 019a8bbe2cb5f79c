"""``bkref schema``."""

from __future__ import annotations

from typing import Annotated

import typer

from bkref.cli.app import app, fail, write_output


@app.command(short_help="Print the JSON Schema of logs, scores or standings.")
def schema(
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write the schema to FILE (its folder must exist) instead of standard output.",
            show_default=False,
        ),
    ] = "-",
    score: Annotated[bool, typer.Option("--score", help="The schema of bkref score --format json instead.")] = False,
    standings: Annotated[
        bool, typer.Option("--standings", help="The schema of bkref standings --format json instead.")
    ] = False,
) -> None:
    """Print the JSON Schema of the bkref/1 log format (or of scores, or standings), generated from the types.

    The committed copies are in schemas/: bkref schema -o schemas/bkref-1.schema.json
    rewrites one.
    """
    from bkref.io.schema import log_schema, score_schema, standings_schema

    if score and standings:
        raise fail("--score and --standings are different schemas: give one")
    write_output(standings_schema() if standings else score_schema() if score else log_schema(), output)
