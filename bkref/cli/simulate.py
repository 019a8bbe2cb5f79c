"""``bkref simulate``: the library's errors (``bkref.bots.errors``) worded with the command's options."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bkref.cli.app import (
    BotLimitOption,
    BotLogsOption,
    BotNetworkOption,
    BotTraceOption,
    DebugOption,
    MaxFaultsOption,
    MoveTimeOption,
    StartFallbackOption,
    UnsealedOption,
    a_name,
    app,
    bot_options,
    fail,
    fault_lines,
    not_an_input,
    warn,
    write_output,
)
from bkref.io.diagnostics import printable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bkref.bots.errors import OptionError
    from bkref.bots.runs import Existing, Run
    from bkref.bots.seats import BotOptions
    from bkref.bots.tournament import Job


@app.command(
    "simulate", short_help="Play legal games from a seed and write their logs.", epilog="Manual: docs/simulating.md"
)
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
            "mcts (picks searched over worlds sampled from the player's view), "
            "PKG.MODULE:FUNC or path/to/file.py:FUNC (your own bot), or 'cmd:COMMAND ARGS...' (a bot program in any "
            "language, speaking bkbot/1); once for every seat, or once per seat.",
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            callback=a_name,
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
    debug: DebugOption = False,
    move_time: MoveTimeOption = 5000,
    max_faults: MaxFaultsOption = 3,
    start_fallback: StartFallbackOption = False,
    bot_logs: BotLogsOption = None,
    bot_trace: BotTraceOption = False,
    unsealed: UnsealedOption = False,
    bot_network: BotNetworkOption = False,
    bot_limit: BotLimitOption = None,
    deck: Annotated[
        str | None,
        typer.Option(
            "--deck",
            callback=a_name,
            metavar="LOG",
            help="Deal the deck of LOG's game event instead of a shuffled one.",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="With --games, keep the games already written in DIR (checked) and play the rest."
        ),
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="With --games, play every game again over the files already in DIR.")
    ] = False,
) -> None:
    """Play a complete legal game from a seed and write its bkref/1 log; or, with --games, many.

    The players are ann, bob, cid and dee, as many as --players, in seat order; each
    seat is played by a policy (--policy). The same players, seed and policies give the
    same log, byte for byte (with bot programs, the same events: only the time each bot
    took, in the game event's meta, varies); each game of --games is the log a single
    run with its seed writes. A policy that cannot be loaded, raises, or returns a move that is not legal
    is a one-line error naming it and the position, with the policy's file and line
    when it raised (exit status 2). A seat may be a bot program in any language,
    --policy 'cmd:COMMAND ARGS...', speaking bkbot/1 (docs/bot-protocol.md).
    """
    from bkref.bots.errors import OptionError, PolicyError
    from bkref.bots.runs import RunError, make_folder
    from bkref.bots.seats import check_programs, fault_notes
    from bkref.bots.simulate import simulate, to_jsonl
    from bkref.game.events import Game

    specs = policy or ["random"]
    stop_bots_on_sigterm()
    try:
        game = parse_options(players, seed, specs)
        if bot_logs is not None:
            make_folder(Path(bot_logs))
        if games is None:
            writable(output, deck)
        hidden = [*([output] if output != "-" else []), *([deck] if deck else [])]  # the run's log(s), its deck
        seal = (unsealed, bot_network, bot_limit)
        bots = bot_options(move_time, max_faults, bot_logs, seal, hidden, specs, bot_trace)
        if not start_fallback:
            check_programs(specs, bots.seal)
        if game[1] < SEARCHABLE and any(spec.startswith("cmd:") for spec in specs):
            warn(
                f"--seed {game[1]} is small: a bot program could find it from its first hand and know every card "
                "to come; for bots that compete, use bkref tournament (a random 63-bit seed) or a large random --seed"
            )
        if games is None:
            if jobs > 1:
                raise fail("-j is for --games: one game is played in one process")
            if resume or force:
                raise fail("--resume and --force are for --games: one game is written as -o says")
            dealt = None if deck is None else deck_of(deck)
            events = simulate(*game, bots=bots, deck=dealt)
            write_output(to_jsonl(events), output)
            first = events[0]
            assert isinstance(first, Game)
            notes = fault_notes((first.meta or {}).get("bots", {}), max_faults)
            sys.stderr.writelines(printable(note) + "\n" for note in notes)
            return
        if deck is not None:
            raise fail("--deck deals one game: it is not for --games")
        if output == "-":
            raise fail("--games writes one file per game: give the folder with -o DIR")
        if os.path.exists(output) and not os.path.isdir(output):
            raise fail(f"-o {output} is a file: --games writes one file per game into a folder; give -o DIR")
        simulate_games(game, games, Path(output), jobs, bots, existing(resume, force))
    except OptionError as error:  # --players is a whole number by then
        raise fail(worded(error, int(players or 0))) from None
    except PolicyError as error:
        if debug and error.traceback:
            sys.stderr.writelines(printable(line) + "\n" for line in error.traceback.splitlines())
        raise fail(str(error)) from None
    except RunError as error:
        raise fail(str(error)) from None


SEARCHABLE = 1 << 48
"""Seeds below this a bot program could search from its first hand (a million seeds a second takes 9 years for it)."""


def writable(output: str, deck: str | None) -> None:
    """``fail`` before a game is played when the log could not be written to ``output``: its
    folder missing, or the log ``--deck`` reads (``-`` is standard output, always writable)."""
    if output == "-":
        return
    if deck is not None:
        not_an_input(output, deck)
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):
        raise fail(f"cannot write {output}: the folder {folder} does not exist (bkref makes no folder for -o FILE)")
    if os.path.isdir(output):
        raise fail(f"cannot write {output}: it is a folder (one game is written to a file; --games writes to DIR)")


def parse_options(players: str | None, seed: str | None, policies: list[str]) -> tuple[int, int, list[str]]:
    """``--players``, ``--seed`` and ``--policy`` as ``bkref.bots.simulate.simulate`` takes them,
    checked; ``fail`` when one is missing or not a whole number, ``OptionError`` when they make
    no game.

    >>> parse_options("3", "17", ["greedy"])
    (3, 17, ['greedy'])
    """
    from bkref.bots.simulate import check_options

    numbers = []
    for name, metavar, text in (("--players", "N", players), ("--seed", "S", seed)):
        if text is None:
            raise fail(f"{name} {metavar} is required, e.g. bkref simulate --players 3 --seed 1")
        try:
            numbers.append(int(text))
        except ValueError:
            raise fail(f"{name} must be a whole number, not {text!r}") from None
    check_options(numbers[0], numbers[1], policies)
    return numbers[0], numbers[1], policies


def worded(error: OptionError, players: int) -> str:
    """``error`` in the command's words: its option, and what the command line may give it.

    >>> from bkref.bots.errors import OptionError
    >>> worded(OptionError("players", 5, "2, 3 or 4"), 5)
    '--players must be 2, 3 or 4 (Bunny Kingdom is for 2 to 4 players), not 5'
    >>> worded(OptionError("policy", 2, "1 or 3 policies"), 3)
    '--policy is given 2 times; give it once (every seat) or once per seat (3)'
    """
    if error.parameter == "players":
        return f"--players must be {error.accepted} (Bunny Kingdom is for 2 to 4 players), not {error.value!r}"
    if error.parameter == "policy" and isinstance(error.value, int):  # how many --policy options
        return f"--policy is given {error.value} times; give it once (every seat) or once per seat ({players})"
    return f"--{error.parameter} must be {error.accepted}, not {error.value!r}"


def stop_bots_on_sigterm() -> None:
    """SIGTERM leaves as Ctrl-C does, through every ``finally``: every bot process is stopped on the way out."""

    def terminated(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)


def deck_of(path: str) -> list[str]:
    """The deck of the game event of the log ``path`` (read as validate reads it: blank and
    ``#`` comment lines and a byte order mark before it are allowed); ``fail`` when there is none."""
    from bkref.game.catalog import CARDS
    from bkref.game.events import Game
    from bkref.io.logfile import Problem
    from bkref.io.sources import read

    try:
        with open(path, "rb") as file:  # its lines read no further than validate's (MAX_LINE)
            first = next(read(file), None)
    except OSError as error:
        raise fail(f"--deck: cannot read {path}: {error.strerror or error}") from None
    if first is None:
        raise fail(f"{path}: the log holds no game event; --deck needs one")
    if isinstance(first, Problem):
        raise fail(f"{path}:{first.line}: --deck needs a bkref/1 game event here ({first.message})")
    game = first.event
    assert isinstance(game, Game)  # the reader's first record is the game event
    deck = game.deck
    if deck is None:
        raise fail(f"{path}:{first.line}: the game event gives no deck; --deck needs one")
    if sorted(deck) != sorted(card.id for card in CARDS.values() for _ in range(card.copies)):
        raise fail(f"{path}:{first.line}: the game event's deck is not the 182 cards of the game (S4)")
    return deck


def existing(resume: bool, force: bool) -> Existing:
    """What ``--resume`` and ``--force`` say to do with the files already at the games' names."""
    from bkref.bots.runs import Existing

    if resume and force:
        raise fail("--resume and --force cannot be used together: keep the games written, or play them again")
    return Existing.resume if resume else Existing.force if force else Existing.refuse


def simulate_games(
    game: tuple[int, int, list[str]], games: int, folder: Path, jobs: int, bots: BotOptions, mode: Existing
) -> None:
    """Play ``games`` games from ``game``'s seed on, in ``jobs`` processes, one file each in
    ``folder`` (a ``bkref.bots.runs.Run``, as a tournament's games are written)."""
    from bkref.bots.tournament import simulate_jobs
    from bkref.io.batch import Local
    from bkref.views.progress import progress

    run = told(folder, simulate_jobs(*game, games), mode, bots)
    try:
        with progress(games, "simulate") as advance:
            kept = run.play(Local(jobs), advance)
    except KeyboardInterrupt:
        raise stopped(run) from None
    before = f" ({kept} kept from before)" if kept else ""
    print(printable(f"wrote {games} games to {folder}{before}: {run.jobs[0].name} to {run.jobs[-1].name}"))


def told(folder: Path, jobs: Sequence[Job], mode: Existing, bots: BotOptions) -> Run:
    """The run of ``jobs`` into ``folder`` that says on standard error each game it plays again
    and each bot program that faulted in a game written."""
    from bkref.bots.runs import Run

    def note(line: str) -> None:
        print(printable(f"bkref: {line}"), file=sys.stderr)

    def faults(path: Path, log: str) -> None:
        import msgspec

        meta = msgspec.json.decode(log[: log.index("\n")]).get("meta")
        sys.stderr.writelines(fault_lines(path, meta, bots.max_faults))

    return Run(folder, jobs, mode, bots, note, faults)


def stopped(run: Run) -> typer.Exit:
    """After Ctrl-C stopped ``run``: say how many of its games are there, kept by ``--resume``,
    and return the exit (status 130) to raise."""
    print(printable(f"bkref: {run.stopped()}"), file=sys.stderr)
    return typer.Exit(130)
