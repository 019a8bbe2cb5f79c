"""`bkref replay --step` on a terminal: the full-screen viewer, driven through a pseudo-terminal.

Each test runs ``python -m bkref replay ... --step`` on a pty of 80x24 and reads the
screen through pyte, an in-memory terminal emulator. Every wait has a timeout.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest

from bkref.game.events import Harvest
from bkref.views.navigation import load, stops
from bkref.views.squares import changed_squares
from bkref.views.viewer import Viewer
from tests.conftest import BKREF_COMMAND, ROOT
from tests.test_replay import FOUR, THREE, TWO, WORKED

TIMEOUT = 10.0
"""The longest wait for anything the viewer draws or does, in seconds (the machine may be busy)."""

ROWS = re.compile(r"^ ([A-J])  ", flags=re.M)


class Pty:
    """``bkref ARGS`` on a pseudo-terminal of ``columns`` x ``lines``, its screen read by pyte."""

    def __init__(self, *args: str | Path, columns: int = 80, lines: int = 24) -> None:
        self.master, self.slave = os.openpty()
        self.resize(columns, lines)
        self.saved = termios.tcgetattr(self.slave)
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        self.process = subprocess.Popen(
            [*BKREF_COMMAND, "replay", *map(str, args)],
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        self.raw = b""

    def resize(self, columns: int, lines: int) -> None:
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.stream.feed(b"")
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def read(self, quiet: float = 0.05) -> bool:
        """Feed the screen what the viewer wrote until it is quiet for ``quiet`` s; False if nothing came."""
        got = False
        while select.select([self.master], [], [], quiet)[0]:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the viewer has exited and closed the terminal
                break
            if not data:
                break
            self.raw += data
            self.stream.feed(data)
            got = True
        return got

    def wait(self, condition: Callable[[], bool], what: str) -> None:
        """Read until a whole screen is drawn (its last write ends the synchronized update) and ``condition`` holds."""
        deadline = time.monotonic() + TIMEOUT
        while not (self.raw.endswith(b"\x1b[?2026l") and condition()):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {TIMEOUT} s; the screen:\n{self.text()}")
            self.read(0.02)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def shows(self, pattern: str) -> Callable[[], bool]:
        return lambda: re.search(pattern, self.text(), flags=re.M) is not None

    def header(self) -> str:
        return self.screen.display[0].rstrip()

    def event(self) -> int:
        found = re.match(r"event (\d+) of", self.header())
        return int(found.group(1)) if found else 0

    def press(self, keys: bytes, then: str) -> None:
        """Send ``keys`` and wait until the screen shows ``then`` (a pattern) once they are read."""
        os.write(self.master, keys)
        self.wait(self.shows(then), then)

    def exit(self) -> int:
        """The viewer's exit status (it must exit within the timeout)."""
        deadline = time.monotonic() + TIMEOUT
        while self.process.poll() is None and time.monotonic() < deadline:
            self.read(0.02)
        status = self.process.wait(timeout=1)
        self.read(0)
        return status

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=TIMEOUT)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def viewer() -> Iterator[Callable[..., Pty]]:
    opened: list[Pty] = []

    def start(*args: str | Path, columns: int = 80, lines: int = 24) -> Pty:
        pty = Pty(*args, "--step", columns=columns, lines=lines)
        opened.append(pty)
        pty.wait(pty.shows(r"^event \d+ of \d+"), "first screen")
        return pty

    yield start
    for pty in opened:
        pty.close()


RIGHT, LEFT, DOWN, UP, HOME, END = b"\x1b[C", b"\x1b[D", b"\x1b[B", b"\x1b[A", b"\x1b[H", b"\x1b[F"


def board_on_screen(text: str) -> bool:
    """The column numbers and the ten rows A to J, in order."""
    return "      1     2     3" in text and ROWS.findall(text) == list("ABCDEFGHIJ")


def test_single_keys_move_and_back_returns_to_the_same_screen(viewer) -> None:
    pty = viewer(THREE, "--to", "4")
    first = pty.text()
    assert pty.header().startswith("event 4 of 118 · round 1, turn 1 of 6: exploration")
    pty.press(RIGHT, "^event 5 of")
    assert "cid picks last for turn 1: every pick is revealed and played" in pty.text()
    pty.press(LEFT, "^event 4 of")
    assert pty.text() == first
    pty.press(b"n", "^event 5 of")
    pty.press(b"\x7f", "^event 4 of")  # Backspace
    pty.press(b" ", "^event 5 of")
    pty.press(b"b", "^event 4 of")
    assert pty.text() == first
    os.write(pty.master, b"q")
    assert pty.exit() == 0


def test_turns_rounds_start_end_and_typed_event_numbers(viewer) -> None:
    pty = viewer(THREE)
    pty.press(DOWN, "^event 2 of")  # the deal stands alone
    pty.press(b"\x1b[6~", "^event 6 of")  # PgDn: turn 1, every pick revealed and bob's provisions drawn
    pty.press(UP, "^event 2 of")
    pty.press(b"r", r"^event 26 of 118 · round 1 harvested")
    pty.press(b"r", r"^event 53 of 118 · round 2 harvested")
    pty.press(b"R", "^event 26 of")
    pty.press(END, r"^event 118 of 118 · game over")
    assert re.search(r"^bob and cid win with 175 \(tied\) \(s shows the scores\)$", pty.text(), flags=re.M)
    pty.press(HOME, "^event 1 of")
    pty.press(b"4", "^go to event: 4_")
    pty.press(b"2\r", "^event 42 of")
    pty.press(b":7\r", "^event 7 of")
    pty.press(b"999\r", "^no event 999: this log has events 1 to 118")
    pty.press(b"G", "^event 118 of")
    pty.press(RIGHT, "^this is the last event")
    os.write(pty.master, b"\x1b")  # Esc quits
    assert pty.exit() == 0


def test_the_board_is_on_the_screen_at_every_step_of_a_whole_game(viewer) -> None:
    pty = viewer(FOUR)  # four players: the least room for the event
    total = len(load(ROOT / FOUR))
    for event in range(1, total + 1):
        assert pty.event() == event
        text = pty.text()
        assert board_on_screen(text), text
        assert len(re.findall(r"^ [abcd]  (ann|bob|cid|dee) +\d+ squares?", text, flags=re.M)) == 4, text
        if event < total:
            pty.press(RIGHT, f"^event {event + 1} of")
    os.write(pty.master, b"q")
    assert pty.exit() == 0


def test_the_last_move_is_marked_in_reverse_video(viewer) -> None:
    steps = load(ROOT / THREE)
    claimed = changed_squares(steps[3].state, steps[4].state)  # cid's pick reveals turn 1: ann claims F8, cid A7
    assert claimed == {"F8", "A7"}
    pty = viewer(THREE, "--to", "5")
    marked = set()
    for y, line in enumerate(pty.screen.display):
        found = ROWS.match(line)
        for column in range(10) if found else ():
            cells = [pty.screen.buffer[y][4 + 6 * column + i] for i in range(5)]
            if all(cell.reverse for cell in cells):
                marked.add(f"{found.group(1)}{column + 1}")
    assert marked == claimed


def test_quit_and_ctrl_c_leave_the_alternate_screen_and_restore_the_terminal(viewer) -> None:
    for key, status in ((b"q", 0), (b"\x03", 130)):
        pty = viewer(WORKED)
        assert termios.tcgetattr(pty.slave)[3] & termios.ECHO == 0  # raw keys while it runs
        os.write(pty.master, key)
        assert pty.exit() == status
        assert pty.raw.count(b"\x1b[?1049h") == 1
        assert pty.raw.rstrip().endswith(b"\x1b[?25h\x1b[?1049l")
        assert termios.tcgetattr(pty.slave) == pty.saved


def test_sigterm_and_ctrl_d_also_restore_the_terminal(viewer) -> None:
    for stop, status in (
        (lambda pty: pty.process.send_signal(signal.SIGTERM), 128 + signal.SIGTERM),
        (lambda pty: os.write(pty.master, b"\x04"), 0),
    ):
        pty = viewer(WORKED)
        stop(pty)
        assert pty.exit() == status
        assert pty.raw.rstrip().endswith(b"\x1b[?25h\x1b[?1049l") and termios.tcgetattr(pty.slave) == pty.saved


def test_a_resize_redraws_at_the_new_size(viewer) -> None:
    pty = viewer(TWO, "--to", "50")
    assert len(pty.header()) == 80
    pty.resize(100, 30)
    pty.wait(lambda: pty.header().endswith("2p-ann-bob.jsonl") and len(pty.header()) == 100, "redraw at 100x30")
    assert pty.event() == 50 and board_on_screen(pty.text())
    pty.resize(80, 24)
    pty.wait(lambda: len(pty.header()) == 80, "redraw at 80x24")
    os.write(pty.master, b"q")
    assert pty.exit() == 0


def test_panels_open_and_close_with_one_key(viewer) -> None:
    pty = viewer(THREE, "--to", "60", "--as", "bob")
    pty.press(b"h", "^hands, supplies and parchments")
    text = pty.text()
    # ann has picked turn 2 (event 60), face down: bob knows her hand as it was when the turn started (I3)
    assert re.search(r"^ann +10 cards +", text, flags=re.M) and re.search(r"^cid +10 cards", text, flags=re.M)
    assert re.search(r"^bob +E3, E9, J10", text, flags=re.M) and "4 face down" in text
    pty.press(RIGHT, "^event 61 of")  # the keys still move, the panel stays
    assert "hands, supplies and parchments" in pty.text()
    pty.press(b"q", r"^\?:keys q:quit")  # q closes the panel first
    assert board_on_screen(pty.text())
    pty.press(b"?", r"^keys +what they do")
    pty.press(b"l", r"^F forest \(wood\)")
    pty.press(b"l", r"^\?:keys q:quit")
    os.write(pty.master, b"q")
    assert pty.exit() == 0


def test_a_problem_shows_at_its_event_and_names_from_the_log_cannot_drive_the_terminal(viewer, tmp_path) -> None:
    # 3p with ann's first pick changed to keep J10, not in her hand (D2), and bob renamed with an
    # escape sequence that would clear the screen if it were written as it is.
    text = (ROOT / THREE).read_text()
    assert '"keep":["camp3","F8"]' in text
    log = tmp_path / "odd.jsonl"
    log.write_text(text.replace('"keep":["camp3","F8"]', '"keep":["J10","F8"]', 1).replace('"bob"', '"bob\\u001b[2J"'))
    pty = viewer(log, "--to", "3")
    assert re.search(r"^line 3: D2 ann keeps J10, which is not in ann's hand", pty.text(), flags=re.M)
    pty.press(b"h", r"^bob\\x1b\[2J ")
    assert b"\x1b[2J" not in pty.raw
    os.write(pty.master, b"qq")
    assert pty.exit() == 1  # the log's status, as validate gives it


# -- the key handling itself, without a terminal ---------------------------------------


def test_viewer_keys_by_turn_and_round() -> None:
    steps = load(ROOT / THREE)
    turn = Viewer(steps, 0, "turn")
    turn.press("right")
    turn.press("right")
    assert turn.index == 5  # the end of turn 1: its picks and bob's provisions
    turn.press("left")
    assert turn.index == 1
    by_round = Viewer(steps, 0, "round")
    by_round.press("enter")
    assert by_round.index == stops(steps, "round")[1] == 25 and isinstance(steps[25].event, Harvest)
    assert not by_round.press("q")


# -- the 80x24 screens a person has read -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args", "keys"),
    [
        ("3p-reveal", [THREE, "--to", "5"], []),
        ("4p-provisions", [FOUR, "--to", "100"], []),
        ("2p-as-ann", [TWO, "--to", "40", "--as", "ann"], []),
        ("2p-end-scores", [TWO, "--to", "100"], [(b"G", "^event 113 of"), (b"s", "^final scores")]),
        ("3p-keys", [THREE], [(b"?", "^keys +what they do")]),
    ],
)
def test_screens_match_the_snapshots(viewer, text_snapshot, name: str, args: list, keys: list) -> None:
    pty = viewer(*args)
    for key, then in keys:
        pty.press(key, then)
    assert pty.text() == text_snapshot


# -- panels longer than the screen, terminals too small for the board ----------------------


def test_a_panel_longer_than_the_screen_scrolls_and_says_where_it_is(viewer) -> None:
    pty = viewer(FOUR, "--round", "4")  # the last harvest's fiefs: 45 lines, four players
    pty.press(b"f", r"^lines 1-21 of 45: j k scroll")
    assert not re.search(r"^dee ", pty.text(), flags=re.M)
    pty.press(b"d", r"^lines 11-31 of 45")  # half a screen
    pty.press(b"j" * 30, r"^lines 25-45 of 45")  # no further than the last line
    assert re.search(r"^ +dee's total +\d+$", pty.text(), flags=re.M)
    pty.press(b"k", r"^lines 24-44 of 45")
    pty.press(RIGHT, r"^event 124 of")  # the game keys still move; the panel stays where it was
    assert re.search(r"^lines 24-44 of 45", pty.text(), flags=re.M)
    pty.press(b"f", r"^\?:keys q:quit")
    pty.press(b"f", r"^lines 1-21 of 45")  # opened again: from its first line
    os.write(pty.master, b"qq")
    assert pty.exit() == 0


@pytest.mark.parametrize(("columns", "lines"), [(60, 15), (20, 5), (80, 20)])
def test_a_terminal_too_small_for_the_board_says_so_and_crops_no_board(viewer, columns: int, lines: int) -> None:
    pty = viewer(FOUR, "--to", "100", columns=columns, lines=lines)
    text = pty.text()
    assert re.search(rf"^{columns}x{lines} is too small", text, flags=re.M), text
    assert not ROWS.search(text) and "      1     2" not in text  # no board cut to the width or the height
    if lines >= 15:
        assert "bob's provisions draws E3 and A7" in text
        assert len(re.findall(r"^ [abcd]  (ann|bob|cid|dee) +\d+ squares", text, flags=re.M)) == 4
    os.write(pty.master, b"q")
    assert pty.exit() == 0 and termios.tcgetattr(pty.slave) == pty.saved


def test_viewer_letters_t_and_t_move_by_turn_as_the_piped_lines_do() -> None:
    steps = load(ROOT / THREE)
    viewer = Viewer(steps, 1, "event")
    viewer.press("t")
    assert viewer.index == 5  # turn 1: its picks and bob's provisions
    viewer.press("T")
    assert viewer.index == 1
