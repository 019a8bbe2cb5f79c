"""``bkref simulate``: complete legal games from a seed, the same bytes every time."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from bkref.bots.simulate import PLAYER_IDS, POLICIES, simulate, to_jsonl
from bkref.game.catalog import BOARD, CARDS
from bkref.game.events import End, Harvest
from bkref.io.referee import check
from tests.conftest import BKREF_COMMAND, ROOT

GENERATED = ROOT / "replays" / "generated"
COMMANDS = [
    shlex.split(line)[1:]
    for line in (GENERATED / "README.md").read_text().splitlines()
    if line.startswith("bkref simulate ")
]
CORPUS = sorted(GENERATED.glob("*.jsonl"))


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_simulated_game_validates_with_exit_0(bkref, tmp_path: Path, players: int, policy: str) -> None:
    path = tmp_path / "game.jsonl"
    made = bkref("simulate", "--players", players, "--seed", 11, "--policy", policy, "-o", path)
    assert (made.exit_code, made.stdout, made.stderr) == (0, "", "")
    result = bkref("validate", path)
    assert result.exit_code == 0, result.stdout
    assert result.stdout == ""
    events = events_of(path)
    assert result.stderr.startswith(f"{path}: legal ({len(events)} events)\n")
    assert check(path).state.complete


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_simulated_game_has_every_part_of_a_game(players: int) -> None:
    events = [json.loads(line) for line in to_jsonl(simulate(players, seed=4)).splitlines()]
    game = events[0]
    assert game["players"] == list(PLAYER_IDS[:players])
    assert sorted(game["deck"]) == sorted(card.id for card in CARDS.values() for _ in range(card.copies))
    assert len(game["deck"]) == 182
    types = [e["type"] for e in events]
    assert (types.count("deal"), types.count("harvest"), types[-1]) == (4, 4, "end")
    turns = {2: 10, 3: 6, 4: 5}[players]
    assert types.count("pick") == 4 * turns * players
    deals = [e for e in events if e["type"] == "deal"]
    assert all(("reserves" in deal) == (players == 2) for deal in deals)
    picks = [e for e in events if e["type"] == "pick"]
    assert all(len(p["keep"]) == (1 if players == 2 else 2) for p in picks)
    assert all(len(p.get("discard", [])) == (1 if players == 2 else 0) for p in picks)


def test_the_same_arguments_give_the_same_bytes(bkref) -> None:
    first = bkref("simulate", "--players", 3, "--seed", 8, "--policy", "greedy")
    second = bkref("simulate", "--players", 3, "--seed", 8, "--policy", "greedy")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout == to_jsonl(simulate(3, seed=8, policy="greedy"))


def test_the_bytes_do_not_depend_on_hash_order(tmp_path: Path) -> None:
    """Two processes with different string hashing write the same game."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        run = subprocess.run(
            [*BKREF_COMMAND, "simulate", "--players", "4", "--seed", "5", "--policy", "greedy"],
            capture_output=True,
            env=env,
            check=True,
            cwd=tmp_path,
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0] == to_jsonl(simulate(4, seed=5, policy="greedy")).encode()


@pytest.mark.parametrize("policy", POLICIES)
def test_different_seeds_give_different_games(policy: str) -> None:
    one, two = simulate(3, seed=1, policy=policy), simulate(3, seed=2, policy=policy)
    assert one[0].deck != two[0].deck
    assert to_jsonl(one[1:]) != to_jsonl(two[1:])


def test_the_policies_play_differently() -> None:
    assert to_jsonl(simulate(2, seed=3, policy="random")[1:]) != to_jsonl(simulate(2, seed=3, policy="greedy")[1:])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_expects_are_the_referees_figures(tmp_path: Path, players: int) -> None:
    events = simulate(players, seed=6, policy="greedy")
    path = tmp_path / "game.jsonl"
    path.write_text(to_jsonl(events))
    report = check(path)
    assert report.diagnostics == []
    state = report.state
    harvests = [e.expect for e in events if isinstance(e, Harvest)]
    assert harvests == [{p: sum(f.carrots for f in h[p]) for p in state.players} for h in state.harvests]
    end = events[-1]
    assert isinstance(end, End) and state.final is not None
    assert end.expect == {p: row.total for p, row in state.final.players.items()}
    assert all(total > 0 for total in end.expect.values())


def test_a_wrong_expect_in_a_simulated_game_is_the_only_problem(tmp_path: Path) -> None:
    lines = to_jsonl(simulate(3, seed=6)).splitlines()
    end = json.loads(lines[-1])
    end["expect"]["bob"] += 1
    lines[-1] = json.dumps(end)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert [(d.line, d.rule) for d in check(path).diagnostics] == [(len(lines), "X1")]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "5", "--seed", "1"], "--players must be 2, 3 or 4"),
        (["--players", "1", "--seed", "1"], "--players must be 2, 3 or 4"),
        (["--players", "three", "--seed", "1"], "--players must be a whole number, not 'three'"),
        (["--players", "3", "--seed", "x"], "--seed must be a whole number, not 'x'"),
        (["--players", "3", "--seed", "-4"], "--seed must be a whole number from 0 up"),
        (
            ["--players", "3", "--seed", "1", "--policy", "clever"],
            "--policy must be random, greedy, mcts, PKG.MODULE:FUNC or path/to/file.py:FUNC",
        ),
        (["--seed", "1"], "--players N is required"),
        (["--players", "2"], "--seed S is required"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(bkref, args: list[str], words: str) -> None:
    result = bkref("simulate", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("bkref: error: ")
    assert words in result.stderr


def test_an_unwritable_output_gives_one_line_and_exit_2(bkref, tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "game.jsonl"
    result = bkref("simulate", "--players", 2, "--seed", 1, "-o", target)
    assert result.exit_code == 2
    assert result.stderr == (
        f"bkref: error: cannot write {target}: the folder {target.parent} does not exist "
        "(bkref makes no folder for -o FILE)\n"
    )
    assert not target.exists()
    folder = bkref("simulate", "--players", 2, "--seed", 1, "-o", tmp_path)
    assert folder.stderr.endswith("it is a folder (one game is written to a file; --games writes to DIR)\n")


def test_no_output_is_written_over_the_log_it_reads(bkref, tmp_path: Path) -> None:
    """``--deck g -o g``, by the same name or through a link, is refused before any game is
    played: the log dealt from is left byte for byte; another output is written."""
    log = tmp_path / "g.jsonl"
    assert bkref("simulate", "--players", 2, "--seed", 3, "-o", log).exit_code == 0
    before = log.read_bytes()
    (tmp_path / "link.jsonl").symlink_to(log)
    for output in (log, tmp_path / "link.jsonl"):
        result = bkref("simulate", "--players", 2, "--seed", 4, "--deck", log, "-o", output)
        assert (result.exit_code, result.stdout) == (2, "")
        said = f"cannot write {output}: it is the input {log} (bkref writes no output over what it reads)"
        assert result.stderr == f"bkref: error: {said}\n"
        assert log.read_bytes() == before
    other = bkref("simulate", "--players", 2, "--seed", 4, "--deck", log, "-o", tmp_path / "other.jsonl")
    assert other.exit_code == 0
    assert (
        json.loads((tmp_path / "other.jsonl").read_text().splitlines()[0])["deck"]
        == json.loads(before.splitlines()[0])["deck"]
    )


def test_the_deck_is_read_as_validate_reads_a_log(bkref, tmp_path: Path) -> None:
    """A log whose game event follows a comment, a blank line or a byte order mark deals its
    deck; one whose game event has none says so, naming its line."""
    source = tmp_path / "g.jsonl"
    assert bkref("simulate", "--players", 2, "--seed", 3, "-o", source).exit_code == 0
    dealt = json.loads(source.read_text().splitlines()[0])["deck"]
    for before in (b"# a comment\n", b"\n", b"\xef\xbb\xbf"):
        (tmp_path / "led.jsonl").write_bytes(before + source.read_bytes())
        made = bkref("simulate", "--players", 2, "--seed", 9, "--deck", tmp_path / "led.jsonl")
        assert made.exit_code == 0, made.stderr
        assert json.loads(made.stdout.splitlines()[0])["deck"] == dealt
    example = ROOT / "replays" / "worked-example.jsonl"
    refused = bkref("simulate", "--players", 2, "--seed", 1, "--deck", example)
    assert refused.exit_code == 2
    line = next(n for n, text in enumerate(example.read_text().splitlines(), 1) if text.startswith("{"))
    assert refused.stderr == f"bkref: error: {example}:{line}: the game event gives no deck; --deck needs one\n"


def test_only_bot_programs_under_a_small_seed_are_warned(bkref) -> None:
    quiet = bkref("simulate", "--players", 2, "--seed", 3, "--policy", "greedy")
    assert (quiet.exit_code, quiet.stderr) == (0, "")


# -- the committed corpus ------------------------------------------------------------


def test_the_readme_names_every_generated_game() -> None:
    assert len(COMMANDS) == 12
    assert sorted(Path(args[args.index("-o") + 1]).name for args in COMMANDS) == [p.name for p in CORPUS]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: Path(args[-1]).stem)
def test_each_generated_game_regenerates_byte_for_byte(bkref, tmp_path: Path, args: list[str]) -> None:
    committed = ROOT / args[args.index("-o") + 1]
    target = tmp_path / committed.name
    result = bkref(*args[: args.index("-o")], "-o", target)
    assert result.exit_code == 0
    assert target.read_bytes() == committed.read_bytes()


def test_the_corpus_is_legal(bkref) -> None:
    result = bkref("validate", *CORPUS)
    assert result.exit_code == 0
    assert result.stdout == ""


def test_the_corpus_exercises_every_kind_of_move() -> None:
    seen: set[str] = set()
    for path in CORPUS:
        events = events_of(path)
        camps: set[str] = set()
        for event in events:
            if event["type"] == "build":
                card = CARDS[event["card"]]
                seen.add(card.id if card.id in ("city3", "trading_post") else card.kind)
                if card.requires_terrain:
                    seen.add("on its terrain")
                    assert BOARD[event["at"][0]].terrain == card.requires_terrain
                if card.kind == "camp":
                    camps.add(event["at"][0])
            elif event["type"] in ("pick", "draw"):
                if camps & set(event.get("keep", event.get("cards", []))):
                    seen.add("camp taken (P1)")
                if event.get("discard"):
                    seen.add("discard")
                if event["type"] == "draw":
                    seen.add("draw")
            elif event.get("trading_posts") or event.get("copies"):
                seen.add(f"{event['type']} choices")
        for rnd in range(1, 5):
            order = [
                CARDS[e["card"]].priority
                for e in events
                if e["type"] == "build" and e["round"] == rnd and e["card"].startswith("camp")
            ]
            assert order == sorted(order), (path.name, rnd)
    assert seen == {
        "city",
        "city3",
        "farm",
        "trading_post",
        "on its terrain",
        "camp",
        "sky_tower",
        "camp taken (P1)",
        "discard",
        "draw",
        "harvest choices",
        "end choices",
    }


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_greedy_harvests_more_than_random(players: int, seed: int) -> None:
    def harvested(policy: str) -> int:
        events = events_of(GENERATED / f"{players}p-seed{seed}-{policy}.jsonl")
        return sum(sum(e["expect"].values()) for e in events if e["type"] == "harvest")

    assert harvested("greedy") > harvested("random")


# -- many games: simulate --games ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "policies", "jobs"), [(2, ["greedy", "random"], "1"), (3, ["random"], "1"), (4, ["random"], "2")]
)
def test_games_are_the_concatenation_of_single_runs(
    bkref, tmp_path: Path, players: int, policies: list[str], jobs: str
) -> None:
    chosen = [arg for policy in policies for arg in ("--policy", policy)]
    made = bkref(
        "simulate", "--games", 3, "--seed", 8, "--players", players, *chosen, "-j", jobs, "-o", tmp_path / "games"
    )
    names = [f"{players}p-seed-{seed:06d}.jsonl" for seed in (8, 9, 10)]
    assert made.exit_code == 0, made.stderr
    assert made.stdout == f"wrote 3 games to {tmp_path / 'games'}: {names[0]} to {names[-1]}\n"
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == sorted(names)
    singles = "".join(bkref("simulate", "--seed", seed, "--players", players, *chosen).stdout for seed in (8, 9, 10))
    assert "".join((tmp_path / "games" / name).read_text() for name in names) == singles


def test_games_need_a_folder(bkref, tmp_path: Path) -> None:
    no_folder = bkref("simulate", "--games", 2, "--seed", 1, "--players", 2)
    assert (no_folder.exit_code, no_folder.stdout) == (2, "")
    assert no_folder.stderr == "bkref: error: --games writes one file per game: give the folder with -o DIR\n"
    (tmp_path / "file").write_text("")
    on_a_file = bkref("simulate", "--games", 2, "--seed", 1, "--players", 2, "-o", tmp_path / "file")
    assert on_a_file.exit_code == 2
    assert on_a_file.stderr == (
        f"bkref: error: -o {tmp_path / 'file'} is a file: --games writes one file per game into a folder; give -o DIR\n"
    )
    one_game = bkref("simulate", "--seed", 1, "--players", 2, "-j", 2)
    assert (one_game.exit_code, one_game.stderr) == (
        2,
        "bkref: error: -j is for --games: one game is played in one process\n",
    )


def test_games_make_the_folder_asked_for_but_not_its_parents(bkref, tmp_path: Path) -> None:
    result = bkref("simulate", "--games", 1, "--seed", 1, "--players", 2, "-o", tmp_path / "missing" / "games")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"bkref: error: cannot make the folder {tmp_path / 'missing' / 'games'}: ")
    assert not (tmp_path / "missing").exists()
