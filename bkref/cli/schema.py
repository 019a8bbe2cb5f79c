"""``bkref schema``."""

from __future__ import annotations

from typing import Annotated

import typer

from bkref.cli.app import app, fail, write_output


@app.command()
def schema(
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Where to write the schema; - for standard output.",
            show_default="schemas/bkref-1.schema.json, bkref-score-1 or bkref-standings-1",
        ),
    ] = None,
    score: Annotated[bool, typer.Option("--score", help="The schema of bkref score --format json instead.")] = False,
    standings: Annotated[
        bool, typer.Option("--standings", help="The schema of bkref standings --format json instead.")
    ] = False,
) -> None:
    """Write the JSON Schema of the bkref/1 log format (or of scores, or standings), generated from the types."""
    from bkref.io.schema import log_schema, score_schema, standings_schema

    if score and standings:
        raise fail("--score and --standings are different schemas: give one")
    if standings:
        text, default = standings_schema(), "schemas/bkref-standings-1.schema.json"
    elif score:
        text, default = score_schema(), "schemas/bkref-score-1.schema.json"
    else:
        text, default = log_schema(), "schemas/bkref-1.schema.json"
    output = output or default
    if write_output(text, output, make_folders=True):
        print(f"wrote {output}")
