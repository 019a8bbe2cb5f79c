"""The processes a process started, as Linux's /proc shows them (none elsewhere): to end a
bot program and every process it started, and to see them gone."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from pathlib import Path


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent``."""
    return list(_processes_with(1, parent))


def descendants(parents: Iterable[int]) -> list[int]:
    """The processes ``parents`` started, and those they started, and so on (/proc read once)."""
    under: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            under.setdefault(int(_stat(stat)[1]), []).append(int(stat.parent.name))
    found, todo = [], list(parents)
    while todo:
        for child in under.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def group_lives(group: int) -> bool:
    """Whether a process of the process group ``group`` still runs: while one does, the number
    is the group's, and no new process's."""
    return next(_processes_with(2, group), None) is not None


def wait_ended(pid: int, seconds: float) -> None:
    """Wait until the process ``pid``, killed, has ended (gone, or a zombie), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = _stat(Path(f"/proc/{pid}/stat"))[0]
        except (OSError, IndexError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.002)


def _processes_with(field: int, value: int) -> Iterator[int]:
    """The processes whose ``/proc/PID/stat`` field ``field`` (after the command's name: 1 the
    parent, 2 the process group) is ``value``, as /proc lists them."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(_stat(stat)[field]) == value:
                yield int(stat.parent.name)


def _stat(path: Path) -> list[str]:
    """The fields of a ``/proc/PID/stat`` file after the command's name: state, parent, ..."""
    return path.read_text().rpartition(")")[2].split()
