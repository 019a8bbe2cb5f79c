"""``bkref bot POLICY`` (issue 46): any Python policy as a ``bkbot/1`` program, playing as the policy does."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import time
from pathlib import Path

import pytest

from bkref.bots.mcts import mcts_within
from bkref.bots.sealing import Seal
from bkref.bots.seats import BotOptions, asked
from bkref.bots.serve import state_of
from bkref.bots.simulate import simulate, to_jsonl
from bkref.game.engine import State
from bkref.game.events import End
from bkref.game.knowledge import view
from bkref.io.referee import check
from tests.conftest import BKREF_COMMAND

TRUSTED = BotOptions(ms=5000, seal=Seal(sealed=False))
"""bkref's own bot program, run unsealed: it needs the checkout's venv."""


def program(policy: str, *options: str) -> str:
    return "cmd:" + shlex.join([*BKREF_COMMAND, "bot", policy, *options])


def decisions(players: int, seed: int):
    """Every decision of a simulated game: the state and the player asked."""
    state = State()
    for event in simulate(players, seed=seed):
        state.play(event)
        due = state.due()
        if due.kind in ("pick", "build", "end"):
            for player in state.players if due.kind == "build" else due.players:
                yield state, player


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_state_rebuilt_from_a_view_shows_the_same_view(players: int) -> None:
    """At every decision of a game, the view of the rebuilt state is the view it was built from,
    field for field, and the policies play on it."""
    checked = 0
    for state, player in decisions(players, seed=players):
        seen = view(state, player).struct()
        rebuilt = state_of(seen)
        assert view(rebuilt, player).struct() == seen
        _, moves = asked(state.legal_moves(player))
        if moves != [None] and checked % 25 == 0:  # a sampled world plays on as any state does
            assert mcts_within(time.monotonic() + 0.05)(view(rebuilt, player), moves, random.Random(1)) in moves
        checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("name", "views", "games"),
    [("greedy", "whole", ((2, 3), (4, 8))), ("greedy", "patch", ((3, 5), (4, 8))), ("mcts", "whole", ((2, 3),))],
)
def test_a_policy_as_a_program_plays_the_game_it_plays_in_python(tmp_path: Path, name: str, views: str, games) -> None:
    """``bkref bot greedy`` (``mcts``, with time to spare: all its rollouts) in ann's seat gives the
    game that the policy, drawing from the generator the program seeds from the game message's
    seed, gives in Python: byte for byte; so does ``bkref bot greedy --views patch``, which
    rebuilds each view from the patches it is sent."""
    seeded = tmp_path / "seeded.py"
    seeded.write_text(
        "import random\nfrom bkref.bots.bundled import BUNDLED\nfrom bkref.bots.seats import bot_seed\n"
        "RNG = random.Random(bot_seed('ann'))\n\n\ndef play(view, moves, rng):\n"
        f"    return BUNDLED[{name!r}](view, moves, RNG)\n"
    )
    for players, seed in games:
        others = ["greedy"] * (players - 1)
        played = simulate(players, seed, [program(name, "--views", views), *others], bots=TRUSTED)
        python = simulate(players, seed, [f"{seeded}:play", *others], seat_streams=True)
        assert to_jsonl(played[1:]) == to_jsonl(python[1:])
        assert played[0].meta["bots"]["ann"]["faults"] == []
        assert played[0].meta["bots"]["ann"]["name"] == name
        (tmp_path / "game.jsonl").write_text(to_jsonl(played))
        assert check(tmp_path / "game.jsonl").status == 0


def test_mcts_as_a_program_answers_well_inside_a_tiny_time(tmp_path: Path) -> None:
    """With 100 ms a decision (mcts takes 150 to 300 ms for its rollouts), ``bkref bot mcts``
    stops its search at half of it: a whole game without a fault."""
    played = simulate(2, 5, [program("mcts"), "random"], bots=BotOptions(ms=100, seal=Seal(sealed=False)))
    assert played[0].meta["bots"]["ann"]["faults"] == []
    assert isinstance(played[-1], End)
    (tmp_path / "game.jsonl").write_text(to_jsonl(played))
    assert check(tmp_path / "game.jsonl").status == 0


def test_mcts_with_a_rollout_budget_the_same_seed_the_same_game(tmp_path: Path) -> None:
    budget = tmp_path / "budget.py"
    budget.write_text("from bkref.bots.mcts import mcts_with\n\nplay = mcts_with(8)\n")
    games = [to_jsonl(simulate(2, 6, [f"{budget}:play", "greedy"])) for _ in range(2)]
    assert games[0] == games[1]


@pytest.mark.parametrize(
    ("policy", "says"),
    [
        ("smart", "bkref: error: policy must be random, greedy, mcts, PKG.MODULE:FUNC or path/to/file.py:FUNC"),
        ("missing.py:play", "bkref: error: policy missing.py:play: no such file missing.py"),
    ],
)
def test_an_unknown_policy_is_one_line_and_status_2(policy: str, says: str) -> None:
    done = subprocess.run([*BKREF_COMMAND, "bot", policy], input=b"", capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and done.stderr.decode().startswith(says)


def test_it_answers_hello_and_ends_at_quit() -> None:
    lines = b'{"type":"hello","protocol":"bkbot/1"}\n{"type":"quit"}\n{"type":"hello","protocol":"bkbot/1"}\n'
    done = subprocess.run([*BKREF_COMMAND, "bot", "random"], input=lines, capture_output=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and replies == [
        {"type": "hello", "protocol": "bkbot/1", "name": "random", "version": replies[0]["version"]}
    ]
    bad = subprocess.run([*BKREF_COMMAND, "bot", "random"], input=b"{}\n", capture_output=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1
