"""Standings of many games: one record per log, then who won, by player, seat and parchment.

A ``GameRecord`` is what one log gives, read in one pass by the referee as ``validate``
plays it (no explanation is built): legal or not, with its first problem, and each
seat's harvest, parchment and final totals from the engine's own final score
(``bkref.game.scoring``). ``aggregate`` reduces the records, in order, to a
``Standings`` (``bkref standings --format json``, whose schema is generated from these
classes). Illegal and unreadable games are listed but left out of the aggregates,
unless ``include_illegal`` counts the illegal ones that reached a final score.

>>> from pathlib import Path
>>> record = game_record(Path("replays/2p-ann-bob.jsonl"))
>>> record.status, [(s.player, s.total) for s in record.seats], record.winners
('legal', [('ann', 125), ('bob', 123)], ['ann'])
>>> standings = aggregate([record], include_illegal=False)
>>> [(p.player, p.games, p.wins) for p in standings.players]
[('ann', 1, 1.0), ('bob', 1, 0.0)]
"""

from __future__ import annotations

import csv
import io
import statistics
from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Final, Literal, Protocol

import msgspec

from bkref.io.diagnostics import EXIT_ILLEGAL, EXIT_LEGAL, EXIT_UNREADABLE, Diagnostic, json_printable, printable
from bkref.io.referee import Report, check

STANDINGS_FORMAT: Final = "bkref-standings/1"

Status = Literal["legal", "illegal", "unreadable"]


class CardPoints(msgspec.Struct):
    """One parchment a player owns (a copy card: what it copied) and its points."""

    card: str
    copied: str | None
    points: int


class SeatScore(msgspec.Struct):
    """One seat's final score: the player, the harvest, parchment and final totals, each parchment."""

    player: str
    harvest: int
    parchment_total: int
    total: int
    parchments: list[CardPoints]


class GameRecord(msgspec.Struct):
    """One log: its verdict, its first problem, and (once the end event is played) each seat's score.

    ``players`` are the seats in order (empty when no ``game`` event was read); ``seats``
    and ``winners`` are empty when the game has no final score.
    """

    file: str
    status: Status
    problems: int
    first_problem: Diagnostic | None
    players: list[str]
    seats: list[SeatScore]
    winners: list[str]

    @property
    def scored(self) -> bool:
        return bool(self.seats)


class PlayerStanding(msgspec.Struct):
    """One player name over the games counted: wins (a shared victory counts as a share), scores."""

    player: str
    games: int
    wins: float
    win_rate: float
    mean: float
    median: float
    min: int
    max: int
    mean_harvest: float
    mean_parchments: float


class SeatStanding(msgspec.Struct):
    """One seat (1 = the first player) over the games counted; ``fair`` is the wins it would have
    if every seat won equally often (1/players of each game)."""

    seat: int
    games: int
    wins: float
    win_rate: float
    fair: float


class CardStanding(msgspec.Struct):
    """One parchment card over the games counted: how many times it was owned, and its mean points."""

    card: str
    owned: int
    mean_points: float


class Standings(msgspec.Struct):
    """Every game read, and the aggregates over the games counted (``counted`` of them)."""

    format: Literal["bkref-standings/1"]
    include_illegal: bool
    counted: int
    left_out: int
    games: list[GameRecord]
    players: list[PlayerStanding]
    seats: list[SeatStanding]
    parchments: list[CardStanding]


class Counted(Protocol):
    """A game's record, by player or by bot (``bkref.io.tournament``): its verdict, and whether it has a final score."""

    @property
    def status(self) -> Status: ...

    @property
    def scored(self) -> bool: ...


_STATUS: Final[dict[int, Status]] = {EXIT_LEGAL: "legal", EXIT_ILLEGAL: "illegal"}


def exit_status(statuses: Iterable[Status]) -> int:
    """The status ``validate`` gives logs of these ``statuses``: 0 all legal, 1 an illegal game, 2 an unreadable one.

    >>> exit_status(["legal", "illegal"]), exit_status([])
    (1, 0)
    """
    codes = {status: code for code, status in _STATUS.items()}
    return max((codes.get(status, EXIT_UNREADABLE) for status in statuses), default=EXIT_LEGAL)


def record_of(report: Report) -> GameRecord:
    """The record of one checked log (its report must keep its final state)."""
    state = report.state
    diagnostics = report.diagnostics
    players = list(state.players) if state is not None and report.game_read else []
    final = state.final if state is not None else None
    seats = []
    winners: list[str] = []
    if final is not None:
        for p in players:
            s = final.players[p]
            cards = [CardPoints(r.card, r.copied, r.points) for r in s.parchments]
            seats.append(SeatScore(p, s.harvest, s.parchment_total, s.total, cards))
        winners = list(final.winners)
    return GameRecord(
        file=report.path,
        status=_STATUS.get(report.status, "unreadable"),
        problems=len(diagnostics),
        first_problem=diagnostics[0] if diagnostics else None,
        players=players,
        seats=seats,
        winners=winners,
    )


def game_record(item: Path | Report) -> GameRecord:
    """The record of the log at ``item``, or of a log already checked (standard input's ``Report``).

    A pure function of the log, picklable, so it maps onto processes or a cluster.
    """
    return record_of(item if isinstance(item, Report) else check(item))


def counts(record: Counted, include_illegal: bool) -> bool:
    """Whether ``record`` is counted in the aggregates: a legal game with a final score, or
    with ``include_illegal`` an illegal one. An unreadable game never is, even with a
    final score: a line of it could not be read at all, so that score is not the game's."""
    return record.scored and (record.status == "legal" or (include_illegal and record.status == "illegal"))


def aggregate(records: list[GameRecord], include_illegal: bool) -> Standings:
    """The standings of ``records``, in their order (the same records give the same bytes)."""
    totals: dict[str, list[int]] = defaultdict(list)
    harvests: dict[str, int] = defaultdict(int)
    parchments: dict[str, int] = defaultdict(int)
    wins: dict[str, Fraction] = defaultdict(Fraction)
    seat_games: dict[int, int] = defaultdict(int)
    seat_wins: dict[int, Fraction] = defaultdict(Fraction)
    seat_fair: dict[int, Fraction] = defaultdict(Fraction)
    card_owned: dict[str, int] = defaultdict(int)
    card_points: dict[str, int] = defaultdict(int)
    counted = [r for r in records if counts(r, include_illegal)]
    for r in counted:
        share = Fraction(1, len(r.winners))
        for seat, s in enumerate(r.seats, 1):
            totals[s.player].append(s.total)
            harvests[s.player] += s.harvest
            parchments[s.player] += s.parchment_total
            seat_games[seat] += 1
            seat_fair[seat] += Fraction(1, len(r.seats))
            if s.player in r.winners:
                wins[s.player] += share
                seat_wins[seat] += share
            for c in s.parchments:
                card_owned[c.card] += 1
                card_points[c.card] += c.points
    players = [
        PlayerStanding(
            player=p,
            games=len(t),
            wins=float(wins[p]),
            win_rate=float(wins[p] / len(t)),
            mean=sum(t) / len(t),
            median=float(statistics.median(t)),
            min=min(t),
            max=max(t),
            mean_harvest=harvests[p] / len(t),
            mean_parchments=parchments[p] / len(t),
        )
        for p, t in totals.items()
    ]
    players.sort(key=lambda s: (-s.wins, -s.mean, s.player))
    seats = [
        SeatStanding(seat, n, float(seat_wins[seat]), float(seat_wins[seat] / n), float(seat_fair[seat]))
        for seat, n in sorted(seat_games.items())
    ]
    cards = [CardStanding(c, n, card_points[c] / n) for c, n in card_owned.items()]
    cards.sort(key=lambda s: (-s.mean_points, -s.owned, s.card))
    return Standings(
        format=STANDINGS_FORMAT,
        include_illegal=include_illegal,
        counted=len(counted),
        left_out=len(records) - len(counted),
        games=records,
        players=players,
        seats=seats,
        parchments=cards,
    )


def to_json(standings: msgspec.Struct) -> str:
    """``bkref standings --format json``: one pretty-printed JSON object (of a tournament too)."""
    return json_printable(msgspec.json.format(msgspec.json.encode(standings).decode(), indent=2)) + "\n"


MAX_SEATS: Final = 4

CSV_TABLES: Final = ("games", "players", "seats", "parchments")
"""The tables of the standings' CSV, in their order, each row naming its own in the ``table`` column."""

GAME_COLUMNS: Final = [
    "file",
    "status",
    "rule",
    "line",
    *(
        f"seat{n}_{column}"
        for n in range(1, MAX_SEATS + 1)
        for column in ("player", "harvest", "parchments", "total", "won")
    ),
]
"""The columns of a game's row: five per seat (empty for the seats a game lacks).

A player's name is in one cell of its own, never joined with others': a name may hold
any character, so no separator could split a list of names back."""

CSV_HEADER: Final = [
    "table",
    *GAME_COLUMNS,
    "player",
    "games",
    "wins",
    "win_rate",
    "mean",
    "median",
    "min",
    "max",
    "mean_harvest",
    "mean_parchments",
    "seat",
    "fair",
    "card",
    "owned",
    "mean_points",
]
"""The CSV columns, every table of the report in one file: the ``table`` column names a
row's table (``CSV_TABLES``), and the columns a table has not are empty. ``games``: one row
per game (``GAME_COLUMNS``); ``players``: ``player, games, wins, win_rate, mean, median,
min, max, mean_harvest, mean_parchments``; ``seats``: ``seat, games, wins, win_rate,
fair``; ``parchments``: ``card, owned, mean_points``."""

PLACES: Final = {"wins": 2, "share": 4, "mean": 2, "median": 1, "rating": 2, "above": 1}
"""The decimals of the CSVs' figures (of the standings, and of a tournament's): wins (a shared
victory counts as a share of a win, and ``fair``) 2; shares and win rates, and their
intervals, 4; means and their intervals 2; a median (of whole scores: a half at most) 1;
ratings 2; pairs above (a tie as half) 1."""


def fixed(value: float, kind: str) -> str:
    """``value`` with the decimals ``PLACES`` gives ``kind``, never ``-0``.

    >>> fixed(2 / 3, "share"), fixed(-0.001, "mean"), fixed(41.25, "mean"), fixed(143, "median")
    ('0.6667', '0.00', '41.25', '143.0')
    """
    text = f"{value:.{PLACES[kind]}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


FORMULA_STARTS: Final = ("=", "+", "-", "@")
"""What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection; its
tab and carriage return never start a cell here: they are escaped)."""


def text_cell(text: str) -> str:
    """``text`` from a log or a path as a CSV cell that a spreadsheet shows as it is: every
    character outside printable text escaped as validate prints it (``\\t``, ``\\r``,
    ``\\x1b``), and a leading ``'`` on a cell that could start a formula (OWASP's advice
    against CSV injection). A sign alone is no formula: ``-``, standard input, stays as it is.

    >>> text_cell("=HYPERLINK(1)"), text_cell("-1+1"), text_cell(chr(9) + "=1"), text_cell("Bob, Jr."), text_cell("-")
    ("'=HYPERLINK(1)", "'-1+1", '\\\\t=1', 'Bob, Jr.', '-')
    """
    text = printable(text)
    return "'" + text if len(text) > 1 and text.startswith(FORMULA_STARTS) else text


def _game_row(r: GameRecord) -> dict[str, object]:
    problem = r.first_problem
    scores = {s.player: s for s in r.seats}
    seats: list[object] = []
    for p in r.players:
        s = scores.get(p)
        seats += [text_cell(p), *((s.harvest, s.parchment_total, s.total, int(p in r.winners)) if s else [""] * 4)]
    seats += [""] * (5 * MAX_SEATS - len(seats))
    cells = [text_cell(r.file), r.status, problem.rule if problem else "", problem.line if problem else "", *seats]
    return {"table": "games", **dict(zip(GAME_COLUMNS, cells))}


def to_csv(standings: Standings) -> str:
    """``bkref standings --format csv``: a header row (``CSV_HEADER``), then the rows of every
    table of the report, each naming its table, in ``CSV_TABLES``'s order: one row per game,
    in input order, then the players, the seats and the parchments in the report's order.

    Each seat of a game has its player (as soon as the game event is read), harvest,
    parchment and final totals, and ``won`` (1 or 0) once the game has a final score. The
    file, the players and the cards are ``text_cell``s; figures have the decimals of ``PLACES``.
    """
    rows = [_game_row(r) for r in standings.games]
    rows += [
        {
            "table": "players",
            "player": text_cell(p.player),
            "games": p.games,
            "wins": fixed(p.wins, "wins"),
            "win_rate": fixed(p.win_rate, "share"),
            "mean": fixed(p.mean, "mean"),
            "median": fixed(p.median, "median"),
            "min": p.min,
            "max": p.max,
            "mean_harvest": fixed(p.mean_harvest, "mean"),
            "mean_parchments": fixed(p.mean_parchments, "mean"),
        }
        for p in standings.players
    ]
    rows += [
        {
            "table": "seats",
            "seat": s.seat,
            "games": s.games,
            "wins": fixed(s.wins, "wins"),
            "win_rate": fixed(s.win_rate, "share"),
            "fair": fixed(s.fair, "wins"),
        }
        for s in standings.seats
    ]
    rows += [
        {
            "table": "parchments",
            "card": text_cell(c.card),
            "owned": c.owned,
            "mean_points": fixed(c.mean_points, "mean"),
        }
        for c in standings.parchments
    ]
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_HEADER, restval="", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
