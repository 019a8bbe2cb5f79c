"""Running one pure per-log function over many logs: in this process, in ``jobs`` processes,
or on a Dask cluster (the optional ``dask`` extra), the results always in input order.

The per-log work (checking a log, or making its standings record) depends on the log
alone, so each way gives the same results. On a cluster, the logs are sent to the
workers in batches with ``Client.map``, and the workers must see the same files at the
same paths (a shared file system). ``Cluster.reduce`` runs a function of all the
results on the cluster too.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from bkref.io.processes import descendants, wait_ended

if TYPE_CHECKING:
    from distributed import Client, Future

T = TypeVar("T")
R = TypeVar("R")

BATCH: Final = 64
"""Logs per task on a cluster: enough work per task to hide the scheduler's overhead."""

CHUNK: Final = 16
"""Items per task in a worker process."""
AHEAD: Final = 4
"""Tasks submitted per worker process ahead of the result awaited: enough to keep them busy."""

ENDING_SECONDS: Final = 2.0
"""How long a run stopped midway waits for each process its workers started (a bot program),
killed with its worker, to be gone."""

MAX_JOBS: Final = 4 * (os.cpu_count() or 1)
"""The most processes ``-j`` starts: four per CPU (more only wait their turn)."""


class ClusterError(Exception):
    """The cluster cannot be used: the extra is missing, or the scheduler cannot be reached."""


class Runner(Protocol):
    """Where the per-log work runs."""

    def map(self, work: Callable[[T], R], items: Sequence[T], per_task: int | None = None) -> Iterator[R]:
        """``work`` of each item, in order; ``per_task`` items to a task (default: the runner's;
        1 where each item is long work, such as a game of bot programs)."""
        ...

    def reduce(self, reduce: Callable[..., R], results: list[Any], *args: Any) -> R:
        """``reduce(results, *args)``, where ``results`` are those of the last ``map``."""
        ...


class Local:
    """This machine: this process, or ``jobs`` processes, never more than ``MAX_JOBS`` nor
    than the items of a ``map``.

    >>> Local(10**20).jobs == MAX_JOBS
    True
    """

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, min(jobs, MAX_JOBS))

    def map(self, work: Callable[[T], R], items: Sequence[T], per_task: int | None = None) -> Iterator[R]:
        jobs = min(self.jobs, len(items))
        if jobs <= 1:
            for item in items:
                yield work(item)
            return
        import multiprocessing  # here: importing these costs a one-log run 10 ms
        from concurrent.futures import ProcessPoolExecutor

        size = per_task or CHUNK
        others = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(jobs, initializer=_worker_start)
        chunks = (items[i : i + size] for i in range(0, len(items), size))
        workers: list[multiprocessing.process.BaseProcess] = []
        ended = False
        try:  # a few chunks ahead of the one awaited, not all of them: memory flat in the items
            with _pipes_without_sigpipe():  # the pool's threads start in the first submits
                pending = deque(pool.submit(_each, work, chunk) for chunk in islice(chunks, AHEAD * jobs))
            workers = [child for child in multiprocessing.active_children() if child not in others]
            while pending:
                done = pending.popleft().result()
                pending.extend(pool.submit(_each, work, chunk) for chunk in islice(chunks, 1))
                ended = not pending  # all done: a caller that stops at the last item ends no work
                yield from done
        finally:
            started: list[int] = []
            if not ended:  # Ctrl-C, an error, or the caller stopped: the work under way is not waited for
                started = descendants(worker.pid for worker in workers if worker.pid)
                for worker in workers:
                    worker.terminate()  # what a worker started ends with it (PR_SET_PDEATHSIG)
            pool.shutdown(cancel_futures=True)
            for pid in started:  # ... and is gone before the run says it has stopped (a bot program)
                wait_ended(pid, ENDING_SECONDS)

    def reduce(self, reduce: Callable[..., R], results: list[Any], *args: Any) -> R:
        return reduce(results, *args)


@contextmanager
def _pipes_without_sigpipe() -> Iterator[None]:
    """SIGPIPE blocked in this thread, and so in the threads it starts meanwhile (a pool's
    manager and the feeder of its work queue, which write to the workers' pipes).

    The default disposition that bkref's ``main`` restores (``bkref validate DIR | head -1``
    ends as any tool does) would otherwise end bkref when a run stops early: the pool closes
    its queue to the workers it has terminated while the feeder still writes the workers'
    stop signals (status 141 for Ctrl-C's 130). A write there fails with EPIPE, which the pool
    expects. The workers unblock it (``_worker_start``): the bots they start get the usual mask.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no SIGPIPE
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _each(work: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``work`` of each of ``items``: one chunk's task in a worker process."""
    return [work(item) for item in items]


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the parent process, ends at once when the parent terminates it
    (the bot programs it started end with it: ``PR_SET_PDEATHSIG``), and ends when the parent is gone.

    A parent killed by a signal (SIGPIPE, when its output pipe is closed) cannot stop
    its workers, and they would wait for work forever: each one watches its parent (the
    process that started it, whatever the start method).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGPIPE})  # blocked where the pool started it
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's ``terminate`` ends it at once, whatever it inherited
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


@contextmanager
def runner(jobs: int = 1, dask: str | None = None, timeout: float = 30) -> Iterator[Runner]:
    """``Local(jobs)``, or with ``dask`` the ``Cluster`` whose scheduler is at that address."""
    if dask is None:
        yield Local(jobs)
        return
    with Cluster(dask, timeout) as cluster:
        yield cluster


class _Unseen(Exception):
    """A worker cannot see a log that this process sees: the cluster's fault, not the log's."""


def _run_batch(work: Callable[[T], R], batch: Sequence[T], folder: str) -> list[R]:
    """``work`` of each item on a worker, relative paths read from ``folder`` (the client's)."""
    from bkref.io.sources import RELATIVE_TO

    for item in batch:
        if isinstance(item, os.PathLike) and not os.path.exists(os.path.join(folder, os.fspath(item))):
            raise _Unseen(f"{os.path.join(folder, os.fspath(item))} (on {socket.gethostname()})")
    RELATIVE_TO.set(folder)  # this task's own context: other tasks of the worker are not changed
    return [work(item) for item in batch]


def _reduce_batches(reduce: Callable[..., R], batches: list[list[Any]], *args: Any) -> R:
    return reduce([result for batch in batches for result in batch], *args)


class Cluster:
    """A connection to the Dask scheduler at ``address``; ``ClusterError`` when it cannot be made,
    or when the cluster fails or gives no result for ``timeout`` seconds.

    distributed's own log messages are left out, unless the Dask configuration asks for
    them (``DASK_LOGGING__DISTRIBUTED=info``).
    """

    def __init__(self, address: str, timeout: float = 30) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--dask needs the dask extra: pip install 'bkref[dask]'") from None
        if "DASK_LOGGING__DISTRIBUTED" not in os.environ:
            for name in ["distributed", *logging.root.manager.loggerDict]:  # dask's config sets some children's levels
                if name.partition(".")[0] == "distributed":
                    logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        self.address = address
        self.timeout = timeout
        cannot = f"cannot reach the Dask scheduler at {address}"
        scheme, _, place = address.rpartition("://")
        if scheme not in ("", "tcp", "inproc"):
            raise ClusterError(
                f"{cannot}: bkref connects over tcp:// (a {scheme}:// cluster needs settings it cannot give)"
            )
        if scheme != "inproc" and not re.search(r":\d+$", place):
            raise ClusterError(f"{cannot}: no port; give it as tcp://HOST:PORT (a scheduler listens on 8786)")
        try:
            self.client: Client = Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call, unused-ignore]
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            raise ClusterError(f"{cannot}: {error}") from None
        self._batches: list[Future[list[Any]]] = []

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        with suppress(Exception):  # a scheduler already gone: nothing left to close
            self.client.close(timeout=self.timeout)  # type: ignore[no-untyped-call, unused-ignore]

    def map(self, work: Callable[[T], R], items: Sequence[T], per_task: int | None = None) -> Iterator[R]:
        """``work`` of each item on the cluster's workers, in order; relative paths are read
        from this process's folder, and named as given."""
        size = per_task or BATCH
        batches = [list(items[i : i + size]) for i in range(0, len(items), size)]
        folder = os.getcwd()
        self._batches = self.client.map(_run_batch, [work] * len(batches), batches, [folder] * len(batches), pure=False)
        for future in self._batches:
            yield from self._result(future)

    def reduce(self, reduce: Callable[..., R], results: list[Any], *args: Any) -> R:
        """``reduce(results, *args)`` run on the cluster, on the workers' own copy of ``results``."""
        return self._result(self.client.submit(_reduce_batches, reduce, self._batches, *args, pure=False))  # type: ignore[no-any-return]

    def everywhere(self, work: Callable[[], object]) -> None:
        """``work()`` in every worker process of the cluster, if it can still be reached."""
        with suppress(Exception):  # a cluster already gone took what ``work`` would end with it
            self.client.run(work)  # type: ignore[no-untyped-call, unused-ignore]

    def _result(self, future: Future[Any]) -> Any:
        """The result of ``future``; ``ClusterError`` when the cluster, not the work, failed."""
        from concurrent.futures import CancelledError

        from distributed import KilledWorker

        failed = f"the Dask cluster at {self.address} failed"
        try:
            return future.result(timeout=self.timeout)
        except _Unseen as error:
            raise ClusterError(
                f"{failed}: a worker cannot see the log {error}; the workers must see the logs at the same paths"
            ) from None
        except TimeoutError:
            raise ClusterError(
                f"{failed}: no result in {self.timeout:g} s (no worker left? see --dask-timeout)"
            ) from None
        except (OSError, CancelledError, KilledWorker) as error:
            raise ClusterError(f"{failed}: {type(error).__name__}: {' '.join(str(error).split())}") from None
