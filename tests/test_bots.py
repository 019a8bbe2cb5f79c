"""Bot programs (``bkbot/1``, docs/bot-protocol.md): real subprocesses, every fault kind, no process left behind.

Each bot here is a tiny Python program written into the test's folder; its command line
holds that folder, so ``processes_in`` finds any process of the test still running.
Run ``python -m tests.test_bots`` to rewrite ``schemas/bkbot-1.schema.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import jsonschema
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bkref.bots import program as programs
from bkref.bots.engine import Engine
from bkref.bots.program import BotFault
from bkref.bots.protocol import merge_patch, merged, protocol_schema
from bkref.bots.sealing import Limits, Seal, _unreadable
from bkref.bots.seats import BotOptions, command_of
from bkref.bots.simulate import simulate, to_jsonl
from bkref.bots.tournament import run, simulate_jobs
from bkref.game import moves
from bkref.game.engine import State
from bkref.io.batch import Local
from bkref.io.referee import check
from tests.conftest import BKREF_COMMAND, ROOT
from tests.test_properties import BOUNDED

SCHEMA_FILE = ROOT / "schemas" / "bkbot-1.schema.json"
TRUSTED = Seal(sealed=False)
"""The test's own bots, which note what they are sent in the test's folder: unsealed, as an
organiser runs trusted bots (sealed, a bot writes nowhere: ``test_each_fault_kind_sealed``)."""
FAST = BotOptions(ms=200, max_faults=3, seal=TRUSTED)
"""For the bots that are to fault by their time: a timeout costs 0.25 s."""
SAFE = BotOptions(ms=5000, seal=TRUSTED)
"""For the bots that are not to fault: even on a loaded machine they answer in time (no flaky timeouts)."""

# A bot: answers hello, then each decision with the index ``choose(message, count)`` gives
# (None: no reply); ``count`` is the number of decisions so far in this process.
BOT = """import json, os, sys
LOG = {log!r}
HELLO = {hello!r}
count = 0
def out(m):
    sys.stdout.write(json.dumps(m) + "\\n"); sys.stdout.flush()
{body}
for line in sys.stdin:
    m = json.loads(line)
    if LOG:
        with open(LOG, "a") as f:
            f.write(json.dumps({{"pid": os.getpid(), "message": m}}) + "\\n")
    if m["type"] == "hello":
        out({{"type": "hello", "protocol": "bkbot/1", "name": "t", "version": "0", **HELLO}})
    elif m["type"] == "decide":
        count += 1
        index = choose(m, count)
        if index is not None:
            out({{"type": "move", "id": m["id"], "index": index}})
    elif m["type"] == "quit":
        break
"""
LAST = "def choose(m, count):\n    return len(m['moves']) - 1\n"


def bot(folder: Path, body: str, name: str = "bot.py", log: Path | None = None, hello: dict | None = None) -> str:
    """A bot of ``body`` (see ``BOT``) written as ``name`` in ``folder``, noting what it is sent in
    ``log``; ``hello`` holds fields its hello adds (``views``)."""
    path = folder / name
    path.write_text(BOT.format(body=body, log=str(log) if log else "", hello=hello or {}))
    return f"cmd:{sys.executable} {path}"


def bot_running(folder: Path) -> bool:
    """Whether the bot of ``folder`` is running itself: a process whose script is there (not
    bkref, which names it in an option, nor bwrap, which starts it, sealed)."""
    for pid in processes_in(folder):
        with contextlib.suppress(OSError):
            if b"".join(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1:2]).startswith(str(folder).encode()):
                return True
    return False


def processes_in(folder: Path) -> list[int]:
    """The processes whose command line names ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(folder).encode() in command and int(entry.name) != os.getpid():
                found.append(int(entry.name))
    return found


@pytest.fixture
def folder(tmp_path: Path):
    yield tmp_path
    assert processes_in(tmp_path) == [], "a bot process outlived its game"


def faults(events, seat: str = "ann") -> list[str]:
    return [f["kind"] for f in events[0].meta["bots"][seat]["faults"]]


def legal(folder: Path, events) -> bool:
    path = folder / "game.jsonl"
    path.write_text(to_jsonl(events))
    return check(path).status == 0


def test_a_program_and_the_same_logic_as_a_python_policy_give_the_same_game(folder: Path) -> None:
    (folder / "last.py").write_text("def play(view, moves, rng):\n    return moves[-1]\n")
    program = simulate(2, 4, [bot(folder, LAST), "random"], bots=SAFE)
    python = simulate(2, 4, [f"{folder / 'last.py'}:play", "random"], seat_streams=True)
    assert to_jsonl(program[1:]) == to_jsonl(python[1:])
    assert program[0].deck == python[0].deck
    assert program[0].meta["bots"]["ann"]["faults"] == [] and program[0].meta["bots"]["ann"]["name"] == "t"
    assert legal(folder, program)


def test_a_bot_asking_for_views_as_patches_or_none_gets_the_same_game_and_every_view(folder: Path) -> None:
    """The hello's ``views`` (issue 42, the lean protocol). A bot that does not ask is sent each
    decision as before the option: no ``patch``, the view whole. One that asks ``patch`` is sent
    the same moves, the game's first view whole and each later one as a merge patch whose
    application gives the view the first bot was sent, in a fraction of the bytes; one that asks
    ``none`` no view. All three games are the same, over the 2 games one process plays."""
    received, games = {}, {}
    for views in ("whole", "patch", "none"):
        log = folder / f"{views}.jsonl"
        spec = bot(folder, LAST, f"{views}.py", log, None if views == "whole" else {"views": views})
        played = run(simulate_jobs(3, 4, [spec, "random", "random"], 2), Local(), SAFE)
        games[views] = [log.splitlines()[1:] for _, log in played]  # the game event names the bot
        received[views] = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    assert games["patch"] == games["whole"] == games["none"]
    decides = {views: [m for m in messages if m["type"] == "decide"] for views, messages in received.items()}
    assert {tuple(d) for d in decides["whole"]} == {("type", "id", "kind", "moves", "view", "ms")}
    seen, views = None, []
    for decide in decides["patch"]:
        seen = decide["view"] if decide["view"] is not None else merged(seen, decide["patch"])
        views.append(seen)
    assert views == [d["view"] for d in decides["whole"]]
    assert [d["moves"] for d in decides["patch"]] == [d["moves"] for d in decides["whole"]]
    assert sum(d["view"] is not None for d in decides["patch"]) == 2  # each game's first
    bytes_of = {views: sum(len(json.dumps(d)) for d in found) for views, found in decides.items()}
    assert bytes_of["none"] < bytes_of["patch"] < 0.75 * bytes_of["whole"]
    assert all(d["view"] is None and "patch" not in d for d in decides["none"])
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    assert all(validator.is_valid(m) for messages in received.values() for m in messages)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from([0.0, 1.0]) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=4),
    max_leaves=12,
)


@BOUNDED
@given(st.dictionaries(st.sampled_from("abcde"), JSON_VALUES), st.dictionaries(st.sampled_from("abcde"), JSON_VALUES))
def test_a_merge_patch_applied_gives_the_object_it_was_made_for(before: dict, after: dict) -> None:
    """``merge_patch``'s patch, applied (``merged``, RFC 7386), turns one JSON object into the
    other; None (and a whole view sent instead) only when a member of the new one is null at some
    depth of objects (a patch's null removes a member)."""
    patch = merge_patch(before, after)
    if patch is None:  # a null member, which no patch can set: nor can one make the whole object from nothing
        assert merged({}, after) != after
    else:  # the same JSON (Python's == takes 1, 1.0 and true for one value)
        assert json.dumps(merged(before, patch), sort_keys=True) == json.dumps(after, sort_keys=True)


def test_a_bot_s_info_fills_no_more_of_the_log_than_a_log_line_holds(folder: Path) -> None:
    """Four seats answering with 16 KiB of ``info`` each decision: the game's log keeps 128 KiB of
    each, counts the rest (``info_dropped``), and stays a log bkref reads (its lines within 1 MiB)."""
    body = "def choose(m, count):\n    out({'type': 'move', 'id': m['id'], 'index': 0, 'info': 'x' * 16000})\n"
    events = simulate(4, 1, [bot(folder, body, name=f"bot{n}.py") for n in range(4)], bots=SAFE)
    seats = events[0].meta["bots"]
    assert all(len(s["info"]) == 8 and s["info_dropped"] > 0 for s in seats.values())
    assert len(msgspec.json.encode(events[0])) < 600_000
    assert faults(events) == []
    assert legal(folder, events)


FAULTS = [  # a bot's body, and the fault it makes
    ("def choose(m, count):\n    out('not json'); return None\n", "garbage"),
    ("def choose(m, count):\n    return None if count > 1 else 0\n", "timeout"),
    ("def choose(m, count):\n    out({'type': 'move', 'id': m['id'] + 100, 'index': 0}); return None\n", "id"),
    ("def choose(m, count):\n    return len(m['moves'])\n", "index"),
    ("def choose(m, count):\n    out({'type': 'hello', 'protocol': 'p', 'name': 'x', 'version': ''})\n", "output"),
    ("def choose(m, count):\n    sys.exit(0)\n", "exit"),
    ("def choose(m, count):\n    out('x' * (1 << 20) + 'x'); return 0\n", "garbage"),
    (
        "def choose(m, count):\n    out({'type': 'move', 'id': m['id'], 'index': 0, 'info': 'x' * 17000})\n",
        "garbage",
    ),
    (  # an info nesting 33 deep: the game's log would nest past what a log line may
        "def choose(m, count):\n    deep = []\n    for _ in range(32):\n        deep = [deep]\n"
        "    out({'type': 'move', 'id': m['id'], 'index': 0, 'info': deep})\n",
        "garbage",
    ),
    (  # an order that is not the move's cards: the first kept card twice
        "def choose(m, count):\n    k = m['moves'][0]['keep']\n"
        "    out({'type': 'move', 'id': m['id'], 'index': 0, 'order': [k[0], k[0]]})\n",
        "index",
    ),
]


@pytest.mark.parametrize(("body", "kind"), FAULTS)
def test_each_fault_kind_is_recorded_and_the_fallback_plays_the_game_out(folder: Path, body: str, kind: str) -> None:
    log = folder / "received.jsonl"
    events = simulate(3, 2, [bot(folder, body, log=log), "random", "random"], bots=FAST if kind == "timeout" else SAFE)
    assert faults(events)[:1] == [kind]
    assert len(faults(events)) == 3  # --max-faults: then the fallback plays the seat to the end
    assert legal(folder, events)
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    received = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    told = [m for m in received if m["type"] == "fault"]
    assert all(validator.is_valid(m) for m in received)
    assert [m["kind"] for m in told] == faults(events)[: len(told)] and (told or kind == "exit")


SEALED = pytest.mark.usefixtures("sealing")
"""A test of sealed bots (the fixture ``sealing`` of conftest)."""


@SEALED
def test_a_sealed_bots_setsid_grandchild_ends_with_its_run(folder: Path) -> None:
    """Attack: at its first decision a bot starts a grandchild in a session of its own (out of
    its process group, which bkref kills), which would sleep on after the run. Sealed, it
    ends with the bot's sandbox: no process names the folder once the game is played (the
    ``folder`` fixture checks it too)."""
    body = (
        "import subprocess\n"
        "started = []\n"
        "def choose(m, count):\n"
        "    if not started:\n"
        f"        sleep = [sys.executable, '-c', 'import time; time.sleep(600)', {str(folder)!r}]\n"
        "        started.append(subprocess.Popen(sleep, start_new_session=True))\n"
        "    return 0\n"
    )
    events = simulate(2, 1, [bot(folder, body), "random"], bots=BotOptions(ms=5000))
    assert faults(events) == [] and legal(folder, events)
    assert processes_in(folder) == []


@SEALED
def test_a_sealed_bot_that_takes_6_gib_is_stopped_below_it(folder: Path) -> None:
    """Attack: a bot asks for 6 GiB at its first decision. Its address space is limited
    (``--bot-limit memory``, 4096 MB by default): the allocation fails, the bot dies, and the
    game is played on legally, the deaths recorded as exit faults."""
    body = "def choose(m, count):\n    hog = bytearray(6 << 30)\n    return len(hog) % 1\n"
    events = simulate(2, 1, [bot(folder, body), "random"], bots=BotOptions(ms=5000))
    assert faults(events) == ["exit"] * 3 and legal(folder, events)


CHEAT = (  # a bot that looks everywhere a program can for what its player may not know
    "import json, os, sys\n"
    "def read(path):\n"
    "    try:\n"
    "        return open(path, errors='replace').read()\n"
    "    except OSError as error:\n"
    "        return error.strerror\n"
    "def listing(folder):\n"
    "    found = {}\n"
    "    for here, _, names in os.walk(folder):\n"
    "        for name in names[:60]:\n"
    "            found[os.path.join(here, name)] = read(os.path.join(here, name))[:300]\n"
    "        if len(found) > 60:\n"
    "            break\n"
    "    return found\n"
    "seen = {'memory': [], 'env': dict(os.environ), 'cwd': os.getcwd()}\n"
    "seen['parent'] = read(f'/proc/{os.getppid()}/cmdline')\n"
    "seen['processes'] = {p: read(f'/proc/{p}/cmdline') for p in os.listdir('/proc') if p.isdigit()}\n"
    "seen['files'] = {**listing('.'), **listing('/tmp'), **listing(os.path.expanduser('~')), **listing(OUT)}\n"
    "notes = os.path.join(os.path.expanduser('~'), 'notes.txt')\n"
    "seen['notes'] = read(notes)\n"
    "told = []\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    told.append({k: v for k, v in message.items() if k != 'moves'})  # its own moves: bulky, no news\n"
    "    if message['type'] == 'hello':\n"
    "        print(json.dumps({'type': 'hello', 'protocol': 'bkbot/1', 'name': 'cheat', 'version': '1'}), flush=True)\n"
    "    elif message['type'] == 'decide':\n"
    "        print(json.dumps({'type': 'move', 'id': message['id'], 'index': 0}), flush=True)\n"
    "    elif message['type'] == 'over':\n"
    "        seen['memory'] = told\n"
    "        print(json.dumps(seen), file=sys.stderr, flush=True)\n"
    "        with open(notes, 'a') as kept:\n"
    "            kept.write(json.dumps(told))\n"
    "    elif message['type'] == 'quit':\n"
    "        break\n"
)


def cheat(tmp_path: Path, schedule: str, where: list[str]) -> None:
    """Run the cheating bot (``CHEAT``) against greedy, 2 deals of ``schedule`` played
    ``where`` says (``-j 2``, ``--dask ADDRESS``), and check that it learnt nothing: no
    deal's seed, no five cards in its deck's order."""
    out = tmp_path / "t"
    (tmp_path / "cheat.py").write_text(CHEAT.replace("OUT", repr(str(out))))
    args = ["tournament", "--players", "2", "--bot", f"c=cmd:{sys.executable} {tmp_path / 'cheat.py'}", "--seed", "7"]
    args += ["--bot", "g=greedy", "--deals", "2", "--schedule", schedule, *where, "-o", str(out)]
    args += ["--bot-logs", str(tmp_path / "logs")]
    if schedule == "candidate":
        args += ["--candidate", "g"]
    made = subprocess.run([*BKREF_COMMAND, *args], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    gathered = "\n".join(path.read_text() for path in sorted((tmp_path / "logs").iterdir()))
    assert "dropped" not in gathered  # all it gathered is here, under the cap
    assert gathered.count('"memory"') >= 2  # it looked, in every game it played
    assert "--seed" not in gathered and "tournament.json" not in gathered
    for game in sorted(out.glob("game-*.jsonl")):
        deck = json.loads(game.read_text().split("\n", 1)[0])["deck"]
        runs = {json.dumps(deck[i : i + 5]) for i in range(len(deck) - 4)}
        found = [run for run in runs if run in gathered or run.replace(", ", ",") in gathered]
        assert found == [], f"{game.name}: the bot saw its deck"


@SEALED
@pytest.mark.parametrize("schedule", ["rotate", "candidate", "random"])
def test_a_cheating_bot_learns_no_deck_and_no_hand_it_may_not_know(tmp_path: Path, schedule: str) -> None:
    """Attack, sealed, with -j 2 (and on a cluster: tests/test_cluster.py): a bot reads its
    parent's command line (bkref's names the seed of the deals), every process's, its working
    folder, /tmp, its home and its notes of an earlier game there, the run's output folder
    (where the earlier games of each deal lie, decks included), its environment, and keeps
    every message of earlier games in memory (``over`` included; not its own legal moves, which
    are bulky and hold only its own hand's cards: all it gathered stays under the log's cap). It finds no deal's seed,
    and no run of the deck's cards it was not dealt: what it gathered holds no five cards in
    the deck's order. With ``--unsealed`` the same bot finds the seed (checked by hand)."""
    cheat(tmp_path, schedule, ["-j", "2"])


@SEALED
def test_a_bot_kept_in_the_runs_output_folder_is_refused(bkref, tmp_path: Path) -> None:
    """Sealing hides the run's output folder from the bots, but cannot from a bot that lives
    in it (that would hide the bot): the run is refused in one line, before any game."""
    out = tmp_path / "run"
    out.mkdir()
    shutil.copy(ROOT / "examples" / "bots" / "random_bot.py", out / "bot.py")
    command = f"{sys.executable} {out / 'bot.py'}"
    made = bkref("simulate", "--players", 2, "--seed", 1, "--policy", f"cmd:{command}", "--games", 1, "-o", out)
    said = (
        f"bot {command} lies in {out}, which bots may not see: keep it elsewhere (or run trusted bots with --unsealed)"
    )
    assert (made.exit_code, made.stderr, sorted(out.iterdir())) == (2, f"bkref: error: {said}\n", [out / "bot.py"])
    seed = 1 << 62  # a seed no bot can search: no warning
    apart = bkref("simulate", "--players", 2, "--seed", seed, "--policy", f"cmd:{command}", "-o", tmp_path / "g.jsonl")
    assert (apart.exit_code, apart.stderr) == (0, "")


SPY = (  # a bot that looks for other bots' files (LOOKED), then plays as the random example does
    "import json, os, runpy, sys\n"
    "found = {}\n"
    "for path in LOOKED:\n"
    "    try:\n"
    "        found[path] = sorted(os.listdir(path)) if os.path.isdir(path) else open(path).read()\n"
    "    except OSError as error:\n"
    "        found[path] = error.strerror\n"
    "print(json.dumps(found), file=sys.stderr, flush=True)\n"
    "sys.argv = sys.argv[1:2]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


@SEALED
def test_a_sealed_bot_sees_no_file_of_another_bot(tmp_path: Path) -> None:
    """Attack: a bot reads the program of a bot kept in the same folder as itself, and the
    program and the model of a bot in a folder of its own (outside ``/tmp``, which is the
    bot's own anyway). Sealed, it finds none of them, and still plays its games; unsealed
    (``--unsealed``: trusted bots), it reads them all."""
    example = ROOT / "examples" / "bots" / "random_bot.py"
    with tempfile.TemporaryDirectory(dir="/var/tmp") as place:
        mine, theirs = Path(place) / "mine", Path(place) / "theirs"
        mine.mkdir()
        theirs.mkdir()
        shutil.copy(example, mine / "neighbour.py")
        shutil.copy(example, theirs / "main.py")
        (theirs / "model.bin").write_text("weights")
        looked = [str(mine / "neighbour.py"), str(theirs / "main.py"), str(theirs / "model.bin"), str(theirs)]
        (mine / "spy.py").write_text(SPY.replace("LOOKED", repr(looked)))
        spy = f"s=cmd:{sys.executable} {mine / 'spy.py'} {example}"
        found = []
        for sealed in ([], ["--unsealed"]):
            args = ["tournament", "--players", "3", "--bot", spy, "--deals", "1", *sealed]
            args += ["--bot", f"n=cmd:{sys.executable} {mine / 'neighbour.py'}"]
            args += ["--bot", f"t=cmd:{sys.executable} {theirs / 'main.py'}"]
            logs = tmp_path / f"logs{len(sealed)}"
            args += ["-o", str(tmp_path / f"t{len(sealed)}"), "--bot-logs", str(logs)]
            made = subprocess.run([*BKREF_COMMAND, *args], capture_output=True, text=True)
            assert made.returncode == 0, made.stderr
            first = sorted(logs.glob("*-s-*.log"))[0].read_text().splitlines()[0]
            found.append(json.loads(first))
    nothing = ("Permission denied", "No such file or directory", "", [])  # hidden, or an empty folder
    assert {path: found[0][path] for path in looked if found[0][path] not in nothing} == {}
    program = example.read_text()
    assert found[1] == dict(zip(looked, [program, program, "weights", ["main.py", "model.bin"]]))


@SEALED
def test_a_sealed_bot_sees_neither_the_organisers_files_nor_the_runs(tmp_path: Path) -> None:
    """Attack: a bot reached through a symbolic link to its folder reads the organiser's home
    (their shell's history names the seed; an earlier run lies there) and the run's output
    folder, named through a link to a folder beside the bot. Sealed, it sees none of them,
    the output folder empty; unsealed (``--unsealed``), it reads them all."""
    example = ROOT / "examples" / "bots" / "random_bot.py"
    with tempfile.TemporaryDirectory(dir="/var/tmp") as place:
        bots, home = Path(place) / "bots", Path(place) / "home"
        (home / "old").mkdir(parents=True)
        bots.mkdir()
        (home / ".bash_history").write_text("bkref tournament --seed 7 -o old\n")
        (home / "old" / "game.jsonl").write_text('{"type": "game", "deck": ["H3"]}\n')
        (Path(place) / "alias").symlink_to(bots)
        (Path(place) / "out").symlink_to(bots / "out")
        looked = [str(home), str(home / ".bash_history"), str(home / "old" / "game.jsonl"), str(bots / "out")]
        (bots / "spy.py").write_text(SPY.replace("LOOKED", repr(looked)))
        found = []
        for sealed in ([], ["--unsealed"]):
            shutil.rmtree(bots / "out", ignore_errors=True)
            (bots / "out").mkdir()
            args = ["tournament", "--players", "2", "--deals", "1", "--bot", "g=greedy", *sealed, "-o", f"{place}/out"]
            args += ["--bot", f"s=cmd:{sys.executable} {place}/alias/spy.py {example}"]
            logs = tmp_path / f"logs{len(sealed)}"
            made = subprocess.run(
                [*BKREF_COMMAND, *args, "--bot-logs", str(logs)],
                capture_output=True,
                text=True,
                env={**os.environ, "HOME": str(home)},
            )
            assert made.returncode == 0, made.stderr
            found.append(json.loads(sorted(logs.glob("*-s-*.log"))[0].read_text().splitlines()[0]))
    nothing = ("Permission denied", "No such file or directory")
    assert [found[0][path] in nothing for path in looked[:3]] == [True] * 3 and found[0][looked[3]] == []
    assert [found[1][path] for path in looked[:2]] == [[".bash_history", "old"], "bkref tournament --seed 7 -o old\n"]
    assert "tournament.json" in found[1][looked[3]]


@SEALED
def test_a_sealed_bot_does_not_see_the_log_simulate_deals_from(bkref, tmp_path: Path) -> None:
    """Attack: a bot kept beside the log that ``simulate --deck`` deals from reads it. Sealed,
    it cannot; unsealed, it reads the deck."""
    example = ROOT / "examples" / "bots" / "random_bot.py"
    dealt = tmp_path / "dealt.jsonl"
    assert bkref("simulate", "--players", 2, "--seed", 3, "-o", dealt).exit_code == 0
    (tmp_path / "spy.py").write_text(SPY.replace("LOOKED", repr([str(dealt)])))
    found = []
    for sealed in ([], ["--unsealed"]):
        logs = tmp_path / f"logs{len(sealed)}"
        policy = f"cmd:{sys.executable} {tmp_path / 'spy.py'} {example}"
        args = ["--players", 2, "--seed", 1, "--policy", policy, "--deck", dealt, *sealed, "--bot-logs", logs]
        made = bkref("simulate", *args, "-o", tmp_path / f"game{len(sealed)}.jsonl")
        assert made.exit_code == 0, made.stderr
        found.append(json.loads(sorted(logs.iterdir())[0].read_text().splitlines()[0])[str(dealt)])
    assert found == ["Permission denied", dealt.read_text()]


@SEALED
def test_a_sealed_bot_does_not_see_the_log_simulate_writes_over(bkref, tmp_path: Path) -> None:
    """Attack: a bot reads the file ``simulate -o`` is about to replace (an earlier run's deal).
    Sealed, it cannot; unsealed, it reads it. A seat of a bot program under a small seed is warned."""
    example = ROOT / "examples" / "bots" / "random_bot.py"
    written = tmp_path / "game.jsonl"
    (tmp_path / "spy.py").write_text(SPY.replace("LOOKED", repr([str(written)])))
    found = []
    for sealed in ([], ["--unsealed"]):
        assert bkref("simulate", "--players", 2, "--seed", 3, "-o", written).exit_code == 0
        before = written.read_text()
        logs = tmp_path / f"logs{len(sealed)}"
        policy = f"cmd:{sys.executable} {tmp_path / 'spy.py'} {example}"
        made = bkref(
            "simulate", "--players", 2, "--seed", 3, "--policy", policy, *sealed, "--bot-logs", logs, "-o", written
        )
        assert made.exit_code == 0, made.stderr
        assert made.stderr.startswith("bkref: warning: --seed 3 is small: a bot program could find it")
        found.append(json.loads(sorted(logs.iterdir())[0].read_text().splitlines()[0])[str(written)])
    assert found == ["Permission denied", before]


@SEALED
def test_bots_that_name_a_system_folder_or_lie_directly_in_tmp_play_sealed(tmp_path: Path) -> None:
    """A bot whose command names ``.`` (here the folder of bkref's Python) and ``/usr/lib``
    hides neither from the other bots, which need them to run; a bot kept directly in
    ``/tmp`` (the bots' own private folder, sealed) starts. Every seat plays its whole game."""
    example = ROOT / "examples" / "bots" / "random_bot.py"
    handle, lone = tempfile.mkstemp(dir="/tmp", suffix=".py")
    os.close(handle)
    try:
        shutil.copy(example, lone)
        args = ["tournament", "--players", "3", "--deals", "1", "-o", str(tmp_path / "t")]
        args += ["--bot", f"a=cmd:{sys.executable} {example} . /usr/lib", "--bot", f"b=cmd:{sys.executable} {lone}"]
        args += ["--bot", f"c=cmd:{sys.executable} {example}"]
        here = Path(sys.executable).parent.parent.parent  # holds the Python that runs the bots
        made = subprocess.run([*BKREF_COMMAND, *args], capture_output=True, text=True, cwd=here)
    finally:
        os.unlink(lone)
    assert made.returncode == 0, made.stderr
    for game in (tmp_path / "t").glob("game-*.jsonl"):
        seats = json.loads(game.read_text().split("\n", 1)[0])["meta"]["bots"]
        assert len(seats) == 3 and [seat["faults"] for seat in seats.values()] == [[]] * 3


@SEALED
def test_a_bot_kept_in_a_home_sees_itself_alone_of_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot program (a script naming its interpreter) kept directly in the organiser's home,
    and one run with a script there, are shown alone: never the home, where the shell's
    history and earlier runs lie."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "bot").write_text(f"#!{sys.executable}\n")
    (tmp_path / "bot").chmod(0o755)
    (tmp_path / "bot.py").write_text("")
    for command in ([str(tmp_path / "bot")], [sys.executable, str(tmp_path / "bot.py")]):
        argv = Seal().command(command)
        binds = {tuple(argv[i + 1 : i + 3]) for i, arg in enumerate(argv) if arg == "--ro-bind"}
        assert (str(tmp_path), str(tmp_path)) not in binds and (command[-1], command[-1]) in binds


def binds_and_hides(argv: list[str]) -> tuple[set[str], set[str]]:
    """What a bwrap command line shows where it lies (``--ro-bind P P``) and hides (``--tmpfs``,
    or ``/dev/null`` over a file)."""
    shown = {argv[i + 1] for i, arg in enumerate(argv[:-2]) if arg == "--ro-bind" and argv[i + 1] == argv[i + 2]}
    hidden = {argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--tmpfs"}
    hidden |= {argv[i + 2] for i, arg in enumerate(argv[:-2]) if arg == "--ro-bind" and argv[i + 1] == "/dev/null"}
    return shown, hidden


@SEALED
def test_sealing_reads_paths_as_they_really_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacks on the mounts (review of issue 43), each on the command line bwrap is given: a bot
    named through a link sees the run's folder at no name (its path is given as it really is);
    ``..`` does not reach a home; a ``#!`` line with ``env`` options mounts nothing more; a
    program installed in a home shows its programs and libraries, not the folder's data; a
    run kept beside a bot is hidden; another bot's Python hides nothing of this bot's."""
    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    real = tmp_path / "real"
    (real / "out").mkdir(parents=True)
    (real / "run1").mkdir()
    (real / "run1" / "tournament.json").write_text("{}")
    (real / "bot.py").write_text("")
    (tmp_path / "alias").symlink_to(real)
    argv = Seal(hidden=(str(tmp_path / "alias" / "out"),)).command([sys.executable, str(tmp_path / "alias" / "bot.py")])
    shown, hidden = binds_and_hides(argv)
    assert argv[-1] == str(real / "bot.py") and str(real) in shown and not any("alias" in path for path in shown)
    assert {str(real / "out"), str(real / "run1")} <= hidden
    (home / "bot.py").write_text("")
    shown, _ = binds_and_hides(Seal().command([sys.executable, str(home / "proj" / ".." / "bot.py")]))
    assert str(home) not in shown and str(home / "bot.py") in shown
    local = home / ".local"
    for folder in ("bin", "lib", "share/fish"):
        (local / folder).mkdir(parents=True)
    (local / "share" / "fish" / "fish_history").write_text("- cmd: bkref tournament --seed 7")
    (local / "bin" / "mybot").write_text("#!/usr/bin/env -S -u cargo /usr/bin/python3\n")
    (local / "bin" / "mybot").chmod(0o755)
    monkeypatch.setenv("PATH", f"{local / 'bin'}{os.pathsep}{os.environ['PATH']}")
    shown, _ = binds_and_hides(Seal().command(["mybot"]))
    assert {str(local / "bin"), str(local / "lib")} <= shown and not any(
        _within_path(p, local / "share") for p in shown
    )
    assert not any(str(local) == path for path in shown)
    other = (sys.executable, str(tmp_path / "other.py"))
    (tmp_path / "other.py").write_text("")
    _, hidden = binds_and_hides(Seal(bots=(other,)).command([sys.executable, str(real / "bot.py")]))
    python = Path(os.path.realpath(sys.executable)).parent.parent
    assert not any(_within_path(path, python) for path in hidden)


@SEALED
def test_sealing_third_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacks of the third review (issue 43), on the command line bwrap is given: a link shipped
    beside a bot that leads out of its folder (to a home's credentials, to ``/proc``) is refused,
    not followed; another bot's program kept beside this one is hidden (a venv's Python, a link,
    is not); a run two folders down is hidden; a ``#!`` line holding a NUL is no crash; the
    word after ``-m`` is a module's name, never made a path."""
    bots = tmp_path / "bots"
    (bots / "runs" / "day1" / "out").mkdir(parents=True)
    (bots / "runs" / "day1" / "out" / "tournament.json").write_text("{}")
    (tmp_path / "secret").write_text("token")
    (bots / "weights.bin").symlink_to(tmp_path / "secret")
    (bots / "model").symlink_to("/proc/version")
    for name in ("alice.py", "bob.py"):
        (bots / name).write_text("")
    for named, why in (
        (bots / "weights.bin", f"is a link out of its folder (to {tmp_path / 'secret'})"),
        (bots / "model", "is a link out of its folder (to /proc/version)"),
        (Path("/proc/version"), "/proc/version is in /proc, which no bot sees"),
    ):
        with pytest.raises(OSError, match=re.escape(why)):
            Seal().command([sys.executable, str(bots / "alice.py"), str(named)])
    other = (str(bots / "bob.py"),)
    venv = (sys.executable, str(tmp_path / "secret"))
    _, hidden = binds_and_hides(Seal(bots=(other, venv)).command([sys.executable, str(bots / "alice.py")]))
    assert {str(bots / "bob.py"), str(bots / "runs" / "day1" / "out")} <= hidden and sys.executable not in hidden
    (bots / "nul").write_bytes(b"#!/usr/bin/env py\0thon3\n")
    (bots / "nul").chmod(0o755)
    assert Seal().command([str(bots / "nul")])[-1] == str(bots / "nul")
    (tmp_path / "mybot").mkdir()
    monkeypatch.chdir(tmp_path)
    assert Seal().command([sys.executable, "-m", "mybot"])[-3:] == [sys.executable, "-m", "mybot"]


@SEALED
def test_a_sealed_bot_reads_nothing_of_bkrefs_environment(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: a bot reads the environment of its sandbox's first process, bwrap
    (``/proc/1/environ``), where bkref's own once lay: an organiser's token is not there."""
    monkeypatch.setenv("ORGANISER_TOKEN", "s3cr3t")
    body = (
        "sys.stderr.write(open('/proc/1/environ').read().replace(chr(0), ' ') + chr(10)); sys.stderr.flush()\n" + LAST
    )
    logs = folder / "logs"
    logs.mkdir()
    events = simulate(2, 1, [bot(folder, body), "random"], bots=BotOptions(ms=5000, logs=str(logs)))
    said = "".join(path.read_text() for path in logs.iterdir())
    assert faults(events) == [] and "s3cr3t" not in said and "ORGANISER_TOKEN" not in said


def said_at_first_decision(folder: Path, body: str, seal: Seal | None = None) -> tuple[list[str], str]:
    """Play a sealed bot that runs ``body`` (which writes what it found to its standard error)
    at its first decision; its seat's faults and what it said."""
    logs = folder / "logs"
    logs.mkdir(exist_ok=True)
    once = f"def choose(m, count):\n    if count == 1:\n{textwrap.indent(body, '        ')}\n    return 0\n"
    events = simulate(
        2, 1, [bot(folder, once), "random"], bots=BotOptions(ms=8000, logs=str(logs), seal=seal or Seal())
    )
    assert legal(folder, events)
    return faults(events), "".join(path.read_text() for path in sorted(logs.iterdir()))


WRITABLE = """found = []
for here, folders, files in os.walk('/'):
    skipped = ('tmp', 'shm', 'pts', 'self', 'thread-self')  # its own; devpts, which makes terminals, no file
    folders[:] = [f for f in folders if not f.isdigit() and f not in skipped]
    found += [here] if os.access(here, os.W_OK) else []  # a folder: nothing may be made in it
    for name in files if here.startswith(('/proc', '/sys', '/etc', '/dev')) else []:  # elsewhere: its folder says
        if not os.path.isfile(os.path.join(here, name)):
            continue  # a device (/dev/null, written by all) or a link
        try:
            os.close(os.open(os.path.join(here, name), os.O_WRONLY | os.O_NONBLOCK))  # nothing written
            found.append(os.path.join(here, name))
        except OSError:
            pass
sys.stderr.write('writable: ' + json.dumps(found) + chr(10)); sys.stderr.flush()"""


@SEALED
def test_a_sealed_bot_can_write_nothing_of_the_machine(folder: Path) -> None:
    """Attack (found by the audit run as root, where the bot is root without capabilities):
    a bot looks for anything it may write outside its own ``/tmp`` and ``/dev``: the folders
    of the machine it sees, ``/proc/sys`` (``kernel/core_pattern`` would run a program as root
    outside), ``/proc/sysrq-trigger``, every other file of ``/proc`` and ``/etc``, the folders
    hidden from it. It finds none (each open to write is refused: nothing is written)."""
    (folder / "out").mkdir()
    found, said = said_at_first_decision(folder, WRITABLE, Seal(hidden=(str(folder / "out"),)))
    assert found == [] and "writable: []" in said, said


@SEALED
@pytest.mark.parametrize("where", ["/tmp", "/dev/shm"])
def test_a_sealed_bots_own_folders_hold_its_file_limit_in_all(folder: Path, where: str) -> None:
    """Attack: a bot fills its own folders, ``/tmp`` and ``/dev/shm`` (POSIX shared memory),
    with files each within its limit (``file=1``: two of 768 KiB): the second does not fit (it
    filled memory without end in ``/dev/shm``, which was bwrap's ``/dev``, of no size)."""
    body = (
        "done = []\nfor n in range(2):\n    try:\n"
        f"        open(f'{where}/fill{{n}}', 'wb').write(bytes(768 << 10)); done.append(n)\n"
        "    except OSError as error:\n        done.append(error.strerror)\n"
        "sys.stderr.write('filled: ' + json.dumps(done) + chr(10)); sys.stderr.flush()"
    )
    found, said = said_at_first_decision(folder, body, Seal(limits=Limits(file_mb=1)))
    assert found == [] and 'filled: [0, "No space left on device"]' in said, said


@SEALED
def test_a_sealed_bot_reads_no_file_of_the_system_another_user_could_not(folder: Path) -> None:
    """Attack: a bot reads every file of the system's folders that others may not read
    (``/etc/default/cacerts``, a database's ``pg_hba.conf``, ``/etc/shadow``: mode 0600 or
    0640, and the files of folders of mode 0700), as bkref's user would: run as root, the
    bot's user owns root's files. It reads none of them (found here by ``find``, not by bkref)."""
    system = [path for path in ("/etc", "/usr", "/opt", "/nix") if os.path.isdir(path) and not os.path.islink(path)]
    listed = subprocess.run(
        [
            "find",
            *system,
            "-xdev",
            "!",
            "-type",
            "l",
            "(",
            "!",
            "-perm",
            "-o=r",
            "-o",
            "-type",
            "d",
            "!",
            "-perm",
            "-o=x",
            ")",
        ],
        capture_output=True,
        text=True,
    ).stdout.split()
    secret = [path for path in listed if os.path.isfile(path)][:200]
    body = (
        f"read = []\nfor path in {secret!r}:\n    try:\n        read += [path] if open(path, 'rb').read(1) else []\n"
        "    except OSError:\n        pass\n"
        "sys.stderr.write('read: ' + json.dumps(read) + chr(10)); sys.stderr.flush()"
    )
    found, said = said_at_first_decision(folder, body)
    assert found == [] and "read: []" in said, said


def test_the_unreadable_files_and_folders_are_found_and_not_walked_into(tmp_path: Path) -> None:
    modes = {"open": 0o644, "mine": 0o600, "group": 0o640, "run": 0o711, "list": 0o755}
    for name, mode in modes.items():
        path = tmp_path / name
        (path.mkdir if name in ("run", "list") else path.touch)()
        path.chmod(mode)
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed" / "key").write_text("k")
    (tmp_path / "closed").chmod(0o700)
    (tmp_path / "list" / "key").write_text("k")
    (tmp_path / "list" / "key").chmod(0o600)
    (tmp_path / "link").symlink_to(tmp_path / "mine")
    found = sorted(_unreadable([str(tmp_path)]))
    assert found == [str(tmp_path / name) for name in ("closed", "group", "list/key", "mine", "run")]


RAISE = """import resource
for kind in (resource.RLIMIT_AS, resource.RLIMIT_CPU):
    soft, hard = resource.getrlimit(kind)
    try:
        resource.setrlimit(kind, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        resource.setrlimit(kind, (hard, hard))
"""


@SEALED
@pytest.mark.parametrize(
    ("limits", "use"),
    [
        (Limits(memory_mb=256), "hog = bytearray(1 << 30)\nhog[::4096] = b'x' * len(hog[::4096])\n"),
        (Limits(cpu_seconds=1), "import time\nwhile time.process_time() < 3:\n    pass\n"),
    ],
    ids=["memory", "cpu"],
)
def test_a_bot_that_raises_its_limits_is_stopped_at_them(folder: Path, limits: Limits, use: str) -> None:
    """Attack (the audit's): a bot raises its limits as far as it may (a soft limit up to its
    hard one, which was unlimited), then takes 1 GiB under ``memory=256``, or 3 s of CPU under
    ``cpu=1``. The hard limits are the limits: it dies at each of its decisions, 3 exit faults."""
    body = f"{RAISE}def choose(m, count):\n{textwrap.indent(use, '    ')}    return 0\n"
    events = simulate(2, 1, [bot(folder, body), "random"], bots=BotOptions(ms=8000, seal=Seal(limits=limits)))
    assert faults(events) == ["exit"] * 3 and legal(folder, events)


@SEALED
def test_the_sandboxs_first_process_names_no_hidden_path(folder: Path) -> None:
    """Attack: a bot reads the command line of its sandbox's first process (bwrap's,
    ``/proc/1/cmdline``), which named every path hidden from it (the run's output, the decks,
    the other bots' folders). bwrap reads its options from a file it was given open: its
    command line is ``bwrap --args N -- COMMAND``."""
    secret = folder / "out-of-sight"
    secret.mkdir()
    body = "sys.stderr.write('first: ' + json.dumps(open('/proc/1/cmdline').read().split(chr(0))) + chr(10))"
    found, said = said_at_first_decision(folder, body, Seal(hidden=(str(secret),)))
    line = next(line for line in said.splitlines() if line.startswith("first: "))
    first = json.loads(line.removeprefix("first: "))
    assert found == [] and str(secret) not in said
    assert (
        first[1:2] == ["--args"]
        and first[2].isdigit()
        and first[3:] == ["--", sys.executable, str(folder / "bot.py"), ""]
    )


def _within_path(path: str, folder: Path) -> bool:
    return path == str(folder) or path.startswith(f"{folder}{os.sep}")


def test_the_bot_trace_holds_every_line_sent_and_answered_with_its_time(bkref, folder: Path) -> None:
    """``--bot-trace`` (issue 44): each bot's log also holds, in order, every line bkref sent it
    and every line it answered, each after the seconds since its start; a fault is there too.
    Without ``--bot-logs`` it is one line and status 2; without ``--bot-trace``, no line of it."""
    body = "def choose(m, count):\n    return len(m['moves']) if count == 1 else 0\n"  # an index fault first
    spec = bot(folder, body)
    for traced in (["--bot-trace"], []):
        logs = folder / f"logs{len(traced)}"
        args = ["--players", 2, "--seed", 3, "--policy", spec, "--unsealed", "--bot-logs", logs, *traced]
        assert bkref("simulate", *args, "-o", folder / "game.jsonl").exit_code == 0
        lines = sorted(logs.iterdir())[0].read_text().splitlines()
        if not traced:
            assert not any(" bkref> " in line or " bot> " in line for line in lines)
            continue
        said = [re.sub(r"^\[ *[0-9.]+ s\] ", "", line) for line in lines]
        assert said[:2] == [
            'bkref> {"type":"hello"}',
            'bot> {"type": "hello", "protocol": "bkbot/1", "name": "t", "version": "0"}',
        ]
        first = said.index(next(line for line in said if line.startswith('bkref> {"type":"decide"')))
        assert said[first + 1].startswith('bot> {"type": "move", "id": 1, "index": ')
        assert 'bkref> {"type":"fault","id":1,"kind":"index"}' in said and said[-1] == 'bkref> {"type":"quit"}'
        assert all(re.match(r"^\[ *[0-9]+\.[0-9]{3} s\] (bkref|bot)> ", line) for line in lines)
    alone = bkref("simulate", "--players", 2, "--seed", 3, "--policy", spec, "--bot-trace", "-o", folder / "g.jsonl")
    assert (alone.exit_code, alone.stderr) == (
        2,
        "bkref: error: --bot-trace writes into each bot's log: give --bot-logs DIR too\n",
    )


def test_a_bot_that_floods_after_its_reply_makes_one_fault_a_decision(folder: Path) -> None:
    """Attack: at each decision a bot writes a thousand lines of garbage before its reply. Each
    decision is one fault (``garbage``), so it is retired after three and its game's log stays
    small (it once held 32,768 faults a read)."""
    body = "def choose(m, count):\n    [out('junk') for _ in range(1000)]; return 0\n"
    events = simulate(2, 1, [bot(folder, body), "random"], bots=SAFE)
    assert faults(events) == ["garbage"] * 3 and legal(folder, events)


@pytest.mark.skipif(not programs.__file__.endswith(".py"), reason="a compiled module cannot be patched")
def test_a_bot_that_floods_before_its_hello_is_given_up_at_the_deadline(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack: a bot writes lines without end and never says hello. bkref gives it up at the
    deadline of its hello (10 s; 1 s here), with one output fault, however much it wrote."""
    monkeypatch.setattr(programs, "HELLO_SECONDS", 1.0)
    (folder / "flood.py").write_text("import sys\nwhile True:\n    sys.stdout.write('x' * 99 + '\\n')\n")
    program = programs.Program([sys.executable, str(folder / "flood.py")], seal=TRUSTED)
    started = time.monotonic()
    with pytest.raises(BotFault, match="no hello within"):
        program.start()
    assert time.monotonic() - started < 5 and program.stray == [("output", 0)]


@pytest.mark.skipif(not programs.__file__.endswith(".py"), reason="a compiled module cannot be patched")
def test_a_banner_and_no_hello_is_said_with_the_banner(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that prints a banner and never says hello (the audit's): given up at the deadline
    (10 s; 0.5 s here), with its banner named, an output fault in ``stray``."""
    monkeypatch.setattr(programs, "HELLO_SECONDS", 0.5)
    (folder / "banner.py").write_text("import time\nprint('my bot 1.0, ready', flush=True)\ntime.sleep(600)\n")
    program = programs.Program([sys.executable, str(folder / "banner.py")], seal=TRUSTED)
    with pytest.raises(BotFault) as raised:
        program.start()
    assert str(raised.value) == "exit: no hello within 10 s, only other lines, the first 'my bot 1.0, ready'"
    assert program.stray == [("output", 0)]


def test_a_bots_standard_error_is_drained_when_its_log_cannot_be_written() -> None:
    """A log on a full disk (``/dev/full``) is given up: the bot's standard error is still
    read to its end, so a bot that writes there is never blocked, nor killed by a closed pipe."""
    read, write = os.pipe()
    drain = programs.Stderr(os.fdopen(read, "rb"), Path("/dev/full"))
    drain.start()
    writer = threading.Thread(target=lambda: [os.write(write, b"y" * 65536) for _ in range(16)])
    writer.start()
    writer.join(10)
    alive = writer.is_alive()
    os.close(write)
    drain.join(10)
    assert not alive and not drain.is_alive()


@SEALED
@pytest.mark.parametrize(("body", "kind"), FAULTS)
def test_each_fault_kind_sealed(folder: Path, body: str, kind: str) -> None:
    """The faults of bkbot/1 are the same for a sealed bot: each recorded, the game played out."""
    options = BotOptions(ms=200) if kind == "timeout" else BotOptions(ms=5000)
    events = simulate(3, 2, [bot(folder, body), "random", "random"], bots=options)
    assert faults(events)[:1] == [kind]
    assert legal(folder, events)


def test_a_faults_event_is_the_faulting_seats_own_decision(folder: Path) -> None:
    """bob, the second seat, faults at every pick: each fault names bob's pick, not ann's (issue 44)."""
    body = "def choose(m, count):\n    out('not json'); return None\n"
    events = simulate(3, 2, ["random", bot(folder, body), "random"], bots=SAFE)
    recorded = events[0].meta["bots"]["bob"]["faults"]
    assert [f["kind"] for f in recorded] == ["garbage"] * 3
    named = [events[f["event"] - 1] for f in recorded]
    assert [(type(e).__name__, getattr(e, "player", None)) for e in named] == [("Pick", "bob")] * 3


def test_a_seats_time_includes_its_timed_out_decisions(folder: Path) -> None:
    """A bot that never answers was given 200 ms at each of its 3 decisions: its ``ms`` says 600, not 0."""
    events = simulate(2, 2, [bot(folder, "def choose(m, count):\n    return None\n"), "random"], bots=FAST)
    assert faults(events) == ["timeout"] * 3
    assert events[0].meta["bots"]["ann"]["ms"] == 3 * FAST.ms


def test_simulate_says_a_bots_faults_on_the_terminal(bkref, folder: Path) -> None:
    """A bot that prints a debug line to its standard output is noticed at once (issue 44):
    one line on standard error, the log on standard output, exit status 0 (the game is legal)."""
    body = "def choose(m, count):\n    out('debug'); return None\n"
    spec = bot(folder, body)
    large = 1 << 62  # a seed no bot can search: no warning before the note
    result = bkref("simulate", "--players", 2, "--seed", large, "--policy", spec, "--policy", "random")
    assert result.exit_code == 0
    (folder / "g.jsonl").write_text(result.stdout)
    event = json.loads(result.stdout.splitlines()[0])["meta"]["bots"]["ann"]["faults"][0]["event"]
    made = f"note: seat ann ({spec}) made 3 faults (3 garbage, first at event {event});"
    made += " random played the decisions it faulted"
    assert result.stderr == f"{made} and all after fault 3\n"
    checked = bkref("validate", folder / "g.jsonl")  # whoever reads the log is told too (the log has no limit)
    legal = f"{folder / 'g.jsonl'}: legal ({result.stdout.count(chr(10))} events)\n"
    assert (checked.exit_code, checked.stderr) == (0, f"{legal}{folder / 'g.jsonl'}: {made}\n")
    fine = bkref("simulate", "--players", 2, "--seed", large, "--policy", bot(folder, LAST, name="last.py"))
    assert fine.exit_code == 0 and fine.stderr == ""
    games = bkref("simulate", "--players", 2, "--seed", 1, "--policy", spec, "--policy", "random",
                  "--games", 2, "-o", folder / "games")  # fmt: skip
    said = [line.split(": note: ")[0] for line in games.stderr.splitlines() if ": note: seat ann " in line]
    assert games.exit_code == 0 and said == [
        str(folder / "games" / name) for name in sorted(os.listdir(folder / "games"))
    ]


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("/no/such/interpreter bot.py", "cannot start /no/such/interpreter bot.py: No such file or directory"),
        (
            f"{sys.executable} -c 'syntax error'",
            "it exited with status 1 before its hello (its standard error ended: SyntaxError: invalid syntax)",
        ),
    ],
)
def test_a_bot_that_cannot_start_stops_the_run_before_any_game(bkref, folder: Path, command: str, why: str) -> None:
    """issue 44: exit status 2 and one line naming the bot and why, no game written, unless
    --start-fallback lets random play its seats (recorded as exit faults, said on the terminal)."""
    spec = f"cmd:{command}"
    one = bkref("simulate", "--players", 2, "--seed", 1, "--policy", spec, "--policy", "random")
    assert (one.exit_code, one.stdout) == (2, "")
    assert one.stderr == f"bkref: error: bot {spec}: no game played: {why}\n"
    refused = bkref(
        "tournament", "--players", 2, "--bot", f"b={spec}", "--bot", "r=random", "--deals", 1, "-o", folder / "t"
    )
    assert refused.exit_code == 2 and refused.stderr.endswith(one.stderr)
    assert not list((folder / "t").glob("*.jsonl"))
    large = 1 << 62  # a seed no bot can search: no warning before the note
    allowed = bkref(
        "simulate", "--players", 2, "--seed", large, "--policy", spec, "--policy", "random", "--start-fallback"
    )
    assert allowed.exit_code == 0 and allowed.stderr.startswith(f"note: seat ann ({spec}) made 3 faults (3 exit")


@pytest.mark.parametrize(
    ("hello", "why"),
    [
        ('{"type":"hello","protocol":"bkbot/1","name":"b"}', "its hello is not bkbot/1's: object missing required "
         "field `version`"),
        ('{"type":"hello","protocol":"uci","name":"b","version":"1"}', "its hello speaks 'uci', not 'bkbot/1'"),
        ('{"type":"hello","protocol":"bkbot/1","name":"' + "b" * 257 + '","version":"1"}',
         "its hello is not bkbot/1's: expected `str` of length <= 256 - at `$.name`"),  # each game's log records it
        ('{"type":"hello","protocol":"bkbot/1","name":"\\ud800","version":"1"}',  # half a surrogate pair
         "its hello is not bkbot/1's: JSON is malformed: unexpected end of escaped utf-16 surrogate pair (byte 51)"),
    ],
)  # fmt: skip
def test_a_hello_that_is_not_bkbot1s_is_said_at_once(bkref, folder: Path, hello: str, why: str) -> None:
    """A bot author's first mistake: a hello without a field, or of another protocol, is said
    as such at once (it waited 10 s, then said "no hello within 10 s")."""
    script = f"import sys\nsys.stdin.readline()\nprint({hello!r}, flush=True)\nsys.stdin.read()\n"
    (folder / "hello.py").write_text(script)
    spec = f"cmd:{sys.executable} {folder / 'hello.py'}"
    started = time.monotonic()
    refused = bkref("simulate", "--players", 2, "--seed", 1, "--policy", spec, "--policy", "random")
    assert time.monotonic() - started < programs.HELLO_SECONDS
    assert (refused.exit_code, refused.stderr) == (2, f"bkref: error: bot {spec}: no game played: {why}\n")


def test_a_line_before_the_hello_is_an_output_fault(folder: Path) -> None:
    """A bot that prints a banner as it starts, before its hello (issue 43): one ``output``
    fault, at its first decision; the rest of the game is its own, and legal."""
    body = "print('my bot 1.0, ready', flush=True)\ndef choose(m, count):\n    return 0\n"
    events = simulate(2, 1, [bot(folder, body), "random"], bots=SAFE)
    recorded = events[0].meta["bots"]["ann"]["faults"]
    assert [f["kind"] for f in recorded] == ["output"] and legal(folder, events)
    assert type(events[recorded[0]["event"] - 1]).__name__ == "Pick"


# Picks the first move, its kept cards in its own order (``REVERSED``: the other way round),
# and nothing else: no builds, so its hand's order changes nothing else of the game.
IN_ORDER = """def choose(m, count):
    if m['kind'] != 'pick':
        return len(m['moves']) - 1
    keep = m['moves'][0]['keep']
    out({'type': 'move', 'id': m['id'], 'index': 0, 'order': keep[::STEP]})
"""


def test_a_bot_plays_its_kept_cards_in_the_order_it_gives(folder: Path) -> None:
    """``order`` in a ``move`` (issue 44): the log keeps ann's cards in her order, and nothing else changes."""
    bots = [bot(folder, IN_ORDER.replace("STEP", step), f"bot{step}.py") for step in ("1", "-1")]
    games = [simulate(3, 2, [one, "random", "random"], bots=SAFE) for one in bots]
    given, turned = ([e for e in game if type(e).__name__ == "Pick" and e.player == "ann"] for game in games)
    assert len(given) == 24 and all(len(set(pick.keep)) == 2 for pick in given)
    assert [pick.keep[::-1] for pick in given] == [pick.keep for pick in turned]
    others = [[e for e in game[1:] if not (type(e).__name__ == "Pick" and e.player == "ann")] for game in games]
    assert to_jsonl(others[0]) == to_jsonl(others[1])
    assert faults(games[1]) == [] and legal(folder, games[1])


def test_an_order_of_a_move_with_nothing_to_order_is_an_index_fault(folder: Path) -> None:
    # the last move of every decision with an empty order: a pick's keep is never empty, a build's last move null
    body = (
        "def choose(m, count):\n    out({'type': 'move', 'id': m['id'], 'index': len(m['moves']) - 1, 'order': []})\n"
    )
    events = simulate(3, 2, ["random", bot(folder, body), "random"], bots=SAFE)
    assert faults(events, "bob") == ["index"] * 3 and legal(folder, events)


def test_a_late_reply_is_dropped_by_its_id_and_the_next_one_counts(folder: Path) -> None:
    """The first reply comes after its time: one timeout, then the late reply is no second fault."""
    body = "import time\ndef choose(m, count):\n    if count == 1: time.sleep(1.5)\n    return 0\n"
    events = simulate(2, 3, [bot(folder, body), "random"], bots=BotOptions(ms=1000))
    assert faults(events) == ["timeout"]
    assert legal(folder, events)


def test_a_restarted_bot_gets_the_same_seen_events_again(folder: Path) -> None:
    log = folder / "received.jsonl"
    flag = folder / "exited"
    body = (
        f"FLAG = {str(flag)!r}\n"
        "def choose(m, count):\n"
        "    if count == 30 and not os.path.exists(FLAG):\n"
        "        open(FLAG, 'w').close(); sys.exit(1)\n"
        "    return 0\n"
    )
    events = simulate(2, 5, [bot(folder, body, log=log), "random"], bots=SAFE)
    assert faults(events) == ["exit"]
    received = [json.loads(line) for line in log.read_text().splitlines()]
    first, second = sorted({r["pid"] for r in received}, key=[r["pid"] for r in received].index)
    told = [r["message"] for r in received if r["pid"] == first and r["message"]["type"] in ("game", "seen", "hand")]
    again = [r["message"] for r in received if r["pid"] == second and r["message"]["type"] in ("game", "seen", "hand")]
    assert len(told) > 20 and again[: len(told)] == told
    assert legal(folder, events)


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "no pidfd"])
def test_a_bot_that_exits_while_its_child_holds_its_output_is_an_exit_at_once(
    folder: Path, monkeypatch: pytest.MonkeyPatch, pidfd: bool
) -> None:
    """Its exit is seen by the wait itself (issue 42: no system call a decision asks whether a bot
    lives), or without a pidfd (before Linux 5.3, or refused by a sandbox) by asking the system:
    a bot that exits at its first decision, leaving a child that holds its standard output open
    (so no end of output says it), is an exit fault, not a timeout; the child, in its process
    group, ends with it."""
    if not pidfd:
        monkeypatch.setattr(os, "pidfd_open", lambda pid: (_ for _ in ()).throw(OSError("no pidfd")))
    flag = folder / "exited"
    body = (
        "import subprocess\n"
        f"FLAG = {str(flag)!r}\n"
        "def choose(m, count):\n"
        "    if not os.path.exists(FLAG):\n"
        f"        subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {str(folder)!r}])\n"
        "        open(FLAG, 'w').close(); os._exit(1)\n"
        "    return 0\n"
    )
    events = simulate(2, 5, [bot(folder, body), "random"], bots=SAFE)
    assert faults(events) == ["exit"]
    assert legal(folder, events)


def test_a_bot_that_never_reads_or_answers_cannot_stall_the_referee(folder: Path) -> None:
    path = folder / "deaf.py"
    path.write_text(
        "import json, sys, time\n"
        "sys.stdout.write(json.dumps({'type': 'hello', 'protocol': 'bkbot/1', 'name': 'd', 'version': '0'}) + '\\n')\n"
        "sys.stdout.flush()\n"
        "time.sleep(600)\n"
    )
    events = simulate(4, 1, [f"cmd:{sys.executable} {path}", "random", "random", "random"], bots=FAST)
    assert faults(events) == ["timeout"] * 3
    assert legal(folder, events)


def test_a_bot_flooding_its_standard_error_cannot_stall_the_referee(folder: Path) -> None:
    """Attack (issue 43): 4 MB of standard error at every decision. The game is legal, and
    its log keeps the first MiB, then a line, then the count of the rest."""
    body = "def choose(m, count):\n    sys.stderr.write('x' * 4000000); sys.stderr.flush()\n    return 0\n"
    logs = folder / "logs"
    logs.mkdir()
    events = simulate(2, 1, [bot(folder, body), "random"], bots=BotOptions(ms=2000, logs=str(logs)))
    assert faults(events) == []
    kept, said, count = (logs / "ann-game-000001.log").read_bytes().rsplit(b"\n", 3)[:3]
    assert kept == b"x" * programs.STDERR_CAP  # the game's first MiB, then one line and the count
    assert said == b"bkref: over 1 MiB of standard error in this game: the rest is dropped"
    dropped = int(count.removeprefix(b"bkref: ").removesuffix(b" bytes of standard error dropped in this game"))
    written = dropped + programs.STDERR_CAP  # all it wrote, counted: 4 MB a decision, over 64 MiB a game
    assert written >= 64 << 20 and written % 4_000_000 == 0
    quiet = simulate(2, 1, [bot(folder, body), "random"], bots=BotOptions(ms=2000))  # discarded
    assert to_jsonl(quiet[1:]) == to_jsonl(events[1:])


def test_a_bot_that_cannot_start_or_never_says_hello(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = simulate(2, 1, [f"cmd:{folder}/no-such-bot", "random"], bots=FAST)
    assert faults(events) == ["exit"] * 3
    assert legal(folder, events)
    monkeypatch.setattr(programs, "HELLO_SECONDS", 0.3)  # the contract's 10 s, shortened for the test
    mute = folder / "mute.py"
    mute.write_text("import time\ntime.sleep(600)\n")
    events = simulate(2, 1, [f"cmd:{sys.executable} {mute}", "random"], bots=FAST)
    assert faults(events) == ["exit"] * 3


def test_a_bot_that_exits_before_its_hello_is_told_so_at_once(folder: Path) -> None:
    with pytest.raises(BotFault) as raised:
        Engine.open([sys.executable, str(folder / "no-such-bot.py")])
    said = f"{sys.executable}: can't open file '{folder / 'no-such-bot.py'}': [Errno 2] No such file or directory"
    assert str(raised.value) == f"exit: it exited with status 2 before its hello (its standard error ended: {said})"


def test_processes_are_reused_across_games_and_every_message_fits_the_schema(folder: Path) -> None:
    log = folder / "received.jsonl"
    spec = bot(folder, LAST, log=log)
    logs = list(run(simulate_jobs(2, 1, [spec, spec], 2), Local(), SAFE))
    assert [job.name for job, _ in logs] == ["2p-seed-000001.jsonl", "2p-seed-000002.jsonl"]
    received = [json.loads(line) for line in log.read_text().splitlines()]
    assert len({r["pid"] for r in received}) == 2  # one process per seat, for both games
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    kinds = set()
    for r in received:
        message = r["message"]
        kinds.add(message["type"])
        assert list(validator.iter_errors(message)) == [], message["type"]
        assert "meta" not in json.dumps(message)  # no meta, so no seed of the deal, ever
    assert kinds == {"hello", "game", "seen", "hand", "reveal", "decide", "over", "quit"}
    assert validator.is_valid({"type": "move", "id": 3, "index": 0, "info": {"eval": 1.5}})
    assert not validator.is_valid({"type": "move", "id": 3})


def test_every_bot_process_of_a_parallel_run_is_told_quit(folder: Path) -> None:
    """A run of ``-j 2`` that ends tells each of its bot processes ``quit`` and lets it end,
    the last game's too (its worker was once stopped as if the run were cut short: the bot
    was killed in the middle of what it wrote at ``over``)."""
    log = folder / "received.jsonl"
    spec = bot(folder, LAST, log=log)
    args = ["tournament", "--players", "2", "--bot", f"b={spec}", "--bot", "g=greedy", "--deals", "2"]
    args += ["--schedule", "random", "-j", "2", "--unsealed", "--seed", "7", "-o", str(folder / "t")]
    made = subprocess.run([*BKREF_COMMAND, *args], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    told: dict[int, list[str]] = {}  # by process: the types of the messages it was sent
    for line in log.read_text().splitlines():
        message = json.loads(line)
        told.setdefault(message["pid"], []).append(message["message"]["type"])
    played = [types for types in told.values() if "game" in types]  # not the check before the run
    assert len(played) == 2 and [types[-2:] for types in played] == [["over", "quit"]] * 2


def test_picks_are_asked_of_every_program_at_once(folder: Path) -> None:
    """At the first pick each bot answers only once the other has its decision too: asked one
    after the other, the first would wait past its time (a timeout fault)."""
    body = (
        "import time\n"
        "def choose(m, count):\n"
        "    if count == 1:\n"
        "        open(os.path.join(FOLDER, ME), 'w').close()\n"
        "        for _ in range(300):\n"
        "            if os.path.exists(os.path.join(FOLDER, OTHER)): break\n"
        "            time.sleep(0.01)\n"
        "    return 0\n"
    )
    specs = [
        bot(folder, f"FOLDER, ME, OTHER = {str(folder)!r}, {me!r}, {other!r}\n" + body, f"{me}.py")
        for me, other in (("a", "b"), ("b", "a"))
    ]
    events = simulate(2, 1, specs, bots=BotOptions(ms=2000, seal=TRUSTED))  # they meet in the test's folder
    assert faults(events, "ann") == faults(events, "bob") == []


def test_the_engine_api_asks_a_bot_for_a_move_on_a_position(folder: Path) -> None:
    state = State()
    for event in simulate(3, seed=1)[:2]:
        state.play(event)
    with Engine.open([sys.executable, str(ROOT / "examples" / "bots" / "random_bot.py")]) as engine:
        assert (engine.name, engine.version) == ("random_bot.py", "1")
        played = engine.ask(state, "ann", ms=5000)
        assert played.move in moves.picks(state, "ann")
        assert played.info == {"hand": 0}
    with pytest.raises(BotFault) as raised:
        Engine.open([str(folder / "missing")])
    assert raised.value.kind == "exit"


def test_the_engine_api_refuses_a_bot_that_asks_for_no_views(folder: Path) -> None:
    """A position is all ``Engine.ask`` gives a bot, and only a view holds it."""
    state = State()
    for event in simulate(3, seed=1)[:2]:
        state.play(event)
    command = bot(folder, "def choose(m, count):\n    return 0\n", hello={"views": "none"})
    with Engine.open(command_of(command)) as engine, pytest.raises(ValueError, match="asked for no views"):
        engine.ask(state, "ann")


@pytest.mark.parametrize(
    "command", [[sys.executable, "examples/bots/random_bot.py"], ["node", "examples/bots/random_bot.js"]]
)
def test_the_example_bots_play_whole_games(folder: Path, command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    spec = "cmd:" + " ".join(command)
    events = simulate(3, 7, [spec, spec, "greedy"], bots=BotOptions(ms=5000))
    assert all(faults(events, p) == [] for p in ("ann", "bob"))
    assert legal(folder, events)
    again = simulate(3, 7, [spec, spec, "greedy"], bots=BotOptions(ms=5000))
    assert to_jsonl(again[1:]) == to_jsonl(events[1:])  # the same seed and bots: the same game
    assert len(Path(ROOT / command[-1]).read_text().splitlines()) < 60


def test_the_command_line_deck_and_bot_options(bkref, folder: Path) -> None:
    source = folder / "source.jsonl"
    source.write_text(to_jsonl(simulate(3, 9)[:1]))  # only its game event
    spec = bot(folder, LAST)
    made = bkref(
        "simulate", "--players", 3, "--seed", 1, "--deck", source, "--policy", spec,
        "--move-time", 300, "--max-faults", 1, "--bot-logs", folder / "logs", "-o", folder / "g.jsonl",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    game = json.loads((folder / "g.jsonl").read_text().splitlines()[0])
    assert game["deck"] == json.loads(source.read_text())["deck"]
    assert sorted(game["meta"]["bots"]) == ["ann", "bob", "cid"]
    assert bkref("validate", folder / "g.jsonl").exit_code == 0
    written = sorted(p.name for p in (folder / "logs").iterdir())
    assert written == [f"{p}-game-000001.log" for p in ("ann", "bob", "cid")]
    (folder / "nodeck.jsonl").write_text('{"type":"game","format":"bkref/1","players":["ann","bob"]}\n')
    refused = bkref("simulate", "--players", 2, "--seed", 1, "--deck", folder / "nodeck.jsonl")
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"bkref: error: {folder / 'nodeck.jsonl'}:1: the game event gives no deck; --deck needs one\n"
    )


@pytest.mark.parametrize(
    "limit", ["memory=17592186044416", "file=99999999999999", "cpu=99999999999999999999", "processes=1000000001"]
)
def test_a_bot_limit_past_what_the_kernel_takes_is_refused_in_one_line(bkref, folder: Path, limit: str) -> None:
    """The audit's limits, larger than a kernel's limit can be: refused as any bad option
    (they ended in a traceback from the bot's start). The largest allowed plays."""
    spec = bot(folder, LAST)
    refused = bkref("simulate", "--players", 2, "--seed", 1, "--policy", spec, "--bot-limit", limit)
    kind = limit.partition("=")[0]
    assert (refused.exit_code, refused.stderr) == (
        2,
        f"bkref: error: --bot-limit must be {kind}=N, N a whole number from 1 to 1,000,000,000, not {limit!r}\n",
    )
    largest = bkref("simulate", "--players", 2, "--seed", 1, "--policy", spec, "--bot-limit", f"{kind}=1000000000")
    assert largest.exit_code == 0, largest.stderr


@pytest.mark.usefixtures("ctrl_c_as_in_a_terminal")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_no_bot_process_outlives_bkref_stopped_by_a_signal(folder: Path, signum: int) -> None:
    """SIGTERM and Ctrl-C go through every ``finally``; SIGKILL (a crash) leaves the kernel to
    end the bot (PR_SET_PDEATHSIG, and bwrap's --die-with-parent for a sealed bot). The
    fixture checks that no process of the test is left."""
    body = "import time\ndef choose(m, count):\n    time.sleep(600)\n"
    args = ["simulate", "--players", "2", "--seed", "1", "--policy", bot(folder, body), "--policy", "greedy"]
    run = subprocess.Popen(
        [*BKREF_COMMAND, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    for _ in range(600):
        if bot_running(folder):
            break
        time.sleep(0.05)
    assert bot_running(folder)
    run.send_signal(signum)
    status = run.wait(timeout=30)
    assert status == {signal.SIGTERM: 128 + signal.SIGTERM, signal.SIGKILL: -signal.SIGKILL}.get(signum, status)
    assert status != 0
    for _ in range(100):
        if not processes_in(folder):
            break
        time.sleep(0.05)


def test_the_committed_schema_is_what_the_types_generate() -> None:
    assert SCHEMA_FILE.read_text() == protocol_schema(), "run `python -m tests.test_bots`"


def test_a_policy_error_mid_game_stops_the_bots_and_tells_them(folder: Path) -> None:
    from bkref.bots.errors import PolicyError

    log = folder / "received.jsonl"
    (folder / "broken.py").write_text("def play(view, moves, rng):\n    raise RuntimeError('no')\n")
    with pytest.raises(PolicyError):
        simulate(2, 1, [bot(folder, LAST, log=log), f"{folder / 'broken.py'}:play"], bots=FAST)
    received = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    assert received[-2]["type"] == "over" and received[-2]["aborted"] is True
    assert received[-1]["type"] == "quit"


def test_the_decisions_come_in_the_order_of_the_rules(folder: Path) -> None:
    """Each pick after its hand; camps first in ascending priority; builds asked again until null."""
    from bkref.game.catalog import CARDS

    log = folder / "received.jsonl"
    camper = (  # a pick with a camp when there is one; else the first move
        "def choose(m, count):\n"
        "    keeps = [mv.get('keep', []) if mv else [] for mv in m['moves']]\n"
        "    camps = [i for i, keep in enumerate(keeps) if any(c.startswith('camp') for c in keep)]\n"
        "    return camps[0] if camps else 0\n"
    )
    events = simulate(3, 3, [bot(folder, camper, log=log), "random", "random"], bots=SAFE)
    assert faults(events) == []
    received = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    decides = [m for m in received if m["type"] == "decide"]
    ids = [m["id"] for m in decides]
    assert ids == sorted(set(ids))  # ids rise strictly
    for i, m in enumerate(received):
        if m["type"] == "decide" and m["kind"] == "pick":
            hand = next(h for h in reversed(received[:i]) if h["type"] == "hand")
            assert (hand["round"], hand["turn"]) == (m["view"]["round"], m["view"]["turn"])
            assert sorted(hand["cards"]) == sorted(m["view"]["hand"])
    assert {"pick", "camp", "build"} <= {m["kind"] for m in decides}
    for round_ in range(1, 5):
        construction = [m for m in decides if m["kind"] in ("camp", "build") and m["view"]["round"] == round_]
        kinds = [m["kind"] for m in construction]
        assert kinds == sorted(kinds, key=("camp", "build").index)  # camps first
        camps = [CARDS[m["moves"][0]["card"]].priority for m in construction if m["kind"] == "camp" and m["moves"][0]]
        assert camps == sorted(camps)
        builds = [m for m in construction if m["kind"] == "build"]
        assert all(m["moves"][-1] is None for m in construction)
        assert builds[-1]["moves"] == [None]  # asked again until nothing but null is left (index 0)
        assert all(mv["card"].startswith("camp") is False for m in builds for mv in m["moves"] if mv)
    assert legal(folder, events)


FIRST = "def choose(m, count):\n    return 0\n"


def once(items: list) -> list:
    return [item for i, item in enumerate(items) if item not in items[:i]]


def test_under_r3_follow_the_copiers_are_asked_one_at_a_time_each_keeping_the_whole_legal(folder: Path) -> None:
    """R3 ``follow``: the second copier is offered only the parts that agree with the first's
    choice; here it copies the first copier's card (a copy of a copy, legal only under follow)."""
    from bkref.game.events import End, Rulings

    follow = Rulings(copy_of_copy="follow")
    logs = {p: folder / f"{p}.jsonl" for p in ("ann", "bob", "cid")}
    specs = [bot(folder, FIRST, f"{p}.py", log) for p, log in logs.items()]
    events = simulate(3, 33, specs, bots=SAFE, rulings=follow)
    (folder / "first.py").write_text("def play(view, moves, rng):\n    return moves[0]\n")
    python = simulate(3, 33, f"{folder / 'first.py'}:play", rulings=follow, seat_streams=True)
    assert to_jsonl(events[1:]) == to_jsonl(python[1:])  # the same logic, as programs or as a policy
    assert events[-1].copies == {"ann": {"liberal": "burgomaster"}, "cid": {"socialist": "liberal"}}
    state = State()
    for event in events[:-1]:
        state.play(event)
    legal_ends = [end.copies for end in moves.ends(state)]
    asked = {
        p: [m for line in log.read_text().splitlines() if (m := json.loads(line)["message"]).get("kind") == "end"]
        for p, log in logs.items()
    }
    assert [len(asked[p]) for p in logs] == [1, 0, 1]
    ann = [End(**{k: v for k, v in m.items() if k != "type"}).copies for m in asked["ann"][0]["moves"]]
    cid = [End(**{k: v for k, v in m.items() if k != "type"}).copies for m in asked["cid"][0]["moves"]]
    assert ann == once([{"ann": e["ann"]} for e in legal_ends])  # all of ann's own, once each
    agreeing = [{"cid": e["cid"]} for e in legal_ends if e["ann"] == events[-1].copies["ann"]]
    assert cid == once(agreeing)  # exactly those that keep the whole legal with ann's choice
    assert {"cid": {"socialist": "liberal"}} in cid  # among them the copy of a copy: only under follow
    assert legal(folder, events)


def test_in_a_mixed_game_python_policies_decide_while_the_programs_think(folder: Path) -> None:
    """The bot holds its first pick until the Python policy of another seat has seen its
    decision arrive: asked one after the other, the bot would wait past its time (a fault)."""
    received, release = folder / "received.jsonl", folder / "release"
    holding = (
        "import time\n"
        "def choose(m, count):\n"
        f"    deadline = time.monotonic() + 4\n"
        f"    while count == 1 and not os.path.exists({str(release)!r}) and time.monotonic() < deadline:\n"
        "        time.sleep(0.01)\n"
        "    return 0\n"
    )
    (folder / "waiter.py").write_text(
        "import os, time\n"
        "def play(view, moves, rng):\n"
        "    deadline = time.monotonic() + 4\n"
        f"    while not os.path.exists({str(received)!r}) and time.monotonic() < deadline:\n"
        "        time.sleep(0.01)\n"
        f"    open({str(release)!r}, 'w').close()\n"
        "    return moves[0]\n"
    )
    events = simulate(2, 5, [bot(folder, holding, log=received), f"{folder / 'waiter.py'}:play"], bots=FAST)
    assert faults(events) == []
    assert release.exists()
    assert legal(folder, events)


def test_a_programs_time_and_faults_are_its_own_however_slow_the_python_policies(folder: Path) -> None:
    """A policy that takes 0.2 s a pick beside a bot: the instant bot's time stays its own, and a
    bot that replies after its time is late, however long the policy kept bkref busy."""
    (folder / "slow.py").write_text(
        "import time\ndef play(view, moves, rng):\n    time.sleep(0.2)\n    return moves[0]\n"
    )
    slow = f"{folder / 'slow.py'}:play"
    instant = simulate(2, 3, [bot(folder, FIRST, "instant.py"), slow], bots=SAFE)
    assert faults(instant) == [] and instant[0].meta["bots"]["ann"]["ms"] < 1000  # 0.2 s a pick: ~5 s in all
    late = "import time\ndef choose(m, count):\n    time.sleep(0.15 if m['kind'] == 'pick' else 0)\n    return 0\n"
    events = simulate(2, 3, [bot(folder, late, "late.py"), slow], bots=BotOptions(ms=50, max_faults=1))
    assert faults(events) == ["timeout"]


def test_in_a_mixed_game_every_seat_places_its_camps_first_in_priority_order(folder: Path) -> None:
    from bkref.game.catalog import CARDS
    from bkref.game.events import Build

    events = simulate(4, 2, [bot(folder, LAST), "greedy", "random", "greedy"], bots=SAFE)
    builds = [e for e in events if isinstance(e, Build)]
    assert {e.player for e in builds if CARDS[e.card].kind == "camp"} - {"ann"}  # Python seats place camps
    for round_ in range(1, 5):
        kinds = [CARDS[e.card].kind == "camp" for e in builds if e.round == round_]
        assert kinds == sorted(kinds, reverse=True)  # every camp before every other building
        priorities = [CARDS[e.card].priority for e in builds if e.round == round_ and CARDS[e.card].kind == "camp"]
        assert priorities == sorted(priorities)
    assert legal(folder, events)


if __name__ == "__main__":
    SCHEMA_FILE.write_text(protocol_schema())
