"""``bkref tournament`` and ``simulate --games`` as runs: schedules, seat streams, resume, processes.

The standings they print are tested in ``test_tournament.py``; here, what the runner plays
and writes.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bkref.bots.simulate import PLAYER_IDS, play, shuffled_deck, simulate, to_jsonl
from bkref.bots.tournament import Bot, schedule, seed_deals
from bkref.game.events import Pick
from tests.conftest import BKREF_COMMAND, ROOT
from tests.test_bots import processes_in

BOTS = [Bot("new", "greedy"), Bot("old", "random")]


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def metas(folder: Path) -> list[dict]:
    return [json.loads(p.read_text().splitlines()[0])["meta"] for p in sorted(folder.glob("*.jsonl"))]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bots", [1, 2, 3])
def test_rotate_seats_every_bot_in_every_seat_of_every_deal(players: int, bots: int) -> None:
    names = ["a", "b", "c"][: min(bots, players)]
    seats = [names[i % len(names)] for i in range(players)]
    period = next(k for k in range(1, players + 1) if seats[k:] + seats[:k] == seats)  # a, b, a, b: 2
    jobs = schedule("rotate", players, [Bot(name, "random") for name in names], seed_deals(5, 2), None)
    assert len(jobs) == 2 * period  # the distinct rotations: no game played twice
    for deal in (1, 2):
        games = [
            tuple(job.meta["tournament"]["bots"].values()) for job in jobs if job.meta["tournament"]["deal"] == deal
        ]
        assert len(set(games)) == len(games)
        for seat in range(players):  # each seat holds the line-up's bots as often as the line-up does
            assert Counter(game[seat] for game in games) == Counter(seats[:period])
    assert [job.name for job in jobs] == sorted(job.name for job in jobs)


def test_candidate_plays_each_deal_with_the_candidate_in_every_seat_then_the_control() -> None:
    jobs = schedule("candidate", 3, BOTS, seed_deals(1, 2), "new")
    seats = [list(job.meta["tournament"]["bots"].values()) for job in jobs]
    assert seats[:4] == [["new", "old", "old"], ["old", "new", "old"], ["old", "old", "new"], ["old", "old", "old"]]
    assert [job.meta["tournament"]["role"] for job in jobs[:4]] == ["candidate"] * 3 + ["control"]
    assert [job.meta["tournament"]["rotation"] for job in jobs[:4]] == [1, 2, 3, None]
    assert {job.cards == jobs[0].cards for job in jobs[:4]} == {True} and jobs[4].cards != jobs[0].cards
    assert jobs[0].cards == simulate(3, 1)[0].deck  # the deal of seed 1 is simulate --seed 1's deck


def test_random_seats_are_drawn_from_the_deal() -> None:
    one = schedule("random", 4, [Bot(n, "random") for n in "abcd"], seed_deals(1, 8), None)
    two = schedule("random", 4, [Bot(n, "random") for n in "abcd"], seed_deals(1, 8), None)
    assert [j.meta for j in one] == [j.meta for j in two]
    orders = {tuple(j.meta["tournament"]["bots"].values()) for j in one}
    assert len(orders) > 1 and all(sorted(order) == list("abcd") for order in orders)


def test_a_seats_choices_do_not_depend_on_the_other_seats_bots() -> None:
    """Each seat's own stream: bob's and cid's first picks are the same whoever plays ann, who
    picks before them (one shared generator would hand them other draws after greedy's)."""
    deck = shuffled_deck(__import__("random").Random(11))

    def first_picks(events: list) -> list:
        return [e for e in events if isinstance(e, Pick) and e.player != "ann" and (e.round, e.turn) == (1, 1)]

    a = play(dict(zip(PLAYER_IDS, ["random", "random", "random"])), deck, {}, "seed 11")
    b = play(dict(zip(PLAYER_IDS, ["greedy", "random", "random"])), deck, {}, "seed 11")
    assert [e for e in a if isinstance(e, Pick) and e.player == "ann"] != [
        e for e in b if isinstance(e, Pick) and e.player == "ann"
    ]
    assert first_picks(a) == first_picks(b) and len(first_picks(a)) == 2
    again = play(dict(zip(PLAYER_IDS, ["greedy", "random", "random"])), deck, {}, "seed 11")
    assert to_jsonl(again) == to_jsonl(b)
    other_deal = play(dict(zip(PLAYER_IDS, ["greedy", "random", "random"])), deck, {}, "seed 12")
    assert to_jsonl(other_deal) != to_jsonl(b)  # the stream is the deal's


def test_a_bot_against_itself_plays_the_control_game_again_move_for_move(bkref, tmp_path: Path) -> None:
    made = bkref(
        "tournament", "--players", 3, "--bot", "a=random", "--bot", "b=random", "--schedule", "candidate",
        "--candidate", "a", "--deals", 3, "-o", tmp_path / "t", "--format", "json",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    logs = sorted((tmp_path / "t").glob("*.jsonl"))
    events = [p.read_text().splitlines()[1:] for p in logs]  # all but the game event (its meta names the bots)
    for deal in range(3):
        games = events[deal * 4 : deal * 4 + 4]
        assert all(game == games[-1] for game in games)  # each candidate game is the control game
    report = json.loads(made.stdout)
    assert report["difference"]["mean"] == 0
    assert report["difference"]["interval"]["low"] == report["difference"]["interval"]["high"] == 0


def test_the_logs_are_legal_and_say_their_place_in_the_schedule(bkref, tmp_path: Path) -> None:
    made = bkref("tournament", "--players", 4, "--bot", "g=greedy", "--bot", "r=random", "--deals", 2, "-o", tmp_path)
    assert made.exit_code == 0, made.stderr
    assert bkref("validate", "-q", tmp_path).exit_code == 0
    meta = metas(tmp_path)
    assert [m["tournament"]["game"] for m in meta] == list(range(1, 5))  # g, r, g, r: two rotations a deal
    assert [m["seed"] for m in meta] == [1, 1, 2, 2]
    assert meta[1]["tournament"]["bots"] == {"ann": "r", "bob": "g", "cid": "r", "dee": "g"}
    assert meta[1]["tournament"]["policies"] == {"r": "random", "g": "greedy"}
    held = json.loads((tmp_path / "tournament.json").read_text())
    assert held["ended"] == "deals" and held["bots"] == {"g": "greedy", "r": "random"}
    again = bkref("standings", tmp_path)
    assert again.stdout == made.stdout  # the same report from the folder


def test_processes_write_the_same_files(bkref, tmp_path: Path) -> None:
    args = ["tournament", "--players", 2, "--bot", "g=greedy", "--bot", "r=random", "--deals", 5]
    one = bkref(*args, "-o", tmp_path / "one")
    two = bkref(*args, "-j", 2, "-o", tmp_path / "two")
    assert one.exit_code == two.exit_code == 0
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert one.stdout == two.stdout


def test_existing_files_are_kept_with_resume_replayed_with_force_and_else_refused(bkref, tmp_path: Path) -> None:
    args = ["tournament", "--players", 2, "--bot", "g=greedy", "--bot", "r=random", "--deals", 3, "-o", tmp_path]
    assert bkref(*args).exit_code == 0
    before = files(tmp_path)
    refused = bkref(*args)
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"bkref: error: {tmp_path / 'tournament.json'} exists: --resume goes on with its tournament, "
        "--force plays a new one over it\n"
    )
    game = sorted(tmp_path.glob("game-*.jsonl"))[2]
    game.write_text(game.read_text().replace('"type":"end"', '"type":"end" '))  # the same game, but for a space
    (tmp_path / sorted(tmp_path.glob("game-*.jsonl"))[4].name).unlink()
    resumed = bkref(*args, "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stderr == ""  # a space in a line changes no event: the game is kept, as it is
    assert files(tmp_path)[game.name] != before[game.name]
    game.write_text(game.read_text().replace('"player":"ann"', '"player":"bob"', 1))  # now an illegal log
    resumed = bkref(*args, "--resume")
    assert resumed.stderr == f"bkref: playing {game} again: it is not a legal, complete game\n"
    assert files(tmp_path) == before
    other = bkref(*args[:-2], "--deals", 4, "-o", tmp_path, "--resume")
    assert other.exit_code == 2 and other.stderr == (
        f"bkref: error: {tmp_path / 'tournament.json'} is another tournament: --deals differs (it was 3, now 4); "
        "--resume goes on only with the same one\n"
    )
    other = bkref(*args[:6], "r=greedy", *args[7:], "--resume")
    assert "--bot differs (it was g=greedy r=random, now g=greedy r=greedy)" in other.stderr
    assert bkref(*args, "--force").exit_code == 0 and files(tmp_path) == before


def test_resume_plays_again_a_game_whose_deck_is_not_the_deals_any_more(bkref, tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "d.jsonl").write_text(to_jsonl(simulate(2, 3)[:1]))
    args = ["tournament", "--players", 2, "--bot", "a=random", "--deck", decks / "d.jsonl", "-o", tmp_path / "t"]
    assert bkref(*args).exit_code == 0
    (decks / "d.jsonl").write_text(to_jsonl(simulate(2, 4)[:1]))  # the same path, another deck
    resumed = bkref(*args, "--resume")
    assert resumed.exit_code == 0
    assert resumed.stderr.count("again: it is another game (its seats or its deck)") == 1
    assert {
        json.loads(p.read_text().splitlines()[0])["deck"] == simulate(2, 4)[0].deck
        for p in (tmp_path / "t").glob("*.jsonl")
    } == {True}


def test_force_refuses_a_folder_holding_another_tournaments_games(bkref, tmp_path: Path) -> None:
    args = ["tournament", "--players", 2, "--bot", "a=random", "-o", tmp_path]
    assert bkref(*args, "--deals", 3).exit_code == 0
    refused = bkref(*args, "--deals", 1, "--force")
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"bkref: error: {tmp_path} holds games that are not this tournament's "
        "(game-000002-deal-000002-rotation-0.jsonl and 1 more): remove them, or give another folder\n"
    )
    assert json.loads((tmp_path / "tournament.json").read_text())["deals"] == 3  # nothing changed


def test_a_run_refused_writes_nothing(bkref, tmp_path: Path) -> None:
    made = bkref("tournament", "--players", 2, "--bot", "a=nosuch.py:play", "-o", tmp_path / "t")
    assert (made.exit_code, made.stderr) == (2, "bkref: error: policy nosuch.py:play: no such file nosuch.py\n")
    assert not (tmp_path / "t").exists()


def test_a_tournaments_folder_as_decks_deals_each_deck_once(bkref, tmp_path: Path) -> None:
    two = ["tournament", "--players", 2, "--bot", "a=random", "--bot", "b=random"]
    assert bkref(*two, "--deals", 3, "-o", tmp_path / "t").exit_code == 0
    made = bkref(*two, "--deck", tmp_path / "t", "-o", tmp_path / "u")
    assert made.exit_code == 0, made.stderr
    meta = metas(tmp_path / "u")
    assert [m["tournament"]["deal"] for m in meta] == [1, 1, 2, 2, 3, 3]  # 3 decks in 6 logs: 3 deals
    assert sorted({m["deck"] for m in meta}) == [
        str(tmp_path / "t" / n) for n in sorted(os.listdir(tmp_path / "t")) if n.endswith("rotation-0.jsonl")
    ]


def stopped_halfway(args: list[str], folder: Path, signum: int) -> tuple[int, bytes, bytes]:
    """Run ``bkref ARGS -o FOLDER`` and send it ``signum`` once 10 games are written: its
    status, standard output and standard error."""
    run = subprocess.Popen([*BKREF_COMMAND, *args, "-o", str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(folder.glob("game-*.jsonl"))) < 10:
        time.sleep(0.005)
    os.kill(run.pid, signum)
    out, err = run.communicate()
    return run.returncode, out, err


def test_a_run_killed_halfway_then_resumed_ends_byte_for_byte_as_an_uninterrupted_one(tmp_path: Path) -> None:
    args = ["tournament", "--players", "3", "--bot", "g=greedy", "--bot", "r=random", "--deals", "12"]
    whole = subprocess.run([*BKREF_COMMAND, *args, "-o", str(tmp_path / "whole")], capture_output=True, check=True)
    folder = tmp_path / "killed"
    stopped_halfway(args, folder, signal.SIGKILL)
    written = len(list(folder.glob("game-*.jsonl")))
    assert 10 <= written < 36, "the run was to be killed halfway"
    assert json.loads((folder / "tournament.json").read_text())["ended"] is None  # it says it was stopped
    resumed = subprocess.run([*BKREF_COMMAND, *args, "-o", str(folder), "--resume"], capture_output=True, check=True)
    assert files(folder) == files(tmp_path / "whole")
    assert resumed.stdout == whole.stdout


def test_until_confident_stops_when_the_paired_difference_excludes_zero(bkref, tmp_path: Path) -> None:
    made = bkref(
        "tournament", "--players", 2, "--bot", "new=greedy", "--bot", "old=random", "--schedule", "candidate",
        "--candidate", "new", "--deals", 40, "--until-confident", "-o", tmp_path, "--format", "json",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    report = json.loads(made.stdout)
    assert report["ended"] == "until-confident"
    deals = report["difference"]["deals"]
    assert 10 <= deals < 40 and len(list(tmp_path.glob("game-*.jsonl"))) == 3 * deals
    assert report["difference"]["interval"]["low"] > 0
    assert json.loads((tmp_path / "tournament.json").read_text())["ended"] == "until-confident"


def test_deals_from_logs_play_their_decks(bkref, tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    for seed in (3, 4):
        (decks / f"s{seed}.jsonl").write_text(to_jsonl(simulate(2, seed)[:1]))
    made = bkref("tournament", "--players", 2, "--bot", "a=random", "--deck", decks, "-o", tmp_path / "t")
    assert made.exit_code == 0, made.stderr
    meta = metas(tmp_path / "t")
    assert [m["deck"] for m in meta] == [str(decks / "s3.jsonl"), str(decks / "s4.jsonl")]
    first = json.loads(sorted((tmp_path / "t").glob("*.jsonl"))[0].read_text().splitlines()[0])
    assert first["deck"] == simulate(2, 3)[0].deck


def test_bot_programs_play_a_tournament_their_processes_reused(bkref, tmp_path: Path) -> None:
    bot = Path(__file__).parent.parent / "examples" / "bots" / "random_bot.py"
    made = bkref(
        "tournament", "--players", 2, "--bot", f"prog=cmd:{sys.executable} {bot}", "--bot", "g=greedy",
        "--deals", 2, "-o", tmp_path,
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    assert bkref("validate", "-q", tmp_path).exit_code == 0
    meta = metas(tmp_path)
    seats = [next(iter(m["bots"])) for m in meta]  # the program's seat, in each game
    assert seats == ["ann", "bob", "ann", "bob"]
    assert all(m["bots"][seat]["faults"] == [] for m, seat in zip(meta, seats))


def test_a_tournament_of_bot_programs_deals_from_a_seed_no_bot_can_try(bkref, tmp_path: Path) -> None:
    """A deck is the shuffle of its seed: from seeds 1, 2, 3... a bot trying seeds against its
    first hand would find its deal at once. Without --seed, a tournament where a bot program
    plays deals from a seed drawn at random (kept in tournament.json, which --resume goes on
    with); with bundled policies alone, from 1 as ever."""
    bot = Path(__file__).parent.parent / "examples" / "bots" / "random_bot.py"
    program = ["--players", 2, "--bot", f"prog=cmd:{sys.executable} {bot}", "--bot", "g=greedy", "--deals", 2]
    for run in ("a", "b"):
        assert bkref("tournament", *program, "-o", tmp_path / run).exit_code == 0
    seeds = [json.loads((tmp_path / run / "tournament.json").read_text())["seed"] for run in ("a", "b")]
    assert seeds[0] != seeds[1] and min(seeds) >= 2**32  # false once in 2**30 runs
    assert [m["seed"] for m in metas(tmp_path / "a")] == [seeds[0]] * 2 + [seeds[0] + 1] * 2
    played = sorted((tmp_path / "a").glob("*.jsonl"))
    played[-1].unlink()
    resumed = bkref("tournament", *program, "-o", tmp_path / "a", "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert sorted((tmp_path / "a").glob("*.jsonl")) == played
    assert [m["seed"] for m in metas(tmp_path / "a")] == [seeds[0]] * 2 + [seeds[0] + 1] * 2
    bundled = bkref("tournament", "--players", 2, "--bot", "r=random", "--bot", "g=greedy", "-o", tmp_path / "c",
                    "--deals", 1)  # fmt: skip
    assert bundled.exit_code == 0 and json.loads((tmp_path / "c" / "tournament.json").read_text())["seed"] == 1


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--bot", "a"], "--bot must be NAME=POLICY (a name of letters, digits, _ . -), not 'a'"),
        (["--bot", "a=random", "--bot", "a=greedy"], "--bot must be a name given once, not 'a'"),
        (["--bot", "a=random", "--schedule", "swiss"], "--schedule must be rotate, candidate or random, not 'swiss'"),
        (["--bot", "a=random", "--candidate", "z"], "--candidate must be one of the bots (a), not 'z'"),
        (["--bot", "a=random", "--until-confident"], "--until-confident needs --candidate NAME: the run stops on "
         "the candidate's paired difference"),
        (["--bot", "a=random", "--resume", "--force"], "--resume and --force cannot be used together: keep the games "
         "written, or play them again"),
        (["--bot", "a=random", "--bot", "b=random", "--bot", "c=random"],
         "--bot must be given at most 2 times (rotate seats every bot in every game), not 3"),
        (["--bot", "a=cmd:"], "--policy must be cmd: then a command line, not 'cmd:'"),
        (["--bot", "a=cmd:\"x"], "--policy must be cmd: then a command line (No closing quotation), not 'cmd:\"x'"),
        (["--bot", "a=cmd:x\udcff"], "--policy must be text in UTF-8, not 'cmd:x\\udcff'"),
        (["--bot", "a=random", "--seed", "1", "--deck", "x.jsonl"],
         "--seed and --deck cannot be used together: the deals come from seeds or from logs"),
    ],
)  # fmt: skip
def test_bad_options_are_one_line(bkref, tmp_path: Path, args: list[str], error: str) -> None:
    made = bkref("tournament", "--players", 2, *args, "-o", tmp_path / "t")
    assert (made.exit_code, made.stderr) == (2, f"bkref: error: {error}\n")
    assert not (tmp_path / "t").exists()


def test_simulate_games_refuses_to_overwrite_and_resumes(bkref, tmp_path: Path) -> None:
    args = ["simulate", "--games", 3, "--players", 2, "--seed", 5, "-o", tmp_path]
    assert bkref(*args).exit_code == 0
    before = files(tmp_path)
    refused = bkref(*args)
    assert refused.exit_code == 2
    assert refused.stderr.startswith(f"bkref: error: {tmp_path / '2p-seed-000005.jsonl'} exists: --resume")
    (tmp_path / "2p-seed-000006.jsonl").unlink()
    resumed = bkref(*args, "--resume")
    assert (
        resumed.stdout
        == f"wrote 3 games to {tmp_path} (2 kept from before): 2p-seed-000005.jsonl to 2p-seed-000007.jsonl\n"
    )
    assert files(tmp_path) == before
    assert bkref(*args, "--force").exit_code == 0 and files(tmp_path) == before


def without_times(folder: Path) -> dict[str, object]:
    """The files of ``folder``, each game's bot programs' times (``ms``) left out: all that may differ."""
    read: dict[str, object] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix != ".jsonl":
            read[path.name] = path.read_bytes()
            continue
        first, rest = path.read_text().split("\n", 1)
        game = json.loads(first)
        for seat in game["meta"]["bots"].values():
            seat.pop("ms")
        read[path.name] = (game, rest)
    return read


PARENT_BOT = (  # the random example bot, saying first on its standard error which process started it,
    # slow to start: a worker's first game takes long enough for the other worker to take a game too
    "import os, runpy, sys, time\n"
    "sys.stderr.write(f'parent {os.getppid()}\\n')\n"
    "time.sleep(0.3)\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def test_bot_programs_in_two_processes_play_the_games_of_one(tmp_path: Path) -> None:
    """``-j 2`` with bot programs: two worker processes, each starting its own bots, play the games
    ``-j 1`` plays, byte for byte but for the bots' times; each bot process's standard error has a
    file of its own (``--bot-logs``), named by the game it started in, and no bot process is left
    when the run ends."""
    example = Path(__file__).parent.parent / "examples" / "bots" / "random_bot.py"
    (tmp_path / "parent_bot.py").write_text(PARENT_BOT)
    program = f"p=cmd:{sys.executable} {tmp_path / 'parent_bot.py'} {example}"
    args = [
        "tournament",
        "--players",
        "2",
        "--bot",
        program,
        "--bot",
        "g=greedy",
        "--deals",
        "3",
        "--seed",
        "1",
    ]  # one deal in both
    args.append("--unsealed")  # a sealed bot's parent is bwrap, in a process namespace of its own
    one = subprocess.run([*BKREF_COMMAND, *args, "-o", str(tmp_path / "one")], capture_output=True, text=True)
    logs = tmp_path / "logs"
    two = subprocess.run(
        [*BKREF_COMMAND, *args, "-o", str(tmp_path / "two"), "-j", "2", "--bot-logs", str(logs)],
        capture_output=True,
        text=True,
    )
    assert (one.returncode, two.returncode) == (0, 0), two.stderr
    assert two.stdout == one.stdout
    assert without_times(tmp_path / "two") == without_times(tmp_path / "one")
    games = sorted(p.stem for p in (tmp_path / "two").glob("game-*.jsonl"))
    seats = [next(iter(m["bots"])) for m in metas(tmp_path / "two")]  # the program's seat, in each game
    named = {p.name for p in logs.iterdir()}
    assert named <= {f"{s}-p-{g}.log" for s, g in zip(seats, games)} and 2 <= len(named) <= 4  # 2 seats, 2 workers
    parents = {p.read_text().splitlines()[0] for p in logs.iterdir()}
    assert len(parents) == 2  # started by the two workers
    assert processes_in(tmp_path) == []


def bots_running(program: Path) -> list[int]:
    """The interpreters running ``program``: not bkref, which names it in an option, nor bwrap,
    which starts it sealed."""
    running = []
    for pid in processes_in(program):
        with contextlib.suppress(OSError):  # gone meanwhile
            if Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1:2] == [str(program).encode()]:
                running.append(pid)
    return running


def left_behind(program: Path) -> list[int]:
    """Every process that names ``program`` but bkref's own: its interpreters and their bwraps."""
    left = []
    for pid in processes_in(program):
        with contextlib.suppress(OSError):  # gone meanwhile
            if b"tournament" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                left.append(pid)
    return left


@pytest.mark.usefixtures("ctrl_c_as_in_a_terminal")
def test_ctrl_c_stops_bot_programs_in_every_process_and_resume_finishes(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the terminal's whole process group) on ``-j 2`` with bot programs that
    think: bkref ends at once with status 130, no bot process is left in any worker, and
    ``--resume`` ends the folder as an uninterrupted run leaves it."""
    slow = tmp_path / "slow_bot.py"
    example = Path(__file__).parent.parent / "examples" / "bots" / "random_bot.py"
    slow.write_text(f"import time\n{example.read_text().replace('send(move)', 'time.sleep(0.01); send(move)')}")
    args = ["tournament", "--players", "2", "--bot", f"a=cmd:{sys.executable} {slow}", "--bot", "g=greedy"]
    args += ["--deals", "4", "-j", "2", "--seed", "1"]  # the same deals in both runs
    subprocess.run([*BKREF_COMMAND, *args, "-o", str(tmp_path / "whole")], capture_output=True, check=True)
    folder = tmp_path / "stopped"
    run = subprocess.Popen(
        [*BKREF_COMMAND, *args, "-o", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal's foreground job
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(folder.glob("game-*.jsonl")):
        time.sleep(0.01)
    assert len(bots_running(slow)) >= 2  # a bot in each worker (two, where one worker took both games of a deal)
    os.killpg(run.pid, signal.SIGINT)
    assert run.wait(timeout=10) == 130
    assert len(list(folder.glob("game-*.jsonl"))) < 8, "the run was to be stopped halfway"
    assert left_behind(slow) == []
    subprocess.run([*BKREF_COMMAND, *args, "-o", str(folder), "--resume"], capture_output=True, check=True)
    assert without_times(folder) == without_times(tmp_path / "whole")


HAND_BOT = (  # the random example bot, writing on its standard error each game's first hand
    "import json, runpy, sys\n"
    "real = sys.stdin\n"
    "class In:\n"
    "    def __iter__(self):\n"
    "        for line in real:\n"
    "            message = json.loads(line)\n"
    "            if message['type'] == 'hand' and message['round'] == message['turn'] == 1:\n"
    "                print('first hand', sorted(message['cards']), file=sys.stderr, flush=True)\n"
    "            yield line\n"
    "sys.stdin = In()\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


@pytest.mark.parametrize("players", [2, 3])
def test_no_bot_process_is_given_a_deal_it_has_played(tmp_path: Path, players: int) -> None:
    """On the candidate schedule a baseline sits in candidate games and in the control game of
    the same deal: each of its processes is given a deal once (bkbot/1), however many games
    of it the schedule plays, and the games are those of bots that remember nothing."""
    example = Path(__file__).parent.parent / "examples" / "bots" / "random_bot.py"
    (tmp_path / "hand_bot.py").write_text(HAND_BOT)
    base = f"base=cmd:{sys.executable} {tmp_path / 'hand_bot.py'} {example}"
    logs = tmp_path / "logs"
    args = ["tournament", "--players", str(players), "--bot", "c=greedy", "--bot", base, "--schedule", "candidate"]
    args += ["--candidate", "c", "--deals", "3", "-o", str(tmp_path / "t"), "--bot-logs", str(logs)]
    made = subprocess.run([*BKREF_COMMAND, *args], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    seen = [[line for line in p.read_text().splitlines() if line.startswith("first hand")] for p in logs.iterdir()]
    assert sum(map(len, seen)) == 3 * (players * (players - 1) + players)  # every baseline seat of every game
    assert all(len(hands) == len(set(hands)) for hands in seen)  # no process was dealt a hand twice
    assert len(seen) == players * players  # each seat: a process for each game of a deal it sits in


@pytest.mark.usefixtures("ctrl_c_as_in_a_terminal")
def test_ctrl_c_says_how_many_games_are_kept_and_that_resume_goes_on(tmp_path: Path) -> None:
    args = ["tournament", "--players", "3", "--bot", "g=greedy", "--bot", "r=random", "--deals", "12"]
    folder = tmp_path / "stopped"
    status, out, err = stopped_halfway(args, folder, signal.SIGINT)
    kept = len(list(folder.glob("game-*.jsonl")))
    assert 10 <= kept < 36, "the run was to be stopped halfway"
    assert status == 130 and out == b""
    assert err.decode() == (
        f"bkref: stopped: {kept} of 36 games are in {folder} and kept; the same command with --resume goes on\n"
    )
    resumed = subprocess.run([*BKREF_COMMAND, *args, "-o", str(folder), "--resume"], capture_output=True, check=True)
    assert resumed.stderr == b"" and len(list(folder.glob("game-*.jsonl"))) == 36


@pytest.mark.parametrize("tampered", ["copied", "renamed", "stranger", "deleted", "last deleted", "other schedule"])
def test_standings_checks_a_tournament_folder(bkref, tmp_path: Path, tampered: str) -> None:
    """issue 43: a folder tampered with is refused, each problem a line naming its files (exit
    status 2, no standings): a game's log copied over another's, a log renamed as another
    game, a stranger's log added; a game missing from a finished run is a warning only."""
    folder = tmp_path / "t"
    made = bkref("tournament", "--players", "2", "--bot", "g=greedy", "--bot", "r=random", "--deals", 2, "-o", folder)
    assert made.exit_code == 0, made.stderr
    first, second, *_, last = sorted(folder.glob("game-*.jsonl"))
    if tampered == "copied":
        second.write_bytes(first.read_bytes())
        said = f"bkref: error: {first} and {second} are both game 1\n"
        said += f"bkref: error: {second}: its name is not that of game 1 of deal 1 (rotation), as its meta says\n"
    elif tampered == "renamed":
        moved = folder / "game-000009-deal-000005-rotation-0.jsonl"
        first.rename(moved)
        said = f"bkref: error: {moved}: its name is not that of game 1 of deal 1 (rotation), as its meta says\n"
    elif tampered == "stranger":
        shutil.copy(ROOT / "replays" / "2p-ann-bob.jsonl", folder / "game-000005-deal-000003-rotation-0.jsonl")
        said = f"bkref: error: {folder / 'game-000005-deal-000003-rotation-0.jsonl'}: not a game of this tournament"
        said += " (its game event has no meta.tournament)\n"
    elif tampered == "other schedule":  # a game of another tournament of the same bots
        other = tmp_path / "other"
        made = bkref("tournament", "--players", "2", "--bot", "g=greedy", "--bot", "r=random", "--schedule", "random",
                     "--deals", 1, "-o", other)  # fmt: skip
        assert made.exit_code == 0, made.stderr
        (copied,) = other.glob("game-*.jsonl")
        shutil.copy(copied, folder / copied.name)
        said = f"bkref: error: {folder / copied.name}: not a game of this tournament (its meta.tournament says "
        said += "the random schedule; tournament.json the rotate)\n"
    elif tampered == "deleted":
        first.unlink()
        said = "bkref: warning: game 1 is missing, though tournament.json says all 2 deals were played\n"
    else:  # the last game of the last deal: only the number of games tournament.json holds says it
        last.unlink()
        said = "bkref: warning: game 4 is missing, though tournament.json says all 2 deals were played\n"
    result = bkref("standings", folder)
    assert result.stderr == said
    assert (result.exit_code, bool(result.stdout)) == ((0, True) if "deleted" in tampered else (2, False))
