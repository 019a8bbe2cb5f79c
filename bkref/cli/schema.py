"""``bkref schema``."""

from __future__ import annotations

from typing import Annotated

import typer

from bkref.cli.app import app, write_output


@app.command()
def schema(
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Where to write the schema; - for standard output.",
            show_default="schemas/bkref-1.schema.json, or schemas/bkref-score-1.schema.json",
        ),
    ] = None,
    score: Annotated[bool, typer.Option("--score", help="The schema of bkref score --format json instead.")] = False,
) -> None:
    """Write the JSON Schema of the bkref/1 log format (or of score breakdowns), generated from the types."""
    from bkref.io.schema import log_schema, score_schema

    text = score_schema() if score else log_schema()
    output = output or ("schemas/bkref-score-1.schema.json" if score else "schemas/bkref-1.schema.json")
    if write_output(text, output, make_folders=True):
        print(f"wrote {output}")
