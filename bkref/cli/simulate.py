"""``bkref simulate``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import app, fail, write_output


@app.command(short_help="Play legal games from a seed and write their logs.")
def simulate(
    players: Annotated[str | None, typer.Option("--players", metavar="N", help="2, 3 or 4 players (required).")] = None,
    seed: Annotated[
        str | None, typer.Option("--seed", metavar="S", help="The seed, a whole number from 0 (required).")
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            metavar="POLICY",
            help="random (the default: any legal move), greedy (the move that raises the player's harvest most), "
            "PKG.MODULE:FUNC or path/to/file.py:FUNC (your own bot); once for every seat, or once per seat.",
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE|DIR",
            help="Where to write the log; - for standard output. With --games, the folder for the logs.",
        ),
    ] = "-",
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            metavar="N",
            min=1,
            help="Play N games, seeds S to S+N-1, each written to DIR/<players>p-seed-<seed>.jsonl.",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=1, metavar="N", help="With --games, play in this many processes; same files."),
    ] = 1,
) -> None:
    """Play a complete legal game from a seed and write its bkref/1 log; or, with --games, many.

    The players are ann, bob, cid and dee, as many as --players, in seat order; each
    seat is played by a policy (--policy). The same players, seed and policies give the
    same log, byte for byte; each game of --games is the log a single run with its seed
    writes. A policy that cannot be loaded, raises, or returns a move that is not legal
    is a one-line error naming it and the position (exit status 2).
    """
    from bkref.bots.simulate import log_of, parse_options

    try:
        game = parse_options(players, seed, policy or [])
        if games is None:
            if jobs > 1:
                raise ValueError("-j is for --games: one game is played in one process")
            write_output(log_of(game), output)
            return
        if output == "-":
            raise ValueError("--games writes one file per game: give the folder with -o DIR")
        write_games(game, games, Path(output), jobs)
    except ValueError as error:
        raise fail(str(error)) from None


def write_games(game: tuple[int, int, list[str]], games: int, folder: Path, jobs: int) -> None:
    """Play ``games`` games from ``game``'s seed on, in ``jobs`` processes, one file each in ``folder``."""
    from bkref.bots.simulate import tournament
    from bkref.views.progress import progress

    try:
        folder.mkdir(exist_ok=True)  # the folder asked for, not its parents
    except OSError as error:
        raise fail(f"cannot make the folder {folder}: {error.strerror or error}") from None
    names = []
    with progress(games, "simulate") as advance:
        for name, log in tournament(game, games, jobs):
            write_output(log, str(folder / name))
            names.append(name)
            advance()
    print(f"wrote {games} games to {folder}: {names[0]} to {names[-1]}")
