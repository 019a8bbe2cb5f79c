"""The replay's full screen: one position laid out to fit the terminal, 80x24 and larger.

Top to bottom: a header line (event n of N, round, turn, phase, and the log's name),
the event in words (as many lines as there is room for, a problem first), the board
with the squares of the last move in reverse video, one line per player, and a status
line (the keys, a note, or the event number being typed). A panel (hands, fiefs,
scores, legend, the whole event, the keys) goes below the players if the terminal is tall
enough, else it takes the place of the event, the board and the players while it is open;
the header and the status line stay.

Nothing here reads keys or writes to the terminal: ``frame`` returns the lines to draw,
``bkref.views.viewer`` draws them.

>>> from pathlib import Path
>>> from rich.console import Console
>>> from bkref.views.navigation import load
>>> steps = load(Path("replays/worked-example.jsonl"))
>>> con = Console(width=80, color_system=None, force_terminal=False)
>>> lines = frame(con, steps, 4, "worked-example.jsonl", size=(80, 24), status=Text("keys"))
>>> len(lines), lines[0]
(24, 'event 5 of 23 · round 1, turn 1 of 6: exploration           worked-example.jsonl')
>>> for line in lines[1:7]:
...     print(line.rstrip())
cid picks last for turn 1: every pick is revealed and played
  ann plays B3: claims a printed city
  ann plays A4: claims a printed city
  bob plays C7: claims a field
… 3 more lines: e shows the whole event
      1     2     3     4     5     6     7     8     9    10
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.text import Text

from bkref.game.engine import State
from bkref.game.words import count
from bkref.io.diagnostics import printable
from bkref.io.referee import Step
from bkref.views.boardtext import BOARD_LINES, board_text, legend_text
from bkref.views.narration import describe, earlier_problems, stage, stops_here
from bkref.views.navigation import Replay, state_before
from bkref.views.palette import PROBLEM_STYLE, SEAT_STYLES
from bkref.views.seenby import problems_seen
from bkref.views.squares import changed_squares, seat_letters
from bkref.views.tables import final_scores, hand_of, harvest_table, supply, winners
from bkref.views.terminal import table

HEADER_STYLE = "reverse"


def header(steps: Sequence[Step], index: int, label: str, width: int, seen_by: str | None = None) -> Text:
    """Event n of N, round, turn and phase on the left; whose view and the log's name on the right, if they fit."""
    left = f"event {index + 1} of {len(steps)} · {stage(steps[index].state, steps[index].event)}"
    room = width - len(left) - 2
    seen, label = f"as {printable(seen_by)}" if seen_by else "", printable(label)
    right = next((r for r in (f"{seen}  {label}".strip(), seen) if len(r) <= room), "")
    return Text(
        f"{left}{' ' * (width - len(left) - len(right))}{right}", HEADER_STYLE, no_wrap=True, overflow="ellipsis"
    )


def event_lines(steps: Replay, index: int, seen_by: str | None) -> list[tuple[Text, bool]]:
    """The event in words, its problems and what the log says around it; True marks what must show."""
    step = steps[index]
    before = state_before(steps, index)
    words = describe(step, before, seen_by)
    lines = [(Text(words[0], "bold"), True)] + [(Text(line), False) for line in words[1:]]
    # A problem as validate gives it, less the file's name, which the header shows.
    lines += [
        (Text(printable(f"line {d.line}: {d.rule} {d.message}"), PROBLEM_STYLE), True)
        for d in problems_seen(step, seen_by)
    ]
    earlier, end = earlier_problems(steps, index), stops_here(steps, index)
    lines += [(Text(earlier), False)] if earlier else []
    won = f"{winners(step.state)} (s shows the scores)" if step.state.final is not None else None
    lines += [(Text(won), True)] if won else []
    lines += [(Text(end), True)] if end else []
    return lines


def fit(lines: list[tuple[Text, bool]], room: int) -> list[Text]:
    """At most ``room`` lines: those that must show, then the rest in order, and how many are left out."""
    if len(lines) <= room or room <= 1:
        return [text for text, _ in lines][: max(room, 1)]
    budget = max(room - 1, 0)
    keep = {i for i, (_, must) in enumerate(lines) if must}
    keep = set(sorted(keep)[:budget])
    for i in range(len(lines)):
        if len(keep) >= budget:
            break
        keep.add(i)
    shown = [text for i, (text, _) in enumerate(lines) if i in keep]
    left_out = len(lines) - len(shown)
    return [*shown, Text(f"… {count(left_out, 'more line')}: e shows the whole event", "dim")]


def player_lines(state: State, seen_by: str | None) -> list[Text]:
    """One line per player: squares, hand (and reserve), parchments, carrots, then the supply."""
    letters = seat_letters(state.players)
    names = {p: printable(p) for p in state.players}
    name_width = max((len(name) for name in names.values()), default=0)
    lines = []
    for i, p in enumerate(state.players):
        _, hand, reserve = hand_of(state, p, seen_by)
        line = Text(f" {letters[p]} ", SEAT_STYLES[i])
        line.append(
            f" {names[p]:<{name_width}} {_counted(len(state.squares_of(p)), 'square', 3)}  hand {hand:>2}"
            + (f" +{reserve:<2} reserve" if state.has_reserves else "")
            + f" {_counted(len(state.parchments_of(p)), 'parchment', 2)}"
            + f" {_counted(state.carrots_of(p), 'carrot', 3)}  supply: {supply(state, p)}"
        )
        line.no_wrap, line.overflow = True, "ellipsis"
        lines.append(line)
    return lines


def _counted(n: int, one: str, digits: int) -> str:
    """``n`` things in a column: right-aligned digits, the plural's width kept ("  1 square ")."""
    return f"{n:>{digits}} {one if n == 1 else one + 's'}" + (" " if n == 1 else "")


@dataclass
class Scroll:
    """Where an open panel too long for the screen is scrolled to: its first line shown (``top``,
    from 0), which ``frame`` keeps within the panel; and, as ``frame`` last drew it, the panel's
    count of ``lines`` and how many of them show (``shown``)."""

    top: int = 0
    lines: int = 0
    shown: int = 0


BOARD_WIDTH = max(len(line) for line in board_text(State()).plain.splitlines())
"""The board's width in columns: the row label and ten squares with the lava between them."""


def frame(
    con: Console,
    steps: Replay,
    index: int,
    label: str,
    *,
    size: tuple[int, int],
    status: Text,
    panel: RenderableType | None = None,
    seen_by: str | None = None,
    scroll: Scroll | None = None,
) -> list[str]:
    """The ``size`` (columns, rows) screen after event ``index + 1``: exactly one string per row.

    Each string is the row as ``con`` renders it (with its escape codes on a terminal console).
    A panel too long for the screen shows from the line ``scroll`` says, and where that is.
    """
    width, height = size
    state = steps[index].state
    top = _render(con, header(steps, index, label, width, seen_by), width)
    below = _render(con, panel, width) if panel is not None else []
    players = _one_line(player_lines(state, seen_by))
    room = height - 2 - BOARD_LINES - len(players) - len(below)
    if panel is None and (width < BOARD_WIDTH or room < 1):  # no room for the board: say so, not a cropped one
        needs = f"{BOARD_WIDTH}x{2 + BOARD_LINES + len(players) + 1}"
        told = _render(con, Text(f"{width}x{height} is too small for the board ({needs})", "reverse"), width)
        room = height - 2 - len(told)
        shown = players if room > len(players) else []
        words = fit(event_lines(steps, index, seen_by), room - len(shown))
        lines = top + told + _render(con, Group(*_one_line(words), *shown), width)[: max(room, 0)]
    elif panel is None or room >= 1:  # the panel, if any, fits below the board
        words = fit(event_lines(steps, index, seen_by), max(room, 1))
        shown_board = board_text(state, changed_squares(state_before(steps, index), state))
        shown_board.no_wrap, shown_board.overflow = True, "crop"
        lines = top + _render(con, Group(*_one_line(words), shown_board, *players), width) + below
    else:  # in place of the event, the board and the players
        lines = top + _window(con, below, height - 2, width, scroll or Scroll())
    lines = lines[: height - 1]
    lines += [""] * (height - 1 - len(lines))
    status.no_wrap, status.overflow = True, "ellipsis"
    return lines + _render(con, status, width)


def _one_line(texts: list[Text]) -> list[Text]:
    """``texts``, each cut to one line with an ellipsis."""
    for text in texts:
        text.no_wrap, text.overflow = True, "ellipsis"
    return texts


def _window(con: Console, lines: list[str], room: int, width: int, scroll: Scroll) -> list[str]:
    """The lines of a panel that fit in ``room`` rows, from ``scroll.top`` (kept within the panel)."""
    scroll.lines = len(lines)
    if len(lines) <= room:
        scroll.top, scroll.shown = 0, len(lines)
        return lines
    scroll.shown = max(room - 1, 1)
    scroll.top = max(0, min(scroll.top, len(lines) - scroll.shown))
    first, last = scroll.top + 1, scroll.top + scroll.shown
    where = Text(f"lines {first}-{last} of {len(lines)}: j k scroll, d u by half a screen", "dim")
    where.no_wrap, where.overflow = True, "ellipsis"
    return lines[scroll.top : last] + _render(con, where, width)


def _render(con: Console, renderable: RenderableType, width: int) -> list[str]:
    with con.capture() as captured:  # in a group: print would make a lone Text a new one, wrapping again
        con.print(Group(renderable), width=width, crop=True)
    return captured.get().splitlines()


# -- the panels: what does not fit beside the board, one key away ------------------------


def hands_panel(state: State, seen_by: str | None) -> RenderableType:
    """Each player's hand (only its size for another player, with ``--as``), supply and parchments."""
    if state.phase != "exploring":
        note = "hands are empty outside exploration"
    else:
        note = "a 2-player reserve is face down; one card joins the hand at each pick" if state.has_reserves else ""
    out = table("player", "hand", "supply", "parchments", prose=("hand", "supply", "parchments"))
    for p in state.players:
        cards, size, reserve = hand_of(state, p, seen_by)
        hand = f"{size} cards" if cards is None else ", ".join(cards) or "-"
        hand += f" (+{reserve} in reserve)" if reserve else ""
        held = state.parchments_of(p)
        parchments = f"{len(held)} face down" if cards is None and held else ", ".join(held) or "-"
        out.add_row(printable(p), hand, supply(state, p), parchments)
    return Group(Text("hands, supplies and parchments", "bold"), out, Text(note, "dim"))


def fiefs_panel(state: State, seen_by: str | None) -> RenderableType:
    """The latest harvest's fiefs (H2-H4)."""
    return (
        harvest_table(state)
        if state.harvests_done
        else Text("no harvest yet: each round's harvest shows its fiefs here")
    )


def scores_panel(state: State, seen_by: str | None) -> RenderableType:
    """The final scores, or the carrots so far until the end event."""
    if state.final is not None:
        return final_scores(state)
    so_far = ", ".join(f"{p} {state.harvest_total(p)}" for p in state.players) or "none"
    return Text(f"the final scores come with the end event; carrots harvested so far: {so_far}")


PANELS: dict[str, tuple[str, Callable[[State, str | None], RenderableType]]] = {
    "h": ("hands", hands_panel),
    "f": ("fiefs", fiefs_panel),
    "s": ("scores", scores_panel),
    "l": ("legend", lambda state, _: legend_text(state)),
}
"""The panels of the position, by their key: a name and what it shows."""


def whole_event(steps: Replay, index: int, seen_by: str | None) -> RenderableType:
    """The event in words with its problems, every line, wrapped to the width (the ``e`` panel)."""
    return Group(*(text for text, _ in event_lines(steps, index, seen_by)))
