"""Running one pure per-log function over many logs: in this process, in ``jobs`` processes,
or on a Dask cluster (the optional ``dask`` extra), the results always in input order.

The per-log work (checking a log, or making its standings record) depends on the log
alone, so each way gives the same results. On a cluster, the logs are sent to the
workers in batches with ``Client.map``, and the workers must see the same files at the
same paths (a shared file system). ``Cluster.reduce`` runs a function of all the
results on the cluster too.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

if TYPE_CHECKING:
    from distributed import Client, Future

T = TypeVar("T")
R = TypeVar("R")

BATCH: Final = 64
"""Logs per task on a cluster: enough work per task to hide the scheduler's overhead."""


class ClusterError(Exception):
    """The cluster cannot be used: the extra is missing, or the scheduler cannot be reached."""


class Runner(Protocol):
    """Where the per-log work runs."""

    def map(self, work: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``work`` of each item, in order."""
        ...

    def reduce(self, reduce: Callable[..., R], results: list[Any], *args: Any) -> R:
        """``reduce(results, *args)``, where ``results`` are those of the last ``map``."""
        ...


class Local:
    """This machine: this process, or ``jobs`` processes."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = jobs

    def map(self, work: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        if self.jobs <= 1:
            for item in items:
                yield work(item)
            return
        from concurrent.futures import ProcessPoolExecutor  # here: importing it costs a one-log run 10 ms

        pool = ProcessPoolExecutor(self.jobs, initializer=_worker_start)
        try:
            yield from pool.map(work, items, chunksize=16)
        finally:  # on Ctrl-C, the work not started is dropped rather than waited for
            pool.shutdown(cancel_futures=True)

    def reduce(self, reduce: Callable[..., R], results: list[Any], *args: Any) -> R:
        return reduce(results, *args)


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the parent process, and ends when the parent is gone.

    A parent killed by a signal (SIGPIPE, when its output pipe is closed) cannot stop
    its workers, and they would wait for work forever: each one watches its parent (the
    process that started it, whatever the start method).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


@contextmanager
def runner(jobs: int = 1, dask: str | None = None) -> Iterator[Runner]:
    """``Local(jobs)``, or with ``dask`` the ``Cluster`` whose scheduler is at that address."""
    if dask is None:
        yield Local(jobs)
        return
    with Cluster(dask) as cluster:
        yield cluster


def _run_batch(work: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [work(item) for item in batch]


def _reduce_batches(reduce: Callable[..., R], batches: list[list[Any]], *args: Any) -> R:
    return reduce([result for batch in batches for result in batch], *args)


class Cluster:
    """A connection to the Dask scheduler at ``address``; ``ClusterError`` when it cannot be made."""

    def __init__(self, address: str, timeout: float = 10) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--dask needs the dask extra: pip install 'bkref[dask]'") from None
        self.address = address
        try:
            self.client: Client = Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call, unused-ignore]
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        self._batches: list[Future[list[Any]]] = []

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()  # type: ignore[no-untyped-call, unused-ignore]

    def map(self, work: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``work`` of each item on the cluster's workers, in order."""
        batches = [list(items[i : i + BATCH]) for i in range(0, len(items), BATCH)]
        self._batches = self.client.map(_run_batch, [work] * len(batches), batches, pure=False)
        for future in self._batches:
            yield from self._result(future)

    def reduce(self, reduce: Callable[..., R], results: list[Any], *args: Any) -> R:
        """``reduce(results, *args)`` run on the cluster, on the workers' own copy of ``results``."""
        return self._result(self.client.submit(_reduce_batches, reduce, self._batches, *args, pure=False))  # type: ignore[no-any-return]

    def _result(self, future: Future[Any]) -> Any:
        """The result of ``future``; ``ClusterError`` when the cluster, not the work, failed."""
        from concurrent.futures import CancelledError

        from distributed import KilledWorker

        try:
            return future.result()
        except (OSError, TimeoutError, CancelledError, KilledWorker) as error:
            raise ClusterError(f"the Dask cluster at {self.address} failed: {type(error).__name__}: {error}") from None
