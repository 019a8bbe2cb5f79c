"""``-`` reads the log from standard input in validate, score and replay; validate streams."""

from __future__ import annotations

import io
import os
import re
import selectors
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bkref
from bkref.cli import app
from tests.conftest import BKREF_COMMAND, REPLAYS, ROOT, manual_text

BUNDLED = sorted(REPLAYS.rglob("*.jsonl"))


def run(args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(REPLAYS)))
def test_validate_stdin_gives_the_bytes_of_validate_file(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    from_file = run(["validate", name])
    from_stdin = run(["validate", "--stdin-name", name, "-"], path.read_bytes())
    assert from_stdin == from_file


def test_the_bundled_replays_cover_legal_illegal_and_unreadable_logs() -> None:
    statuses = {run(["validate", str(path)])[0] for path in BUNDLED}
    assert statuses == {0, 1, 2}


def test_stdin_is_named_dash_and_mixes_with_files() -> None:
    illegal = "replays/illegal/C2-city-on-unclaimed-square.jsonl"
    legal = "replays/2p-ann-bob.jsonl"
    alone = run(["validate", illegal])
    status, out, err = run(["validate", "--verbose", legal, "-"], (ROOT / illegal).read_bytes())
    assert status == alone[0] == 1
    assert out == alone[1].replace(illegal, "-")
    assert out.startswith("-:")
    assert err.splitlines() == [
        f"{legal}: legal (113 events)",
        alone[2].replace(illegal, "-").rstrip("\n"),
        "2 files: 2 games, 1 legal, 1 illegal, 0 unreadable",
    ]


@pytest.mark.parametrize("args", [["score"], ["score", "--format", "json"], ["replay", "--to", "40"], ["replay"]])
def test_score_and_replay_read_stdin_as_a_file(args: list[str]) -> None:
    path = "replays/3p-ann-bob-cid.jsonl"
    status, out, err = run([*args, path])
    assert status == 0 and out
    assert run([*args, "-"], Path(ROOT / path).read_bytes()) == (status, out.replace(path, "-"), err.replace(path, "-"))


def test_a_missing_log_on_stdin_is_one_line() -> None:
    assert run(["score", "-"]) == (
        2,
        "",
        "-:1: F1 the log holds no event: it needs at least a game event\n-: nothing to score: the log is unreadable\n",
    )


def test_the_api_reads_every_kind_of_source(tmp_path: Path) -> None:
    path = REPLAYS / "2p-ann-bob.jsonl"
    data = path.read_bytes()
    sources: list[bkref.LogSource] = [
        path,
        str(path),
        data,
        data.decode(),
        io.BytesIO(data),
        io.StringIO(data.decode()),
        path.open("rb"),
        path.open(encoding="utf-8"),
    ]
    reports = [bkref.check(source) for source in sources]
    assert {(r.status, r.events, tuple(r.scores.items())) for r in reports} == {(0, 113, (("ann", 125), ("bob", 123)))}
    assert [r.path for r in reports][:6] == [str(path), str(path), "<bytes>", "<text>", "<stream>", "<stream>"]
    missing = bkref.check(tmp_path / "none.jsonl")
    assert missing.status == 2
    assert missing.diagnostics[0].message == "no such file"  # the command line's words (issue 30)
    assert bkref.check("").diagnostics[0].message == "is a directory, not a log file"


def test_validate_shows_a_problem_while_the_game_is_still_being_written() -> None:
    """A writer that pauses after an illegal line: its diagnostic comes before the writer closes."""
    lines = (REPLAYS / "3p-ann-bob-cid.jsonl").read_bytes().splitlines(keepends=True)
    illegal = lines[2].replace(b'"F8"', b'"J10"')  # ann keeps a card she does not hold (D2)
    proc = subprocess.Popen(
        [*BKREF_COMMAND, "validate", "--partial", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"".join([lines[0], lines[1], illegal]))
        proc.stdin.flush()  # and the writer pauses here, its end of the pipe open
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        assert selector.select(timeout=30), "no diagnostic within 30 s while the writer was paused"
        first = os.read(proc.stdout.fileno(), 4096).decode()
        assert proc.poll() is None  # still reading: the log is not finished
        assert first.startswith("-:3: D2 ann keeps J10, which is not in ann's hand")
        rest, err = proc.communicate(b"".join(lines[3:10]), timeout=30)  # the writer goes on, then closes
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert rest == b""
    assert proc.returncode == 1
    assert err.decode() == "-: illegal, 1 problem (D2)\n"


def test_the_readme_tail_command_checks_a_game_being_written_from_its_first_line(tmp_path: Path) -> None:
    """The manual's ``tail … | bkref validate --partial -`` on a game past ten lines: the line
    appended last is found at its own line number (plain ``tail -f`` sent only the last ten
    lines, and the first of them was an F1 at line 1)."""
    command = re.search(r"`(tail [^`]*game\.jsonl \| bkref validate --partial -)`", manual_text())
    assert command, "the manual shows the tail command"
    game = tmp_path / "game.jsonl"
    lines = (REPLAYS / "3p-ann-bob-cid.jsonl").read_bytes().splitlines(keepends=True)[:30]
    game.write_bytes(b"".join(lines))
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.Popen(
        ["bash", "-c", command[1]], cwd=tmp_path, stdout=subprocess.PIPE, env=env, start_new_session=True
    )
    assert proc.stdout is not None
    try:
        with game.open("ab") as file:
            file.write(b"not json\n")  # the game goes on with a bad line
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        assert selector.select(timeout=60), "no diagnostic within 60 s"
        first = proc.stdout.readline().decode()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert first.startswith("-:31: F1 line 31 is not JSON")
