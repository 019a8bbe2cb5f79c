"""The progress bar of long runs: on a terminal only, never in a pipe or CI."""

from __future__ import annotations

import io
import re
import sys

import pytest

from bkref.cli import app
from bkref.views import progress
from tests.conftest import REPLAYS

BAR = "━"


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as rich's detection asks."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def at_once(monkeypatch):
    """No delay before the bar shows, and not in CI (the tests may run in CI)."""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.delenv("CI", raising=False)


def run(stderr: io.StringIO, *args: str) -> tuple[int, str]:
    """Run ``bkref ARGS`` in this process with ``stderr``; its exit status and standard output."""
    stdout = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdout", stdout)
        patch.setattr(sys, "stderr", stderr)
        status = app(list(args), standalone_mode=False)
    return status, stdout.getvalue()


def test_the_bar_shows_on_a_terminal(at_once) -> None:
    stream = Terminal()
    with progress.progress(3, "validate", stream=stream) as advance:
        for _ in range(3):
            advance()
    assert "validate" in stream.getvalue()
    assert BAR in stream.getvalue()
    assert "3/3" in stream.getvalue()


def test_the_bar_says_which_time_is_which(at_once) -> None:
    stream = Terminal()
    with progress.progress(3, "validate", stream=stream) as advance:
        advance()
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())  # without its colours
    assert re.search(r"1/3 \d+:\d\d:\d\d elapsed, (-:--:--|\d+:\d\d:\d\d) left", shown)


def test_no_bar_in_a_pipe_or_in_ci(at_once, monkeypatch) -> None:
    piped = io.StringIO()
    with progress.progress(3, "validate", stream=piped) as advance:
        advance()
    assert piped.getvalue() == ""
    monkeypatch.setenv("CI", "true")
    terminal = Terminal()
    with progress.progress(3, "validate", stream=terminal) as advance:
        advance()
    assert terminal.getvalue() == ""


def test_no_bar_before_the_delay(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = Terminal()
    with progress.progress(3, "validate", stream=stream) as advance:
        advance()
    assert BAR not in stream.getvalue()


@pytest.mark.parametrize("command", [["validate", "-q"], ["standings", "--format", "csv"]])
def test_commands_show_the_bar_on_a_terminal_and_keep_their_output(at_once, command) -> None:
    logs = [str(REPLAYS / "2p-ann-bob.jsonl"), str(REPLAYS / "illegal" / "D2-keep-not-in-hand.jsonl")]
    piped = io.StringIO()
    status, out = run(piped, *command, *logs)
    assert BAR not in piped.getvalue()
    terminal = Terminal()
    assert run(terminal, *command, *logs) == (status, out)  # standard output is untouched
    assert f"{command[0]} " in terminal.getvalue()
    assert BAR in terminal.getvalue()
    assert "2/2" in terminal.getvalue()
    for line in piped.getvalue().splitlines():  # what went to standard error still does, above the bar
        assert line in terminal.getvalue()


def test_simulate_games_shows_the_bar_on_a_terminal_only(at_once, tmp_path) -> None:
    command = ["simulate", "--games", "2", "--players", "2", "--seed", "1"]
    piped = io.StringIO()
    assert run(piped, *command, "-o", str(tmp_path / "piped")) == (
        None,
        f"wrote 2 games to {tmp_path / 'piped'}: 2p-seed-000001.jsonl to 2p-seed-000002.jsonl\n",
    )
    assert piped.getvalue() == ""
    terminal = Terminal()
    run(terminal, *command, "-o", str(tmp_path / "terminal"))
    assert "simulate " in terminal.getvalue()
    assert "2/2" in terminal.getvalue()
    for name in ("2p-seed-000001.jsonl", "2p-seed-000002.jsonl"):
        assert (tmp_path / "terminal" / name).read_bytes() == (tmp_path / "piped" / name).read_bytes()
