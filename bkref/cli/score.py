"""``bkref score``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bkref.cli.app import OutputFormat, app, fail, fault_lines


@app.command("score", short_help="Show where every golden carrot of a game came from.", epilog="Manual: docs/scores.md")
def score(
    log: Annotated[
        Path,
        typer.Argument(
            help="A game log (.jsonl), finished or stopped after any round; - for standard input.",
            metavar="LOG",
            show_default=False,
        ),
    ],
    output: Annotated[
        OutputFormat, typer.Option("--format", metavar="FORMAT", help="text for people, json for machines.")
    ] = OutputFormat.text,
    player: Annotated[
        str | None, typer.Option("--player", metavar="NAME", help="Show only this player.", show_default=False)
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text, even on a terminal.")] = False,
) -> None:
    """Show where every golden carrot came from: each harvest's fiefs, each parchment, the winners.

    Exit status: 0 a legal log, 1 illegal moves or mismatched expects (listed;
    the score skips the illegal events), 2 an unreadable log (no score) or bad usage.
    """
    import msgspec

    from bkref.io.breakdown import breakdown
    from bkref.io.diagnostics import EXIT_UNREADABLE, exit_status, json_printable, printable
    from bkref.io.referee import play
    from bkref.io.sources import one_log

    with one_log(log, sys.stdin, fail) as (source, label):
        played = play(source, label, partial=True)
        result = breakdown(played)
    status = exit_status(result.diagnostics)
    notes = fault_lines(log, played.meta)
    if not result.players:
        sys.stderr.writelines(d.text() + "\n" for d in result.diagnostics)
        why = "the log is unreadable" if status == EXIT_UNREADABLE else "it has no usable game event"
        sys.stderr.write(printable(f"{log}: nothing to score: {why}") + "\n")
        raise typer.Exit(status)
    if player is not None:
        if player not in result.players:
            from bkref.cli import errors

            raise errors.scored_player(log, player, result.players)
        result = result.only(player)
    if output is OutputFormat.json:
        sys.stdout.write(json_printable(msgspec.json.format(msgspec.json.encode(result).decode(), indent=2)) + "\n")
    else:
        from bkref.views.scoreview import print_breakdown

        sys.stderr.writelines(d.text() + "\n" for d in result.diagnostics)
        sys.stderr.flush()
        print_breakdown(result, sys.stdout, no_color=no_color)
    sys.stdout.flush()
    sys.stderr.writelines(notes)
    raise typer.Exit(status)
