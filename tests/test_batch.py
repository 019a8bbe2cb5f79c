"""``bkref.io.batch``: the per-log work in processes, in order, and no worker left behind."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from bkref.io.batch import AHEAD, CHUNK, Local
from bkref.io.lazy import Made
from bkref.io.referee import check_item
from tests.conftest import REPLAYS


def test_processes_give_the_results_in_input_order() -> None:
    logs = sorted(REPLAYS.rglob("*.jsonl"))
    one = [(r.path, r.diagnostics, r.events) for r in Local(1).map(check_item, logs)]
    two = [(r.path, r.diagnostics, r.events) for r in Local(2).map(check_item, logs)]
    assert one == two
    assert [path for path, _, _ in two] == [str(p) for p in logs]


class Counted(Made[int]):
    """The numbers 0 to ``size``, noting the highest one read."""

    def __init__(self, size: int) -> None:
        self.size, self.highest = size, -1

    def __len__(self) -> int:
        return self.size

    def make(self, index: int) -> int:
        self.highest = max(self.highest, index)
        return index


def test_processes_are_given_a_few_items_ahead_of_the_result_awaited_not_all() -> None:
    """Memory flat in the items (a million games of ``simulate --games -j``): the items read
    are those of the tasks submitted, ``AHEAD`` per process beyond the one awaited."""
    items = Counted(100_000)
    results = Local(2).map(abs, items)
    assert [next(results) for _ in range(3 * CHUNK)] == list(range(3 * CHUNK))
    assert items.highest < (2 * AHEAD + 3) * CHUNK
    results.close()  # the work not started is dropped
    assert list(Local(2).map(abs, Counted(1000))) == list(range(1000))


def processes_naming(marker: str) -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker in cmdline.read_text(errors="replace"):
                found.append(int(cmdline.parent.name))
        except OSError:
            continue  # gone meanwhile
    return found


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs Linux's /proc")
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """As when ``bkref validate -j 2 DIR | head -1`` ends bkref by SIGPIPE: the workers go too."""
    marker = str(tmp_path / "parent-killed")
    program = (
        "import os, signal, sys, time\n"
        "from bkref.io.batch import Local\n"
        "for _ in Local(2).map(time.sleep, [0.05] * 400):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    parent = subprocess.run([sys.executable, "-c", program, marker], check=False)
    assert parent.returncode == -9
    deadline = time.monotonic() + 10
    while processes_naming(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_naming(marker) == []


def test_a_run_stopped_early_does_not_end_bkref_by_sigpipe() -> None:
    """With SIGPIPE's default disposition, as bkref's ``main`` sets it: a run stopped early
    (Ctrl-C, an error, the caller) terminates its workers while the pool still writes them
    their stop signals. That write fails quietly; it used to end the process with status 141
    (every one of 20 stops here), Ctrl-C's 130 among them."""
    program = (
        "import signal, time\n"
        "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
        "from bkref.io.batch import Local\n"
        "for _ in range(20):\n"
        "    results = Local(2).map(time.sleep, [0.05] * 40, per_task=1)\n"
        "    next(results)\n"
        "    results.close()\n"
        "print('stopped 20 runs')\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert (run.returncode, run.stdout, run.stderr) == (0, "stopped 20 runs\n", "")
