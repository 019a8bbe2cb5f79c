"""``bkref moves``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import OutputFormat, ToOption, app, fail


@app.command("moves", short_help="List the legal moves at a position of a log.", epilog="Manual: docs/moves.md")
def moves(
    log: Annotated[
        Path, typer.Argument(help="A game log (.jsonl); - for standard input.", metavar="LOG", show_default=False)
    ],
    to: ToOption = None,
    player: Annotated[
        str | None,
        typer.Option("--player", metavar="PLAYER", help="Only the legal moves of PLAYER (none while others decide)."),
    ] = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--format", metavar="FORMAT", help="text: the moves in words; json: one bkref/1 event per line, to append."
        ),
    ] = OutputFormat.text,
    as_: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="PLAYER",
            help="Only PLAYER's moves, with the position and the problems as PLAYER knows them (as replay --as).",
        ),
    ] = None,
) -> None:
    """List the legal moves at a position: the end of the log, or after event N.

    Each move of --format json, appended to the log cut after that event, is legal
    (bkref validate --partial). Exit status: that of the log up to the position, as
    validate --partial gives it (its problems go to standard error); 2 for a log that
    cannot be read, or bad usage.
    """
    import msgspec

    from bkref.cli import errors
    from bkref.game.events import Event
    from bkref.io.diagnostics import exit_status, json_printable, printable
    from bkref.io.referee import NoEvent
    from bkref.io.sources import STDIN, one_log
    from bkref.views.movelist import heading, moves_at, words
    from bkref.views.navigation import NoSuchEvent

    if to is not None and (not to.strip().isdecimal() or int(to) < 1):
        raise errors.event_number(to)
    try:
        with one_log(log, sys.stdin, fail) as (source, label):
            step, diagnostics, events = moves_at(source, label, None if to is None else int(to), as_)
    except NoEvent as error:
        raise fail(str(error)) from None
    except NoSuchEvent as error:
        assert to is not None
        raise errors.no_such_event(to, error) from None
    players = step.state.players
    if as_ is not None and as_ not in players:
        raise errors.seen_by(as_, players)
    if player is not None and player not in players:
        raise errors.seen_by(player, players, "--player")
    if as_ is not None and player is not None and player != as_:
        raise fail(f"--as {as_} lists only {as_}'s moves; --player {player} asks for another player's")
    moves: list[Event] = list(step.state.legal_moves(as_ if as_ is not None else player))
    sys.stderr.writelines(d.text() + "\n" for d in diagnostics)
    if output is OutputFormat.json:
        sys.stdout.writelines(json_printable(msgspec.json.encode(move).decode()) + "\n" for move in moves)
    else:
        label = "-" if log == STDIN else str(log)
        shown = heading(label, step, events, moves, None if as_ is not None else player, as_)
        sys.stdout.write(printable(shown) + "\n")
        sys.stdout.writelines(f"{i:>4}  {printable(words(move))}\n" for i, move in enumerate(moves, start=1))
    raise typer.Exit(exit_status(diagnostics))
