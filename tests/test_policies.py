"""Policies as plug-ins: ``bkref simulate --policy``, once for all seats or once per seat."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from bkref.bots.bundled import BUNDLED, load
from bkref.bots.errors import OptionError, PolicyError
from bkref.bots.policies import Choice
from bkref.bots.simulate import simulate, to_jsonl
from bkref.game import moves
from bkref.game.engine import State
from bkref.game.events import Pick
from bkref.game.knowledge import View
from bkref.io.referee import check

FIRST = """
def first(view, moves, rng):
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
            "raised RuntimeError: out of ideas ({dir}/bots.py:2) at ann's pick in round 1, turn 1 (event 3)",
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
    with pytest.raises(OptionError) as raised:
        load("smart")
    assert (raised.value.parameter, raised.value.value) == ("policy", "smart")
    assert (
        str(raised.value) == "policy must be random, greedy, mcts, PKG.MODULE:FUNC or path/to/file.py:FUNC, not 'smart'"
    )


@pytest.mark.parametrize(
    ("args", "fields", "words"),
    [
        ((5, 1), ("players", 5), "players must be 2, 3 or 4, not 5"),
        ((3, -1), ("seed", -1), "seed must be a whole number from 0 up, not -1"),
        (
            (3, 1, ["random", "greedy"]),
            ("policy", 2),
            "policy must be 1 or 3 policies (one for every seat, or one per seat), not 2",
        ),
    ],
)
def test_the_library_speaks_of_its_own_parameters(args: tuple, fields: tuple, words: str) -> None:
    """``bkref.bots.simulate(5, 1)`` names ``players``, as the function does, not the command's --players."""
    with pytest.raises(OptionError) as raised:
        simulate(*args)
    assert (raised.value.parameter, raised.value.value) == fields
    assert str(raised.value) == words


HELPER = """import json
def helper(text):
    return json.loads(text)
def first(view, moves, rng):
    raise ValueError("two" + chr(10) + "lines" + chr(27) + "[2J")
def deep(state, moves, rng):
    return helper("{")
"""


def test_a_policy_that_raises_is_named_at_its_own_line_in_one_line(bkref, tmp_path: Path) -> None:
    """The deepest frame in the policy's file, also when what raised is in another module;
    a message holding a line break or an escape sequence stays one line, escaped."""
    bots = write(tmp_path, "bots.py", HELPER)
    result = bkref("simulate", "--players", 2, "--seed", 1, "--policy", f"{bots}:first")
    assert result.stderr == (
        f"bkref: error: policy {bots}:first raised ValueError: two\\nlines\\x1b[2J ({bots}:5) "
        "at ann's pick in round 1, turn 1 (event 3)\n"
    )
    deep = bkref("simulate", "--players", 2, "--seed", 1, "--policy", f"{bots}:deep")
    json_error = "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    assert f"raised {json_error} ({bots}:3) " in deep.stderr
    assert deep.exit_code == 2


def test_debug_prints_the_policys_traceback_then_the_line(bkref, tmp_path: Path) -> None:
    bots = write(tmp_path, "bots.py", HELPER)
    args = ("simulate", "--players", 2, "--seed", 1, "--policy", f"{bots}:deep")
    plain, debug = bkref(*args), bkref(*args, "--debug")
    assert "Traceback" not in plain.stderr
    trace, line = debug.stderr.rstrip("\n").rsplit("\n", 1)
    assert trace.startswith("Traceback (most recent call last):\n")
    assert f'File "{bots}", line 7, in deep\n' in trace and f'File "{bots}", line 3, in helper\n' in trace
    assert trace.endswith(
        "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert line + "\n" == plain.stderr
    assert debug.exit_code == plain.exit_code == 2


def test_debug_across_processes(bkref, tmp_path: Path) -> None:
    """With --games -j 2 the policy raises in another process: its traceback still comes back."""
    bots = write(tmp_path, "bots.py", HELPER)
    result = bkref(
        "simulate",
        "--players",
        2,
        "--seed",
        1,
        "--games",
        2,
        "-j",
        2,
        "-o",
        tmp_path / "cup",
        "--policy",
        f"{bots}:deep",
        "--debug",
    )
    assert result.exit_code == 2
    assert f'File "{bots}", line 3, in helper\n' in result.stderr
    assert result.stderr.splitlines()[-1].startswith(f"bkref: error: policy {bots}:deep raised JSONDecodeError")


NOISY = """print("loading...")
def play(view, moves, rng):
    print("thinking...", view.player, view.round, view.turn, len(view.hand), view.deck)
    return moves[-1]
"""


def test_what_a_policy_prints_goes_to_standard_error_never_into_the_log(tmp_path: Path) -> None:
    """``bkref simulate ... --policy noisy.py:play | bkref validate -`` reads only the log."""
    noisy = write(tmp_path, "noisy.py", NOISY)
    made = subprocess.run(
        [sys.executable, "-m", "bkref", "simulate", "--players", "2", "--seed", "1", "--policy", f"{noisy}:play"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    assert made.stderr.startswith("loading...\nthinking... ann 1 1 11 ")
    checked = subprocess.run(
        [sys.executable, "-m", "bkref", "validate", "-"], input=made.stdout, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout


def test_a_policy_is_given_the_players_view_not_the_state(tmp_path: Path) -> None:
    source = (
        "from bkref.game.knowledge import View\n"
        "def play(view, moves, rng):\n"
        "    assert type(view) is View and not hasattr(view, 'hands') and not hasattr(view, 'play')\n"
        "    assert getattr(moves[0], 'player', view.player) == view.player == 'bob'  # bob's own\n"
        "    return moves[0]\n"
    )
    spec = f"{write(tmp_path, 'viewer.py', source)}:play"
    events = simulate(3, seed=2, policy=["random", spec, "random"])
    assert check(write(tmp_path, "g.jsonl", to_jsonl(events))).status == 0


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("moves[0].keep.append('A1')\n    return moves[0]", "changed the legal moves it was given at ann's pick"),
        ("moves.clear()\n    return None", "returned None, which is not one of the 66 legal moves"),
        ("raise SystemExit(3)", "raised SystemExit: 3 ({path}:2) at ann's pick"),
    ],
)
def test_a_policy_cannot_change_the_game(bkref, tmp_path: Path, body: str, words: str) -> None:
    """Changing a move it was given or the list, or exiting: one error line, exit 2."""
    path = write(tmp_path, "bad.py", f"def play(view, moves, rng):\n    {body}\n")
    result = bkref("simulate", "--players", 3, "--seed", 1, "--policy", f"{path}:play", "-o", tmp_path / "g.jsonl")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert words.format(path=path) in result.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_a_build_a_policy_changed_is_not_listed_again(tmp_path: Path) -> None:
    """The builds of a player's card are kept for the next listing (``moves.builds``): a
    policy that changes one is refused, and the same game played next lists them unchanged."""
    first = "def play(view, moves, rng):\n    return moves[0]\n"
    changing = first.replace(
        "    return", "    if hasattr(moves[0], 'at'):\n        moves[0].at[0] = 'J10'\n    return"
    )
    fine = f"{write(tmp_path, 'first.py', first)}:play"
    bad = f"{write(tmp_path, 'bad.py', changing)}:play"
    played = to_jsonl(simulate(3, seed=1, policy=fine))
    with pytest.raises(PolicyError, match="changed the legal moves it was given at the construction"):
        simulate(3, seed=1, policy=bad)
    assert to_jsonl(simulate(3, seed=1, policy=fine)) == played


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_the_bundled_policies_print_nothing_and_change_nothing_they_are_given(
    name: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """``simulate`` trusts them not to: it checks only a user's policy after each decision,
    and sends only a user's policy's prints to standard error. Each decision of seeded
    games, with one stream and a stream per seat, 2 to 4 players."""
    policy = BUNDLED[name]
    kept = []

    def checked(view: View, options: Sequence[Choice], rng: random.Random) -> Choice:
        before = msgspec.json.encode(options)
        move = policy(view, options, rng)
        kept.append(msgspec.json.encode(options) == before)
        return move

    monkeypatch.setitem(BUNDLED, name, checked)  # every decision asked of it, none taken without it
    assert load(name) is checked
    for players in (2, 3, 4):
        for streams in (False, True):
            simulate(players, players, name, seat_streams=streams)
    assert len(kept) > 500
    assert all(kept)
    assert capfd.readouterr() == ("", "")
