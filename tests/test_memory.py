"""Memory grows with what is shown, not with the log (issue 31.7): validate writes each problem
as it is found (JSON and SARIF too, the same bytes), replay keeps a state every CHECKPOINT
events, and running out of memory is one line.

The peak memory is measured in a fresh process (with tracemalloc) on logs of concatenated
games, where every event after the first game is a problem, at two sizes: the larger log
has four times the events and the problems. validate's memory is flat; replay's grows by
what it keeps of each event (the event, its line, its problems), not by a state each.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from bkref.bots.simulate import simulate, to_jsonl
from bkref.game.engine import CHECKPOINT, State
from bkref.io.referee import check_item, log_paths, play
from bkref.io.report import sarif
from bkref.views.narration import LISTED, earlier_problems
from bkref.views.navigation import load

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
GAME = to_jsonl(simulate(4, 1, "random"))  # 116 events


def games(folder: Path, copies: int) -> Path:
    path = folder / f"{copies}-games.jsonl"
    path.write_text(GAME * copies)
    return path


PEAK = """
import sys, tracemalloc
from bkref.cli import main
figure, sys.argv = sys.argv[1], ["bkref", *sys.argv[2:]]
tracemalloc.start()
try:
    main()
except SystemExit:
    pass
with open(figure, "w") as out:
    out.write(str(tracemalloc.get_traced_memory()[1]))
"""


def peak(*args: str | Path) -> int:
    """The peak of the memory Python allocates running ``bkref ARGS`` in a fresh process, in bytes
    (the memory of the process that starts it cannot count, as it would in its ``ru_maxrss``)."""
    figure = Path(str(args[-1]) + ".peak")
    subprocess.run([sys.executable, "-c", PEAK, figure, *map(str, args)], capture_output=True, check=True)
    return int(figure.read_text())


@pytest.mark.parametrize("output", ["text", "json", "sarif"])
def test_validate_memory_is_flat_in_the_number_of_problems(tmp_path: Path, output: str) -> None:
    few, many = games(tmp_path, 15), games(tmp_path, 60)  # 1,600 and 6,800 problems
    ratio = peak("validate", "--format", output, many) / peak("validate", "--format", output, few)
    assert ratio < 1.2


def test_replay_memory_grows_by_the_events_not_by_a_state_each(tmp_path: Path) -> None:
    few, many = games(tmp_path, 15), games(tmp_path, 60)  # 1,740 and 6,960 events
    per_event = (peak("replay", many) - peak("replay", few)) / (GAME.count("\n") * 45)
    assert per_event < 2000  # the event, its line and its problem; a state is some 11,000 bytes more


def value(state: State) -> dict[str, bytes]:
    """What a state holds, attribute by attribute (a whole pickle also tells which objects are shared)."""
    return {name: pickle.dumps(held) for name, held in state.fields().items()}


def test_a_replay_makes_every_position_as_playing_the_log_did(tmp_path: Path) -> None:
    log = games(tmp_path, 2)
    kept = [value(step.state) for step in play(log, keep=True, partial=True)]
    steps = load(log)
    assert len(steps) == len(kept) > 3 * CHECKPOINT
    forward = list(range(len(kept)))
    orders = [forward, forward[::-1], random.Random(1).sample(forward, len(forward))]
    for order in orders:
        assert all(value(steps[i].state) == kept[i] for i in order)
    assert value(steps[-1].state) == kept[-1]


def test_a_replay_full_of_problems_lists_their_first_lines_and_counts_the_rest(tmp_path: Path) -> None:
    steps = load(games(tmp_path, 2))  # a problem (T1) on every line of the second game
    said = [earlier_problems(steps, index) for index in range(len(steps))]
    first = GAME.count("\n") + 1  # the second game's first line, the event at index ``first - 1``
    numbers = [str(line) for line in range(first, first + LISTED)]
    assert said[:first] == [None] * first
    assert said[first] == f"1 earlier problem in this log, on line {first}"
    assert said[first + LISTED - 1] == (
        f"{LISTED} earlier problems in this log, on lines {', '.join(numbers[:-1])} and {numbers[-1]}"
    )  # all of them
    more = len(steps) - first - LISTED
    assert said[-1] == f"{LISTED + more} earlier problems in this log, on lines {', '.join(numbers)} and {more} more"
    assert max(len(sentence or "") for sentence in said) == len(said[-1]) < 200


def whole(output: str, reports: list[list[object]]) -> str:
    """The document the whole run's diagnostics make at once."""
    every = [d for found in reports for d in found]
    document = every if output == "json" else sarif(every)  # type: ignore[arg-type]
    return msgspec.json.format(msgspec.json.encode(document).decode(), indent=2) + "\n"


@pytest.mark.parametrize("output", ["json", "sarif"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_and_sarif_written_as_found_are_the_whole_document(bkref, output: str, jobs: str) -> None:
    illegal = sorted((REPLAYS / "illegal").glob("*.jsonl"))[:4]
    logs = [*illegal, REPLAYS / "no-such-log.jsonl", REPLAYS / "2p-ann-bob.jsonl"]  # a refused log comes whole
    result = bkref("validate", "--format", output, "-j", jobs, *logs)
    assert result.exit_code == 2
    assert result.stdout == whole(output, [check_item(item).diagnostics for item in log_paths(logs)])


@pytest.mark.parametrize("output", ["json", "sarif"])
def test_json_and_sarif_without_problems_are_the_empty_document(bkref, output: str) -> None:
    result = bkref("validate", "--format", output, REPLAYS / "2p-ann-bob.jsonl")
    assert result.exit_code == 0 and result.stdout == whole(output, [])


def test_replay_html_refuses_a_log_too_long_for_a_page(bkref, tmp_path: Path) -> None:
    log = games(tmp_path, 44)  # 5,104 events
    page = tmp_path / "page.html"
    result = bkref("replay", "--html", page, log)
    assert result.exit_code == 2 and not page.exists()
    assert result.stderr.splitlines() == [
        f"bkref: error: {log}: 5104 events; --html makes a page of at most 5000 (a game has fewer than 200)"
    ]


def test_running_out_of_memory_is_one_line_and_status_2(tmp_path: Path) -> None:
    program = (
        "import sys, bkref.io.referee as referee\n"
        "def check(*args, **kwargs): raise MemoryError\n"
        "referee.check = check\n"
        "from bkref.cli import main\n"
        f"sys.argv = ['bkref', 'validate', {str(REPLAYS / '2p-ann-bob.jsonl')!r}]\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "bkref: error: out of memory: the input is too large for the memory this process may use\n"


def test_the_logs_of_a_folder_come_sorted_as_their_paths_and_cost_their_names(tmp_path: Path) -> None:
    """``log_paths`` of a folder gives what sorting ``Path.rglob`` gave, in the same order (a
    folder's logs before a log named as the folder and more, ``.JSONL`` too, no ``.jsonl`` with
    nothing before its dot, a folder's link not followed, a link to nothing and a named pipe
    refused), and holds a log as its name's bytes, not a ``Path`` (about 450 bytes each)."""
    import os
    import tracemalloc

    for folder in ["a", "a/b", "d.jsonl", "z"]:
        (tmp_path / folder).mkdir()
    for name in ["a.jsonl", "a-b.jsonl", "a/b/x.jsonl", "a/y.jsonl", "B.JSONL", ".jsonl", "..jsonl",
                 "d.jsonl/x.jsonl", "notes.txt", "z/é ü.jsonl"]:  # fmt: skip
        (tmp_path / name).write_text("")
    (tmp_path / "linked.jsonl").symlink_to(tmp_path / "a")
    (tmp_path / "via").symlink_to(tmp_path / "a")
    (tmp_path / "broken.jsonl").symlink_to(tmp_path / "nowhere")
    (tmp_path / "to-file.jsonl").symlink_to(tmp_path / "a.jsonl")
    os.mkfifo(tmp_path / "pipe.jsonl")
    found = sorted(p for p in tmp_path.rglob("*") if p.suffix.lower() == ".jsonl" and not p.is_dir())
    logs = log_paths([tmp_path])
    assert [item if isinstance(item, Path) else item.path for item in logs] == [str(p) if p.name in (
        "broken.jsonl", "pipe.jsonl") else p for p in found]  # fmt: skip
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "..jsonl", "B.JSONL", "a/b/x.jsonl", "a/y.jsonl", "a-b.jsonl", "a.jsonl", "broken.jsonl",
        "d.jsonl/x.jsonl", "pipe.jsonl", "to-file.jsonl", "z/é ü.jsonl",
    ]  # fmt: skip
    assert [item.diagnostics[0].message for item in logs if not isinstance(item, Path)] == [
        f"is a symbolic link to {tmp_path / 'nowhere'}, which does not exist",
        "is a named pipe (FIFO), not a log file: not read",
    ]
    many = tmp_path / "many"
    many.mkdir()
    for n in range(2000):
        (many / f"game-{n:06d}-deal-{n:06d}-random-0.jsonl").write_text("")
    tracemalloc.start()
    held = log_paths([many])
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(held) == 2000 and held[-1] == many / "game-001999-deal-001999-random-0.jsonl"
    assert size / 2000 < 60  # the name's 38 bytes and where it ends
