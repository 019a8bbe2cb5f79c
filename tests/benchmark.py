"""The speed benchmark: ``python -m tests.benchmark [--games N] [--repeat R]``.

It makes a fixed, seeded set of games with ``bkref simulate`` (N games for each of 2,
3 and 4 players, written to a temporary folder), then prints each figure beside its
target (issues 6 and 15):

- validate throughput in one process, in games/s and events/s (logs already on disk),
  and the same again for the compiled core when ``.venv-compiled`` holds it (docs/development.md),
  each beside its build's targets;
- the same through ``bkref validate -j 2``'s code path, in two processes;
- standings throughput (the records, the aggregates and the JSON), and standings/validate;
- the time to only decode the same bytes with msgspec, and validate/decode;
- the time for one replay step (lay out and draw the full-screen viewer's 80x24 screen);
- the size of a 4-player game's ``replay --html`` page, the time to make it, and to open it in Chromium;
- the cold start of ``bkref validate`` on one small log, from process start, in each build;
- peak memory of ``bkref validate`` on a folder of logs and on one four times larger;
- peak memory of ``bkref validate`` on 100 MB of concatenated games in each format, beside
  a single game's, and of ``bkref replay`` on a 5 MB log; the slowest step back in that replay;
- the time per line of a log padded with 200,000 blank and comment lines;
- with ``--knowledge`` (instead of the rest), what a player's view costs at a decision beside
  the engine's time for an event, and a seen log beside validate (issue 26);
- with ``--bots`` (instead of the rest), the round trip of one decision to an instant bot
  program, sealed and unsealed, beside the same bytes through a pipe to a process that
  echoes them (target: at most 2x); bkref's time a decision over real games beside a bare
  driver moving the same bytes, for each way the bot asks for its views (``whole``,
  ``patch``, ``none``: issue 42, target at most 1.5x); and the games/s of 4 instant bot
  programs, their processes reused, sealed and unsealed (issues 27 and 43);
- with ``--mistakes`` (instead of the rest), how bkref reports single mistakes (issue 25,
  ``tests.mistakes``): the share of mistakes with exactly one root problem (one naming no
  earlier problem), overall and by kind, and the mean number of problems a mistake gives;
  the same in those logs without their deck; and the share of pairs of independent mistakes
  reported as two roots on their two lines (issue 45); on the replays and 2.5 x ``--games``
  seeded games per player count (100 by default), every case that falls short listed by kind;
- with ``--selfplay`` (instead of the rest), self-play (issue 29): the time 4-player games
  take to play with ``random`` and with ``greedy``, and to list the legal moves of every
  decision of a game through ``bkref.game.moves``, each beside validate's time for the same
  games, in each build; and the peak memory of ``bkref simulate --games`` at two sizes;
- with ``--tournament`` (instead of the rest), a tournament of bundled bots at two sizes
  (issue 42): its time per game at 5N and at 50N games (target: within 1.25 x), its peak
  memory (target: within 1.1 x), and its time beside ``simulate --games`` on as many games
  (target: at most 2 x); then ``bkref standings`` of each tournament's folder, its time per
  game and its peak memory (target: within 1.1 x);
- with ``--instructions``, the instructions one 4-player game costs validate and decode in
  each build, and their ratio, and those of self-play with ``random`` beside validate on
  the same games (target: at most 3 x), counted by valgrind's callgrind: the same on every
  run whatever the machine's load, where the timings vary.

The timings run in a fresh process, as ``bkref validate`` would, after 3 s of
validating to warm up (tournament-sized runs last longer than that); each is the best
of ``--repeat`` runs, validate and decode timed in turn (``best_in_turn``). The figures
are printed, never asserted: they depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from bkref.bots.simulate import simulate, to_jsonl
from bkref.game.engine import CHECKPOINT
from bkref.game.events import Event
from bkref.game.moves import LegalMoves, Lister, builds
from bkref.io.batch import Local
from bkref.io.referee import Step, check, check_item, play
from bkref.io.standings import aggregate, game_record, to_json
from bkref.views.navigation import load
from bkref.views.viewer import Viewer, draw, renderer, screen
from tests import mistakes

ROOT = Path(__file__).resolve().parent.parent


def make_games(folder: Path, games: int) -> dict[int, list[Path]]:
    """``games`` logs per player count: seeds 0.., every fourth one greedy, the rest random."""
    made: dict[int, list[Path]] = {}
    for players in (2, 3, 4):
        made[players] = []
        for seed in range(games):
            policy = "greedy" if seed % 4 == 3 else "random"
            path = folder / f"{players}p-seed{seed}-{policy}.jsonl"
            path.write_text(to_jsonl(simulate(players, seed, policy)))
            made[players].append(path)
    return made


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The shortest of ``runs`` timings of ``work``, in seconds (the least disturbed run)."""
    return best_in_turn(runs, work)[0]


def best_in_turn(runs: int, *works: Callable[[], object]) -> list[float]:
    """The shortest of ``runs`` timings of each of ``works``, in seconds, timed in turn: a slow
    spell of the machine slows them alike, so their ratio holds better than that of two
    figures timed one after the other."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(runs):
        for work, taken in zip(works, times):
            start = time.perf_counter()
            work()
            taken.append(time.perf_counter() - start)
    return [min(taken) for taken in times]


def validate_all(paths: list[Path]) -> int:
    events = 0
    for path in paths:
        report = check(path, keep_state=False)
        assert report.status == 0, report.diagnostics[:1]
        events += report.events
    return events


def padded_log(path: Path, folder: Path, pairs: int = 100_000) -> tuple[Path, int]:
    """``path`` with ``pairs`` blank and comment lines after its game event (what runs of
    lines that are not events cost), and how many lines that adds."""
    game, rest = path.read_bytes().split(b"\n", 1)
    padded = folder / "padded.txt"  # not *.jsonl: the folder's logs stay the games
    padded.write_bytes(game + b"\n" + b"\n# a comment\n" * pairs + rest)
    return padded, 2 * pairs


def decode_all(paths: list[Path]) -> None:
    decode = msgspec.json.Decoder(Event).decode
    for path in paths:
        with path.open("rb") as handle:
            for line in handle:
                decode(line)


def peak_memory_kb(command: list[str]) -> int:
    """The peak resident memory of ``command``, in KiB."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_maxrss


PEAK = """
import sys
from bkref.cli import main
sys.argv = ["bkref", *sys.argv[1:]]
try:
    main()
finally:
    with open("/proc/self/status") as status:
        sys.stderr.write(next(line for line in status if line.startswith("VmHWM:")))
"""


def peak_rss_kb(args: list[str]) -> int:
    """The peak resident memory of ``bkref ARGS`` in KiB, as the process itself reads it (VmHWM,
    Linux): the ``ru_maxrss`` its parent gets counts the parent's own memory too, when it is
    the larger (the child starts as a copy of it)."""
    done = subprocess.run([sys.executable, "-c", PEAK, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(done.stderr.decode().split()[-2])


def concatenated(games: list[Path], path: Path, size: int) -> Path:
    """``games`` one after the other, again and again, to ``size`` bytes or more: a log with a
    problem on nearly every line (T1: everything after the first game's end)."""
    logs = b"".join(game.read_bytes() for game in games)
    path.write_bytes(logs * -(-size // len(logs)))
    return path


def memory_figures(four: list[Path], folder: Path) -> None:
    """Peak memory of validate on 100 MB of concatenated games in each format, beside a single
    game's; of replay on a 5 MB log; and the slowest step back in that replay."""
    huge = concatenated(four, folder / "concatenated-100MB.log", 100 * 2**20)
    for output in ("text", "json", "github", "sarif"):
        one = peak_rss_kb(["validate", "--format", output, str(four[0])])
        many = peak_rss_kb(["validate", "--format", output, str(huge)])
        line(f"peak memory, validate 100 MB ({output})", f"{many / 1024:.1f} MiB", f"one game {one / 1024:.1f} MiB")
        line("  / one game", f"{many / one:.2f} x", "flat in the problems (<= 1.1 x)", many <= one * 1.1)
    log = concatenated(four, folder / "concatenated-5MB.log", 5 * 2**20)
    peak = peak_rss_kb(["replay", str(log)])
    line("peak memory, replay of a 5 MB log", f"{peak / 1024:.1f} MiB", "< 200 MiB", peak < 200 * 1024)
    steps = load(log)
    viewer, con, screen_out = Viewer(steps, 0, "event"), renderer(color=True), io.StringIO()
    step_times = []
    for index in reversed(range(len(steps) - 3 * CHECKPOINT, len(steps))):  # back over kept states
        begin = time.perf_counter()
        viewer.index = index
        draw(screen_out, screen(con, viewer, log.name, (80, 24), None))
        step_times.append(time.perf_counter() - begin)
    line(
        f"replay step back, 5 MB log ({len(steps):,} events), slowest",
        f"{max(step_times) * 1e3:.1f} ms",
        "< 20 ms",
        max(step_times) < 0.020,
    )
    made = []
    for index in range(CHECKPOINT - 2, len(steps), 7 * CHECKPOINT):  # the farthest from a kept state, none made yet
        begin = time.perf_counter()
        steps[index].state  # noqa: B018 (what is timed: the state made again)
        made.append(time.perf_counter() - begin)
    line(
        f"  of which a position made again ({CHECKPOINT - 1} events), slowest",
        f"{max(made) * 1e3:.2f} ms",
        "< 20 ms",
        max(made) < 0.020,
    )


def line(name: str, figure: str, target: str = "", ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{name:<44} {figure:>22}   {target}{mark}")


TARGETS = {"pure Python": (2000, 7.5), "compiled": (3000, 5.0)}
"""Each build's targets: at least this many 4-player games/s, at most this many times decode."""


def build() -> str:
    """The build of bkref this process runs: ``compiled`` (mypyc) or ``pure Python``."""
    from bkref.game import engine

    return "pure Python" if engine.__file__.endswith(".py") else "compiled"


def throughput(folder: Path, repeat: int) -> float:
    """Validate and decode the 4-player games in ``folder``; print the figures beside this
    build's targets and return the validate timing (seconds)."""
    four = sorted(folder.glob("4p-*.jsonl"))
    warm_until = time.perf_counter() + 3  # the first seconds of load run slower on some machines
    while time.perf_counter() < warm_until:
        validate_all(four)
    seconds, decode = best_in_turn(repeat, lambda: validate_all(four), lambda: decode_all(four))
    events = validate_all(four)
    kind = build()
    least, most = TARGETS[kind]
    line(
        f"validate, 4 players, one process ({kind})",
        f"{len(four) / seconds:,.0f} games/s",
        f">= {least:,} games/s",
        len(four) / seconds >= least,
    )
    line("", f"{events / seconds:,.0f} events/s")
    line("validate, 4 players", f"{seconds / len(four) * 1e3:.3f} ms/game")
    line("decode only (msgspec), 4 players", f"{decode / len(four) * 1e3:.3f} ms/game")
    line(f"validate / decode ({kind})", f"{seconds / decode:.1f} x", f"<= {most} x", seconds / decode <= most)
    return seconds


def bkref_command() -> str:
    """The ``bkref`` command of the environment this process runs in."""
    return shutil.which("bkref", path=str(Path(sys.executable).parent)) or "bkref"


def cold_start(repeat: int) -> None:
    """Time ``bkref validate`` on one small log from process start, as an installed bkref
    starts: with its bytecode written (pip writes it on install, Python on a checkout's first
    run). PYTHONDONTWRITEBYTECODE, where it is set, is left out of the command's environment:
    with it, a checkout whose bytecode was never written compiles bkref's source at every
    start (40 ms more on a 120 ms start). The best of 4 x ``repeat`` starts (at least 10)."""
    command = [bkref_command(), "validate", str(ROOT / "replays" / "2p-ann-bob.jsonl")]
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, capture_output=True, check=True, env=env)  # writes the bytecode
    starts = []
    for _ in range(max(10, repeat * 4)):
        begin = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True, env=env)
        starts.append(time.perf_counter() - begin)
    cold = min(starts)
    line(
        f"cold start ({build()}): validate a small log",
        f"{cold * 1e3:.0f} ms (median {statistics.median(starts) * 1e3:.0f})",
        "<= 120 ms",
        cold <= 0.120,
    )


def measure(folder: Path, repeat: int) -> None:
    """Time everything on the logs in ``folder`` (run in a fresh process, as bkref would be)."""
    bkref = bkref_command()
    games = {n: sorted(folder.glob(f"{n}p-*.jsonl")) for n in (2, 3, 4)}
    four = games[4]
    every = games[2] + games[3] + games[4]

    seconds = throughput(folder, repeat)
    standings = best_of(repeat, lambda: to_json(aggregate([game_record(p) for p in four], include_illegal=False)))
    line("standings --format json, 4 players", f"{len(four) / standings:,.0f} games/s")
    line("standings / validate", f"{standings / seconds:.2f} x", "<= 1.5 x", standings / seconds <= 1.5)
    all_seconds = best_of(repeat, lambda: validate_all(every))
    line("validate, 2-4 players, one process", f"{len(every) / all_seconds:,.0f} games/s")
    padded, extra = padded_log(four[0], folder)
    per_line = best_of(3, lambda: validate_all([padded])) / extra
    line(f"validate, {extra:,} blank and comment lines", f"{per_line * 1e6:.2f} us a line", "< 2 us", per_line < 2e-6)

    batch = four * 10
    parallel = best_of(max(1, repeat // 2), lambda: sum(r.events for r in Local(2).map(check_item, batch)))
    line(f"validate -j 2, 4 players ({len(batch)} logs)", f"{len(batch) / parallel:,.0f} games/s")

    constructions = []  # each construction phase of the 4-player games, as it opens
    for path in four:
        phase = "setup"
        for item in play(path):
            if isinstance(item, Step):
                if item.state.phase == "building" and phase != "building":
                    constructions.append(item.state.copy())
                phase = item.state.phase
    listing = [best_of(repeat, lambda state=state: builds(state)) for state in constructions]
    most = max(len(builds(state)) for state in constructions)
    line(
        f"legal builds, 4 players ({len(constructions)} phases)",
        f"{statistics.mean(listing) * 1e3:.2f} ms mean",
        f"up to {most} builds",
    )
    line("legal builds, slowest phase", f"{max(listing) * 1e3:.2f} ms", "< 5 ms", max(listing) < 0.005)

    steps = load(four[0])
    viewer, con, screen_out = Viewer(steps, 0, "event"), renderer(color=True), io.StringIO()
    step_times = []
    for index in range(len(steps)):  # what one key of --step costs: lay out and draw the full 80x24 screen
        begin = time.perf_counter()
        viewer.index = index
        draw(screen_out, screen(con, viewer, four[0].name, (80, 24), None))
        step_times.append(time.perf_counter() - begin)
    slowest = max(step_times)
    line("replay step (draw one 80x24 screen), mean", f"{statistics.mean(step_times) * 1e3:.1f} ms")
    line("replay step, slowest", f"{slowest * 1e3:.1f} ms", "< 20 ms", slowest < 0.020)

    page_figures(four[:10], repeat, folder)

    cold_start(repeat)

    larger = folder / "x4"
    larger.mkdir()
    for i in range(4):
        for path in every:
            shutil.copy(path, larger / f"{i}-{path.name}")
    few = peak_memory_kb([bkref, "validate", *map(str, every)])
    many = peak_memory_kb([bkref, "validate", str(larger)])
    line(f"peak memory, {len(every)} logs", f"{few / 1024:.1f} MiB")
    line(
        f"peak memory, {4 * len(every)} logs",
        f"{many / 1024:.1f} MiB",
        "flat in the number of files",
        many <= few * 1.1,
    )
    memory_figures(four, folder)


def page_figures(logs: list[Path], repeat: int, folder: Path) -> None:
    """``replay --html`` on 4-player games: the page's size, the time to make it, and to open it
    in Chromium (navigation start to the load event, the page's script included)."""
    from bkref.views.page import page
    from tests.test_browser import CHROMIUM, FLAGS, MISSING, sync_playwright

    pages = []
    made = []
    for i, log in enumerate(logs):
        steps = load(log)
        begin = time.perf_counter()
        text = page(steps, len(steps) - 1, log.name)
        made.append(time.perf_counter() - begin)
        pages.append(folder / f"page-{i}.html")
        pages[-1].write_text(text, encoding="utf-8")
    biggest = max(p.stat().st_size for p in pages)
    line("replay --html, 4 players: largest page", f"{biggest / 1e6:.2f} MB", "< 2 MB", biggest < 2e6)
    line("replay --html, 4 players: make one page", f"{min(made) * 1e3:.0f} ms (max {max(made) * 1e3:.0f})")
    if MISSING is not None or sync_playwright is None:
        line("replay --html: open in Chromium", "not measured", MISSING or "")
        return
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        opened = []
        for path in pages:
            times = []
            for _ in range(max(1, repeat // 2)):
                tab = browser.new_page()
                tab.goto(path.as_uri())
                times.append(tab.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1e3)
                tab.close()
            opened.append(min(times))
        browser.close()
    slowest = max(opened)
    line("replay --html: open in Chromium, slowest", f"{slowest * 1e3:.0f} ms", "< 1 s", slowest < 1)


def knowledge_figures(four: list[Path], repeat: int) -> None:
    """What a player's view costs at each pick of the 4-player games, made during the replay
    (the state is the one the engine just played; 10 times, so that the difference stands out
    of the noise; less the same replay calling a function that does nothing 10 times, the
    benchmark's own loop), beside the engine's mean time for one event; and
    each game's seen log (read, seen, written as JSON lines) beside validate."""
    from bkref.game.engine import State
    from bkref.game.events import Pick
    from bkref.game.knowledge import seen_events, view

    decode, encode = msgspec.json.Decoder(Event).decode, msgspec.json.encode
    logs = [[decode(raw) for raw in path.read_bytes().splitlines()] for path in four]
    events = sum(map(len, logs))
    picks = sum(isinstance(event, Pick) for events in logs for event in events)

    def replay(looking: Callable[[State, str], object] | None) -> None:
        for log in logs:
            state = State()
            for event in log:
                if looking is not None and type(event) is Pick:
                    for _ in range(10):
                        looking(state, event.player)
                state.play(event)

    plain, called, made, read, whole = best_in_turn(
        repeat,
        lambda: replay(None),
        lambda: replay(lambda state, player: None),
        lambda: replay(view),
        lambda: replay(lambda state, player: view(state, player).hand),
        lambda: replay(lambda state, player: encode(view(state, player).struct())),
    )
    engine = plain / events
    line("engine, 4 players: one event", f"{engine * 1e6:.2f} us")
    for name, timed, target in (
        ("view at a pick, made", made, True),
        ("view at a pick, made and its hand read", read, False),
        ("view at a pick, whole as JSON (bot protocol)", whole, False),
    ):
        cost = (timed - called) / picks / 10
        mark = cost <= 0.05 * engine if target else None
        line(name, f"{cost * 1e6:.2f} us ({cost / engine:.1%})", "<= 5 % of an event" if target else "", mark)

    def seen_logs() -> None:
        for path in four:
            events = [decode(raw) for raw in path.read_bytes().splitlines()]
            b"".join(encode(seen) + b"\n" for seen in seen_events(events, "ann"))

    seen, validate = best_in_turn(repeat, seen_logs, lambda: validate_all(four))
    line("seen log, 4 players (read, see, write)", f"{seen / len(four) * 1e3:.3f} ms/game")
    line("seen log / validate", f"{seen / validate:.2f} x", "<= 1 x", seen <= validate)


def counted_games(folder: Path, work: str) -> list[Path]:
    """The 4-player games of ``folder`` that ``work`` is counted on: the random ones for
    self-play and its validate, else all."""
    return sorted(folder.glob("4p-*-random.jsonl" if work in ("selfplay", "validate-random") else "4p-*.jsonl"))


def count(folder: Path, work: str, runs: int) -> None:
    """``work`` on the 4-player games in ``folder`` (``counted_games``): validate, decode,
    play them again with ``random`` (selfplay), or validate the random ones; once, then
    ``runs`` times more (the instructions of those runs are what ``instructions_per_game``
    counts)."""
    games = counted_games(folder, work)
    seeds = [int(path.name.split("-")[1].removeprefix("seed")) for path in games]
    run = {
        "validate": validate_all,
        "validate-random": validate_all,
        "decode": decode_all,
        "selfplay": lambda _: [simulate(4, seed, "random") for seed in seeds],
    }[work]
    for _ in range(runs + 1):
        run(games)


def instructions_per_game(command: list[str], folder: Path, work: str) -> float:
    """The instructions one 4-player game of ``folder`` costs ``work`` in the Python of
    ``command``: callgrind's count of 2 runs more than the same start, per game."""
    callgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    seeded = {**os.environ, "PYTHONHASHSEED": "0"}  # the same string hashes, so the same dict and set orders
    counted = []
    for runs in (0, 2):
        counted_run = ["--count", str(folder), "--work", work, "--runs", str(runs)]
        done = subprocess.run(
            [*callgrind, *command, *counted_run], cwd=ROOT, env=seeded, capture_output=True, text=True
        )
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} --count failed: {done.stderr}")
        found = re.search(r"Collected : (\d+)", done.stderr)
        assert found is not None, done.stderr
        counted.append(int(found[1]))
    return (counted[1] - counted[0]) / 2 / len(counted_games(folder, work))


def instruction_figures(commands: dict[str, list[str]], folder: Path) -> None:
    """Print each build's instructions a 4-player game, validate and decode, and their ratio."""
    print("\nInstructions a 4-player game (valgrind's callgrind; the same on every run):")
    if shutil.which("valgrind") is None:
        print("not measured: valgrind is not installed")
        return
    for kind, command in commands.items():
        validate = instructions_per_game(command, folder, "validate")
        decode = instructions_per_game(command, folder, "decode")
        line(f"validate ({kind})", f"{validate / 1e6:.2f} M a game")
        line(f"decode only (msgspec, {kind})", f"{decode / 1e6:.2f} M a game")
        line(f"validate / decode, instructions ({kind})", f"{validate / decode:.2f} x")
        played = instructions_per_game(command, folder, "selfplay")
        checked = instructions_per_game(command, folder, "validate-random")
        line(f"simulate random ({kind})", f"{played / 1e6:.2f} M a game")
        line(
            f"  / validate ({checked / 1e6:.2f} M a game)", f"{played / checked:.2f} x", "<= 3 x", played <= 3 * checked
        )


INSTANT_BOT = """import sys
out = sys.stdout
views = ',"views":"%s"' % sys.argv[1] if len(sys.argv) > 1 else ""  # how it asks for its views, if it does
for line in sys.stdin:  # answers at once: the first move, its id read from the line as bkref writes it
    if line.startswith('{"type":"decide"'):
        out.write('{"type":"move","id":%s,"index":0}\\n' % line[22 : line.index(",", 22)]); out.flush()
    elif line.startswith('{"type":"hello"'):
        out.write('{"type":"hello","protocol":"bkbot/1","name":"instant","version":"1"%s}\\n' % views); out.flush()
    elif line.startswith('{"type":"quit"'):
        break
"""
ECHO = """import sys
for line in sys.stdin:
    sys.stdout.write(line); sys.stdout.flush()
"""


def bot_figures(folder: Path, games: int, repeat: int) -> None:
    """One decision's round trip to an instant bot (a 4-player game's first pick, its view
    included) beside the same bytes echoed through a pipe; then games/s of 4 instant bots."""
    from bkref.bots.program import Program, ask_all, new_decide
    from bkref.bots.sealing import Seal
    from bkref.bots.seats import BotOptions
    from bkref.bots.tournament import run, simulate_jobs
    from bkref.game import moves
    from bkref.game.engine import State
    from bkref.game.knowledge import view
    from bkref.io.batch import Local

    (folder / "instant.py").write_text(INSTANT_BOT)
    (folder / "echo.py").write_text(ECHO)
    state = State()
    for event in simulate(4, seed=1)[:2]:
        state.play(event)
    options = moves.picks(state, "ann")
    seen = view(state, "ann").struct()
    bots = [Program([sys.executable, str(folder / "instant.py")], seal=Seal(sealed=sealed)) for sealed in (True, False)]
    for bot in bots:
        bot.start()
    echo = subprocess.Popen([sys.executable, str(folder / "echo.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert echo.stdin is not None and echo.stdout is not None
    line = msgspec.json.encode(new_decide(bots[0], "pick", options, seen, 5000)) + b"\n"
    rounds = 1000

    def ask(bot: Program) -> Callable[[], None]:
        def asking() -> None:
            for _ in range(rounds):
                ask_all([(bot, new_decide(bot, "pick", options, seen, 5000))])

        return asking

    def echoed() -> None:
        for _ in range(rounds):
            echo.stdin.write(line)  # type: ignore[union-attr]
            echo.stdin.flush()  # type: ignore[union-attr]
            echo.stdout.readline()  # type: ignore[union-attr]

    sealed, unsealed, piped = best_in_turn(repeat, ask(bots[0]), ask(bots[1]), echoed)
    for bot in bots:
        bot.stop()
    echo.stdin.close()
    echo.wait()
    print(
        f"one decision's round trip to an instant bot, sealed: {sealed / rounds * 1e6:.0f} us "
        f"({len(line)} bytes, {len(options)} moves and the view), unsealed: {unsealed / rounds * 1e6:.0f} us; "
        f"the same bytes echoed through a pipe: {piped / rounds * 1e6:.0f} us; "
        f"ratio {sealed / piped:.2f} sealed, {unsealed / piped:.2f} unsealed (target at most 2)"
    )
    spec = f"cmd:{sys.executable} {folder / 'instant.py'}"
    python = best_in_turn(1, lambda: [simulate(4, seed) for seed in range(games)])[0]
    for views in ("whole", "patch", "none"):  # as the bot asks for its views in its hello (issue 42)
        played, floor, asked, sent = over_real_games(spec if views == "whole" else f"{spec} {views}", games, repeat)
        print(
            f"{games} 4-player games of 4 instant bot programs (from {games} to {2 * games}: their start left out), "
            f"unsealed, views {views} ({sent / asked:,.0f} bytes sent a decision), per decision ({asked:,} "
            f"decisions): bkref {played / asked * 1e6:.0f} us, the same bytes each way between the same bots and a "
            f"bare driver {floor / asked * 1e6:.0f} us; ratio {played / floor:.2f} (target at most 1.5)"
        )
    for sealed_too in (True, False):
        start = time.perf_counter()
        for _ in run(simulate_jobs(4, 0, [spec], games), Local(), BotOptions(seal=Seal(sealed=sealed_too))):
            pass
        took = time.perf_counter() - start
        print(
            f"{games} 4-player games of 4 instant bot programs, {'sealed' if sealed_too else 'unsealed'}, processes "
            f"reused: {games / took:.1f} games/s ({took / games * 1000:.0f} ms a game; the random policy "
            f"in-process: {python / games * 1000:.0f} ms a game)"
        )


def over_real_games(spec: str, games: int, repeat: int) -> tuple[float, float, int, int]:
    """bkref's time a decision over real 4-player games of 4 bots ``spec`` (unsealed, one
    process a seat for the run), beside a bare driver that moves the same bytes between the
    same bots: it starts them, writes each one what bkref wrote it and, where bkref read a
    line, reads one, writing first what every bot asked at once was sent (as bkref asks
    simultaneous picks together), and nothing else: no rules, no views, no encoding. Each is
    timed on ``games`` and on twice as many games (best of ``repeat``, in turn), and the
    difference is what the added games cost: the bots' start, the same in both, is left out
    (the driver's clock also starts once they have said hello).
    Returns bkref's seconds and the driver's for those games, their decisions and the bytes
    bkref wrote to the bots in them. The
    traffic is what bkref's ``--bot-trace`` sees, taken where the program records it
    (``Program._traced``)."""
    from bkref.bots import program
    from bkref.bots.sealing import Seal
    from bkref.bots.seats import BotOptions
    from bkref.bots.tournament import run, simulate_jobs
    from bkref.io.batch import Local

    def play(count: int) -> None:
        for _ in run(simulate_jobs(4, 0, [spec], count), Local(), BotOptions(seal=Seal(sealed=False))):
            pass

    def recorded(count: int) -> list[tuple[int, bool, bytes]]:
        traffic: list[tuple[int, bool, bytes]] = []  # (bot, bkref wrote it, the line)
        ids: dict[int, int] = {}
        traced = program.Program._traced

        def recording(self: program.Program, who: str, line: bytes) -> None:
            traffic.append((ids.setdefault(id(self), len(ids)), who == "bkref>", line))

        program.Program._traced = recording  # type: ignore[method-assign]
        try:
            play(count)
        finally:
            program.Program._traced = traced  # type: ignore[method-assign]
        return traffic

    command = spec.removeprefix("cmd:").split()

    def bare(traffic: list[tuple[int, bool, bytes]]) -> float:
        """The driver's seconds for ``traffic``, timed once the bots have said hello."""
        bots = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(4)]
        pending = [bytearray() for _ in bots]
        asking = [False] * len(bots)
        hellos, start = 0, 0.0
        for bot, sent, line in traffic:
            if sent:
                pending[bot] += line
                asking[bot] = asking[bot] or line.startswith((b'{"type":"decide"', b'{"type":"hello"'))
                continue
            for other, process in enumerate(bots):  # what every bot asked was sent, then the reply
                if asking[other] or other == bot:
                    process.stdin.write(pending[other])  # type: ignore[union-attr]
                    process.stdin.flush()  # type: ignore[union-attr]
                    pending[other].clear()
                    asking[other] = False
            bots[bot].stdout.readline()  # type: ignore[union-attr]
            hellos += 1
            if hellos == len(bots):  # every bot has started: the clock starts
                start = time.perf_counter()
        for process, rest in zip(bots, pending):
            process.stdin.write(rest)  # type: ignore[union-attr]
            process.stdin.close()  # type: ignore[union-attr]
        took = time.perf_counter() - start
        for process in bots:
            process.wait()
        return took

    few, many = recorded(games), recorded(2 * games)
    asked = [sum(1 for _, sent, line in t if sent and line.startswith(b'{"type":"decide"')) for t in (few, many)]
    written = [sum(len(line) for _, sent, line in t if sent) for t in (few, many)]
    timed: list[list[float]] = [[], [], [], []]
    for _ in range(repeat):  # in turn, so that a slow spell of the machine slows all four alike
        for taken, count in zip(timed, (games, 2 * games)):
            start = time.perf_counter()
            play(count)
            taken.append(time.perf_counter() - start)
        timed[2].append(bare(few))
        timed[3].append(bare(many))
    times = [min(taken) for taken in timed]
    return times[1] - times[0], times[3] - times[2], asked[1] - asked[0], written[1] - written[0]


Decision = tuple[str, Any, str | None]
"""A decision as a policy is asked it: its kind, the state it is taken on, and whose it is."""


def decisions(path: Path) -> list[Decision]:
    """Each decision of the game logged at ``path`` as a policy is asked it, with the state
    it is taken on: a pick, each build and the last construction decision, to place nothing
    more (every player's builds), each player's trading post declarations, the copy choices."""
    from bkref.game import moves
    from bkref.game.engine import State
    from bkref.game.events import Build, End, Harvest, Pick

    state = State()
    found: list[Decision] = []
    for raw in path.read_bytes().splitlines():
        event = msgspec.json.decode(raw, type=Event)
        now = state.copy()
        if isinstance(event, Pick):
            found.append(("pick", now, event.player))
        elif isinstance(event, Build):
            found.append(("build", now, None))
        elif isinstance(event, Harvest):
            found.append(("build", now, None))
            found += [("declare", now, p) for p in moves.trading_posts(now)]
        elif isinstance(event, End):
            found.append(("end", now, None))
        state.play(event)
    return found


def moves_of(lister: Lister, decision: Decision) -> list[Any]:
    """The moves of ``decision`` as ``lister`` lists them for self-play (``bkref.game.moves.LegalMoves``:
    its list of the kind due)."""
    kind, state, player = decision
    moves = LegalMoves(state, player, lister)
    if kind == "pick":
        return moves.picks()
    if kind == "build":
        return moves.builds()
    return moves.closing() if kind == "declare" else moves.ends()


def each(asked: list[Decision]) -> None:
    """The legal moves of each decision of ``asked``, listed as a program that decides lists
    them: by one lister through the game, from empty, each list let go once the next decision comes."""
    lister = Lister()
    for decision in asked:
        moves_of(lister, decision)


def each_kept(asked: list[Decision]) -> list[list[Any]]:
    """``each``, every list kept to the game's end."""
    lister = Lister()
    return [moves_of(lister, decision) for decision in asked]


def selfplay_figures(games: int, repeat: int, folder: Path) -> None:
    """Self-play (issue 29) in this process's build: ``games`` 4-player games with ``random``
    and a quarter as many with ``greedy``, each timed beside validate on the same games; the
    legal moves of every decision of the random games (``decisions``) beside validate.

    The legal moves are timed as a program lists them (``each``), and also with every list of
    a game kept until its end (for comparison, no target): keeping them, with the 2,400 or so
    lists inside the moves of a game (a pick's cards, a build's squares), sets Python's cyclic
    garbage collector to work on them (in 40 games, about 110 young collections, 10 older and
    one of the whole process; validate starts none), which is a cost of keeping the lists,
    not of listing them."""
    kind = build()
    timed = {}
    for policy, count, most in (("random", games, 3), ("greedy", max(1, games // 4), 20)):
        seeds = range(count)
        paths = []
        for seed in seeds:
            paths.append(folder / f"{policy}-{seed}.jsonl")
            paths[-1].write_text(to_jsonl(simulate(4, seed, policy)))
        played, checked = best_in_turn(
            repeat,
            lambda seeds=seeds, policy=policy: [simulate(4, s, policy) for s in seeds],
            lambda paths=paths: validate_all(paths),
        )
        timed[policy] = paths
        line(f"simulate {policy}, 4 players ({kind})", f"{played / count * 1e3:.2f} ms/game")
        line(
            f"  / validate ({checked / count * 1e3:.3f} ms/game)",
            f"{played / checked:.1f} x",
            f"<= {most} x",
            played / checked <= most,
        )
    listed = kept = checked_total = 0.0
    for path in timed["random"]:
        asked = decisions(path)
        listing, keeping, checking = best_in_turn(
            repeat,
            lambda asked=asked: each(asked),
            lambda asked=asked: each_kept(asked),
            lambda path=path: validate_all([path]),
        )
        listed += listing
        kept += keeping
        checked_total += checking
    line(f"legal moves of every decision ({kind})", f"{listed / games * 1e3:.2f} ms/game")
    line("  / validate", f"{listed / checked_total:.2f} x", "<= 2 x", listed <= 2 * checked_total)
    line("  / validate, the game's lists all kept", f"{kept / checked_total:.2f} x")


def selfplay_memory(games: int, folder: Path) -> None:
    """Peak memory of ``bkref simulate --games`` (4 players, random) for ``games`` games and ten times as many."""
    peaks = []
    for count in (games, 10 * games):
        out = folder / f"simulated-{count}"
        peaks.append(peak_rss_kb(["simulate", "--players", "4", "--seed", "0", "--games", str(count), "-o", str(out)]))
        line(f"peak memory, simulate --games {count}", f"{peaks[-1] / 1024:.1f} MiB")
    line("  ratio", f"{peaks[1] / peaks[0]:.2f} x", "flat in the games (<= 1.1 x)", peaks[1] <= peaks[0] * 1.1)


def tournament_figures(games: int, repeat: int, folder: Path) -> None:
    """A 4-player tournament of the bundled ``random`` (the ``random`` schedule: a game a
    deal) at ``games`` and ten times as many games, run as an organiser runs it: its time per
    game at each size, timed in turn with ``simulate --games`` on the larger count (best of
    ``repeat``), and its peak memory at each size; then ``bkref standings`` of each folder,
    its time per game and its peak memory."""

    def bkref(*args: str) -> Callable[[], object]:
        command = [sys.executable, "-m", "bkref", *args]
        return lambda: subprocess.run(command, check=True, capture_output=True)

    def tournament(count: int) -> list[str]:
        args = ["tournament", "--players", "4", "--bot", "a=random", "--bot", "b=random", "--schedule", "random"]
        return [*args, "--deals", str(count), "-o", str(folder / f"tournament-{count}"), "--force"]

    many = 10 * games
    simulate = ["simulate", "--players", "4", "--seed", "1", "--games", str(many), "-o", str(folder / "simulated")]
    few_time, many_time, simulated = best_in_turn(
        repeat, bkref(*tournament(games)), bkref(*tournament(many)), bkref(*simulate, "--force")
    )
    peaks = [peak_rss_kb(tournament(count)) for count in (games, many)]
    for count, taken, peak in ((games, few_time, peaks[0]), (many, many_time, peaks[1])):
        line(f"tournament, {count} games", f"{taken / count * 1e3:.2f} ms/game, {peak / 1024:.1f} MiB")
    ratio = (many_time / many) / (few_time / games)
    line("  time per game, 10 x the games", f"{ratio:.2f} x", "<= 1.25 x", ratio <= 1.25)
    line("  peak memory, 10 x the games", f"{peaks[1] / peaks[0]:.2f} x", "<= 1.1 x", peaks[1] <= 1.1 * peaks[0])
    line(f"simulate --games {many}", f"{simulated / many * 1e3:.2f} ms/game")
    line("  tournament / simulate", f"{many_time / simulated:.2f} x", "<= 2 x", many_time <= 2 * simulated)
    read = [["standings", str(folder / f"tournament-{count}")] for count in (games, many)]
    read_times = best_in_turn(repeat, *(bkref(*args) for args in read))
    read_peaks = [peak_rss_kb(args) for args in read]
    for count, taken, peak in zip((games, many), read_times, read_peaks):
        line(f"standings of the tournament, {count} games", f"{taken / count * 1e3:.2f} ms/game, {peak / 1024:.1f} MiB")
    line(
        "  peak memory, 10 x the games",
        f"{read_peaks[1] / read_peaks[0]:.2f} x",
        "<= 1.1 x",
        read_peaks[1] <= 1.1 * read_peaks[0],
    )


def mistake_figures(games: int) -> None:
    """Print the single-mistake figures of ``tests.mistakes`` on the replays and ``games``
    seeded games per player count, 4 mistakes of each kind in each log, and every case
    that falls short, by kind: a single mistake with more than one root, a pair without
    its two roots on its two lines."""
    for deck in (True, False):
        missed: list[mistakes.Case] = []
        figures = mistakes.measure(mistakes.cases(games=games, per_kind=4, deck=deck), missed)
        if deck:
            print(
                f"Single mistakes: {figures.mistakes} (the replays and {games} games per player count, 4 of each kind)"
            )
        else:
            print(f"Single mistakes in the same logs without a deck: {figures.mistakes}")
        one = f"{figures.one_root}/{figures.mistakes} = {figures.share:.2%}"
        line("mistakes with exactly one root problem", one, "100 %", figures.share == 1)
        line("problems per mistake", f"{figures.mean:.2f}")
        for kind, (seen, one) in sorted((figures.by_kind or {}).items()):
            line(f"  one root, {kind}", f"{one}/{seen} = {one / seen:.2%}")
        for case in sorted(missed, key=lambda case: (case.kind, case.name)):
            roots = ", ".join(f"{d.line} {d.rule}" for d in mistakes.problems(case) if mistakes.is_root(d))
            print(f"    {case.kind}: {case.name} has {roots} as roots")
    corpus = list(mistakes.pairs(games=games, per_kind=4))
    found = [pair for pair in corpus if not mistakes.two_roots(pair)]
    share = 1 - len(found) / len(corpus) if corpus else 1.0
    print(f"Pairs of independent mistakes (issue 45): {len(corpus)}")
    two = f"{len(corpus) - len(found)}/{len(corpus)} = {share:.2%}"
    line("pairs with two roots, on their two lines", two, "100 %", share == 1)
    for pair in found:
        roots = ", ".join(
            f"{d.line} {d.rule}" for d in mistakes.check(pair.text, pair.name).diagnostics if mistakes.is_root(d)
        )
        print(f"    {pair.name} (lines {pair.lines[0]}, {pair.lines[1]}) has {roots or 'none'} as roots")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count (default 40)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is kept (default 5)")
    parser.add_argument(
        "--knowledge", action="store_true", help="only the view and seen-log figures (issue 26), in this process"
    )
    parser.add_argument("--bots", action="store_true", help="only the bot program figures (issue 27), in this process")
    parser.add_argument(
        "--mistakes",
        action="store_true",
        help="only the mistake figures (issues 25, 45), in this process: 2.5 x --games games per player count",
    )
    parser.add_argument("--selfplay", action="store_true", help="only the self-play figures (issue 29), in each build")
    parser.add_argument("--tournament", action="store_true", help="only the tournament figures at two sizes (issue 42)")
    parser.add_argument("--this-build", action="store_true", help=argparse.SUPPRESS)  # the compiled child's
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process's folder
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions with valgrind (a few minutes)"
    )
    parser.add_argument("--throughput", type=Path, help=argparse.SUPPRESS)  # the compiled child's folder
    parser.add_argument("--count", type=Path, help=argparse.SUPPRESS)  # a counted child's folder,
    parser.add_argument(
        "--work", choices=("validate", "decode", "selfplay", "validate-random"), help=argparse.SUPPRESS
    )  # its work,
    parser.add_argument("--runs", type=int, help=argparse.SUPPRESS)  # and how many runs are counted
    args = parser.parse_args()
    if args.count:
        count(args.count, args.work, args.runs)
        return
    if args.measure:
        measure(args.measure, args.repeat)
        return
    if args.throughput:
        throughput(args.throughput, args.repeat)
        cold_start(args.repeat)
        return
    if args.bots:
        with tempfile.TemporaryDirectory() as tmp:
            bot_figures(Path(tmp), args.games, args.repeat)
        return
    if args.mistakes:
        mistake_figures(args.games * 5 // 2)
        return
    if args.tournament:
        with tempfile.TemporaryDirectory() as tmp:
            tournament_figures(5 * args.games, min(args.repeat, 3), Path(tmp))
        return
    if args.selfplay:
        with tempfile.TemporaryDirectory() as tmp:
            selfplay_figures(args.games, args.repeat, Path(tmp))
            compiled = ROOT / ".venv-compiled" / "bin" / "python"
            if args.this_build:
                return
            if compiled.exists():
                child = f"import sys; sys.path.append({str(ROOT)!r}); from tests.benchmark import main; main()"
                sys.stdout.flush()
                subprocess.run(
                    [
                        str(compiled),
                        "-P",
                        "-c",
                        child,
                        "--selfplay",
                        "--this-build",
                        "--games",
                        str(args.games),
                        "--repeat",
                        str(args.repeat),
                    ],
                    cwd=ROOT,
                    check=True,
                )
            else:
                print("compiled core: not measured (build it into .venv-compiled: docs/development.md)")
            selfplay_memory(args.games * 5 // 2, Path(tmp))
        return
    if args.knowledge:
        with tempfile.TemporaryDirectory() as tmp:
            knowledge_figures(make_games(Path(tmp), args.games)[4], args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        make_games(Path(tmp), args.games)
        print(
            f"{3 * args.games} games simulated in {time.perf_counter() - start:.1f} s "
            f"(seeds 0-{args.games - 1} for 2, 3 and 4 players; every fourth greedy)\n"
        )
        sys.stdout.flush()
        subprocess.run(
            [sys.executable, "-m", "tests.benchmark", "--measure", tmp, "--repeat", str(args.repeat)],
            cwd=ROOT,
            check=True,
        )
        commands = {"pure Python": [sys.executable, "-m", "tests.benchmark"]}
        compiled = ROOT / ".venv-compiled" / "bin" / "python"
        if compiled.exists():
            print("\nThe compiled core (.venv-compiled):")
            sys.stdout.flush()
            # -P, and the checkout last on the path: bkref comes from the venv (compiled), the benchmark from here
            child = f"import sys; sys.path.append({str(ROOT)!r}); from tests.benchmark import main; main()"
            commands["compiled"] = [str(compiled), "-P", "-c", child]
            subprocess.run(
                [*commands["compiled"], "--throughput", tmp, "--repeat", str(args.repeat)], cwd=ROOT, check=True
            )
        else:
            print("\ncompiled core: not measured (build it into .venv-compiled: docs/development.md)")
        if args.instructions:
            instruction_figures(commands, Path(tmp))


if __name__ == "__main__":
    main()
