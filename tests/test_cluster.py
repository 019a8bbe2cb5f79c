"""``--dask ADDRESS``: validate and standings on a Dask cluster give the bytes of a local run.

The cluster is a ``dask.distributed.LocalCluster`` with its workers in this process,
reached over TCP by ``bkref`` run as a separate process, as a real cluster would be.
Without the ``dask`` extra these tests are skipped (CI installs it: ``.ci/run``).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.conftest import BKREF_COMMAND, REPLAYS, ROOT

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
    logs = [str(REPLAYS.relative_to(ROOT)), "no-such-game.jsonl"]  # legal, illegal and unreadable games
    local = bkref(*command, *logs)
    clustered = bkref(*command, *logs, "--dask", scheduler)
    assert local.stdout.count("\n") > 25  # every problem, or every game
    assert (clustered.returncode, clustered.stdout, clustered.stderr) == (local.returncode, local.stdout, local.stderr)


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
