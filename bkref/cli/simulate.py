"""``bkref simulate``."""

from __future__ import annotations

from typing import Annotated

import typer

from bkref.cli.app import app, fail, write_output


@app.command()
def simulate(
    players: Annotated[str | None, typer.Option("--players", metavar="N", help="2, 3 or 4 players.")] = None,
    seed: Annotated[str | None, typer.Option("--seed", metavar="S", help="The seed, a whole number from 0.")] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="POLICY",
            help="random, greedy, PKG.MODULE:FUNC or path/to/file.py:FUNC; once for every seat, or once per seat.",
        ),
    ] = None,
    output: Annotated[
        str, typer.Option("--output", "-o", metavar="FILE", help="Where to write the log; - for standard output.")
    ] = "-",
) -> None:
    """Play a complete legal game from a seed and write its bkref/1 log.

    The same players, seed and policies give the same log, byte for byte. A policy
    that cannot be loaded, raises, or returns a move that is not legal is a one-line
    error naming it and the position (exit status 2).
    """
    from bkref.bots.simulate import parse_options, to_jsonl
    from bkref.bots.simulate import simulate as play

    try:
        text = to_jsonl(play(*parse_options(players, seed, policy or [])))
    except ValueError as error:
        raise fail(str(error)) from None
    write_output(text, output)
