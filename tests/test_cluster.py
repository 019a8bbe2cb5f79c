"""``--dask ADDRESS``: validate and standings on a Dask cluster give the bytes of a local run.

The cluster is a ``dask.distributed.LocalCluster`` with its workers in this process,
reached over TCP by ``bkref`` run as a separate process, as a real cluster would be.
Without the ``dask`` extra these tests are skipped (CI installs it: ``.ci/run``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import BKREF_COMMAND, REPLAYS, ROOT
from tests.test_bots import SEALED, cheat, processes_in
from tests.test_tournament_runner import without_times

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'bkref[dask]'")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def bkref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BKREF_COMMAND, *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize(
    "command",
    [
        ["standings", "--format", "json", "--include-illegal"],
        ["standings", "--format", "csv"],
        ["standings"],
        ["validate", "--format", "json"],
        ["validate"],
    ],
    ids=" ".join,
)
def test_the_cluster_gives_the_bytes_of_a_local_run(scheduler: str, command: list[str]) -> None:
    logs = [str(REPLAYS.relative_to(ROOT))]  # legal, illegal and unreadable games
    if command[0] == "validate":
        logs.append("no-such-game.jsonl")  # and a missing one (standings refuses a path that is no log)
    local = bkref(*command, *logs)
    clustered = bkref(*command, *logs, "--dask", scheduler)
    assert local.stdout.count("\n") > 25  # every problem, or every game
    assert (clustered.returncode, clustered.stdout, clustered.stderr) == (local.returncode, local.stdout, local.stderr)


def test_a_tournament_on_the_cluster_writes_the_files_of_a_local_run(scheduler: str, tmp_path: Path) -> None:
    args = ["tournament", "--players", "3", "--bot", "g=greedy", "--bot", "r=random", "--deals", "3"]
    args += ["--format", "json"]
    local = bkref(*args, "-o", str(tmp_path / "local"))
    clustered = bkref(*args, "-o", str(tmp_path / "cluster"), "--dask", scheduler)
    assert local.returncode == 0, local.stderr
    same = (clustered.returncode, clustered.stdout.replace("/cluster/", "/local/"), clustered.stderr)
    assert same == (local.returncode, local.stdout, local.stderr)  # the report names the games' files
    read = {folder: {p.name: p.read_bytes() for p in (tmp_path / folder).iterdir()} for folder in ("local", "cluster")}
    assert len(read["local"]) == 10 and read["cluster"] == read["local"]  # 9 games and tournament.json
    for output in ("json", "text"):  # its standings, the records streamed from the workers
        local = bkref("standings", "--format", output, str(tmp_path / "local"))
        clustered = bkref("standings", "--format", output, str(tmp_path / "local"), "--dask", scheduler)
        assert "Tournament standings" in local.stdout or '"bkref-tournament-standings/1"' in local.stdout
        assert (clustered.returncode, clustered.stdout, clustered.stderr) == (local.returncode, local.stdout, "")


def test_bot_programs_play_on_the_workers_the_games_of_a_local_run(scheduler: str, tmp_path: Path) -> None:
    """The games of bot programs run on the cluster's workers, which start the bots (the command
    and its files at the same path); the games are those of a local run, but for the bots' times,
    and no bot process is left on the workers when the run ends."""
    bot = tmp_path / "random_bot.py"
    bot.write_text((ROOT / "examples" / "bots" / "random_bot.py").read_text())
    args = ["tournament", "--players", "2", "--bot", f"p=cmd:{sys.executable} {bot}", "--bot", "r=random"]
    args += ["--deals", "3", "--seed", "1"]  # the same deals in both runs (without it, drawn for each)
    local = bkref(*args, "-o", str(tmp_path / "local"))
    clustered = bkref(*args, "-o", str(tmp_path / "cluster"), "--dask", scheduler)
    assert (clustered.returncode, clustered.stdout, clustered.stderr) == (0, local.stdout, local.stderr)
    assert without_times(tmp_path / "cluster") == without_times(tmp_path / "local")
    assert len(without_times(tmp_path / "local")) == 7  # 6 games and tournament.json
    assert processes_in(bot) == []


@SEALED
def test_a_cheating_bot_on_the_workers_learns_nothing(scheduler: str, tmp_path: Path) -> None:
    """The cheating bot of tests/test_bots.py, sealed, its games played on the cluster's workers."""
    cheat(tmp_path, "rotate", ["--dask", scheduler])


def test_an_unreachable_scheduler_is_one_line(tmp_path) -> None:
    result = bkref("validate", str(REPLAYS / "2p-ann-bob.jsonl"), "--dask", "tcp://127.0.0.1:9")
    assert result.returncode == 2
    assert result.stderr.startswith("bkref: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert result.stderr.count("\n") == 1


def test_dask_and_jobs_are_refused_together(scheduler: str) -> None:
    result = bkref("standings", str(REPLAYS), "-j", "2", "--dask", scheduler)
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        result.stderr
        == "bkref: error: -j and --dask cannot be used together: the cluster decides how many workers run\n"
    )


def test_a_cluster_that_fails_during_the_run_is_a_cluster_error(scheduler: str) -> None:
    from bkref.io.batch import Cluster, ClusterError

    with Cluster(scheduler) as cluster:
        future = cluster.client.submit(time.sleep, 5, pure=False)
        future.cancel()  # as when the scheduler drops the work of a lost worker
        with pytest.raises(ClusterError, match=f"^the Dask cluster at {scheduler} failed: "):
            cluster._result(future)


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("tls://127.0.0.1:8786", "bkref connects over tcp:// (a tls:// cluster needs settings it cannot give)"),
        ("tcp://127.0.0.1", "no port; give it as tcp://HOST:PORT (a scheduler listens on 8786)"),
    ],
)
def test_an_address_bkref_cannot_use_is_one_line_at_once(address: str, why: str) -> None:
    result = subprocess.run(
        [*BKREF_COMMAND, "validate", str(REPLAYS / "2p-ann-bob.jsonl"), "--dask", address],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )
    assert (result.returncode, result.stderr) == (
        2,
        f"bkref: error: cannot reach the Dask scheduler at {address}: {why}\n",
    )


def test_relative_paths_are_read_from_the_folder_bkref_runs_in(scheduler: str, tmp_path) -> None:
    """The workers run elsewhere (here: in the tests' folder); the names stay as given."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "game.jsonl").write_bytes((REPLAYS / "2p-ann-bob.jsonl").read_bytes())
    result = subprocess.run(
        [*BKREF_COMMAND, "validate", "-v", "logs/game.jsonl", "--dask", scheduler],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert (result.returncode, result.stderr) == (0, "logs/game.jsonl: legal (113 events)\n")


def test_a_worker_that_cannot_see_a_log_is_the_clusters_fault(scheduler: str) -> None:
    from bkref.io.batch import Cluster, ClusterError, _run_batch

    with Cluster(scheduler) as cluster:
        future = cluster.client.submit(_run_batch, str, [Path("/no/such/log.jsonl")], "/", pure=False)
        with pytest.raises(ClusterError, match=r"a worker cannot see the log /no/such/log\.jsonl .*at the same paths$"):
            cluster._result(future)


def test_a_cluster_with_no_worker_left_is_a_bounded_wait() -> None:
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None) as empty:
        args = ["validate", str(REPLAYS / "2p-ann-bob.jsonl"), "--dask", empty.scheduler_address, "--dask-timeout", "2"]
        result = subprocess.run(
            [*BKREF_COMMAND, *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr == (
        f"bkref: error: the Dask cluster at {empty.scheduler_address} failed: "
        "no result in 2 s (no worker left? see --dask-timeout)\n"
    )


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    """Until ``condition`` holds; at most 60 s (a bound, not a timing)."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within 60 s"
        time.sleep(0.1)


def test_a_scheduler_killed_during_the_run_is_one_line(tmp_path: Path) -> None:
    """A real scheduler and worker, each its own process; the worker holds the batch it is
    given (``tests/dask_held.py``), and the scheduler is killed (SIGKILL) while bkref waits
    for it: one line, exit 2, well before --dask-timeout, and none of distributed's own logging."""
    address_file, held = tmp_path / "scheduler.json", tmp_path / "held"
    dask = [sys.executable, "-m", "dask"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler_args = ["--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(address_file)]
    processes = [subprocess.Popen([*dask, "scheduler", *scheduler_args], **quiet)]
    try:
        _wait_for(lambda: address_file.exists() and address_file.read_text().strip().endswith("}"), "scheduler file")
        address = json.loads(address_file.read_text())["address"]
        worker_args = ["--nthreads", "1", "--no-nanny", "--no-dashboard", "--preload", "tests/dask_held.py"]
        env = {**os.environ, "BKREF_TEST_HELD": str(held)}
        processes.append(subprocess.Popen([*dask, "worker", address, *worker_args], cwd=ROOT, env=env, **quiet))
        run = subprocess.Popen(
            [*BKREF_COMMAND, "standings", str(REPLAYS), "--dask", address, "--dask-timeout", "60"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        _wait_for(lambda: held.exists() or run.poll() is not None, "batch on the worker")
        assert held.exists(), "bkref ended before the worker was given a batch"
        processes[0].kill()  # the scheduler
        out, err = run.communicate(timeout=50)
    finally:
        for process in processes:
            process.kill()
            process.wait()
    assert (run.returncode, out) == (2, "")
    assert err.startswith(f"bkref: error: the Dask cluster at {address} failed: ")
    assert "scheduler" in err and err.count("\n") == 1
