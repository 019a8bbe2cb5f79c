"""``bkref moves``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import OutputFormat, ToOption, app, fail


@app.command(short_help="List the legal moves at a position of a log.")
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
    from bkref.game.moves import legal_moves
    from bkref.io.diagnostics import exit_status
    from bkref.io.referee import NoEvent
    from bkref.io.sources import STDIN, one_log
    from bkref.views.movelist import heading, moves_at, words
    from bkref.views.navigation import NoSuchEvent

    if to is not None and (not to.strip().isdecimal() or int(to) < 1):
        raise errors.event_number(to)
    try:
        with one_log(log, sys.stdin, fail) as (source, label):
            step, diagnostics, events = moves_at(source, label, None if to is None else int(to))
    except NoEvent as error:
        raise fail(str(error)) from None
    except NoSuchEvent as error:
        assert to is not None
        raise errors.no_such_event(to, error) from None
    if player is not None and player not in step.state.players:
        raise errors.seen_by(player, step.state.players, "--player")
    moves: list[Event] = list(legal_moves(step.state, player))
    sys.stderr.writelines(d.text() + "\n" for d in diagnostics)
    if output is OutputFormat.json:
        sys.stdout.writelines(msgspec.json.encode(move).decode() + "\n" for move in moves)
    else:
        sys.stdout.write(heading("-" if log == STDIN else str(log), step, events, moves, player) + "\n")
        sys.stdout.writelines(f"{i:>4}  {words(move)}\n" for i, move in enumerate(moves, start=1))
    raise typer.Exit(exit_status(diagnostics))
