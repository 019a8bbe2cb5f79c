"""``bkref standings``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from bkref.cli.app import DaskOption, DaskTimeoutOption, app, fail, fault_lines, on_runner, warn


class StandingsFormat(StrEnum):
    text = "text"
    csv = "csv"
    json = "json"


@app.command(
    "standings", short_help="Who won many games, by player, seat and parchment.", epilog="Manual: docs/standings.md"
)
def standings(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Game logs (.jsonl), or folders: every *.jsonl below them.", metavar="LOG|DIR...", show_default=False
        ),
    ],
    output: Annotated[
        StandingsFormat,
        typer.Option(
            "--format", metavar="FORMAT", help="text for people; csv (one row per game) or json for machines."
        ),
    ] = StandingsFormat.text,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, metavar="N", help="Read the logs in this many processes; same output.")
    ] = 1,
    include_illegal: Annotated[
        bool,
        typer.Option("--include-illegal", help="Count illegal games that reach a final score in the aggregates."),
    ] = False,
    dask: DaskOption = None,
    dask_timeout: DaskTimeoutOption = 30,
) -> None:
    """Who won many games: every game's scores, then wins and scores by player, seat and parchment.

    A path that is no log (a missing file, a folder with no *.jsonl below it) is an
    error line, and no standings are printed: they would be of other games than those
    asked for.

    Exit status: that of validate on the same logs (0 all legal, 1 an illegal
    game, 2 an unreadable one or bad usage).
    """
    from bkref.io.referee import Report, check, log_paths
    from bkref.io.sources import STDIN
    from bkref.io.standings import GameRecord, Status, exit_status, to_csv, to_json
    from bkref.io.tournament.folder import Files, FolderError, manifest_of
    from bkref.io.tournament.folder import standings as standings_of
    from bkref.io.tournament.tally import TournamentStandings
    from bkref.views.progress import progress

    found = log_paths(paths)  # a folder's logs held as their names, packed
    refused = [fail(f"{item.path}: {item.diagnostics[0].message}") for item in found.refused()]
    logs: Sequence[Path | Report] = found
    if refused:
        raise refused[-1]
    try:
        manifest = manifest_of(paths[0]) if len(paths) == 1 and paths[0].is_dir() else None
    except ValueError as error:
        raise fail(str(error)) from None
    if STDIN in paths:  # standard input is read here, once, as validate reads it
        logs = [check(sys.stdin, "-") if item == STDIN else item for item in logs]
        jobs, dask = 1, None
    notes: list[str] = []
    statuses: set[Status] = set()

    def read(game: GameRecord, meta: dict[str, Any] | None) -> None:
        notes.extend(fault_lines(game.file, meta))
        statuses.add(game.status)

    keep_games = output is StandingsFormat.json  # text and CSV list only the games left out
    with on_runner(jobs, dask, dask_timeout) as run, progress(len(logs), "standings") as advance:
        try:
            result = standings_of(logs, include_illegal, run, advance, manifest, warn, read, keep_games)
        except FolderError as error:
            raise [fail(problem) for problem in error.problems][-1] from None
    if isinstance(result, TournamentStandings):
        from bkref.views.standingsview import common_folder
        from bkref.views.tournamentview import write_report

        write_report(result, output.value, sys.stdout, common_folder(Files(logs)))
    elif output is StandingsFormat.text:
        from bkref.views.standingsview import show

        show(result, sys.stdout)
    else:
        sys.stdout.write(to_json(result) if output is StandingsFormat.json else to_csv(result))
    sys.stdout.flush()
    sys.stderr.writelines(notes)
    raise typer.Exit(exit_status(statuses))
