"""One log of a tournament by bot: what its game event's ``meta.tournament`` says, and each seat's bot and score.

``records`` reads a log once and gives its record by player (``bkref.io.standings``), by bot
(``TournamentRecord``) and its game event's ``meta``: a pure function of the log, picklable,
so it maps onto processes or a cluster.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from sys import intern
from typing import Any, Literal

import msgspec

from bkref.game.events import End, Game
from bkref.io.diagnostics import Diagnostic
from bkref.io.referee import Report, check
from bkref.io.standings import GameRecord, Status, counts, record_of

Schedule = Literal["rotate", "candidate", "random"]
Role = Literal["rotation", "candidate", "control", "random"]


class Seating(msgspec.Struct, forbid_unknown_fields=False):
    """A tournament game's ``meta.tournament``, as the runner writes it."""

    schedule: Schedule
    game: int
    deal: int
    role: Role
    rotation: int | None
    candidate: str | None
    bots: dict[str, str]
    policies: dict[str, str]


# A run holds a BotSeat for every seat of every game, and a TournamentRecord for every game:
# never in a cycle, both are out of the garbage collector's sight (gc=False), and smaller.
class BotSeat(msgspec.Struct, gc=False):
    """One seat of a tournament game: the player (the seat's name), its bot and the bot's
    policy, its final total, and whether it won (two tied winners both won, E8)."""

    player: str
    bot: str
    policy: str
    total: int
    won: bool


class TournamentRecord(msgspec.Struct, gc=False):
    """One log of a tournament: its verdict, problems and first problem, what its ``meta.tournament``
    says (all null for a log without one), and its seats in order once it has a final score
    (empty before, or without ``meta.tournament``). ``rotation`` is the line-up's shift on
    the ``rotate`` schedule, the candidate's seat (from 1) in a ``candidate`` game."""

    file: str
    status: Status
    problems: int
    first_problem: Diagnostic | None
    schedule: Schedule | None
    game: int | None
    deal: int | None
    role: Role | None
    rotation: int | None
    candidate: str | None
    seats: list[BotSeat]

    @property
    def scored(self) -> bool:
        return bool(self.seats)

    @property
    def in_tournament(self) -> bool:
        """Whether the log's ``meta.tournament`` was read."""
        return self.schedule is not None


def seating(meta: dict[str, object] | None, players: Sequence[str]) -> Seating | None:
    """The ``meta.tournament`` of a game with these seats, or None when there is none, or it
    does not read as the runner writes it (a bot for every seat, a policy for every bot).

    >>> seating({"tournament": {"schedule": "random", "game": 1, "deal": 1, "role": "random", "rotation": None,
    ...     "candidate": None, "bots": {"ann": "a", "bob": "b"}, "policies": {"a": "greedy", "b": "random"}}},
    ...     ["ann", "bob"]).bots
    {'ann': 'a', 'bob': 'b'}
    >>> seating({"generator": "bkref simulate"}, ["ann", "bob"]) is None
    True
    """
    if meta is None or "tournament" not in meta:
        return None
    try:
        seats = msgspec.convert(meta["tournament"], Seating)
    except msgspec.ValidationError:
        return None
    if sorted(seats.bots) != sorted(players) or not set(seats.bots.values()) <= set(seats.policies):
        return None
    return seats


def tournament_record_of(report: Report, game: GameRecord) -> TournamentRecord:
    """The record of one checked log, by bot, beside its record by player (``game``)."""
    seats = [(s.player, s.total, s.player in game.winners) for s in game.seats]
    return _record(game.file, game.status, game.problems, game.first_problem, report.meta, game.players, seats)


def played_record(file: str, log: str) -> TournamentRecord | None:
    """The record of the legal, complete log at ``file`` from its text ``log`` alone, not checked
    again, or None when its text cannot say it: its first line must be its game event (the
    seats and ``meta.tournament``), its last line its ``end`` event with an ``expect`` of
    every seat's total (the engine's final totals: a log bkref plays and writes always has
    one). The winners are the seats with the highest total (E8). A game bkref plays is legal
    by construction (each event is played on the engine's state before it is written,
    ``bkref.bots.simulate``); a game ``--resume`` keeps was checked once, and a legal log's
    ``expect`` is its totals (a mismatched one is X1).

    >>> from bkref.bots.tournament import Bot, log_of_job, schedule, seed_deals
    >>> job = schedule("rotate", 2, [Bot("a", "greedy"), Bot("b", "random")], seed_deals(1, 1), None)[0]
    >>> log = log_of_job(job)
    >>> record = played_record("g.jsonl", log)
    >>> record == tournament_record(check(log, "g.jsonl")), [(s.bot, s.won) for s in record.seats]
    (True, [('a', True), ('b', False)])
    >>> played_record("g.jsonl", log.replace(',"expect":', ',"told":')) is None  # an end without expect
    True
    """
    first, _, rest = log.partition("\n")
    try:
        game = msgspec.json.decode(first, type=Game)
        end = msgspec.json.decode(rest.rstrip().rpartition("\n")[2], type=End)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if end.expect is None or not set(game.players) <= end.expect.keys():
        return None
    totals = [end.expect[p] for p in game.players]
    seats = [(p, total, place == 1) for p, total, place in zip(game.players, totals, places(totals))]
    return _record(file, "legal", 0, None, game.meta, game.players, seats)


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place: 1 + the seats with a higher total (tied totals share a place, E8).

    >>> places([120, 131, 120, 99])
    [2, 1, 2, 4]
    """
    return [1 + sum(other > total for other in totals) for total in totals]


def _record(
    file: str,
    status: Status,
    problems: int,
    first_problem: Diagnostic | None,
    meta: dict[str, Any] | None,
    players: list[str],
    scores: list[tuple[str, int, bool]],
) -> TournamentRecord:
    """The record by bot of a log: its verdict, and (once it has a final score) each seat's
    ``scores``: the player, its total and whether it won."""
    seats = seating(meta, players)
    if seats is None:
        return TournamentRecord(file, status, problems, first_problem, None, None, None, None, None, None, [])
    bots = [  # the names interned: a run's records hold each once, however many games
        BotSeat(intern(player), intern(b), intern(seats.policies[b]), total, won)
        for player, total, won in scores
        for b in [seats.bots[player]]
    ]
    return TournamentRecord(
        file,
        status,
        problems,
        first_problem,
        seats.schedule,
        seats.game,
        seats.deal,
        seats.role,
        seats.rotation,
        seats.candidate,
        bots,
    )


Meta = dict[str, Any] | None
"""A log's game event's ``meta``, as it was read."""


def records(item: Path | Report) -> tuple[GameRecord, TournamentRecord, Meta]:
    """The records of the log at ``item`` (or already checked), by player and by bot, and its
    game event's ``meta`` (what its bots did: ``bkref standings`` says their faults), from
    one reading. A pure function of the log, picklable, so it maps onto processes or a cluster."""
    report = item if isinstance(item, Report) else check(item)
    game = record_of(report)
    return game, tournament_record_of(report, game), report.meta


def tournament_record(item: Path | Report) -> TournamentRecord:
    """The record by bot of the log at ``item``, or of a log already checked (see ``records``).

    >>> tournament_record(Path("replays/2p-ann-bob.jsonl")).in_tournament  # no meta.tournament
    False
    """
    return records(item)[1]


def is_tournament(pairs: Sequence[tuple[GameRecord, TournamentRecord]], include_illegal: bool) -> bool:
    """Whether the games counted are a tournament's: there is one, and each carries ``meta.tournament``."""
    counted = [t for g, t in pairs if counts(g, include_illegal)]
    return bool(counted) and all(t.in_tournament for t in counted)
