"""Every command that reads a log says its bots' faults (issue 44, point 1): score, standings
and replay print, as validate does, a note line on stderr for each seat whose bot program
faulted, from the game event's meta; their output and exit status are unchanged.

The logs are a simulated game whose meta is given the record a faulty bot program leaves
(``bkref simulate --policy cmd:…``, see tests/test_bots.py for the real thing).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPLAYS

GAME = REPLAYS / "generated" / "2p-seed1-greedy.jsonl"
FAULTS = [{"kind": "garbage", "event": 3}, {"kind": "garbage", "event": 5}, {"kind": "timeout", "event": 9}]
NOTE = (
    "note: seat bob (cmd:node bot.js) made 3 faults (2 garbage, 1 timeout, first at event 3);"
    " random played the decisions it faulted\n"
)


def with_bots(folder: Path, name: str, faults: list[dict[str, object]]) -> Path:
    """The game with bob's seat played by a bot program that made ``faults``, and ann's by one that made none."""
    first, rest = GAME.read_text().split("\n", 1)
    game = json.loads(first)
    bots = {"ann": {"command": "python3 fine.py", "faults": []}, "bob": {"command": "node bot.js", "faults": faults}}
    game["meta"] = {**game["meta"], "bots": bots}
    path = folder / name
    path.write_text(json.dumps(game) + "\n" + rest)
    return path


COMMANDS = {
    "score": ["score", "LOG"],
    "score json": ["score", "--format", "json", "LOG"],
    "standings": ["standings", "LOG"],
    "standings csv": ["standings", "--format", "csv", "LOG"],
    "replay": ["replay", "LOG"],
    "replay to": ["replay", "--to", "12", "LOG"],
    "replay seen": ["replay", "--as", "ann", "--format", "seen", "LOG"],
    "replay svg": ["replay", "--svg", "-", "LOG"],
}


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_bots_faults_are_a_note_on_stderr_and_change_nothing_else(bkref, tmp_path: Path, args: list[str]) -> None:
    faulty = with_bots(tmp_path, "fault.jsonl", FAULTS)
    clean = with_bots(tmp_path, "clean.jsonl", [])
    said = bkref(*(faulty if a == "LOG" else a for a in args))
    quiet = bkref(*(clean if a == "LOG" else a for a in args))
    assert (said.exit_code, quiet.exit_code) == (0, 0)
    assert said.stderr == f"{faulty}: {NOTE}" and quiet.stderr == ""
    assert said.stdout == quiet.stdout.replace("clean.jsonl", "fault.jsonl")


def test_standings_say_each_faulty_log_in_order_with_processes_too(bkref, tmp_path: Path) -> None:
    logs = [with_bots(tmp_path, f"{n}.jsonl", FAULTS if n != 2 else []) for n in (1, 2, 3)]
    for jobs in ("1", "2"):
        result = bkref("standings", "-j", jobs, *logs)
        assert result.exit_code == 0
        assert result.stderr == f"{logs[0]}: {NOTE}{logs[2]}: {NOTE}"


def test_a_meta_of_another_tools_making_says_nothing(bkref, tmp_path: Path) -> None:
    """A log's meta is any JSON object: bots recorded in another shape are not bkref's to read."""
    first, rest = GAME.read_text().split("\n", 1)
    game = json.loads(first)
    game["meta"] = {"bots": {"bob": "node bot.js"}}
    path = tmp_path / "other.jsonl"
    path.write_text(json.dumps(game) + "\n" + rest)
    for args in (["score", path], ["standings", path], ["replay", path], ["validate", path]):
        result = bkref(*args)
        assert result.exit_code == 0 and "note:" not in result.stderr
