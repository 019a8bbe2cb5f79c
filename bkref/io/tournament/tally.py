"""A tournament's standings by bot, kept as running tallies as its games come.

A ``Tally`` takes the ``TournamentRecord`` of each game in schedule order (``add``) and
keeps sums, not records: each game costs the same however many came before, and a run
of a million games holds its bots' figures, a number per deal and bot for the margins'
intervals, and the games of the deals not yet closed. ``standings`` gives the
``TournamentStandings`` at any time; ``aggregate`` is the tally of records already read
(in any order: the games are taken in schedule order, then by file), the same records
giving the same bytes:

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

>>> from bkref.io.tournament.records import BotSeat
>>> record = TournamentRecord("g.jsonl", "legal", 0, None, "rotate", 1, 1, "rotation", 0, None,
...     [BotSeat("ann", "new", "greedy", 130, True), BotSeat("bob", "old", "random", 110, False)])
>>> standings = aggregate([record])
>>> [(b.bot, b.seats, b.wins, b.mean_margin) for b in standings.bots]
[('new', 1, 1.0, 20.0), ('old', 1, 0.0, -20.0)]
>>> [(h.bot, h.opponent, h.share) for h in standings.head_to_head]
[('new', 'old', 1.0), ('old', 'new', 0.0)]
"""

from __future__ import annotations

import statistics
from array import array
from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Literal

import msgspec

from bkref.io.intervals import mean_interval, wilson
from bkref.io.standings import counts
from bkref.io.tournament.records import Schedule, TournamentRecord, places

if TYPE_CHECKING:
    from openskill.models import BradleyTerryFull, BradleyTerryFullRating

TOURNAMENT_STANDINGS_FORMAT: Final = "bkref-tournament-standings/1"

Ended = Literal["deals", "until-confident"]

MIN_DEALS: Final = 10
"""The fewest deals after which the paired difference may be called confident: below ten,
the sample standard deviation of the deals is too rough to trust a t interval."""

RATING_MODEL: Final = "openskill BradleyTerryFull"
"""The rating model. openskill's default, Plackett-Luce, rates a player placed below two
tied winners above them (with equal ratings before the game); Bradley-Terry with full
pairing gives tied players equal ratings and never rates a lower place above a higher
one (tests/test_tournament.py checks every placing of 2 to 4 players on every model)."""


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


def margins(totals: Sequence[int]) -> list[int]:
    """Each seat's margin over the best other seat: positive for a sole winner, 0 for a shared win.

    >>> margins([120, 131, 120, 99]), margins([90, 90])
    ([-11, 11, -11, -32], [0, 0])
    """
    return [total - max(t for j, t in enumerate(totals) if j != i) for i, total in enumerate(totals)]


def _schedule_key(r: TournamentRecord) -> tuple[int, str]:
    """Where a game comes in schedule order: by its number, then its file."""
    return r.game or 0, r.file


def _schedule_order(records: Iterable[TournamentRecord]) -> list[TournamentRecord]:
    return sorted(records, key=_schedule_key)


def _deal_value(
    games: Sequence[TournamentRecord], candidate: str, against: Literal["control", "others"]
) -> float | None:
    """The candidate's paired difference in the games counted of one deal (see ``Difference``),
    in schedule order; None when the deal pairs nothing.

    On the ``candidate`` schedule, it is the candidate's mean score over the candidate games
    of the deal, minus the control game's mean score in the same seats (None without the
    control game). Elsewhere, it is the candidate's mean score over its seats in the deal's
    games, minus the other bots' mean score over theirs.
    """
    if against == "control":
        control = next((r for r in games if r.role == "control"), None)
        played = {
            r.rotation - 1: r for r in games if r.role == "candidate" and r.rotation and r.rotation <= len(r.seats)
        }
        if control is None or not played or len(control.seats) != len(next(iter(played.values())).seats):
            return None
        own = [r.seats[seat].total for seat, r in sorted(played.items())]
        paired = [control.seats[seat].total for seat in sorted(played)]
    else:
        own = [s.total for r in games for s in r.seats if s.bot == candidate]
        paired = [s.total for r in games for s in r.seats if s.bot != candidate]
        if not own or not paired:
            return None
    return statistics.fmean(own) - statistics.fmean(paired)


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


class _Ratings:
    """Each bot's openskill rating (``RATING_MODEL``), as the games come.

    A game rates each bot once, placed by the mean of its seats' places: one seat of it
    above two of another and below none gives it the better place. A game with one bot
    alone (a control game of a single baseline) tells nothing of which bot is better and
    changes no rating."""

    def __init__(self) -> None:
        from openskill.models import BradleyTerryFull  # here: importing it costs 20 ms

        self.model: BradleyTerryFull = BradleyTerryFull()
        self.rated: dict[str, BradleyTerryFullRating] = {}

    def add(self, r: TournamentRecord) -> None:
        bots = list(dict.fromkeys(s.bot for s in r.seats))
        for bot in bots:
            self.rated.setdefault(bot, self.model.rating(name=bot))
        if len(bots) < 2:
            return
        seat_places = places([s.total for s in r.seats])
        mean_places = [statistics.fmean(p for p, s in zip(seat_places, r.seats) if s.bot == bot) for bot in bots]
        teams = self.model.rate([[self.rated[bot]] for bot in bots], ranks=mean_places)
        for bot, (rating,) in zip(bots, teams):
            self.rated[bot] = rating

    def now(self) -> dict[str, Rating]:
        return {bot: Rating(r.mu, r.sigma, r.ordinal()) for bot, r in self.rated.items()}


def ratings(records: Iterable[TournamentRecord]) -> dict[str, Rating]:
    """Each bot's openskill rating (``RATING_MODEL``) after ``records``, in their order (see ``_Ratings``).

    >>> from bkref.io.tournament.records import BotSeat
    >>> seat = lambda player, bot, total: BotSeat(player, bot, "greedy", total, False)
    >>> game = TournamentRecord("g", "legal", 0, None, "rotate", 1, 1, "rotation", 0, None,
    ...     [seat("ann", "a", 100), seat("bob", "b", 90), seat("cid", "a", 80), seat("dee", "b", 70)])
    >>> rated = ratings([game])
    >>> rated["a"].mu == rated["b"].mu  # mean places 2 and 3: a is placed above b
    False
    >>> rated["a"].mu > 25 > rated["b"].mu
    True
    """
    rated = _Ratings()
    for r in records:
        rated.add(r)
    return rated.now()


class Tally:
    """The standings by bot of the games added so far (``add``, in schedule order), as running
    tallies: sums by bot and by pair of bots, the ratings, and for each bot one number per
    deal (its mean margin in the deal), the candidate's paired difference one per deal. The
    games of a deal are held until it is closed (``close``: a run closes each deal once its
    games are all there; ``standings`` closes the deals still open). ``keep_games``: the
    records of the games counted are kept too, for the report that lists them (JSON); the
    games left out always are.

    >>> from bkref.io.tournament.records import BotSeat
    >>> tally = Tally()
    >>> tally.add(TournamentRecord("g.jsonl", "legal", 0, None, "rotate", 1, 1, "rotation", 0, None,
    ...     [BotSeat("ann", "new", "greedy", 130, True), BotSeat("bob", "old", "random", 130, True)]))
    >>> tally.leader()
    'leader old (50% won)'
    """

    def __init__(self, include_illegal: bool = False, keep_games: bool = True) -> None:
        self.include_illegal = include_illegal
        self.keep_games = keep_games
        self.games: list[TournamentRecord] = []
        self.read = 0
        self.counted = 0
        self.deals = 0
        self.schedules: set[Schedule] = set()
        self.candidates: set[str] = set()
        self.policy: dict[str, str] = {}
        self.games_of: dict[str, int] = defaultdict(int)
        self.seats: dict[str, int] = defaultdict(int)
        self.wins: dict[str, Fraction] = defaultdict(Fraction)
        self.totals: dict[str, int] = defaultdict(int)
        self.pair_games: dict[tuple[str, str], int] = defaultdict(int)
        self.pairs: dict[tuple[str, str], int] = defaultdict(int)
        self.above: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
        self.deal_margins: dict[str, array[float]] = defaultdict(lambda: array("d"))
        self.differences: array[float] = array("d")
        self.open: dict[int, list[TournamentRecord]] = defaultdict(list)  # by deal (none is 0)
        self.open_deals: set[int | None] = set()  # as the records say them
        self.rated = _Ratings()

    def add(self, r: TournamentRecord) -> None:
        """Count the game of ``r`` (the next in schedule order), or list it as left out."""
        self.read += 1
        if not counts(r, self.include_illegal):
            self.games.append(r)
            return
        if self.keep_games:
            self.games.append(r)
        self.counted += 1
        if r.schedule is not None:
            self.schedules.add(r.schedule)
        if r.candidate is not None:
            self.candidates.add(r.candidate)
        self.open[r.deal or 0].append(r)
        self.open_deals.add(r.deal)
        share = Fraction(1, sum(s.won for s in r.seats))
        for s in r.seats:
            self.policy.setdefault(s.bot, s.policy)
            self.seats[s.bot] += 1
            self.wins[s.bot] += share if s.won else 0
            self.totals[s.bot] += s.total
        met = set()
        for a in r.seats:
            for b in r.seats:
                if a.bot != b.bot:
                    met.add((a.bot, b.bot))
                    self.pairs[a.bot, b.bot] += 1
                    self.above[a.bot, b.bot] += 1 if a.total > b.total else Fraction(1, 2) if a.total == b.total else 0
        for bot in {s.bot for s in r.seats}:
            self.games_of[bot] += 1
        for pair in met:
            self.pair_games[pair] += 1
        self.rated.add(r)

    def close(self) -> None:
        """Close the deals open: each bot's mean margin in each, and the candidate's paired
        difference (with the candidate and the schedules of the games counted so far)."""
        self.deals += len(self.open_deals)
        self.open_deals.clear()
        candidate = next(iter(self.candidates)) if len(self.candidates) == 1 else None
        for _, games in sorted(self.open.items()):
            by_bot: dict[str, list[int]] = defaultdict(list)
            for r in games:
                for s, margin in zip(r.seats, margins([s.total for s in r.seats])):
                    by_bot[s.bot].append(margin)
            for bot, found in by_bot.items():
                self.deal_margins[bot].append(statistics.fmean(found))
            if candidate is not None and (value := _deal_value(games, candidate, self._against())) is not None:
                self.differences.append(value)
        self.open.clear()

    def _against(self) -> Literal["control", "others"]:
        return "control" if "candidate" in self.schedules else "others"

    def difference(self) -> Difference | None:
        """The candidate's paired difference over the deals closed: None without a single
        candidate, or without a deal that pairs it."""
        if len(self.candidates) != 1 or not self.differences:
            return None
        mean, interval = mean_interval(self.differences)
        (candidate,) = self.candidates
        return Difference(
            candidate, self._against(), len(self.differences), mean, Interval(*interval) if interval else None
        )

    def confident(self) -> bool:
        """Whether the paired difference over the deals closed is confident (``confident``)."""
        return confident(self.difference())

    def leader(self) -> str:
        """The bot with the highest win share so far, in a few words (a progress bar's note); "" before any game."""
        if not self.seats:
            return ""
        best = max(self.seats, key=lambda b: (self.wins[b] / self.seats[b], b))
        return f"leader {best} ({float(self.wins[best] / self.seats[best]):.0%} won)"

    def standings(self, ended: Ended | None = None, games: list[TournamentRecord] | None = None) -> TournamentStandings:
        """The standings of the games added (the deals open closed first), the run ``ended`` so;
        ``games``, the games the report lists, when not those the tally kept."""
        self.close()
        rated = self.rated.now()
        bots = []
        for bot, n in self.seats.items():
            mean_margin, interval = mean_interval(self.deal_margins[bot])
            wins = self.wins[bot]
            bots.append(
                BotStanding(
                    bot=bot,
                    policy=self.policy[bot],
                    games=self.games_of[bot],
                    seats=n,
                    deals=len(self.deal_margins[bot]),
                    wins=float(wins),
                    win_share=float(wins / n),
                    win_interval=Interval(*wilson(float(wins), n)),
                    mean_score=self.totals[bot] / n,
                    mean_margin=mean_margin,
                    margin_interval=Interval(*interval) if interval else None,
                    rating=rated[bot],
                )
            )
        bots.sort(key=lambda b: (-b.win_share, -b.mean_score, b.bot))
        order = [b.bot for b in bots]
        pairs, above = self.pairs, self.above
        head_to_head = [
            HeadToHead(a, b, self.pair_games[a, b], pairs[a, b], float(above[a, b]), float(above[a, b] / pairs[a, b]))
            for a in order
            for b in order
            if (a, b) in pairs
        ]
        found = self.difference()
        return TournamentStandings(
            format=TOURNAMENT_STANDINGS_FORMAT,
            schedules=sorted(self.schedules),
            candidate=next(iter(self.candidates)) if len(self.candidates) == 1 else None,
            ended=ended,
            include_illegal=self.include_illegal,
            counted=self.counted,
            left_out=self.read - self.counted,
            deals=self.deals,
            games=self.games if games is None else games,
            bots=bots,
            head_to_head=head_to_head,
            difference=found,
            confident=confident(found),
            min_deals=MIN_DEALS,
            rating_model=RATING_MODEL,
        )


class Streamed:
    """The standings of records in the order a folder's logs are read (``bkref standings``),
    kept as running tallies: each deal closed when a game of the next one comes, so that the
    tally holds no game of a closed deal. They are ``aggregate``'s of the same records, byte
    for byte, so long as the games counted come as a tournament's folder gives them: in
    schedule order (``aggregate``'s: by game, then file), the deals one after the other, all
    of one schedule and candidate (each deal is closed with them). ``tally`` is None from the
    first game counted that does not: the records must then be taken all at once (``aggregate``).

    >>> from bkref.io.tournament.records import BotSeat
    >>> seats = [BotSeat("ann", "new", "greedy", 130, True), BotSeat("bob", "old", "random", 110, False)]
    >>> game = lambda n, deal: TournamentRecord(f"g{n}.jsonl", "legal", 0, None, "rotate", n, deal,
    ...     "rotation", 0, None, seats)
    >>> streamed = Streamed(include_illegal=False, keep_games=False)
    >>> for n, deal in [(1, 1), (2, 1), (3, 2)]:
    ...     streamed.add(game(n, deal))
    >>> streamed.tally.deals, sum(map(len, streamed.tally.open.values()))  # deal 1 closed, game 3 open
    (1, 1)
    >>> streamed.add(game(4, 1))  # deal 1 again, once closed
    >>> streamed.tally is None
    True
    """

    def __init__(self, include_illegal: bool, keep_games: bool) -> None:
        self.tally: Tally | None = Tally(include_illegal, keep_games)
        self.last: tuple[int, str] | None = None
        """The schedule key of the last game counted."""
        self.deal = 0
        self.kind: tuple[Schedule | None, str | None] = (None, None)
        """The schedule and candidate of the games counted."""

    def add(self, r: TournamentRecord) -> None:
        """Count the game of ``r``, the next read, or list it as left out (see the class)."""
        tally = self.tally
        if tally is None:
            return
        if counts(r, tally.include_illegal):
            key, deal, kind = _schedule_key(r), r.deal or 0, (r.schedule, r.candidate)
            if self.last is not None:
                if key <= self.last or deal < self.deal or kind != self.kind:
                    self.tally = None
                    return
                if deal > self.deal:
                    tally.close()
            self.last, self.deal, self.kind = key, deal, kind
        tally.add(r)


def _tallied(records: Sequence[TournamentRecord], include_illegal: bool) -> Tally:
    tally = Tally(include_illegal, keep_games=False)
    for r in _schedule_order(records):
        tally.add(r)
    tally.close()
    return tally


def difference(records: Sequence[TournamentRecord], include_illegal: bool = False) -> Difference | None:
    """The candidate's paired difference over the games counted of ``records`` (see ``Tally.difference``)."""
    return _tallied(records, include_illegal).difference()


def aggregate(
    records: list[TournamentRecord], ended: Ended | None = None, *, include_illegal: bool = False
) -> TournamentStandings:
    """The standings by bot of ``records`` (in any order: the games are taken in schedule
    order, then by file); the same records give the same bytes."""
    return _tallied(records, include_illegal).standings(ended, records)
