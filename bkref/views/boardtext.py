"""The board as rich text for the terminal: ten rows of squares with lava between them, and its legend.

Each square is five characters (``squares.square_text``). The text is the same with and
without colour, so plain output (a pipe, ``--no-color``) loses nothing: colour only
repeats what the letters say.

>>> from bkref.game.engine import State
>>> rows = board_text(State()).plain.splitlines()
>>> len(rows), rows[1].rstrip()
(14, ' A   F     F     F     #(1)  S     S     S     F     P     S')
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from bkref.game.catalog import BOARD, COLUMNS, LAVA, ROWS
from bkref.game.engine import State
from bkref.io.diagnostics import printable
from bkref.views.palette import LAVA_STYLE, SEAT_STYLES, TERRAIN_STYLES
from bkref.views.squares import FARM_CODES, TERRAIN, seat_letters, square_text

MARK_STYLE = "reverse"
"""The squares of the last move: reverse video, which shows without colour too."""


def _lava(a: str, b: str) -> bool:
    return frozenset((a, b)) in LAVA


def board_text(state: State, marked: frozenset[str] = frozenset()) -> Text:
    """The 10x10 board with its row and column labels; lava edges drawn between squares.

    The ``marked`` squares are drawn in reverse video (only visible where styles are).
    """
    position, letters = state.position, seat_letters(state.players)
    styles = {p: SEAT_STYLES[i] for i, p in enumerate(state.players)}
    out = Text("   " + "".join(f" {c:^5}" for c in COLUMNS).rstrip() + "\n")
    for r, row in enumerate(ROWS):
        out.append(f" {row} ")
        for c in COLUMNS:
            square = f"{row}{c}"
            if c > 1 and _lava(f"{row}{c - 1}", square):
                out.append("|", LAVA_STYLE)
            else:
                out.append(" ")
            owner = position.owner.get(square)
            style = styles[owner] if owner else TERRAIN_STYLES[BOARD[square].terrain]
            if square in marked:
                style = f"{style} {MARK_STYLE}"
            out.append(square_text(position, square, letters), style)
        out.append("\n")
        if r + 1 < len(ROWS):
            below = [_lava(f"{row}{c}", f"{ROWS[r + 1]}{c}") for c in COLUMNS]
            if any(below):
                out.append("   ")
                for lava in below:
                    out.append(" ")
                    out.append("~~~~~" if lava else "     ", LAVA_STYLE if lava else "")
                out.rstrip()
                out.append("\n")
    out.rstrip()
    return out


BOARD_LINES = len(board_text(State()).plain.splitlines())
"""The board's height: the column numbers, ten rows and the lava between rows (always 14)."""


class Legend:
    """What the letters and marks of the board mean, with the players' letters and colours.

    Each line of the legend is a list of entries; a line too long for the width it is drawn
    at breaks between two entries, never inside one.

    >>> from rich.console import Console
    >>> con = Console(width=40, color_system=None)
    >>> with con.capture() as out:
    ...     con.print(legend_text(State()))
    >>> print("\\n".join(line.rstrip() for line in out.get().splitlines()[:5]))
    F forest (wood)  S sea (fish)
    C field (carrot)  P plains  M mountain
    # city space
    (first letter of a square: who controls
    it)
    """

    def __init__(self, lines: list[tuple[str, list[Text], str]]) -> None:
        self.lines = lines  # each: what starts the line, its entries, what goes between two

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        out = Text()
        for n, (start, entries, between) in enumerate(self.lines):
            out.append(("\n" if n else "") + start)
            column, indent = len(start), " " * len(start)
            for i, entry in enumerate(entries):
                if i and column + len(between) + len(entry) > options.max_width:
                    out.append("\n" + indent)
                    column = len(indent)
                elif i:
                    out.append(between)
                    column += len(between)
                out.append_text(entry)
                column += len(entry)
        yield out


def legend_text(state: State) -> Legend:
    """The legend of the board for ``state``'s players and sky towers."""
    letters = seat_letters(state.players)
    players = [Text(f" {letters[p]} ", SEAT_STYLES[i]) + f" {printable(p)}" for i, p in enumerate(state.players)]
    buildings = ["(1) printed city", "[2] city of strength 2", "^3 camp of priority 3", "T1 sky tower pair 1"]
    farms = [Text(f"{code} {resource.replace('_', ' ')}") for resource, code in FARM_CODES.items()]
    lava = Text("|", LAVA_STYLE) + " " + Text("~~~", LAVA_STYLE) + " lava: the squares on either side do not touch"
    lines = [
        ("", [Text(f"{letter} {name}") for letter, name in TERRAIN.values()], "  "),
        ("", [*players, Text("(first letter of a square: who controls it)")], "  "),
        ("", [Text(entry) for entry in buildings], "  "),
        ("farms: ", farms[:6], "  "),
        ("       ", farms[6:], "  "),
        ("", [Text("tpw trading post declared wood"), Text("(tpf fish, tpc carrot, tp? not declared yet)")], " "),
        ("", [lava], ""),
    ]
    towers = state.position.towers
    if towers:
        pairs = [Text(f"T{i} {a}-{b} ({printable(str(state.owner_of(a)))})") for i, (a, b) in enumerate(towers, 1)]
        lines.append(("sky towers: ", [pair + "," for pair in pairs[:-1]] + pairs[-1:], " "))
    return Legend(lines)
