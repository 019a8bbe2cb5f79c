"""Standings for people: every game, then tables of players, seats and parchments, with bar charts.

Printed as ``bkref.views.terminal`` prints: colour on a terminal, plain fixed-width text
anywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TextIO

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from bkref.game.words import count
from bkref.io.diagnostics import printable
from bkref.io.standings import GameRecord, PlayerStanding, Standings, counts
from bkref.io.tournament.records import TournamentRecord
from bkref.io.tournament.tally import TournamentStandings
from bkref.views.terminal import console, emit, listing, table

NUMBERS = frozenset({"Games", "Wins", "Win %", "Fair", "Mean", "Median", "Min", "Max", "Harvest", "Parchments"})
NUMBERS |= {"Total", "Owned", "Mean points", "Mean harvest", "Mean parchments"}
"""The columns that hold numbers, right-aligned."""

BAR = 20
"""The width of a bar chart, in characters."""

SPREAD = 40
"""The width of the score spread chart, in characters."""


def bar(value: float, most: float, width: int = BAR) -> str:
    """A bar of ``value`` out of ``most`` in ``width`` characters, to the nearest eighth.

    >>> bar(3, 4, 4), bar(0, 4, 4), bar(1, 8, 1)
    ('███', '', '▏')
    """
    if most <= 0:
        return ""
    eighths = round(value / most * width * 8)
    return "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]


def spread(s: PlayerStanding, low: int, high: int, width: int = BAR) -> str:
    """The player's scores from lowest to highest on a scale from ``low`` to ``high``: a
    line from min to max, with ``●`` at the mean.

    >>> s = PlayerStanding("ann", 2, 1.0, 0.5, 100.0, 100.0, 80, 120, 60.0, 40.0)
    >>> spread(s, 40, 120, 9)
    '    ──●──'
    """
    span = max(high - low, 1)

    def at(score: float) -> int:
        return round((score - low) / span * (width - 1))

    line = [" "] * width
    for i in range(at(s.min), at(s.max) + 1):
        line[i] = "─"
    line[at(s.mean)] = "●"
    return "".join(line).rstrip()


def result_of(record: GameRecord | TournamentRecord) -> str:
    """A game's result: its status, and its first problem's rule and line with how many more.

    >>> from bkref.io.diagnostics import Diagnostic
    >>> first = Diagnostic("g.jsonl", 3, "pick", "D2", "ann keeps J10, which is not in ann's hand")
    >>> result_of(GameRecord("g.jsonl", "illegal", 6, first, ["ann", "bob"], [], []))
    'illegal: D2 line 3, 5 more problems'
    """
    problem = record.first_problem
    if problem is None:
        return record.status
    where = f" line {problem.line}" if problem.line else ""
    more = f", {count(record.problems - 1, 'more problem')}" if record.problems > 1 else ""
    return f"{record.status}: {problem.rule}{where}{more}"


def common_folder(files: Iterable[str]) -> str:
    """The folder that holds all of ``files``, to name them from (empty for one file, or none),
    taken one by one: a folder of a million logs is never a list.

    >>> common_folder(["cup/a.jsonl", "cup/b/c.jsonl"]), common_folder(["a.jsonl", "/cup/b.jsonl"])
    ('cup', '')
    >>> common_folder(["./cup/a.jsonl", "./cup/b.jsonl"]), common_folder(["cup/a.jsonl"])
    ('cup', '')
    """
    common = last = ""
    count = 0
    for file in files:
        folder = os.path.dirname(file)
        if count and os.path.isabs(folder) != os.path.isabs(last):  # of relative and absolute paths: none
            return ""
        if not count or folder != last:  # the logs of one folder come together: each folder taken once
            common, last = os.path.commonpath([common, folder] if count else [folder]), folder
        count += 1
    return common if count > 1 else ""


def _games(standings: Standings) -> Text:
    folder = common_folder([r.file for r in standings.games])
    rows: list[tuple[list[str], str | None]] = []
    for r in standings.games:
        style = None if counts(r, standings.include_illegal) else "dim"
        left = [printable(os.path.relpath(r.file, folder) if folder else r.file), f"  {result_of(r)}"]
        left += [""] * (len(r.seats) - len(left))
        cells = [
            [
                printable(s.player),
                str(s.harvest),
                str(s.parchment_total),
                str(s.total),
                "won" if s.player in r.winners else "",
            ]
            for s in r.seats
        ]
        cells += [[]] * (len(left) - len(cells))
        rows += [([first, *rest], style) for first, rest in zip(left, cells)]
    return listing(
        ("File, result", "Player", "Harvest", "Parchments", "Total", "Won"),
        rows,
        numbers=NUMBERS,
        title=f"Games{f' in {printable(folder)}{os.sep}' if folder else ''} (players in seat order)",
    )


def _wins(wins: float) -> str:
    return f"{wins:.2f}"


def _players(standings: Standings) -> Table:
    made = table(
        "Player",
        "Games",
        "Wins",
        "Win %",
        "Mean",
        "Median",
        "Min",
        "Max",
        "Mean harvest",
        "Mean parchments",
        numbers=NUMBERS,
        prose=("Player",),
        title="Players (a shared victory counts as a share of a win)",
    )
    for s in standings.players:
        made.add_row(
            printable(s.player),
            str(s.games),
            _wins(s.wins),
            f"{s.win_rate:.0%}",
            f"{s.mean:.1f}",
            f"{s.median:g}",
            str(s.min),
            str(s.max),
            f"{s.mean_harvest:.1f}",
            f"{s.mean_parchments:.1f}",
        )
    return made


def _charts(standings: Standings) -> Table:
    low = min(s.min for s in standings.players)
    high = max(s.max for s in standings.players)
    made = table(
        "Player",
        "Wins",
        f"Score spread, {low} to {high} (min ─ ● mean ─ max)",
        prose=("Player",),
        title="Wins and scores",
    )
    most = max(s.wins for s in standings.players)
    for s in standings.players:
        made.add_row(printable(s.player), f"{bar(s.wins, most)} {_wins(s.wins)}", spread(s, low, high, SPREAD))
    return made


def _seats(standings: Standings) -> Table:
    made = table(
        "Seat",
        "Games",
        "Wins",
        "Win %",
        "Fair",
        "Wins chart",
        numbers=NUMBERS | {"Seat"},
        title="Seats (fair: the wins if every seat won as often)",
    )
    most = max((s.wins for s in standings.seats), default=0.0)
    for s in standings.seats:
        made.add_row(
            str(s.seat), str(s.games), f"{s.wins:.2f}", f"{s.win_rate:.0%}", f"{s.fair:.2f}", bar(s.wins, most)
        )
    return made


def _parchments(standings: Standings) -> Table:
    made = table("Parchment", "Owned", "Mean points", numbers=NUMBERS, title="Parchments")
    for c in standings.parchments:
        made.add_row(c.card, str(c.owned), f"{c.mean_points:.1f}")
    return made


def header(standings: Standings | TournamentStandings, title: str = "Standings") -> str:
    """The first line: how many games were read, counted and left out."""
    line = f"{title} of {count(standings.counted + standings.left_out, 'game')}: {standings.counted} counted"
    if standings.left_out:
        reason = "unreadable or unfinished" if standings.include_illegal else "illegal, unreadable or unfinished"
        line += f", {standings.left_out} left out ({reason})"
    return line


def show(standings: Standings, out: TextIO) -> None:
    """Print ``standings`` as text to ``out``."""
    parts: list[RenderableType] = [Text(header(standings), style="bold"), _games(standings)]
    if standings.counted:
        parts += [_players(standings), _charts(standings), _seats(standings), _parchments(standings)]
    emit(console(out), *parts)
