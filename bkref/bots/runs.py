"""A run of games into a folder, in one room: ``bkref simulate --games`` and ``bkref tournament``
only wire their options into it, and a Python program runs one as they do.

A ``Run`` is jobs (``bkref.bots.tournament.Job``: a game each, and its file's name) and the
folder they are written to. Each game is written whole or not at all (``write_atomically``),
in schedule order. A file already at a game's name is never overwritten unless the run is
told what to do with it (``Existing``): ``resume`` keeps it when it is the game the run
would play (its ``game`` event's ``meta`` is the job's, the bots' times aside, and the log is
legal and complete) and plays the game again otherwise; ``force`` plays every game again.
A run stopped by Ctrl-C, a crash or a lost machine therefore goes on with ``resume``, and
the folder ends as an uninterrupted run leaves it, byte for byte (bot programs' times
aside): the games are the same for the same jobs, and the temporary files a killed run
left are removed.

A ``Tournament`` is a schedule of games (``bkref.bots.tournament.schedule``) played as a run:
its ``Manifest`` (``tournament.json``) checked against the folder's and written before the
first game, then again with how the run ended; its standings kept as running tallies as
the games are written (``bkref.io.tournament.tally.Tally``: each game costs the same however
many came before), each game's record made from its log's text, not checked again
(``played_record``: a game bkref plays is legal by construction, and made from the log in
memory; a game kept by ``resume`` was checked once, to keep it, and is read when its turn
comes, so a resumed run holds no record of the games it kept); and its stop rule: with
``until_confident``, the run stops after the first deal at which the candidate's paired
difference is confident.

What the run refuses is a ``RunError``, one line; what it has to say as it goes (a game
played again, a bot that faulted) goes to the ``say`` and ``written`` it is given.

>>> import tempfile
>>> from bkref.bots.tournament import Bot, seed_deals
>>> from bkref.io.batch import Local
>>> cup = Tournament(2, "rotate", [Bot("new", "greedy"), Bot("old", "random")], seed_deals(1, 2))
>>> with tempfile.TemporaryDirectory() as folder:
...     standings = cup.play(Run(Path(folder), cup.jobs), Local(1))
...     written = sorted(p.name for p in Path(folder).iterdir())
>>> written
['game-000001-deal-000001-rotation-0.jsonl', 'game-000002-deal-000001-rotation-1.jsonl', \
'game-000003-deal-000002-rotation-0.jsonl', 'game-000004-deal-000002-rotation-1.jsonl', 'tournament.json']
>>> [(b.bot, b.games, b.wins) for b in standings.bots], standings.ended
([('new', 4, 4.0), ('old', 4, 0.0)], 'deals')
"""

from __future__ import annotations

import os
import re
import secrets
from array import array
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Final

import msgspec

from bkref.bots.seats import BotOptions, is_program
from bkref.bots.tournament import Bot, Deal, Job, Scheduled, run, schedule
from bkref.io.batch import Runner
from bkref.io.diagnostics import printable
from bkref.io.lazy import Made
from bkref.io.tournament.folder import TOURNAMENT_FILE, Manifest, manifest_of
from bkref.io.tournament.records import Schedule, TournamentRecord, played_record, tournament_record
from bkref.io.tournament.tally import Ended, Tally, TournamentStandings
from bkref.io.writing import write_atomically


class Existing(StrEnum):
    """What a run does with files already at its games' names."""

    refuse = "refuse"
    resume = "resume"
    force = "force"


class RunError(Exception):
    """What a run refuses, or cannot do, in one line naming the file or folder."""


def make_folder(folder: Path) -> None:
    """Make ``folder`` if missing (not its parents); ``RunError`` if it cannot be made."""
    try:
        folder.mkdir(exist_ok=True)  # the folder asked for, not its parents
    except OSError as error:
        raise RunError(f"cannot make the folder {folder}: {error.strerror or error}") from None


def _nothing(*said: object) -> None:
    """What a run says when nobody listens."""


@dataclass
class Run:
    """``jobs`` written into ``folder`` (made if missing), as the module says; ``bots``, the
    bot programs' options; ``say`` is given a line for each game played again (``resume``),
    ``written`` each game's file and log once written."""

    folder: Path
    jobs: Sequence[Job]
    existing: Existing = Existing.refuse
    bots: BotOptions | None = None
    say: Callable[[str], None] = _nothing
    written: Callable[[Path, str], None] = _nothing

    def refuse_existing(self) -> None:
        """``RunError`` when a file is at one of the games' names and the run was not told what to do with it."""
        if self.existing is not Existing.refuse:
            return
        for job in self.jobs:
            path = self.folder / job.name
            if path.exists() or path.is_symlink():
                raise RunError(
                    f"{path} exists: --resume keeps the games already written and plays the rest, "
                    "--force plays them all again"
                )

    def games(self, runner: Runner) -> Generator[tuple[Job, str | None]]:
        """Play and write the jobs, in order; yields each job once its file is there, and the
        log written (None when the file was kept: ``resume``). Closing the generator stops the
        run: no game after the last one yielded is written. ``runner``: this process, processes
        or a Dask cluster."""
        make_folder(self.folder)
        self.refuse_existing()
        names = (job.name for job in self.jobs)
        for temporary in _temporaries(self.folder, names):
            temporary.unlink(missing_ok=True)
        keep = bytearray(len(self.jobs))  # 1 for each job whose file is kept: a byte a game
        if self.existing is Existing.resume:
            for i, job in enumerate(self.jobs):
                path = self.folder / job.name
                if path.exists():
                    why = kept(path, job)
                    if why is None:
                        keep[i] = 1
                    else:
                        self.say(f"playing {path} again: {why}")
        played = run(_Left(self.jobs, keep) if any(keep) else self.jobs, runner, self.bots)
        try:
            for job, is_kept in zip(self.jobs, keep):
                if is_kept:
                    yield job, None
                    continue
                path = self.folder / job.name
                _, log = next(played)
                try:
                    write_atomically(path, log.encode("utf-8"))
                except OSError as error:
                    raise RunError(f"cannot write {path}: {error.strerror or error}") from None
                self.written(path, log)
                yield job, log
        finally:
            played.close()

    def play(self, runner: Runner, advance: Callable[[], None] = _nothing) -> int:
        """Play and write every game (``games``), ``advance`` called after each; how many were kept."""
        kept = 0
        for _, log in self.games(runner):
            kept += log is None
            advance()
        return kept

    def stopped(self) -> str:
        """After Ctrl-C stopped the run: how many of its games are in the folder, kept by ``resume``."""
        there = sum((self.folder / job.name).exists() for job in self.jobs)
        return (
            f"stopped: {there} of {len(self.jobs)} games are in {self.folder} and kept; "
            "the same command with --resume goes on"
        )


def _temporaries(folder: Path, names: Iterable[str]) -> list[Path]:
    """The temporary files that a run killed while writing one of ``names`` left in ``folder``."""
    pattern = re.compile(r"\.(.+)\.\d+-[0-9a-f]{8}\.tmp")
    left: dict[str, list[Path]] = {}  # by the name of the file each was to be
    with os.scandir(folder) as entries:  # one entry at a time: a folder of a million games is never a list
        for entry in entries:
            if match := pattern.fullmatch(entry.name):
                left.setdefault(match[1], []).append(folder / entry.name)
    if not left:
        return []
    return sorted(path for name in names if name in left for path in left.pop(name))


def kept(path: Path, job: Job) -> str | None:
    """Why the file at ``path`` is not ``job``'s game, to be played again; None when it is
    kept. The only check of a kept file: its record is made from its text when its turn
    comes (``_record``)."""
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


class _Left(Made[Job]):
    """The jobs of ``jobs`` not ``kept`` (a byte each, 1 when kept), in order (held as their
    indexes: a resumed run of a million games holds no copy of its jobs)."""

    def __init__(self, jobs: Sequence[Job], kept: bytearray) -> None:
        self.jobs = jobs
        self.left = array("q", (i for i, is_kept in enumerate(kept) if not is_kept))

    def __len__(self) -> int:
        return len(self.left)

    def make(self, index: int) -> Job:
        return self.jobs[self.left[index]]


@dataclass
class Tournament:
    """A tournament: ``bots`` (in line-up order) on ``deals`` by the ``schedule`` of ``players``
    players, its ``candidate``, and whether it stops once the candidate's paired difference is
    confident (``until_confident``). Its games (``jobs``) are made from these:
    ``OptionError`` when they cannot be."""

    players: int
    schedule: Schedule
    bots: list[Bot]
    deals: Sequence[Deal]
    candidate: str | None = None
    until_confident: bool = False
    jobs: Scheduled = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.jobs = schedule(self.schedule, self.players, self.bots, self.deals, self.candidate)

    @property
    def manifest(self) -> Manifest:
        """What ``tournament.json`` says of it: the deals by their first seed, or by their logs."""
        first = self.deals[0] if self.deals else Deal(1, seed=1)
        return Manifest(
            "bkref-tournament/1",
            self.players,
            self.schedule,
            {b.name: b.policy for b in self.bots},
            self.candidate,
            len(self.deals),
            first.seed if first.source is None else None,
            None if first.source is None else [d.source or "" for d in self.deals],
            self.until_confident,
            games=len(self.jobs),
        )

    def prepare(self, run: Run) -> None:
        """Before the first game: the folder made, its ``tournament.json`` checked (``RunError``
        when it holds a tournament this run may not go on with or replace), the games at the
        run's names and others in the folder refused as ``run.existing`` says, the bots' logs'
        folder made, and the manifest written (not ended: a stopped run's folder says so)."""
        make_folder(run.folder)
        held = run.folder / TOURNAMENT_FILE
        check_manifest(held, self.manifest, run.existing)
        run.refuse_existing()
        refuse_others(run.folder, run.jobs)
        if run.bots is not None and run.bots.logs is not None:
            make_folder(Path(run.bots.logs))
        write_manifest(held, self.manifest)

    def play(
        self,
        run: Run,
        runner: Runner,
        advance: Callable[[str], None] = _nothing,
        *,
        prepared: bool = False,
        keep_games: bool = True,
    ) -> TournamentStandings:
        """Play the games into ``run``'s folder (``prepare`` first, unless ``prepared``) and
        return the standings, kept as running tallies; ``advance`` is given the leader's note
        after each game. The stop rule is asked after each deal. ``keep_games``: the standings
        list every game (JSON does); else only the games left out, and the run's memory stays
        flat however many games it plays."""
        if not prepared:
            self.prepare(run)
        tally = Tally(keep_games=keep_games)
        ended: Ended = "deals"
        per_deal = self.jobs.per_deal
        games = run.games(runner)
        for n, (job, log) in enumerate(games, 1):
            path = run.folder / job.name
            tally.add(_record(path, log))
            advance(tally.leader())
            if n % per_deal == 0:
                tally.close()
                if self.until_confident and tally.confident():
                    ended = "until-confident"
                    games.close()
                    break
        write_manifest(run.folder / TOURNAMENT_FILE, msgspec.structs.replace(self.manifest, ended=ended))
        return tally.standings(ended)


def _record(path: Path, log: str | None) -> TournamentRecord:
    """The record of the game at ``path``: made from its ``log`` just played, or from the file
    a run kept (``log`` None), read now. A kept file whose text cannot say its record (an end
    without ``expect``, edited by hand: ``played_record``) is checked again."""
    if log is None:
        try:
            log = path.read_bytes().decode("utf-8", "replace")
        except OSError as error:
            raise RunError(f"cannot read {path}: {error.strerror or error}") from None
    return played_record(os.fspath(path), log) or tournament_record(path)


def first_seed(given: int | None, folder: Path, existing: Existing, bots: Sequence[Bot]) -> int:
    """The first deal's seed of a tournament: ``given`` (``--seed``); else, going on with a run
    (``--resume``), the seed its ``tournament.json`` holds; else, when a bot program plays, a
    seed drawn at random, 63 bits, which ``tournament.json`` records; else 1.

    A deal's deck is the shuffle of its seed, so a bot program that knew the seeds could find
    its deal by trying them against its first hand, and know every card to come: from seeds
    1, 2, 3... it would take a second. It never sees the seed (the log's meta, the run's
    folder and bkref's command line are hidden from it), and 2**63 seeds are too many to try.

    >>> first_seed(None, Path("nowhere"), Existing.refuse, [Bot("a", "greedy"), Bot("b", "random")])
    1
    >>> drawn = [first_seed(None, Path("nowhere"), Existing.refuse, [Bot("a", "cmd:./bot")]) for _ in "ab"]
    >>> drawn[0] != drawn[1]
    True
    """
    if given is not None:
        return given
    if existing is Existing.resume:
        try:
            held = manifest_of(folder)
        except ValueError:
            held = None  # check_manifest says what is wrong with it
        if held is not None and held.seed is not None:
            return held.seed
    if any(is_program(bot.policy) for bot in bots):
        return secrets.randbits(63)
    return 1


def refuse_others(folder: Path, planned: Sequence[Job]) -> None:
    """``RunError`` when ``folder`` holds games of a tournament (by their names) that this one would not
    write: its standings would count them. Nothing is removed: that is the user's to do. (Game
    N's name is that of ``planned[N - 1]``, if any: the folder's entries are read one at a time,
    and no set of the names is made.)"""
    with os.scandir(folder) as entries:
        others = sorted(
            entry.name
            for entry in entries
            if fnmatchcase(entry.name, "game-*-deal-*.jsonl") and not _planned(entry.name, planned)
        )
    if others:
        more = f" and {len(others) - 1} more" if len(others) > 1 else ""
        raise RunError(
            f"{folder} holds games that are not this tournament's ({others[0]}{more}): "
            "remove them, or give another folder"
        )


def _planned(name: str, planned: Sequence[Job]) -> bool:
    """Whether ``name`` is one of the names of ``planned``: that of its game's job."""
    game = re.match(r"game-(\d+)-", name)
    return game is not None and 0 < int(game[1]) <= len(planned) and planned[int(game[1]) - 1].name == name


def check_manifest(path: Path, manifest: Manifest, existing: Existing) -> None:
    """``RunError`` when the folder holds a tournament that this run may not go on with or replace."""
    if not path.exists() and not path.is_symlink():
        return
    if existing is Existing.refuse:
        raise RunError(f"{path} exists: --resume goes on with its tournament, --force plays a new one over it")
    if existing is Existing.resume:
        try:
            held = msgspec.json.decode(path.read_bytes(), type=Manifest)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
            raise RunError(f"{path}: cannot be read ({error}); --force plays the tournament again") from None
        differs = [
            f"{_OPTION_OF[name]} differs (it was {_shown(getattr(held, name))}, now {_shown(getattr(manifest, name))})"
            for name in manifest.__struct_fields__
            if name not in ("ended", "games") and getattr(held, name) != getattr(manifest, name)  # games: of the rest
        ]
        if differs:
            raise RunError(
                f"{path} is another tournament: {'; '.join(differs)}; --resume goes on only with the same one"
            )


_OPTION_OF: Final = {
    "format": "its format",
    "players": "--players",
    "schedule": "--schedule",
    "bots": "--bot",
    "candidate": "--candidate",
    "deals": "--deals",
    "seed": "--seed",
    "decks": "--deck",
    "until_confident": "--until-confident",
}
"""The option of ``bkref tournament`` that sets each field of a ``Manifest``."""


def _shown(value: object) -> str:
    """A manifest's value as the refusal quotes it: bots as NAME=POLICY, lists joined, None as 'none'."""
    if isinstance(value, dict):
        return printable(" ".join(f"{name}={policy}" for name, policy in value.items()))
    if isinstance(value, list):
        return printable(" ".join(str(v) for v in value))
    return "none" if value is None else printable(str(value))


def write_manifest(path: Path, manifest: Manifest) -> None:
    """Write ``tournament.json``, whole or not at all."""
    try:
        write_atomically(path, msgspec.json.format(msgspec.json.encode(manifest), indent=2) + b"\n")
    except OSError as error:
        raise RunError(f"cannot write {path}: {error.strerror or error}") from None
