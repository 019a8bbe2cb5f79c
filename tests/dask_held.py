"""Preloaded by the Dask worker of ``test_cluster``'s lost-scheduler test: each batch of work
the worker is given says it started (it creates the file ``BKREF_TEST_HELD`` names), then
holds, so that the test kills the scheduler while bkref waits for that batch."""

import os
import time
from pathlib import Path

import bkref.io.batch


def _held(*args: object) -> list[object]:
    Path(os.environ["BKREF_TEST_HELD"]).touch()
    time.sleep(600)
    return []


bkref.io.batch._run_batch = _held  # the batches bkref sends name _run_batch: this worker runs _held
