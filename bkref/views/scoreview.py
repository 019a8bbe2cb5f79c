"""Score breakdowns for people: rich tables of every harvest and every parchment.

Printed as ``bkref.views.terminal`` prints: colour on a terminal, plain fixed-width text
anywhere else.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bkref.game.results import PlayerScore
from bkref.game.words import count
from bkref.io.breakdown import Breakdown, FinalBreakdown, RoundScore, RulingUse
from bkref.io.diagnostics import printable
from bkref.views.terminal import console, emit
from bkref.views.terminal import table as table_of

NUMBERS = frozenset({"Cities", "Strength", "Wealth", "Carrots", "Rank", "Harvests", "Parchments", "Total"})
"""The columns that hold numbers, right-aligned."""


def _header(b: Breakdown) -> Text:
    text = Text()
    text.append(f"Score of {printable(b.file)}\n", style="bold")
    text.append(f"Players (in seat order): {printable(', '.join(b.players))}")
    if b.player is not None:
        text.append(f"; showing {printable(b.player)} only")
    text.append(f"\nThe game is {'complete' if b.complete else 'not complete'}: the log stops {b.stops}.")
    if not b.legal:
        text.append(
            f"\nIllegal log: {count(len(b.diagnostics), 'problem')} (listed on standard error); "
            "illegal events are skipped, as validate does.",
            style="bold red",
        )
    return text


def _rulings(rulings: list[RulingUse]) -> Table:
    table = table_of("Ruling", "Value", "Applied to", numbers=NUMBERS, prose=("Applied to",), title="Rulings")
    for r in rulings:
        value = f"{r.value} (default)" if r.default else r.value
        settled = printable(", ".join(f"{a.player}'s {a.card}" for a in r.applied_to)) or "-"
        table.add_row(f"{r.id} {r.name}", value, settled)
    return table


def _round(r: RoundScore) -> Table:
    table = table_of(
        "Player",
        "Fief",
        "Cities",
        "Strength",
        "Resources",
        "Wealth",
        "Carrots",
        numbers=NUMBERS,
        prose=("Fief", "Resources"),
        title=f"Round {r.round} harvest (line {r.line})",
    )
    for i, (player, h) in enumerate(r.players.items()):
        if i:
            table.add_section()
        name = printable(player)
        for f in h.fiefs:
            style = None if f.carrots else "dim"
            table.add_row(
                name,
                " ".join(f.squares),
                str(f.cities),
                str(f.strength),
                ", ".join(f.resources) or "-",
                str(f.wealth),
                str(f.carrots),
                style=style,
            )
            name = ""
        if h.trading_posts:
            posts = ", ".join(f"{sq} {resource}" for sq, resource in h.trading_posts.items())
            table.add_row(name, f"trading posts: {posts}")
            name = ""
        table.add_row(name, f"total ({h.running_total} so far)", "", "", "", "", str(h.carrots), style="bold")
    return table


def parchments(player: str, s: PlayerScore) -> Table:
    table = table_of(
        "Parchment",
        "Copies",
        "Counted",
        "Rulings",
        "Carrots",
        numbers=NUMBERS,
        prose=("Counted",),
        title=f"{printable(player)}'s parchments",
    )
    for row in s.parchments:
        table.add_row(row.card, row.copied or "", printable(row.counted), " ".join(row.rulings), str(row.points))
    table.add_section()
    table.add_row("parchments", "", "", "", str(s.parchment_total))
    table.add_row("harvests", "", " + ".join(map(str, s.harvests)), "", str(s.harvest))
    table.add_row("total", "", "", "", str(s.total), style="bold")
    return table


def ranking(final: FinalBreakdown) -> Group:
    table = table_of("Rank", "Player", "Harvests", "Parchments", "Total", numbers=NUMBERS, title="Final ranking")
    for s in final.ranking:
        table.add_row(
            str(s.rank),
            printable(s.player),
            str(s.harvest),
            str(s.parchment_total),
            str(s.total),
            style="bold" if s.player in final.winners else None,
        )
    if len(final.winners) == 1:
        verdict = f"Winner: {printable(final.winners[0])}"
    else:
        verdict = f"Winners, tied (E8): {printable(', '.join(final.winners))}"
    return Group(table, Text(verdict, style="bold green"))


def print_breakdown(b: Breakdown, out: TextIO, *, no_color: bool = False) -> None:
    """Print the breakdown ``b`` on ``out`` as tables (see ``console`` for colour and width)."""
    parts: list[RenderableType] = [_header(b), _rulings(b.rulings)]
    parts += [_round(r) for r in b.rounds]
    if not b.rounds:
        parts.append(Text("No harvest yet."))
    if b.final is None:
        parts.append(Text(f"No final score: the log stops {b.stops}."))
    else:
        parts += [parchments(p, s) for p, s in b.final.players.items()]
        parts.append(ranking(b.final))
    emit(console(out, no_color=no_color), *parts)
