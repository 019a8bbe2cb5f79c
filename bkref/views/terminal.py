"""Printing for people with rich: one console set-up, one table style, plain text off a terminal.

On a terminal, output has colour (unless asked not to) and the terminal's width.
Anywhere else (a pipe, a file, the tests) it is plain text without escape codes,
``COLUMNS`` (the environment variable) or else ``WIDTH`` columns wide and without
trailing spaces, so the same log prints the same bytes on every machine.
"""

from __future__ import annotations

import os
from typing import TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

WIDTH = 100
"""The width of the text when it is not printed on a terminal."""


def console(out: TextIO, *, no_color: bool = False) -> Console:
    """A console on ``out``: colour only on a terminal, without ``no_color`` and without the
    ``NO_COLOR`` environment variable (no-color.org); fixed width off a terminal."""
    tty = out.isatty()
    color = tty and not no_color and not os.environ.get("NO_COLOR")
    return Console(
        file=out,
        width=None if tty else _width(),
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


def _width() -> int:
    """``COLUMNS`` when it is a positive whole number, else ``WIDTH``."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else WIDTH


def table(
    *columns: str,
    numbers: frozenset[str] | tuple[str, ...] = (),
    prose: tuple[str, ...] = (),
    title: str | None = None,
) -> Table:
    """A table without outer borders; the columns named in ``numbers`` are right-aligned.

    Only the ``prose`` columns wrap their text at word boundaries (a word longer than its
    column folded); the others hold short values and are laid out without wrapping, which
    makes big tables much quicker to draw. A table that may hold long names (a bot's
    policy) gives them as ``prose``: when it is wider than the console they wrap, and no
    number or header is cut.
    """
    made = Table(
        title=title,
        title_style="bold",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        header_style="bold",
        pad_edge=False,
        show_edge=False,
    )
    for name in columns:
        made.add_column(
            name,
            justify="right" if name in numbers else "left",
            overflow="fold",
            no_wrap=name not in prose,
        )
    return made


def listing(
    columns: tuple[str, ...], rows: list[tuple[list[str], str | None]], *, numbers: frozenset[str], title: str
) -> Text:
    """A long table as one ``Text``, laid out as ``table`` lays out its tables, much quicker
    to print: each row is its cells and its style; cells never wrap, and lines are cut
    at the console's width.
    """
    widths = [len(name) for name in columns]
    for cells, _ in rows:
        for i, cell in enumerate(cells):
            widths[i] = max(widths[i], len(cell))
    right = [name in numbers for name in columns]

    def line(cells: list[str]) -> str:
        padded = (c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right))
        return "   ".join(padded).rstrip() + "\n"

    text = Text(no_wrap=True, overflow="crop")
    text.append(title + "\n", style="bold")
    text.append(line(list(columns)), style="bold")
    text.append("─" * (sum(widths) + 3 * (len(widths) - 1)) + "\n")
    for cells, style in rows:
        text.append(line(cells), style=style)
    text.rstrip()
    return text


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
