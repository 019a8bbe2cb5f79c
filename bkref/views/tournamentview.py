"""A tournament's standings for people (bots, margins, the paired difference, head to head,
ratings), and ``write_report``, the report in any of its formats for ``bkref standings``
and ``bkref tournament``.

Printed as ``bkref.views.terminal`` prints: colour on a terminal, plain fixed-width text
anywhere else.
"""

from __future__ import annotations

import os
from typing import Literal, TextIO

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bkref.game.words import count
from bkref.io.diagnostics import printable
from bkref.io.standings import counts, to_json
from bkref.io.tournament.tables import to_csv
from bkref.io.tournament.tally import Difference, Interval, TournamentStandings
from bkref.views.standingsview import common_folder, header, result_of
from bkref.views.terminal import console, emit, table

NUMBERS = frozenset({"Games", "Seats", "Deals", "Wins", "Win share", "Mean score", "Mean margin", "Mu", "Sigma"})
NUMBERS |= {"Ordinal"}
"""The columns that hold numbers, right-aligned."""

ENDED = {
    "deals": "The run ended after the deals asked (--deals).",
    "until-confident": "The run ended when the paired difference became confident (--until-confident).",
}


def interval(found: Interval | None, fmt: str = "+.1f") -> str:
    """An interval as ``low to high``, or a dash when there is none (one deal).

    >>> interval(Interval(-1.25, 3.5)), interval(Interval(0.25, 0.5), ".0%"), interval(None)
    ('-1.2 to +3.5', '25% to 50%', '—')
    """
    return f"{found.low:{fmt}} to {found.high:{fmt}}" if found else "—"


def titled(title: str, made: Table) -> Group:
    """``made`` under a title as wide as the text, where a table's own title wraps at the table's width."""
    return Group(Text(title, style="bold"), made)


def _bots(standings: TournamentStandings) -> Group:
    made = table(
        "Bot",
        "Policy",
        "Games",
        "Seats",
        "Wins",
        "Win share",
        "95 % interval",
        "Mean score",
        numbers=NUMBERS | {"95 % interval"},
        prose=("Bot", "Policy"),
    )
    for b in standings.bots:
        made.add_row(
            printable(b.bot),
            printable(b.policy),
            str(b.games),
            str(b.seats),
            f"{b.wins:.2f}",
            f"{b.win_share:.1%}",
            interval(b.win_interval, ".1%"),
            f"{b.mean_score:.1f}",
        )
    return titled("Bots (each seat counts; a shared victory counts as a share of a win)", made)


def _margins(standings: TournamentStandings) -> Group:
    made = table(
        "Bot",
        "Deals",
        "Mean margin",
        "95 % interval",
        numbers=NUMBERS | {"95 % interval"},
        prose=("Bot",),
    )
    for b in standings.bots:
        made.add_row(printable(b.bot), str(b.deals), f"{b.mean_margin:+.1f}", interval(b.margin_interval))
    return titled("Margins over the best other player, in carrots (the interval from the spread across deals)", made)


def verdict(found: Difference, min_deals: int) -> str:
    """Whether the paired difference is confident, and why.

    >>> verdict(Difference("new", "control", 4, 2.0, Interval(1.0, 3.0)), 10)
    'not confident yet: fewer than 10 deals'
    >>> verdict(Difference("new", "control", 12, 2.0, Interval(-1.0, 3.0)), 10)
    'not confident: the interval holds 0'
    """
    if found.deals < min_deals or found.interval is None:
        return f"not confident yet: fewer than {min_deals} deals"
    if found.interval.low > 0 or found.interval.high < 0:
        return f"confident, {printable(found.candidate)} is {'better' if found.interval.low > 0 else 'worse'}"
    return "not confident: the interval holds 0"


def difference(standings: TournamentStandings) -> Text:
    """The candidate's paired difference in words."""
    found = standings.difference
    assert found is not None
    against = "the control game's in the same seats" if found.against == "control" else "the other bots' mean score"
    text = Text(f"Paired difference of {printable(found.candidate)}: its mean score minus {against}, by deal\n")
    text.stylize("bold")
    text.append(
        f"{found.mean:+.2f} carrots over {count(found.deals, 'deal')}, 95 % interval "
        f"{interval(found.interval, '+.2f')}: {verdict(found, standings.min_deals)}"
    )
    return text


def _head_to_head(standings: TournamentStandings) -> Group:
    order = [b.bot for b in standings.bots]
    shares = {(h.bot, h.opponent): h.share for h in standings.head_to_head}
    made = table(
        "Bot",
        *(printable(b) for b in order),
        numbers=frozenset(printable(b) for b in order),
    )
    for a in order:
        made.add_row(
            printable(a),
            *("—" if a == b else f"{shares[a, b]:.0%}" if (a, b) in shares else "" for b in order),
        )
    return titled(
        "Head to head: how often the row's bot finished above the column's (seat against seat, a tie as half)", made
    )


def _ratings(standings: TournamentStandings) -> Group:
    made = table(
        "Bot",
        "Mu",
        "Sigma",
        "Ordinal",
        numbers=NUMBERS,
    )
    for b in sorted(standings.bots, key=lambda b: (-b.rating.ordinal, b.bot)):
        made.add_row(printable(b.bot), f"{b.rating.mu:.2f}", f"{b.rating.sigma:.2f}", f"{b.rating.ordinal:.2f}")
    return titled(f"Ratings ({standings.rating_model}, games in schedule order; ordinal = mu - 3 sigma)", made)


def _left_out(standings: TournamentStandings, folder: str | None) -> Group:
    if folder is None:
        folder = common_folder([r.file for r in standings.games])
    made = table("File", "Result")
    for r in standings.games:
        if not counts(r, standings.include_illegal):
            made.add_row(printable(os.path.relpath(r.file, folder) if folder else r.file), result_of(r))
    return titled("Games left out", made)


def show(standings: TournamentStandings, out: TextIO, folder: str | None = None) -> None:
    """Print ``standings`` as text to ``out``, the files of the games left out named from
    ``folder`` (by default, the folder that holds every game listed)."""
    about = f"{count(standings.deals, 'deal')}, schedule {', '.join(standings.schedules)}"
    if standings.candidate is not None:
        about += f", candidate {printable(standings.candidate)}"
    if standings.ended is not None:
        about += f"\n{ENDED[standings.ended]}"
    parts: list[RenderableType] = [Text.assemble((header(standings, "Tournament standings"), "bold"), f"\n{about}")]
    if standings.left_out:
        parts.append(_left_out(standings, folder))
    if standings.counted:
        parts += [_bots(standings), _margins(standings)]
        if standings.difference is not None:
            parts.append(difference(standings))
        parts += [_head_to_head(standings), _ratings(standings)]
    emit(console(out), *parts)


def write_report(
    standings: TournamentStandings, output: Literal["text", "csv", "json"], out: TextIO, folder: str | None = None
) -> None:
    """Write the report of ``standings`` to ``out``: text for people (``folder``: see ``show``),
    CSV (every table, see ``to_csv``) or JSON."""
    if output == "text":
        show(standings, out, folder)
    else:
        out.write(to_json(standings) if output == "json" else to_csv(standings))
