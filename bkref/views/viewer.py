"""``bkref replay --step`` on a terminal: full screen, one key per move.

The viewer takes the alternate screen, reads single keys (the terminal in raw mode, so
nothing typed is echoed and Ctrl-C arrives as a key), redraws the whole screen in place
after each key or when the terminal's size changes (polled ten times a second), and gives
the terminal back as it was on every way out: q or Esc, the end of input, Ctrl-C
(``KeyboardInterrupt``, status 130 for the caller), SIGTERM or SIGHUP, or an error.

``parse`` turns the bytes a terminal sends into key names (arrows, PgUp/PgDn, Home/End
in their usual escape sequences):

>>> parse(b"\\x1b[Cn\\x1b[5~\\x1bOH")
['right', 'n', 'pgup', 'home']
>>> parse(b"\\x1b"), parse(b"\\r\\x7f\\x03"), parse("é".encode())
(['esc'], ['enter', 'backspace', 'ctrl-c'], ['é'])
"""

from __future__ import annotations

import io
import os
import re
import select
import signal
import termios
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from bkref.views.navigation import Replay, go, move, stops
from bkref.views.screen import PANELS, Scroll, frame, whole_event
from bkref.views.terminal import table

SEQUENCES = {
    "[A": "up",
    "[B": "down",
    "[C": "right",
    "[D": "left",
    "OA": "up",
    "OB": "down",
    "OC": "right",
    "OD": "left",
    "[5~": "pgup",
    "[6~": "pgdn",
    "[H": "home",
    "[F": "end",
    "OH": "home",
    "OF": "end",
    "[1~": "home",
    "[4~": "end",
    "[7~": "home",
    "[8~": "end",
}
"""Escape sequences (after ESC) of the keys the viewer knows; xterm's, VT100's and rxvt's."""

CONTROLS = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace", "\x03": "ctrl-c", "\x04": "ctrl-d"}

_SEQUENCE = re.compile(r"\x1b(\[[0-9;]*[@-~]|O[A-Za-z])")
_UNFINISHED = re.compile(rb"\x1b(\[[0-9;]*|O)?$")

ESC_WAIT = 0.05
"""How long a lone ESC waits for the rest of an escape sequence, in seconds."""

POLL = 0.1
"""How often the terminal's size is looked at while no key comes, in seconds."""


def parse(data: bytes) -> list[str]:
    """The keys in ``data``: a name for a special key, else the character; unknown sequences are dropped."""
    text = data.decode("utf-8", errors="replace")
    keys: list[str] = []
    i = 0
    while i < len(text):
        found = _SEQUENCE.match(text, i)
        if found:
            name = SEQUENCES.get(found.group(1))
            keys += [name] if name else []
            i = found.end()
            continue
        char = text[i]
        keys.append("esc" if char == "\x1b" else CONTROLS.get(char, char))
        i += 1
    return keys


KEYS: list[tuple[str, str]] = [
    ("→ n Space Enter", "next event (or turn or round, with --by)"),
    ("← b Backspace", "previous event (or turn or round)"),
    ("↓ PgDn t", "next turn: all its picks revealed"),
    ("↑ PgUp T", "previous turn"),
    ("r", "next round's harvest"),
    ("R", "previous round's harvest"),
    ("Home g", "the first event"),
    ("End G", "the last event"),
    ("digits Enter, or : digits Enter", "that event"),
    ("h f s l", "hands, fiefs of the harvest, scores, legend"),
    ("e", "the whole event, when it does not fit"),
    ("j k, d u", "scroll a long panel: a line, half a screen"),
    ("?", "these keys"),
    ("q Esc", "closes a panel; else quits"),
]
"""The keys, as the ``?`` panel lists them: the keys, what they do."""

ACTIONS = {
    **{"right": "next", "n": "next", " ": "next", "enter": "next"},
    **{"left": "back", "b": "back", "backspace": "back"},
    **{"down": "next turn", "pgdn": "next turn", "t": "next turn"},
    **{"up": "previous turn", "pgup": "previous turn", "T": "previous turn"},
    **{"r": "next round", "R": "previous round", "home": "start", "g": "start", "end": "end", "G": "end"},
}

SCROLLS = {"j": (1, 0), "k": (-1, 0), "d": (0, 1), "u": (0, -1)}
"""The keys that scroll an open panel too long for the screen: by lines, and by halves of the screen."""

PANEL_NAMES = {**{key: name for key, (name, _) in PANELS.items()}, "e": "the whole event", "?": "keys"}

HINT = "?:keys q:quit ←→:{by} ↑↓:turn r/R:round h:hands f:fiefs s:scores l:legend"


def keys_panel() -> RenderableType:
    """The ``?`` panel: every key and what it does."""
    out = table("keys", "what they do")
    for keys, what in KEYS:
        out.add_row(keys, what)
    return Group(Text("keys", "bold"), out)


class Viewer:
    """Where the viewer is (event, open panel, digits typed) and what each key changes."""

    def __init__(self, steps: Replay, index: int, by: str) -> None:
        self.steps, self.index, self.by = steps, index, by
        self.stops = stops(steps, by)
        self.panel: str | None = None
        self.scroll = Scroll()  # where the open panel is scrolled to, when it is too long for the screen
        self.typed: str | None = None  # the digits of an event number being typed
        self.note = ""

    def press(self, key: str) -> bool:
        """Act on one key; False to quit."""
        self.note = ""
        if self.typed is not None:
            if key.isdecimal() and len(key) == 1:
                self.typed += key
                return True
            if key == "backspace":
                self.typed = self.typed[:-1] if self.typed else None
                return True
            typed, self.typed = self.typed, None
            if key == "enter":
                if typed:
                    self.index, self.note = self._goto(typed)
                return True
            if key == "esc":
                return True
        if key.isdecimal() and len(key) == 1:
            self.typed = key
        elif key == ":":
            self.typed = ""
        elif key in ("q", "esc", "ctrl-d"):
            if self.panel is None:
                return False
            self.panel = None
            self.scroll = Scroll()
        elif key in PANEL_NAMES:
            self.panel = None if self.panel == key else key
            self.scroll = Scroll()
        elif key in SCROLLS and self.panel is not None:
            lines, halves = SCROLLS[key]
            self.scroll.top = max(0, self.scroll.top + lines + halves * max(self.scroll.shown // 2, 1))
        elif key in ACTIONS:
            self._go(ACTIONS[key])
        return True

    def at(self, size: tuple[int, int]) -> tuple[object, ...]:
        """Everything the screen of this ``size`` shows: when it changes, the screen is drawn again."""
        return (self.index, self.panel, self.scroll.top, self.typed, self.note, size)

    def _goto(self, typed: str) -> tuple[int, str]:
        target, note = move(self.steps, self.index, typed)
        return (self.index if target is None else target), note

    def _go(self, action: str) -> None:
        self.index, self.note = go(self.steps, self.index, action, self.stops)

    def status(self) -> Text:
        """The last line: the event number being typed, a note, the open panel, or the keys."""
        if self.typed is not None:
            return Text(f"go to event: {self.typed}_  (Enter goes, Esc cancels)", "bold")
        if self.note:
            return Text(self.note, "bold")
        if self.panel is not None:
            return Text(f"{PANEL_NAMES[self.panel]}: {self.panel} or q closes, the other keys still move", "reverse")
        return Text(HINT.format(by=self.by), "reverse")


@contextmanager
def full_screen(fd: int, out: TextIO) -> Iterator[None]:
    """The alternate screen and raw keys on the terminal ``fd``, until the block ends however it ends."""
    saved = termios.tcgetattr(fd)
    handlers = {sig: signal.signal(sig, _leave) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        raw = termios.tcgetattr(fd)
        raw[0] &= ~(termios.IXON | termios.ICRNL)  # Ctrl-S and Ctrl-Q are keys; Enter stays \r
        raw[3] &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)  # Ctrl-C is a key
        raw[6][termios.VMIN], raw[6][termios.VTIME] = 1, 0
        termios.tcsetattr(fd, termios.TCSANOW, raw)
        out.write("\x1b[?1049h\x1b[?25l")  # the alternate screen, no cursor
        out.flush()
        yield
    finally:
        with suppress(OSError):  # the terminal may be gone (a hang-up): nothing left to restore then
            out.write("\x1b[?25h\x1b[?1049l")
            out.flush()
        with suppress(OSError, termios.error):
            termios.tcsetattr(fd, termios.TCSAFLUSH, saved)  # keys typed but not read are dropped
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _leave(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _read(fd: int, timeout: float) -> bytes | None:
    """What the terminal sent within ``timeout`` seconds (b"" at the end of input), or None."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return None
    try:
        data = os.read(fd, 1024)
    except OSError:  # the terminal is gone
        return b""
    while _UNFINISHED.search(data):  # wait a moment for the rest of an escape sequence
        more, _, _ = select.select([fd], [], [], ESC_WAIT)
        if not more:
            break
        chunk = os.read(fd, 1024)
        if not chunk:
            break
        data += chunk
    return data


def draw(out: TextIO, lines: list[str]) -> None:
    """Write the screen: each row at its place, cleared first; one write, as one synchronized update."""
    rows = "".join(f"\x1b[{row};1H\x1b[2K{line}" for row, line in enumerate(lines, start=1))
    out.write(f"\x1b[?2026h{rows}\x1b[?2026l")
    out.flush()


def renderer(color: bool) -> Console:
    """The console that lays out the screens: styles on (reverse video marks the last move), colour if wanted."""
    return Console(
        file=io.StringIO(),
        force_terminal=True,
        color_system="auto" if color else "standard",
        no_color=not color or bool(os.environ.get("NO_COLOR")),
        force_jupyter=False,
        force_interactive=False,
        legacy_windows=False,
        markup=False,
        emoji=False,
        highlight=False,
    )


def screen(con: Console, viewer: Viewer, label: str, size: tuple[int, int], seen_by: str | None) -> list[str]:
    """The lines of the screen as ``viewer`` stands."""
    steps, index, panel = viewer.steps, viewer.index, viewer.panel
    content: RenderableType | None = None
    if panel == "?":
        content = keys_panel()
    elif panel == "e":
        content = whole_event(steps, index, seen_by)
    elif panel is not None:
        content = PANELS[panel][1](steps[index].state, seen_by)
    return frame(
        con,
        steps,
        index,
        label,
        size=size,
        status=viewer.status(),
        panel=content,
        seen_by=seen_by,
        scroll=viewer.scroll,
    )


def view(
    steps: Replay,
    index: int,
    label: str,
    *,
    by: str,
    seen_by: str | None,
    color: bool,
    keys: int,
    out: TextIO,
) -> None:
    """Show ``steps`` full screen from ``index`` on the terminal ``out``, reading keys from the terminal ``keys``."""
    viewer = Viewer(steps, index, by)
    con = renderer(color)
    with full_screen(keys, out):
        shown: tuple[object, ...] | None = None
        while True:
            columns, lines = os.get_terminal_size(out.fileno())
            size = (columns or 80, lines or 24)  # a terminal that does not say its size
            if viewer.at(size) != shown:
                draw(out, screen(con, viewer, label, size, seen_by))
                shown = viewer.at(size)  # the panel's scroll as drawn, kept within the panel
            data = _read(keys, POLL)
            if data is None:
                continue
            if not data:
                return  # the end of input
            for key in parse(data):
                if key == "ctrl-c":
                    raise KeyboardInterrupt
                if not viewer.press(key):
                    return
