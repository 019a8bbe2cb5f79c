"""Writing the games of a run into a folder, for ``bkref simulate --games`` and ``bkref tournament``.

Each game is written whole or not at all (``write_atomically``), in schedule order. A
file already at a game's name is never overwritten unless the run is told what to do
with it: ``--resume`` keeps it when it is the game the run would play (its ``game``
event's ``meta`` is the job's, the bots' times aside, and the log is legal and complete)
and plays the game again otherwise; ``--force`` plays every game again. A run stopped
by Ctrl-C, a crash or a lost machine therefore goes on with ``--resume``, and the folder
ends as an uninterrupted run leaves it, byte for byte (bot programs' times aside): the
games are the same for the same jobs, and the temporary files a killed run left are
removed.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections.abc import Generator, Iterable, Sequence
from enum import StrEnum
from pathlib import Path

import msgspec
import typer

from bkref.bots.seats import BotOptions
from bkref.bots.tournament import Job, run
from bkref.cli.app import fail, fault_lines, write_atomically
from bkref.io.batch import Runner
from bkref.io.diagnostics import printable
from bkref.io.lazy import Made


class Existing(StrEnum):
    """What a run does with files already at its games' names."""

    refuse = "refuse"
    resume = "resume"
    force = "force"


def make_folder(folder: Path) -> None:
    """Make ``folder`` if missing (not its parents); ``fail`` if it cannot be made."""
    try:
        folder.mkdir(exist_ok=True)  # the folder asked for, not its parents
    except OSError as error:
        raise fail(f"cannot make the folder {folder}: {error.strerror or error}") from None


def refuse_existing(folder: Path, names: Iterable[str], existing: Existing) -> None:
    """``fail`` when a file is at one of ``names`` and the run was not told what to do with it."""
    if existing is not Existing.refuse:
        return
    for name in names:
        if (folder / name).exists() or (folder / name).is_symlink():
            raise fail(
                f"{folder / name} exists: --resume keeps the games already written and plays the rest, "
                "--force plays them all again"
            )


def _temporaries(folder: Path, names: Iterable[str]) -> list[Path]:
    """The temporary files that a run killed while writing one of ``names`` left in ``folder``."""
    pattern = re.compile(r"\.(.+)\.\d+-[0-9a-f]{8}\.tmp")
    left: dict[str, list[Path]] = {}  # by the name of the file each was to be
    for path in folder.iterdir():
        if match := pattern.fullmatch(path.name):
            left.setdefault(match[1], []).append(path)
    if not left:
        return []
    return sorted(path for name in names if name in left for path in left.pop(name))


def kept(path: Path, job: Job) -> str | None:
    """Why the file at ``path`` is not ``job``'s game, to be played again; None when it is kept."""
    from bkref.game.events import Event, Game
    from bkref.io.diagnostics import EXIT_LEGAL
    from bkref.io.referee import check

    try:
        with open(path, "rb") as file:
            first = file.readline(1 << 20)
        game = msgspec.json.decode(first, type=Event)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return "its game event cannot be read"
    if not isinstance(game, Game) or {k: v for k, v in (game.meta or {}).items() if k != "bots"} != job.meta:
        return "it is another game"
    if game.players != list(job.seats) or (job.deal is not None and game.deck != job.cards):
        return "it is another game (its seats or its deck)"
    report = check(path)
    if report.status != EXIT_LEGAL or report.state is None or report.state.final is None:
        return "it is not a legal, complete game"
    return None


def write_games(
    jobs: Sequence[Job],
    folder: Path,
    runner: Runner,
    bots: BotOptions | None,
    existing: Existing,
) -> Generator[tuple[Job, bool]]:
    """Play and write ``jobs`` into ``folder`` (made if missing), in order, as the module says;
    yields each job once its file is there, and whether it was kept (``--resume``). Closing
    the generator stops the run: no game after the last one yielded is written.
    """
    make_folder(folder)
    refuse_existing(folder, (job.name for job in jobs), existing)
    for temporary in _temporaries(folder, (job.name for job in jobs)):
        temporary.unlink(missing_ok=True)
    keep: set[str] = set()
    if existing is Existing.resume:
        for job in jobs:
            path = folder / job.name
            if path.exists():
                why = kept(path, job)
                if why is None:
                    keep.add(job.name)
                else:
                    print(printable(f"bkref: playing {path} again: {why}"), file=sys.stderr)
    played = run(_Left(jobs, keep) if keep else jobs, runner, bots)
    try:
        for job in jobs:
            path = folder / job.name
            if job.name not in keep:
                _, log = next(played)
                try:
                    write_atomically(path, log.encode("utf-8"))
                except OSError as error:
                    raise fail(f"cannot write {path}: {error.strerror or error}") from None
                if bots is not None:
                    say_faults(path, log, bots.max_faults)
            yield job, job.name in keep
    finally:
        played.close()


def say_faults(path: Path, log: str, max_faults: int) -> None:
    """A line on standard error for each bot that faulted in the game ``log`` written to ``path``."""
    sys.stderr.writelines(fault_lines(path, msgspec.json.decode(log[: log.index("\n")]).get("meta"), max_faults))


def stopped(folder: Path, jobs: Sequence[Job]) -> typer.Exit:
    """After Ctrl-C stopped a run writing ``jobs`` into ``folder``: say how many of its games
    are there, kept by ``--resume``, and return the exit (status 130) to raise."""
    there = sum((folder / job.name).exists() for job in jobs)
    print(
        printable(
            f"bkref: stopped: {there} of {len(jobs)} games are in {folder} and kept; "
            "the same command with --resume goes on"
        ),
        file=sys.stderr,
    )
    return typer.Exit(130)


class _Left(Made[Job]):
    """The jobs of ``jobs`` not among those ``kept``, in order (held as their indexes: a resumed
    run of a million games holds no copy of its jobs)."""

    def __init__(self, jobs: Sequence[Job], kept: set[str]) -> None:
        self.jobs = jobs
        self.left = array("q", (i for i, job in enumerate(jobs) if job.name not in kept))

    def __len__(self) -> int:
        return len(self.left)

    def make(self, index: int) -> Job:
        return self.jobs[self.left[index]]
