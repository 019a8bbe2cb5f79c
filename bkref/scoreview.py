"""Score breakdowns for people: rich tables of every harvest and every parchment.

On a terminal the tables have colour and the terminal's width; anywhere else (a pipe,
a file, the tests) or with ``no_color`` they are plain text without escape codes, and
when not on a terminal always ``WIDTH`` columns wide, so the same log prints the same
bytes on every machine.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import msgspec
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from bkref.breakdown import Breakdown, FinalBreakdown, RoundScore, RulingUse, breakdown
from bkref.diagnostics import EXIT_UNREADABLE, exit_status
from bkref.scoring import PlayerScore

WIDTH = 100
"""The width of the text when it is not printed on a terminal."""
NUMBERS = frozenset({"Cities", "Strength", "Wealth", "Carrots", "Rank", "Harvests", "Parchments", "Total"})
"""The columns that hold numbers, right-aligned."""


def console(out: TextIO, *, no_color: bool = False) -> Console:
    """A console on ``out``: colour only on a terminal and without ``no_color``; fixed width off one."""
    tty = out.isatty()
    color = tty and not no_color
    return Console(
        file=out,
        width=None if tty else WIDTH,
        color_system="auto" if color else None,
        force_terminal=tty,
        force_jupyter=False,
        force_interactive=False,
        no_color=not color,
        legacy_windows=False,
        markup=False,
        emoji=False,
        highlight=False,
    )


def _table(title: str, *columns: str) -> Table:
    """A table with ``columns``; those named in ``NUMBERS`` are right-aligned."""
    table = Table(title=title, title_style="bold", title_justify="left", box=box.SIMPLE_HEAD,
                  header_style="bold", pad_edge=False, show_edge=False)
    for name in columns:
        table.add_column(name, justify="right" if name in NUMBERS else "left", overflow="fold")
    return table


def _header(b: Breakdown) -> Text:
    text = Text()
    text.append(f"Score of {b.file}\n", style="bold")
    text.append(f"Players (in seat order): {', '.join(b.players)}")
    if b.player is not None:
        text.append(f"; showing {b.player} only")
    text.append(f"\nThe game is {'complete' if b.complete else 'not complete'}: the log stops {b.stops}.")
    if not b.legal:
        n = len(b.diagnostics)
        text.append(f"\nIllegal log: {n} problem{'s' if n > 1 else ''} (listed on standard error); "
                    "illegal events are skipped, as validate does.", style="bold red")
    return text


def _rulings(rulings: list[RulingUse]) -> Table:
    table = _table("Rulings", "Ruling", "Value", "Applied to")
    for r in rulings:
        value = f"{r.value} (default)" if r.default else r.value
        settled = ", ".join(f"{a.player}'s {a.card}" for a in r.applied_to) or "-"
        table.add_row(f"{r.id} {r.name}", value, settled)
    return table


def _round(r: RoundScore) -> Table:
    table = _table(f"Round {r.round} harvest (line {r.line})", "Player", "Fief", "Cities", "Strength",
                   "Resources", "Wealth", "Carrots")
    for i, (player, h) in enumerate(r.players.items()):
        if i:
            table.add_section()
        name = player
        for f in h.fiefs:
            style = None if f.carrots else "dim"
            table.add_row(name, " ".join(f.squares), str(f.cities), str(f.strength), ", ".join(f.resources) or "-",
                          str(f.wealth), str(f.carrots), style=style)
            name = ""
        if h.trading_posts:
            posts = ", ".join(f"{sq} {resource}" for sq, resource in h.trading_posts.items())
            table.add_row(name, f"trading posts: {posts}")
            name = ""
        table.add_row(name, f"total ({h.running_total} so far)", "", "", "", "", str(h.carrots), style="bold")
    return table


def _parchments(player: str, s: PlayerScore) -> Table:
    table = _table(f"{player}'s parchments", "Parchment", "Copies", "Counted", "Rulings", "Carrots")
    for row in s.parchments:
        table.add_row(row.card, row.copied or "", row.counted, " ".join(row.rulings), str(row.points))
    table.add_section()
    table.add_row("parchments", "", "", "", str(s.parchment_total))
    table.add_row("harvests", "", " + ".join(map(str, s.harvests)), "", str(s.harvest))
    table.add_row("total", "", "", "", str(s.total), style="bold")
    return table


def _ranking(final: FinalBreakdown) -> Group:
    table = _table("Final ranking", "Rank", "Player", "Harvests", "Parchments", "Total")
    for s in final.ranking:
        table.add_row(str(s.rank), s.player, str(s.harvest), str(s.parchment_total), str(s.total),
                      style="bold" if s.player in final.winners else None)
    if len(final.winners) == 1:
        verdict = f"Winner: {final.winners[0]}"
    else:
        verdict = f"Winners, tied (E8): {', '.join(final.winners)}"
    return Group(table, Text(verdict, style="bold green"))


def emit(con: Console, *parts: RenderableType, crop: bool = True) -> None:
    """Print ``parts`` with a blank line between them; off a terminal, lines carry no trailing spaces."""
    if con.is_terminal:
        _print(con, parts, crop)
        return
    with con.capture() as captured:
        _print(con, parts, crop)
    con.file.writelines(line.rstrip() + "\n" for line in captured.get().splitlines())


def _print(con: Console, parts: tuple[RenderableType, ...], crop: bool) -> None:
    for i, part in enumerate(parts):
        if i:
            con.print()
        con.print(part, crop=crop)


def print_breakdown(b: Breakdown, out: TextIO, *, no_color: bool = False) -> None:
    """Print the breakdown ``b`` on ``out`` as tables (see ``console`` for colour and width)."""
    parts: list[RenderableType] = [_header(b), _rulings(b.rulings)]
    parts += [_round(r) for r in b.rounds]
    if not b.rounds:
        parts.append(Text("No harvest yet."))
    if b.final is None:
        parts.append(Text(f"No final score: the log stops {b.stops}."))
    else:
        parts += [_parchments(p, s) for p, s in b.final.players.items()]
        parts.append(_ranking(b.final))
    emit(console(out, no_color=no_color), *parts)


class ScoreError(Exception):
    """A log that cannot be scored or a player not in it: bad usage, one line."""


def run(path: Path, *, as_json: bool, player: str | None, no_color: bool, out: TextIO, err: TextIO) -> int:
    """``bkref score``: print the breakdown of the log at ``path``; return the exit status.

    An illegal log is scored as ``validate`` plays it (illegal events skipped): its
    problems go to ``err`` one per line (text) or into the JSON, and the status is 1. An
    unreadable log (F1, status 2) or one without a usable game event (status 1) is not
    scored: its problems go to ``err``, then a line saying there is nothing to score.
    Raises ``ScoreError`` for a missing file or an unknown player.
    """
    if not path.is_file():
        raise ScoreError(f"{path}: {'is a directory, not a log file' if path.is_dir() else 'no such file'}")
    try:
        result = breakdown(path)
    except OSError as error:
        raise ScoreError(f"{path}: cannot read the file: {error.strerror or error}") from None
    status = exit_status(result.diagnostics)
    if status == EXIT_UNREADABLE or not result.players:
        err.writelines(d.text() + "\n" for d in result.diagnostics)
        why = "the log is unreadable" if status == EXIT_UNREADABLE else "it has no usable game event"
        err.write(f"{path}: nothing to score: {why}\n")
        return status
    if player is not None:
        if player not in result.players:
            raise ScoreError(f"{path}: {player!r} is not a player of this game ({', '.join(result.players)})")
        result = result.only(player)
    if as_json:
        out.write(msgspec.json.format(msgspec.json.encode(result).decode(), indent=2) + "\n")
    else:
        err.writelines(d.text() + "\n" for d in result.diagnostics)
        err.flush()
        print_breakdown(result, out, no_color=no_color)
    return status
