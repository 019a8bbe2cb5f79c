"""``bkref schema``."""

from __future__ import annotations

from typing import Annotated

import typer

from bkref.cli.app import app, fail, write_output


@app.command(
    "schema",
    short_help="Print a JSON Schema: logs, scores, standings, views, seen events.",
    epilog="Manual: docs/log-format.md",
)
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
    tournament: Annotated[
        bool,
        typer.Option("--tournament", help="The schema of a tournament's standings (bkref standings --format json)."),
    ] = False,
    view: Annotated[bool, typer.Option("--view", help="The schema of one player's view instead.")] = False,
    seen: Annotated[
        bool, typer.Option("--seen", help="The schema of a seen event (bkref replay --as P --format seen) instead.")
    ] = False,
) -> None:
    """Print the JSON Schema of the bkref/1 log format (or of scores, standings, a tournament's
    standings, a player's view or seen events), generated from the types.

    The committed copies are in schemas/: bkref schema -o schemas/bkref-1.schema.json
    rewrites one.
    """
    from bkref.game.words import joined
    from bkref.io import schema as schemas

    chosen = {"--score": score, "--standings": standings, "--tournament": tournament, "--view": view, "--seen": seen}
    given = [name for name, on in chosen.items() if on]
    if len(given) > 1:
        raise fail(f"{joined(given)} are different schemas: give one")
    write_output(schemas.schema_of(given[0] if given else "").text(), output)
