"""Tournaments: schedules of games that tell which bot is better, and the runner that plays them.

A tournament plays bots (``Bot``: a name and a policy of ``bkref.bots.bundled.load``, or a
``cmd:`` program) on deals (``Deal``: the deck of a seed, or of an existing log) by one of
three schedules (``schedule``); the *line-up* is the bots in the order given, repeated to
fill the seats:

- ``rotate``: each deal played once for every rotation of the line-up over the seats, so
  that every bot sits in every seat of every deal;
- ``candidate``: each deal played with the candidate in every seat (the other seats held by
  the baselines, the other bots, as in the control game), then the ``control`` game of
  the baselines alone on the same deal: the candidate's score minus the control's in the
  same seat is the paired difference, free of the deal's luck and the seat's;
- ``random``: each deal played once, the line-up in an order of seats drawn from the deal.

Every game is played with a random stream of its own for each seat, derived from the
deal, the seat and the seat's policy (``bkref.bots.simulate.play``): a bot's choices do not
depend on which bots share its game, and a bot against itself on the ``candidate``
schedule plays the control game again, move for move.

A ``Job`` is one game to play and the name of its file; ``run`` plays jobs in order, in
this process, in processes or on a Dask cluster (``bkref.io.batch``), each game's log the
same wherever it is played; bot programs run where their game is played, each program's
process reused from one game to the next of that process (``Seats``). ``simulate_jobs`` makes the jobs of
``bkref simulate --games``: a tournament of one line-up, played the same way.

>>> bots = [Bot("new", "greedy"), Bot("old", "random")]
>>> [(job.name, list(job.seats.values())) for job in schedule("candidate", 2, bots, seed_deals(7, 1), "new")]
[('game-000001-deal-000001-candidate-seat-1.jsonl', ['greedy', 'random']), \
('game-000002-deal-000001-candidate-seat-2.jsonl', ['random', 'greedy']), \
('game-000003-deal-000001-control.jsonl', ['random', 'random'])]
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
import sys
import threading
from collections.abc import Generator, Sequence
from typing import Any, Final

import msgspec

from bkref.bots.bundled import load
from bkref.bots.errors import OptionError
from bkref.bots.seats import BotOptions, ProgramSeat, is_program
from bkref.bots.simulate import (
    PLAYER_IDS,
    check_policy,
    deal_key,
    game_name,
    play,
    shuffled_deck,
    simulate,
    to_jsonl,
)
from bkref.io.batch import Cluster, Local, Runner
from bkref.io.lazy import Made
from bkref.io.tournament.records import Schedule

SCHEDULES: Final[tuple[Schedule, ...]] = ("rotate", "candidate", "random")
NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
"""A bot's name: a letter or digit, then up to 39 letters, digits, ``_``, ``.`` or ``-``."""


class Bot(msgspec.Struct, frozen=True):
    """A bot of a tournament: its ``name`` (in the standings) and its ``policy``."""

    name: str
    policy: str


def parse_bot(text: str) -> Bot:
    """``NAME=POLICY`` as a ``Bot``; ``OptionError`` when it is not written so.

    >>> parse_bot("new=cmd:python3 my_bot.py")
    Bot(name='new', policy='cmd:python3 my_bot.py')
    >>> parse_bot("greedy")
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: bot must be NAME=POLICY (a name of letters, digits, _ . -), not 'greedy'
    """
    name, equals, policy = text.partition("=")
    if not equals or not NAME.fullmatch(name) or not policy:
        raise OptionError("bot", text, "NAME=POLICY (a name of letters, digits, _ . -)")
    check_policy(policy)
    return Bot(name, policy)


class Deal(msgspec.Struct, frozen=True):
    """A deal: its ``number`` in the tournament (1 is the first), and where its deck comes from:
    a ``seed`` (the deck ``bkref simulate --seed`` deals, shuffled when the game is played, so
    that a run of many deals holds none of them), or the log ``source`` and its ``deck``."""

    number: int
    deck: list[str] | None = None
    seed: int | None = None
    source: str | None = None

    @property
    def key(self) -> str:
        """What names the deal in the seats' random streams (``bkref.bots.simulate.deal_key``)."""
        return deal_key(self.seed, self.deck or [])


def seed_deals(first: int, count: int) -> SeedDeals:
    """The deals of the seeds ``first`` to ``first + count - 1``.

    >>> deals = seed_deals(7, 100_000)
    >>> len(deals), deals[0], deals[-1].seed
    (100000, Deal(number=1, deck=None, seed=7, source=None), 100006)
    """
    return SeedDeals(first, count)


class SeedDeals(Made[Deal]):
    """The deals of ``seed_deals``, each made when it is asked for."""

    def __init__(self, first: int, count: int) -> None:
        self.first, self.size = first, count

    def __len__(self) -> int:
        return self.size

    def make(self, index: int) -> Deal:
        return Deal(index + 1, seed=self.first + index)


class Job(msgspec.Struct, frozen=True):
    """One game to play: the ``name`` of its file, its ``players`` and ``policies`` (one for
    every seat, or one per seat), its deck (None: the deck of ``seed``, ``cards``) and the game
    event's ``meta``. ``deal`` is the deal's key (``Deal.key``): each seat on its own stream;
    None for a game of ``bkref simulate``, played from ``seed`` alone as ``simulate(players,
    seed, policies)`` plays it."""

    name: str
    players: int
    policies: list[str]
    meta: dict[str, Any]
    deck: list[str] | None = None
    seed: int | None = None
    deal: str | None = None

    @property
    def cards(self) -> list[str]:
        """The deck the game deals."""
        if self.deck is not None:
            return self.deck
        assert self.seed is not None
        return shuffled_deck(random.Random(self.seed))

    @property
    def seats(self) -> dict[str, str]:
        """Each seat's policy."""
        return dict(zip(PLAYER_IDS[: self.players], lineup(self.policies, self.players)))


def lineup(bots: Sequence[str], players: int) -> list[str]:
    """The bots in order, repeated to fill ``players`` seats.

    >>> lineup(["a", "b"], 4), lineup(["a", "b", "c"], 2)
    (['a', 'b', 'a', 'b'], ['a', 'b'])
    """
    return [bots[i % len(bots)] for i in range(players)]


def check_schedule(kind: str, players: int, bots: Sequence[Bot], candidate: str | None) -> None:
    """``OptionError`` when the schedule cannot be made: its kind, the bots' names (each once),
    their policies (``bkref.bots.simulate.check_policy``), no more bots than the seats of a game
    can hold (every bot sits in every game of ``rotate`` and ``random``, every baseline in
    every game of ``candidate``), and the candidate (one of the bots, required by ``candidate``).

    >>> check_schedule("rotate", 2, [Bot("a", "random"), Bot("b", "random"), Bot("c", "greedy")], None)
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: bot must be given at most 2 times (rotate seats every bot in every game), not 3
    """
    if kind not in SCHEDULES:
        raise OptionError("schedule", kind, "rotate, candidate or random")
    if players not in (2, 3, 4):
        raise OptionError("players", players, "2, 3 or 4")
    names = [bot.name for bot in bots]
    if not names:
        raise OptionError("bot", "", "given at least once, NAME=POLICY")
    for bot in bots:
        if names.count(bot.name) > 1:
            raise OptionError("bot", bot.name, "a name given once")
        check_policy(bot.policy)
    if candidate is not None and candidate not in names:
        raise OptionError("candidate", candidate, f"one of the bots ({', '.join(names)})")
    if kind == "candidate" and (candidate is None or len(names) < 2):
        raise OptionError(
            "candidate", candidate, "one of two or more bots: the candidate schedule plays it against the others"
        )
    seated = len(names) - (kind == "candidate")
    if seated > players:
        every = "every baseline" if kind == "candidate" else "every bot"
        raise OptionError(
            "bot",
            len(names),
            f"given at most {players + (kind == 'candidate')} times ({kind} seats {every} in every game)",
        )


def check_policies(bots: Sequence[Bot]) -> None:
    """Load each bot's Python policy once: ``PolicyError`` when one cannot be (before any game
    is played); what its module prints as it loads goes to standard error."""
    with contextlib.redirect_stdout(sys.stderr):
        for bot in bots:
            if not is_program(bot.policy):
                load(bot.policy)


def rotations(seats: list[str]) -> list[list[str]]:
    """The distinct rotations of a line-up over the seats, in order (a line-up that repeats
    itself, such as a, b, a, b, has fewer than one a seat: the same game is not played twice).

    >>> rotations(["a", "b", "c"])
    [['a', 'b', 'c'], ['c', 'a', 'b'], ['b', 'c', 'a']]
    >>> rotations(["a", "b", "a", "b"])
    [['a', 'b', 'a', 'b'], ['b', 'a', 'b', 'a']]
    """
    found: list[list[str]] = []
    for k in range(len(seats)):
        turned = seats[len(seats) - k :] + seats[: len(seats) - k]
        if turned in found:
            break
        found.append(turned)
    return found


def schedule(
    kind: Schedule, players: int, bots: Sequence[Bot], deals: Sequence[Deal], candidate: str | None
) -> Scheduled:
    """Every game of the tournament, in schedule order: deal by deal, as the module says."""
    check_schedule(kind, players, bots, candidate)
    return Scheduled(kind, players, list(bots), deals, candidate)


class Scheduled(Made[Job]):
    """The games of ``schedule``, each ``Job`` made when it is asked for: every deal has as many
    games, each seated from the deal alone, so a run of 100,000 games holds no more jobs than
    a run of 100 (only its deals)."""

    def __init__(
        self, kind: Schedule, players: int, bots: list[Bot], deals: Sequence[Deal], candidate: str | None
    ) -> None:
        self.kind, self.players, self.deals, self.candidate = kind, players, deals, candidate
        self.policies = {bot.name: bot.policy for bot in bots}
        self.names = [bot.name for bot in bots]
        self.per_deal = len(self._games_of(deals[0])) if deals else 0
        """The games of each deal."""

    def _games_of(self, deal: Deal) -> list[tuple[str, int | None, list[str]]]:
        """The games of ``deal``, in order: each one's role, rotation and bots by seat."""
        kind, names, players, candidate = self.kind, self.names, self.players, self.candidate
        if kind == "rotate":
            return [("rotation", k, turned) for k, turned in enumerate(rotations(lineup(names, players)))]
        if kind == "candidate":
            control = lineup([name for name in names if name != candidate], players)
            assert candidate is not None
            games = [("candidate", s + 1, [*control[:s], candidate, *control[s + 1 :]]) for s in range(players)]
            return [*games, ("control", None, control)]
        seats = lineup(names, players)
        random.Random(f"bkref tournament seats {deal.key}").shuffle(seats)
        return [("random", None, seats)]

    def __len__(self) -> int:
        return self.per_deal * len(self.deals)

    def make(self, index: int) -> Job:
        deal = self.deals[index // self.per_deal]
        role, rotation, seats = self._games_of(deal)[index % self.per_deal]
        n = index + 1
        what = {"rotation": f"-{rotation}", "candidate": f"-seat-{rotation}"}.get(role, "")
        where: dict[str, Any] = {"seed": deal.seed} if deal.source is None else {"deck": deal.source}
        meta = {
            "generator": "bkref tournament",
            **where,
            "tournament": {
                "schedule": self.kind,
                "game": n,
                "deal": deal.number,
                "role": role,
                "rotation": rotation,
                "candidate": self.candidate,
                "bots": dict(zip(PLAYER_IDS, seats)),
                "policies": {name: self.policies[name] for name in dict.fromkeys(seats)},
            },
        }
        name = f"game-{n:06d}-deal-{deal.number:06d}-{role}{what}.jsonl"
        return Job(name, self.players, [self.policies[s] for s in seats], meta, deal.deck, deal.seed, deal.key)


def simulate_jobs(players: int, first: int, policies: Sequence[str], games: int) -> SeededJobs:
    """The jobs of ``bkref simulate --games``: seeds ``first`` on, each game's file named by
    ``game_name`` and holding what ``simulate(players, seed, policies)`` plays."""
    return SeededJobs(players, first, list(policies), games)


class SeededJobs(Made[Job]):
    """The jobs of ``simulate_jobs``, each made when it is asked for: a run of a million games
    holds no more of them than a run of ten.

    >>> jobs = simulate_jobs(4, 7, ["random"], 1_000_000)
    >>> len(jobs), jobs[0].name, jobs[-1].seed, [job.seed for job in jobs[2:4]]
    (1000000, '4p-seed-000007.jsonl', 1000006, [9, 10])
    """

    def __init__(self, players: int, first: int, policies: list[str], games: int) -> None:
        self.players, self.first, self.policies, self.games = players, first, policies, games
        shown = policies[0] if len(policies) == 1 else list(policies)
        self.meta = {"generator": "bkref simulate", "policy": shown}

    def __len__(self) -> int:
        return self.games

    def make(self, index: int) -> Job:
        seed = self.first + index
        meta = {**self.meta, "seed": seed}
        return Job(game_name(self.players, seed), self.players, list(self.policies), meta, seed=seed)


def log_of_job(job: Job) -> str:
    """The log of one job with no bot program (picklable: it maps onto processes or a cluster)."""
    return to_jsonl(_played(job, None, None))


def _played(job: Job, bots: BotOptions | None, seats: dict[str, ProgramSeat] | None) -> list[Any]:
    if job.deal is None:
        assert job.seed is not None
        return simulate(job.players, job.seed, job.policies, bots=bots, seats=seats)
    return play(job.seats, job.cards, job.meta, job.deal, bots=bots, seats=seats)


def run(jobs: Sequence[Job], runner: Runner, bots: BotOptions | None = None) -> Generator[tuple[Job, str]]:
    """Each job and its game's log, in order, played by ``runner``: in this process, in
    processes or on a Dask cluster (the same logs). Bot programs run where their game is
    played: each process of ``runner`` (each worker thread of a cluster) keeps the program
    seats of its games (``Seats``), each program's process reused from one game to the
    next, and all of them are stopped when the run ends, however it ends."""
    if not any(is_program(spec) for job in jobs for spec in job.policies):
        yield from zip(jobs, runner.map(log_of_job, jobs))
        return
    options = bots or BotOptions()
    if isinstance(runner, Local) and runner.jobs == 1:
        with Seats(options) as seats:
            for job in jobs:
                yield job, seats.log(job)
        return
    try:  # one game a task: a game of programs is long work
        yield from zip(jobs, runner.map(functools.partial(_log_here, options), jobs, per_task=1))
    finally:
        if isinstance(runner, Cluster):
            runner.everywhere(close_seats)


class Seats:
    """The program seats of the games played in one process (or one thread of a cluster's
    worker): for each seat, bot and command, a process started for the first game that needs
    it and reused for the next ones, but never for a deal it has played, as bkbot/1 promises:
    where a schedule plays a deal again with the same bot in the same seat (``candidate``),
    another process plays it (each kept for the next deals: none is started again);
    ``close`` stops them all."""

    def __init__(self, options: BotOptions) -> None:
        self.options = options
        self.held: dict[tuple[str, str, str], list[ProgramSeat]] = {}

    def __enter__(self) -> Seats:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def of(self, job: Job) -> dict[str, ProgramSeat]:
        """The program seats of ``job``'s game, told the file it is written to."""
        seats = {}
        names = job.meta.get("tournament", {}).get("bots", {})
        for player, spec in job.seats.items():
            if is_program(spec):
                held = self.held.setdefault((player, names.get(player, ""), spec), [])
                seat = next((s for s in held if job.deal is None or job.deal not in s.deals), None)
                if seat is None:  # each one has seen this deal's hands: one more process plays it
                    seat = ProgramSeat(spec, player, self.options, names.get(player, ""))
                    held.append(seat)
                if job.deal is not None:
                    seat.deals.add(job.deal)
                seat.game_file = job.name
                seats[player] = seat
        return seats

    def log(self, job: Job) -> str:
        """``job``'s game, played with these seats, as its log."""
        return to_jsonl(_played(job, self.options, self.of(job)))

    def close(self) -> None:
        for seat in (seat for held in self.held.values() for seat in held):
            with contextlib.suppress(Exception):  # one that will not stop must not keep the others running
                seat.close()
        self.held.clear()


_HERE: Final = threading.local()
"""The ``Seats`` of this thread of a worker process, by their options."""
_EVERY: Final[list[Seats]] = []
"""Every ``Seats`` of this worker process, to close them all (``close_seats``)."""
_LOCK: Final = threading.Lock()


def _log_here(options: BotOptions, job: Job) -> str:
    """``job``'s game as its log, played in a worker process with its thread's own seats, which
    are stopped when the worker ends (or ``close_seats`` is called)."""
    held: dict[BotOptions, Seats] = _HERE.__dict__.setdefault("seats", {})
    if options not in held:
        import multiprocessing.util

        with _LOCK:
            if not _EVERY:  # when the worker process ends: its bot programs end with it
                multiprocessing.util.Finalize(None, close_seats, exitpriority=10)
            held[options] = Seats(options)
            _EVERY.append(held[options])
    return held[options].log(job)


def close_seats() -> None:
    """Stop every bot program this worker process started (each thread's ``Seats``)."""
    with _LOCK:
        for seats in _EVERY:
            seats.close()
