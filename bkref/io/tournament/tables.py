"""A tournament's standings as CSV: every table of the report in one file, each row naming its table."""

from __future__ import annotations

import csv
import io
from typing import Final

from bkref.io.standings import counts, fixed, text_cell
from bkref.io.tournament.tally import Interval, TournamentStandings

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
