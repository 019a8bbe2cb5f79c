"""A tournament's standings by bot: win shares, scores, margins, the paired difference, ratings.

A tournament's game (``bkref tournament``) is a legal ``bkref/1`` log whose game event's
``meta.tournament`` says its schedule, its place in it (``game``), its deal, its role
(``rotation``, ``candidate``, ``control`` or ``random``) and the bot in each seat. A
``TournamentRecord`` is what one log gives (``tournament_record``, a pure function of the
log that maps onto processes or a cluster); ``aggregate`` reduces the records to
``TournamentStandings``, the same records giving the same bytes:

- by bot (a bot may sit in several seats of a game: each seat counts), over every game
  counted, the control games included: games and seats, the win share (a shared victory,
  E8, counts as a share) with its 95 % Wilson interval, the mean score, and the mean margin
  over the best other player of the game, with a 95 % Student-t interval over the deals
  (each deal's mean margin is one value: the deal's luck is shared by its games);
- the paired difference of the candidate (``Difference``): per deal, on the ``candidate``
  schedule, its mean score over the seats it played minus the control game's score in
  those seats; on the others, its mean score minus the other bots' mean score in the
  deal's games; then the mean and its t interval over the deals. ``confident`` says
  whether the interval excludes 0, after ``MIN_DEALS`` deals at least;
- head to head: for each ordered pair of bots, over the games where both sit, how often
  the first finished above the second (seat against seat, a tie as half);
- a rating for every bot, from openskill's Bradley-Terry model with full pairing
  (``RATING_MODEL``), the games played in schedule order.

>>> record = TournamentRecord("g.jsonl", "legal", 0, None, "rotate", 1, 1, "rotation", 0, None,
...     [BotSeat("ann", "new", "greedy", 130, True), BotSeat("bob", "old", "random", 110, False)])
>>> standings = aggregate([record])
>>> [(b.bot, b.seats, b.wins, b.mean_margin) for b in standings.bots]
[('new', 1, 1.0, 20.0), ('old', 1, 0.0, -20.0)]
>>> [(h.bot, h.opponent, h.share) for h in standings.head_to_head]
[('new', 'old', 1.0), ('old', 'new', 0.0)]
"""

from __future__ import annotations

import csv
import io
import re
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from sys import intern
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec

from bkref.io.diagnostics import Diagnostic
from bkref.io.intervals import mean_interval, wilson
from bkref.io.referee import Report, check
from bkref.io.standings import GameRecord, Standings, Status, counts, fixed, record_of, text_cell
from bkref.io.standings import aggregate as aggregate_by_player

if TYPE_CHECKING:
    from bkref.io.batch import Runner

TOURNAMENT_STANDINGS_FORMAT: Final = "bkref-tournament-standings/1"

Schedule = Literal["rotate", "candidate", "random"]
Role = Literal["rotation", "candidate", "control", "random"]
Ended = Literal["deals", "until-confident"]

MIN_DEALS: Final = 10
"""The fewest deals after which the paired difference may be called confident: below ten,
the sample standard deviation of the deals is too rough to trust a t interval."""

RATING_MODEL: Final = "openskill BradleyTerryFull"
"""The rating model. openskill's default, Plackett-Luce, rates a player placed below two
tied winners above them (with equal ratings before the game); Bradley-Terry with full
pairing gives tied players equal ratings and never rates a lower place above a higher
one (tests/test_tournament.py checks every placing of 2 to 4 players on every model)."""

TOURNAMENT_FILE: Final = "tournament.json"
"""The file the runner writes in a tournament's folder, beside the logs."""


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


class Interval(msgspec.Struct):
    """A 95 % confidence interval."""

    low: float
    high: float


class Rating(msgspec.Struct):
    """A bot's openskill rating: the mean ``mu`` and the uncertainty ``sigma`` of its skill,
    and ``ordinal``, mu - 3 sigma, the cautious figure the bots are ranked by."""

    mu: float
    sigma: float
    ordinal: float


class BotStanding(msgspec.Struct):
    """One bot over the games counted: the games it sat in and its seats in them, the deals
    it played, its wins (a shared victory counts as a share) and win share (wins per seat)
    with its interval, its mean score, its mean margin over the best other player (the mean
    of its deals' means) with its interval (none for one deal), and its rating."""

    bot: str
    policy: str
    games: int
    seats: int
    deals: int
    wins: float
    win_share: float
    win_interval: Interval
    mean_score: float
    mean_margin: float
    margin_interval: Interval | None
    rating: Rating


class HeadToHead(msgspec.Struct):
    """``bot`` against ``opponent`` over the ``games`` where both sit: of the ``pairs`` of
    their seats, how many ``bot`` finished above (``above``, a tie as half), and the share."""

    bot: str
    opponent: str
    games: int
    pairs: int
    above: float
    share: float


class Difference(msgspec.Struct):
    """The candidate's paired difference in score, per deal, against the ``control`` game
    (its seats' scores there) or the ``others`` (the other bots' mean score in the deal):
    its mean over ``deals`` deals and its interval (none for one deal)."""

    candidate: str
    against: Literal["control", "others"]
    deals: int
    mean: float
    interval: Interval | None


class TournamentStandings(msgspec.Struct):
    """Every game read, and the standings by bot over the games counted.

    ``ended`` is how the run ended, from the folder's ``tournament.json`` (``deals``: the
    deals asked were played; ``until-confident``: the paired difference became confident),
    null when unknown; ``confident``, whether the difference's interval excludes 0 after
    ``min_deals`` deals or more. ``bots`` are ranked by win share, then mean score;
    ``head_to_head`` follows that order.
    """

    format: Literal["bkref-tournament-standings/1"]
    schedules: list[Schedule]
    candidate: str | None
    ended: Ended | None
    include_illegal: bool
    counted: int
    left_out: int
    deals: int
    games: list[TournamentRecord]
    bots: list[BotStanding]
    head_to_head: list[HeadToHead]
    difference: Difference | None
    confident: bool
    min_deals: int
    rating_model: str


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
    seats = seating(report.meta, game.players)
    if seats is None:
        return TournamentRecord(
            game.file, game.status, game.problems, game.first_problem, None, None, None, None, None, None, []
        )
    bots = [  # the names interned: a run's records hold each once, however many games
        BotSeat(intern(s.player), intern(b), intern(seats.policies[b]), s.total, s.player in game.winners)
        for s in game.seats
        for b in [seats.bots[s.player]]
    ]
    return TournamentRecord(
        game.file,
        game.status,
        game.problems,
        game.first_problem,
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


def standings(
    paths: Sequence[Path | Report],
    include_illegal: bool,
    run: Runner,
    advance: Callable[[], None],
    manifest: Manifest | None = None,
    warn: Callable[[str], None] | None = None,
    read: Callable[[str, Meta], None] | None = None,
) -> Standings | TournamentStandings:
    """``bkref standings``: the standings of the logs at ``paths``, one pair of records per
    log made by ``run`` (this process, processes or a cluster), then reduced there; by bot
    when every game counted is a tournament's, else by player. ``advance`` is called after
    each log. With the ``manifest`` of the tournament whose folder ``paths`` are
    (``manifest_of``), the folder is checked first: ``FolderError`` when it holds what a
    tournament's games cannot be (``folder_problems``), ``warn`` called with the line of
    ``missing_games`` when games of a finished run are not there. ``read`` is called with each
    log's file and game event's ``meta``, in order."""
    found = []  # as the map gives them: the reduce reads its own copy of them on a cluster
    for game, by_bot, meta in run.map(records, paths):
        found.append((game, by_bot, meta))
        if read is not None:
            read(game.file, meta)
        advance()
    pairs = [(game, by_bot) for game, by_bot, _ in found]
    if manifest is not None:
        games = [t for _, t in pairs]
        problems = folder_problems(games)
        if problems:
            raise FolderError(problems)
        missing = missing_games(games, manifest)
        if missing is not None and warn is not None:
            warn(missing)
    if is_tournament(pairs, include_illegal):
        return run.reduce(_by_bot, found, None if manifest is None else manifest.ended, include_illegal)
    return run.reduce(_by_player, found, include_illegal)


class FolderError(Exception):
    """A tournament's folder holds what its games cannot be: ``problems``, a line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


_GAME_NAME: Final = re.compile(r"game-(\d{6,})-deal-(\d{6,})-(rotation|candidate|control)\b")
"""The form of the file names ``bkref tournament`` gives its games' logs: game, deal, role."""


def _named(name: str) -> tuple[int, int, str] | None:
    """The game, deal and role a file name of ``_GAME_NAME``'s form says.

    >>> _named("game-000012-deal-000004-rotation-1.jsonl"), _named("mine.jsonl")
    ((12, 4, 'rotation'), None)
    """
    found = _GAME_NAME.match(name)
    return None if found is None else (int(found[1]), int(found[2]), found[3])


def folder_problems(games: Sequence[TournamentRecord]) -> list[str]:
    """What the logs of a tournament's folder cannot be, a line each naming the files: a log
    of no tournament among them (a stranger's, or a copy of another game's log edited), two
    logs of one game of the schedule, a log whose file name (of the form ``bkref tournament``
    gives it) says another game than its ``meta.tournament``. None of these comes from a run,
    stopped or not: a run writes each game once, under its own name.

    >>> seat = [BotSeat("ann", "new", "greedy", 130, True)]
    >>> one = TournamentRecord("game-000001-deal-000001-rotation-0.jsonl", "legal", 0, None,
    ...     "rotate", 1, 1, "rotation", 0, None, seat)
    >>> two = msgspec.structs.replace(one, file="game-000002-deal-000001-rotation-1.jsonl")
    >>> for problem in folder_problems([one, two]):
    ...     print(problem)
    game-000001-deal-000001-rotation-0.jsonl and game-000002-deal-000001-rotation-1.jsonl are both game 1
    game-000002-deal-000001-rotation-1.jsonl: its name is not that of game 1 of deal 1 (rotation), as its meta says
    """
    problems = [f"{t.file}: not a game of this tournament (its game event has no meta.tournament)"
                for t in games if not t.in_tournament]  # fmt: skip
    by_game: dict[int, list[str]] = {}
    for t in games:
        if t.in_tournament and t.game is not None:
            by_game.setdefault(t.game, []).append(t.file)
            said = _named(Path(t.file).name)  # a name of bkref's own form says a game
            if said is not None and said != (t.game, t.deal, t.role):
                problems.append(
                    f"{t.file}: its name is not that of game {t.game} of deal {t.deal} ({t.role}), as its meta says"
                )
    for game, files in sorted(by_game.items(), reverse=True):
        if len(files) > 1:
            problems.insert(0, f"{' and '.join(files)} are both game {game}")
    return problems


def missing_games(games: Sequence[TournamentRecord], manifest: Manifest) -> str | None:
    """The games of a tournament that ended after all its deals (``manifest.ended``) whose
    logs are not in its folder, in one line; None when none is missing, or the run stopped
    early (a stopped run's folder lacks its later games: ``--resume`` plays them).

    >>> seat = [BotSeat("ann", "new", "greedy", 130, True)]
    >>> game = TournamentRecord("game-000002-deal-000002-rotation-0.jsonl", "legal", 0, None,
    ...     "rotate", 2, 2, "rotation", 0, None, seat)
    >>> missing_games([game], Manifest("bkref-tournament/1", 2, "rotate", {}, None, 3, 1, None, False, "deals"))
    'game 1 and the games of deal 3 are missing, though tournament.json says all 3 deals were played'
    """
    if manifest.ended != "deals":
        return None
    numbers = {t.game for t in games if t.game is not None}
    last = max((t.deal for t in games if t.deal is not None), default=0)
    gaps = [n for n in range(1, max(numbers, default=0) + 1) if n not in numbers]
    parts = []
    if gaps:
        parts.append(
            f"game{'s' if len(gaps) > 1 else ''} {', '.join(map(str, gaps[:10]))}{' …' if len(gaps) > 10 else ''}"
        )
    if last < manifest.deals:
        parts.append(f"the games of deal{'s' if manifest.deals - last > 1 else ''} {last + 1}"
                     + (f" to {manifest.deals}" if manifest.deals - last > 1 else ""))  # fmt: skip
    if not parts:
        return None
    are = "is" if len(gaps) == 1 and len(parts) == 1 else "are"
    return f"{' and '.join(parts)} {are} missing, though tournament.json says all {manifest.deals} deals were played"


def _by_bot(
    found: list[tuple[GameRecord, TournamentRecord, Meta]], ended: Ended | None, include_illegal: bool
) -> TournamentStandings:
    return aggregate([t for _, t, _ in found], ended, include_illegal=include_illegal)


def _by_player(found: list[tuple[GameRecord, TournamentRecord, Meta]], include_illegal: bool) -> Standings:
    return aggregate_by_player([g for g, _, _ in found], include_illegal)


class Leader:
    """The bot with the highest win share so far, as the games come (the progress bar's note),
    kept as a running tally: each game costs the same however many came before.

    >>> leader = Leader()
    >>> leader.after(TournamentRecord("g.jsonl", "legal", 0, None, "rotate", 1, 1, "rotation", 0, None,
    ...     [BotSeat("ann", "new", "greedy", 130, True), BotSeat("bob", "old", "random", 130, True)]))
    'leader old (50% won)'
    """

    def __init__(self) -> None:
        self.wins: dict[str, Fraction] = defaultdict(Fraction)
        self.seats: dict[str, int] = defaultdict(int)

    def after(self, record: TournamentRecord) -> str:
        """The note once ``record``'s game is counted too ("" before any bot has a seat)."""
        winners = sum(seat.won for seat in record.seats)
        for seat in record.seats:
            self.seats[seat.bot] += 1
            self.wins[seat.bot] += Fraction(seat.won, winners or 1)
        if not self.seats:
            return ""
        best = max(self.seats, key=lambda b: (self.wins[b] / self.seats[b], b))
        return f"leader {best} ({float(self.wins[best] / self.seats[best]):.0%} won)"


class Manifest(msgspec.Struct, frozen=True):
    """What a tournament is, as ``tournament.json`` in its folder says (``bkref tournament``
    writes it): the players, the bots (name to policy, in line-up order), the schedule and
    its candidate, the deals (from ``seed`` on, or the ``decks`` of those logs), whether the
    run stops once confident, and how it ``ended`` (None while it runs: the folder of a run
    that was stopped says so)."""

    format: Literal["bkref-tournament/1"]
    players: int
    schedule: Schedule
    bots: dict[str, str]
    candidate: str | None
    deals: int
    seed: int | None
    decks: list[str] | None
    until_confident: bool
    ended: Ended | None = None


def manifest_of(folder: Path) -> Manifest | None:
    """The ``tournament.json`` of ``folder``: None when the file is not there. ``ValueError``
    when it cannot be read.

    >>> manifest_of(Path("replays")) is None
    True
    """
    path = folder / TOURNAMENT_FILE
    if not path.is_file():
        return None
    try:
        return msgspec.json.decode(path.read_bytes(), type=Manifest)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ValueError(f"{path}: {error}") from None


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place: 1 + the seats with a higher total (tied totals share a place, E8).

    >>> places([120, 131, 120, 99])
    [2, 1, 2, 4]
    """
    return [1 + sum(other > total for other in totals) for total in totals]


def margins(totals: Sequence[int]) -> list[int]:
    """Each seat's margin over the best other seat: positive for a sole winner, 0 for a shared win.

    >>> margins([120, 131, 120, 99]), margins([90, 90])
    ([-11, 11, -11, -32], [0, 0])
    """
    return [total - max(t for j, t in enumerate(totals) if j != i) for i, total in enumerate(totals)]


def _schedule_order(records: Sequence[TournamentRecord]) -> list[TournamentRecord]:
    return sorted(records, key=lambda r: (r.game or 0, r.file))


def difference(records: Sequence[TournamentRecord], include_illegal: bool = False) -> Difference | None:
    """The candidate's paired difference over the games counted (see ``Difference``): None
    without a single candidate, or without a deal that pairs it.

    On the ``candidate`` schedule, a deal's value is the candidate's mean score over the
    candidate games of the deal counted, minus the control game's mean score in the same
    seats (a deal without its control game counted is left out). Elsewhere, it is the
    candidate's mean score over its seats in the deal's games, minus the other bots' mean
    score over theirs. Cheap: the runner asks it after every deal (``confident``).
    """
    counted = [r for r in _schedule_order(records) if counts(r, include_illegal)]
    candidates = {r.candidate for r in counted if r.candidate is not None}
    if len(candidates) != 1:
        return None
    (candidate,) = candidates
    by_deal: dict[int, list[TournamentRecord]] = defaultdict(list)
    for r in counted:
        by_deal[r.deal or 0].append(r)
    against: Literal["control", "others"] = "control" if any(r.schedule == "candidate" for r in counted) else "others"
    values = []
    for _, games in sorted(by_deal.items()):
        if against == "control":
            control = next((r for r in games if r.role == "control"), None)
            played = {
                r.rotation - 1: r for r in games if r.role == "candidate" and r.rotation and r.rotation <= len(r.seats)
            }
            if control is None or not played or len(control.seats) != len(next(iter(played.values())).seats):
                continue
            own = [r.seats[seat].total for seat, r in sorted(played.items())]
            paired = [control.seats[seat].total for seat in sorted(played)]
        else:
            own = [s.total for r in games for s in r.seats if s.bot == candidate]
            paired = [s.total for r in games for s in r.seats if s.bot != candidate]
            if not own or not paired:
                continue
        values.append(statistics.fmean(own) - statistics.fmean(paired))
    if not values:
        return None
    mean, interval = mean_interval(values)
    return Difference(candidate, against, len(values), mean, Interval(*interval) if interval else None)


def confident(found: Difference | None) -> bool:
    """Whether the candidate's paired difference ``found`` is confident: its 95 % interval
    excludes 0, over ``MIN_DEALS`` deals or more. (Asking after every deal and stopping at
    the first yes makes a wrong yes likelier than 5 %: see docs/tournaments.md.)

    >>> confident(Difference("new", "control", 12, 3.0, Interval(0.5, 5.5)))
    True
    >>> confident(Difference("new", "control", 9, 3.0, Interval(0.5, 5.5)))
    False
    """
    if found is None or found.interval is None or found.deals < MIN_DEALS:
        return False
    return found.interval.low > 0 or found.interval.high < 0


def ratings(records: Sequence[TournamentRecord]) -> dict[str, Rating]:
    """Each bot's openskill rating (``RATING_MODEL``) after ``records``, in their order.

    A game rates each bot once, placed by the mean of its seats' places: one seat of it
    above two of another and below none gives it the better place. A game with one bot
    alone (a control game of a single baseline) tells nothing of which bot is better and
    changes no rating.

    >>> seat = lambda player, bot, total: BotSeat(player, bot, "greedy", total, False)
    >>> game = TournamentRecord("g", "legal", 0, None, "rotate", 1, 1, "rotation", 0, None,
    ...     [seat("ann", "a", 100), seat("bob", "b", 90), seat("cid", "a", 80), seat("dee", "b", 70)])
    >>> rated = ratings([game])
    >>> rated["a"].mu == rated["b"].mu  # mean places 2 and 3: a is placed above b
    False
    >>> rated["a"].mu > 25 > rated["b"].mu
    True
    """
    from openskill.models import BradleyTerryFull, BradleyTerryFullRating  # here: importing them costs 20 ms

    model = BradleyTerryFull()
    rated: dict[str, BradleyTerryFullRating] = {}
    for r in records:
        bots = list(dict.fromkeys(s.bot for s in r.seats))
        for bot in bots:
            rated.setdefault(bot, model.rating(name=bot))
        if len(bots) < 2:
            continue
        seat_places = places([s.total for s in r.seats])
        mean_places = [statistics.fmean(p for p, s in zip(seat_places, r.seats) if s.bot == bot) for bot in bots]
        teams = model.rate([[rated[bot]] for bot in bots], ranks=mean_places)
        for bot, (rating,) in zip(bots, teams):
            rated[bot] = rating
    return {bot: Rating(r.mu, r.sigma, r.ordinal()) for bot, r in rated.items()}


def aggregate(
    records: list[TournamentRecord], ended: Ended | None = None, *, include_illegal: bool = False
) -> TournamentStandings:
    """The standings by bot of ``records`` (in any order: the games are taken in schedule
    order, then by file); the same records give the same bytes."""
    counted = [r for r in _schedule_order(records) if counts(r, include_illegal)]
    policy: dict[str, str] = {}
    games: dict[str, int] = defaultdict(int)
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, Fraction] = defaultdict(Fraction)
    totals: dict[str, int] = defaultdict(int)
    deal_margins: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    pair_games: dict[tuple[str, str], int] = defaultdict(int)
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    above: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    for r in counted:
        share = Fraction(1, sum(s.won for s in r.seats))
        for s, margin in zip(r.seats, margins([s.total for s in r.seats])):
            policy.setdefault(s.bot, s.policy)
            seats[s.bot] += 1
            wins[s.bot] += share if s.won else 0
            totals[s.bot] += s.total
            deal_margins[s.bot][r.deal or 0].append(margin)
        met = set()
        for a in r.seats:
            for b in r.seats:
                if a.bot != b.bot:
                    met.add((a.bot, b.bot))
                    pairs[a.bot, b.bot] += 1
                    above[a.bot, b.bot] += 1 if a.total > b.total else Fraction(1, 2) if a.total == b.total else 0
        for bot in {s.bot for s in r.seats}:
            games[bot] += 1
        for pair in met:
            pair_games[pair] += 1
    rated = ratings(counted)
    bots = []
    for bot, n in seats.items():
        by_deal = [statistics.fmean(m) for _, m in sorted(deal_margins[bot].items())]
        mean_margin, interval = mean_interval(by_deal)
        bots.append(
            BotStanding(
                bot=bot,
                policy=policy[bot],
                games=games[bot],
                seats=n,
                deals=len(by_deal),
                wins=float(wins[bot]),
                win_share=float(wins[bot] / n),
                win_interval=Interval(*wilson(float(wins[bot]), n)),
                mean_score=totals[bot] / n,
                mean_margin=mean_margin,
                margin_interval=Interval(*interval) if interval else None,
                rating=rated[bot],
            )
        )
    bots.sort(key=lambda b: (-b.win_share, -b.mean_score, b.bot))
    order = [b.bot for b in bots]
    head_to_head = [
        HeadToHead(a, b, pair_games[a, b], pairs[a, b], float(above[a, b]), float(above[a, b] / pairs[a, b]))
        for a in order
        for b in order
        if (a, b) in pairs
    ]
    found = difference(counted)
    candidates = {r.candidate for r in counted if r.candidate is not None}
    return TournamentStandings(
        format=TOURNAMENT_STANDINGS_FORMAT,
        schedules=sorted({r.schedule for r in counted if r.schedule is not None}),
        candidate=candidates.pop() if len(candidates) == 1 else None,
        ended=ended,
        include_illegal=include_illegal,
        counted=len(counted),
        left_out=len(records) - len(counted),
        deals=len({r.deal for r in counted}),
        games=records,
        bots=bots,
        head_to_head=head_to_head,
        difference=found,
        confident=confident(found),
        min_deals=MIN_DEALS,
        rating_model=RATING_MODEL,
    )


CSV_TABLES: Final = ("tournament", "left_out", "bots", "head_to_head")
"""The tables of a tournament's CSV, in their order, each row naming its own in the ``table`` column."""

CSV_HEADER: Final = [
    "table",
    "bot",
    "policy",
    "games",
    "seats",
    "deals",
    "wins",
    "win_share",
    "win_low",
    "win_high",
    "mean_score",
    "mean_margin",
    "margin_low",
    "margin_high",
    "mu",
    "sigma",
    "ordinal",
    "difference",
    "difference_low",
    "difference_high",
    "difference_deals",
    "difference_against",
    "opponent",
    "pairs",
    "above",
    "share",
    "file",
    "status",
    "rule",
    "line",
    "problems",
    "counted",
    "left_out",
    "schedules",
    "candidate",
    "ended",
    "confident",
]
"""The CSV columns of a tournament's standings, every table of the report in one file: the
``table`` column names a row's table (``CSV_TABLES``), and the columns a table has not are
empty. ``tournament``: one row, the header of the report (``deals``, ``counted``,
``left_out``, ``schedules``, ``candidate``, ``ended``, ``confident``); ``left_out``: a game
left out (``file``, ``status``, the first problem's ``rule`` and ``line``, ``problems``);
``bots``: one row per bot, its figures, margin and rating, and on the candidate's row the
paired difference; ``head_to_head``: ``bot`` against ``opponent`` (``games``, ``pairs``,
``above``, ``share``)."""


def _interval(found: Interval | None, kind: str) -> list[object]:
    return [fixed(found.low, kind), fixed(found.high, kind)] if found else ["", ""]


def _csv_rows(standings: TournamentStandings) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [
        {
            "table": "tournament",
            "deals": standings.deals,
            "counted": standings.counted,
            "left_out": standings.left_out,
            "schedules": " ".join(standings.schedules),
            "candidate": "" if standings.candidate is None else text_cell(standings.candidate),
            "ended": standings.ended or "",
            "confident": int(standings.confident),
        }
    ]
    for r in standings.games:
        if not counts(r, standings.include_illegal):
            problem = r.first_problem
            rows.append(
                {
                    "table": "left_out",
                    "file": text_cell(r.file),
                    "status": r.status,
                    "rule": problem.rule if problem else "",
                    "line": problem.line if problem else "",
                    "problems": r.problems,
                }
            )
    found = standings.difference
    for b in standings.bots:
        row: dict[str, object] = {
            "table": "bots",
            "bot": text_cell(b.bot),
            "policy": text_cell(b.policy),
            "games": b.games,
            "seats": b.seats,
            "deals": b.deals,
            "wins": fixed(b.wins, "wins"),
            "win_share": fixed(b.win_share, "share"),
            **dict(zip(("win_low", "win_high"), _interval(b.win_interval, "share"))),
            "mean_score": fixed(b.mean_score, "mean"),
            "mean_margin": fixed(b.mean_margin, "mean"),
            **dict(zip(("margin_low", "margin_high"), _interval(b.margin_interval, "mean"))),
            "mu": fixed(b.rating.mu, "rating"),
            "sigma": fixed(b.rating.sigma, "rating"),
            "ordinal": fixed(b.rating.ordinal, "rating"),
        }
        if found is not None and found.candidate == b.bot:
            row |= {
                "difference": fixed(found.mean, "mean"),
                **dict(zip(("difference_low", "difference_high"), _interval(found.interval, "mean"))),
                "difference_deals": found.deals,
                "difference_against": found.against,
            }
        rows.append(row)
    rows += [
        {
            "table": "head_to_head",
            "bot": text_cell(h.bot),
            "opponent": text_cell(h.opponent),
            "games": h.games,
            "pairs": h.pairs,
            "above": fixed(h.above, "above"),
            "share": fixed(h.share, "share"),
        }
        for h in standings.head_to_head
    ]
    return rows


def to_csv(standings: TournamentStandings) -> str:
    """``bkref standings --format csv`` of a tournament: a header row (``CSV_HEADER``), then
    the rows of every table of the report, each naming its table, in ``CSV_TABLES``'s order
    and each table in the order of the report. Names and files are ``text_cell``s; figures
    have the decimals of ``bkref.io.standings.PLACES``. An interval that cannot be made (one deal) leaves its
    cells empty."""
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_HEADER, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(_csv_rows(standings))
    return out.getvalue()
