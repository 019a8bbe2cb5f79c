"""``bkref tournament``: play bots against each other on a fair schedule, then their standings."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bkref.cli.app import (
    BotLimitOption,
    BotLogsOption,
    BotNetworkOption,
    BotTraceOption,
    DaskOption,
    DaskTimeoutOption,
    DebugOption,
    MaxFaultsOption,
    MoveTimeOption,
    StartFallbackOption,
    UnsealedOption,
    app,
    bot_options,
    fail,
)
from bkref.cli.simulate import deck_of, existing, stop_bots_on_sigterm, stopped, told, worded
from bkref.cli.standings import StandingsFormat


class ScheduleChoice(StrEnum):
    rotate = "rotate"
    candidate = "candidate"
    random = "random"


if TYPE_CHECKING:
    from bkref.bots.tournament import Deal


@app.command(
    "tournament",
    short_help="Play bots against each other on a fair schedule, then rate them.",
    epilog="Manual: docs/tournaments.md",
)
def tournament(
    players: Annotated[int, typer.Option("--players", metavar="N", help="2, 3 or 4 players.", show_default=False)],
    bot: Annotated[
        list[str],
        typer.Option(
            "--bot",
            metavar="NAME=POLICY",
            help="A bot: its name in the standings, and its policy (random, greedy, mcts, PKG.MODULE:FUNC, "
            "path/to/file.py:FUNC or 'cmd:COMMAND ARGS...'). Once per bot, in line-up order.",
            show_default=False,
        ),
    ],
    output: Annotated[
        str, typer.Option("--output", "-o", metavar="DIR", help="The folder for the games' logs.", show_default=False)
    ],
    schedule: Annotated[
        ScheduleChoice,
        typer.Option(
            "--schedule",
            metavar="SCHEDULE",
            help="rotate (each deal once per rotation of the line-up over the seats), candidate (each deal with "
            "--candidate in every seat, plus a control game of the others), or random (seats drawn per deal).",
        ),
    ] = ScheduleChoice.rotate,
    candidate: Annotated[
        str | None,
        typer.Option("--candidate", metavar="NAME", help="The bot whose paired difference the standings give."),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option("--deals", metavar="K", min=1, help="How many deals (default 100; with --deck, all of them)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="S",
            min=0,
            help="The first deal's seed (default 1; with a bot program, drawn at random and kept in tournament.json).",
        ),
    ] = None,
    deck: Annotated[
        list[str] | None,
        typer.Option(
            "--deck", metavar="LOG|DIR", help="Deal the decks of these logs (a folder: every *.jsonl below it, sorted)."
        ),
    ] = None,
    until_confident: Annotated[
        bool,
        typer.Option(
            "--until-confident",
            help="Stop after the first deal at which the candidate's paired difference is confident (95 %, "
            "10 deals at least); else after --deals.",
        ),
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with a stopped run: keep the games written (checked).")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Play every game again over the files in DIR.")] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, metavar="N", help="Play in this many processes; same files.")
    ] = 1,
    dask: DaskOption = None,
    dask_timeout: DaskTimeoutOption = 30,
    move_time: MoveTimeOption = 5000,
    max_faults: MaxFaultsOption = 3,
    start_fallback: StartFallbackOption = False,
    bot_logs: BotLogsOption = None,
    bot_trace: BotTraceOption = False,
    unsealed: UnsealedOption = False,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
    output_format: Annotated[
        StandingsFormat,
        typer.Option("--format", metavar="FORMAT", help="The standings: text for people; csv or json for machines."),
    ] = StandingsFormat.text,
    debug: DebugOption = False,
) -> None:
    """Play bots against each other on a schedule that cancels the luck of the deal and the
    seat, write each game's log to DIR, then print the standings by bot (as bkref standings
    DIR prints them): win shares and margins with 95 % intervals, the candidate's paired
    difference, head to head, and ratings.

    Each seat draws from a random stream of its own, so a bot's choices do not depend on
    which bots share its game. A run stopped by Ctrl-C, a crash or a lost machine goes on
    with --resume, and the folder ends as an uninterrupted run's, byte for byte.
    """
    from bkref.bots.errors import OptionError, PolicyError
    from bkref.bots.runs import RunError, Tournament, first_seed
    from bkref.bots.seats import check_programs
    from bkref.bots.tournament import check_policies, parse_bot, seed_deals
    from bkref.cli.app import on_runner
    from bkref.io.diagnostics import printable
    from bkref.views.progress import progress
    from bkref.views.tournamentview import write_report

    stop_bots_on_sigterm()
    mode = existing(resume, force)
    try:
        bots = [parse_bot(text) for text in bot]
        if deck is not None and seed is not None:
            raise fail("--seed and --deck cannot be used together: the deals come from seeds or from logs")
        first = first_seed(seed, Path(output), mode, bots)
        dealt = decks_of(deck, deals) if deck is not None else seed_deals(first, 100 if deals is None else deals)
        cup = Tournament(players, schedule.value, bots, dealt, candidate, until_confident)
        if until_confident and candidate is None:
            raise fail("--until-confident needs --candidate NAME: the run stops on the candidate's paired difference")
        check_policies(bots)  # before any file is written
        hidden = [output, *(deck or [])]  # its games, and the logs its decks come from
        policies = [b.policy for b in bots]
        seal = (unsealed, bot_network, bot_limit)
        options = bot_options(move_time, max_faults, bot_logs, seal, hidden, policies, bot_trace)
        if not start_fallback:
            check_programs(policies, options.seal)
        run = told(Path(output), cup.jobs, mode, options)
        cup.prepare(run)
        try:
            with (
                on_runner(jobs, dask, dask_timeout) as runner,
                progress(len(cup.jobs), "tournament", noted=True) as advance,
            ):
                standings = cup.play(run, runner, advance, prepared=True, keep_games=output_format == "json")
        except KeyboardInterrupt:
            raise stopped(run) from None
    except OptionError as error:
        raise fail(worded(error, players)) from None
    except PolicyError as error:
        if debug and error.traceback:
            sys.stderr.writelines(printable(line) + "\n" for line in error.traceback.splitlines())
        raise fail(str(error)) from None
    except RunError as error:
        raise fail(str(error)) from None
    write_report(standings, output_format.value, sys.stdout)


def decks_of(paths: list[str], count: int | None) -> list[Deal]:
    """The deals of ``--deck``: each log's deck (a folder: every log below it, sorted), the first
    ``count``. A deck that an earlier log already gave is the same deal: it is dealt once."""
    from bkref.bots.tournament import Deal

    logs: list[Path] = []
    for text in paths:
        path = Path(text)
        logs += sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
    if not logs:
        raise fail(f"--deck {' '.join(paths)}: no log (*.jsonl) there")
    decks: dict[tuple[str, ...], str] = {}
    for log in logs:
        try:
            str(log).encode("utf-8")
        except UnicodeEncodeError:
            raise fail(f"--deck {log}: bkref names a deck's log in the games' meta, in UTF-8: rename it") from None
        decks.setdefault(tuple(deck_of(str(log))), str(log))
    if count is not None and count > len(decks):
        raise fail(f"--deals {count}: --deck gives only {len(decks)} different decks")
    chosen = list(decks.items())[:count]
    return [Deal(n, list(cards), source=source) for n, (cards, source) in enumerate(chosen, 1)]
