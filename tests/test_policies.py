"""Policies as plug-ins: ``bkref simulate --policy``, once for all seats or once per seat."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bkref.bots.policies import PolicyError, load
from bkref.bots.simulate import simulate, to_jsonl
from bkref.game import moves
from bkref.game.engine import State
from bkref.game.events import Pick
from bkref.io.referee import check

FIRST = """
def first(state, moves, rng):
    return moves[0]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_a_user_policy_plays_its_seat_only(tmp_path: Path) -> None:
    policy = f"{write(tmp_path, 'bots.py', FIRST)}:first"
    events = simulate(3, seed=5, policy=["random", policy, "greedy"])
    log = write(tmp_path, "game.jsonl", to_jsonl(events))
    assert check(log).status == 0
    assert events[0].meta == {"generator": "bkref simulate", "seed": 5, "policy": ["random", policy, "greedy"]}
    state = State()
    bob, others = [], []
    for event in events:
        if isinstance(event, Pick):
            first = moves.picks(state, event.player)[0]
            (bob if event.player == "bob" else others).append(event == first)
        state.play(event)
    assert bob == [True] * 24  # 4 rounds of 6 turns, always the first legal pick
    assert not all(others)


def test_one_policy_given_once_per_seat_plays_as_given_once() -> None:
    assert to_jsonl(simulate(2, seed=3, policy=["greedy", "greedy"])[1:]) == to_jsonl(
        simulate(2, seed=3, policy="greedy")[1:]
    )


def test_a_module_policy_by_dotted_name(bkref, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "mybots_first.py", FIRST)
    monkeypatch.syspath_prepend(str(tmp_path))
    made = bkref("simulate", "--players", 2, "--seed", 1, "--policy", "mybots_first:first", "-o", tmp_path / "g.jsonl")
    assert made.exit_code == 0, made.stderr
    assert json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])["meta"]["policy"] == "mybots_first:first"
    assert bkref("validate", tmp_path / "g.jsonl").exit_code == 0


@pytest.mark.parametrize(
    ("source", "spec", "words"),
    [
        (None, "{dir}/missing.py:first", "policy {dir}/missing.py:first: no such file {dir}/missing.py"),
        ("import nowhere_to_be_found\n", "{dir}/bots.py:first", "cannot be imported: ModuleNotFoundError"),
        (FIRST, "{dir}/bots.py:second", "{dir}/bots.py has no function second"),
        (None, "no_such_module_anywhere:first", "cannot be imported: ModuleNotFoundError"),
        (
            "def first(state, moves, rng):\n    raise RuntimeError('out of ideas')\n",
            "{dir}/bots.py:first",
            "raised RuntimeError: out of ideas at ann's pick in round 1, turn 1 (event 3)",
        ),
        (
            "def first(state, moves, rng):\n    return None\n",
            "{dir}/bots.py:first",
            "returned None, which is not one of the 66 legal moves at ann's pick in round 1, turn 1 (event 3)",
        ),
    ],
)
def test_a_broken_policy_is_one_line_and_exit_2(
    bkref, tmp_path: Path, source: str | None, spec: str, words: str
) -> None:
    if source is not None:
        write(tmp_path, "bots.py", source)
    spec = spec.format(dir=tmp_path)
    result = bkref("simulate", "--players", 3, "--seed", 1, "--policy", spec, "-o", tmp_path / "g.jsonl")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("bkref: error: policy ")
    assert words.format(dir=tmp_path) in result.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_a_policy_returning_another_move_names_the_policy_and_position(tmp_path: Path) -> None:
    """A pick with the cards of another turn: the first pick of the next player."""
    source = (
        "import msgspec\n"
        "def first(state, moves, rng):\n"
        "    return moves[0] if moves[0].player == 'ann' else msgspec.structs.replace(moves[0], player='ann')\n"
    )
    spec = f"{write(tmp_path, 'bots.py', source)}:first"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bkref",
            "simulate",
            "--players",
            "4",
            "--seed",
            "2",
            "--policy",
            "random",
            "--policy",
            spec,
            "--policy",
            "random",
            "--policy",
            "random",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith(f"bkref: error: policy {spec} returned Pick(round=1, turn=1, player='ann'")
    assert run.stderr.endswith("legal moves at bob's pick in round 1, turn 1 (event 4)\n")


def test_the_policy_count_must_be_one_or_one_per_seat(bkref) -> None:
    result = bkref("simulate", "--players", 3, "--seed", 1, "--policy", "random", "--policy", "greedy")
    assert result.exit_code == 2
    assert result.stderr == "bkref: error: --policy is given 2 times; give it once (every seat) or once per seat (3)\n"


def test_load_finds_the_bundled_policies_by_name() -> None:
    assert load("random").__name__ == "random_policy"
    assert load("greedy").__name__ == "greedy_policy"
    with pytest.raises(PolicyError, match="--policy must be random, greedy"):
        load("smart")
