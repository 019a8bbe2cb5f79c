"""A bot program sealed: what a stranger's program may see of the machine, and how much of it it may use.

A bot is a stranger's program. Where the machine allows it (Linux, with bubblewrap's
``bwrap`` installed and user namespaces allowed), ``Seal.command`` runs it:

- in a process namespace of its own: it sees no other process (not bkref's command line,
  which names the seeds of the deals), and every process it starts ends with it, whether
  it called ``setsid`` or not (the namespace ends with its first process, which bwrap
  ends with bkref: ``--die-with-parent``);
- on a file system that shows, read-only, the system's folders (``SYSTEM``, less its
  ``SECRETS``), its program's installation and the folders of the files its command names,
  where they lie (``_seen``), and nothing else of the machine (no home, no earlier run);
  in what it sees, the folders the run writes (its games, the bots' logs), the logs it deals
  decks from (``--deck``) and the other bots' files (``bots``: the folder of each file
  another bot's command names, or the file alone beside this bot's own) are out of sight
  (``_out_of_sight``), each an empty folder (or an unreadable file) in its view; in a
  private, empty working folder (``/tmp/bot``, also ``$HOME`` and ``$TMPDIR``) on a private
  ``/tmp`` of ``file_mb`` at most, gone with the process: a bot keeps no notes from one
  process to the next;
- with a clean environment (``PASSED``: ``PATH``, the locale and the time zone; ``HOME``
  and ``TMPDIR`` its own folder), no network unless ``network`` (the organiser's
  ``--bot-network``), and no capability even when bkref runs as root;
- within limits (``Limits``: the address space of each process, the processes of its
  user, the size of a file it writes, the CPU time of each process), set with
  ``setrlimit`` before it starts. The kernel does not limit root's processes: a bkref run
  as root limits memory, file size and CPU time, and relies on the namespace for the rest.

Relative paths in the command that name files bkref sees (``cmd:python3 bots/mine.py``)
are made absolute, since the bot starts in its own folder. Without bwrap (or where it
cannot make the namespaces) the bot runs unsealed, with the limits still set: the
command line warns (``unsealed_why``); ``sealed=False`` (``--unsealed``) runs trusted bots
so on purpose.

>>> Limits().memory_mb, Limits().processes, Limits().file_mb, Limits().cpu_seconds
(4096, 64, 64, 3600)
>>> parse_limit(Limits(), "memory=512").memory_mb
512
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Final

import msgspec

PASSED: Final = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
"""The variables of bkref's environment a sealed bot is given (with ``HOME`` and ``TMPDIR``, its own folder)."""

FOLDER: Final = "/tmp/bot"
"""A sealed bot's working folder, ``$HOME`` and ``$TMPDIR``: empty at its start."""

MIB: Final = 1 << 20

SYSTEM: Final = tuple(
    path
    for path in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/nix")
    if os.path.lexists(path)
)
"""The machine's folders a sealed bot sees (read-only): its programs, libraries and settings."""

SECRETS: Final = ("/etc/shadow", "/etc/gshadow", "/etc/ssh", "/etc/ssl/private", "/etc/sudoers", "/etc/sudoers.d")
"""What a sealed bot does not see of the system's folders, even run as root: passwords and keys."""


class Limits(msgspec.Struct, frozen=True):
    """What a bot program may use (``--bot-limit KIND=N``): ``memory_mb``, the address space
    of each of its processes in MiB; ``processes``, how many processes its user may run
    beyond those it runs already; ``file_mb``, the largest file it may write and the size of
    its ``/tmp``, in MiB; ``cpu_seconds``, the CPU time of each process (a process past it
    is ended, a fault of the seat, and started again at its next decision)."""

    memory_mb: int = 4096
    processes: int = 64
    file_mb: int = 64
    cpu_seconds: int = 3600


LIMIT_NAMES: Final = {"memory": "memory_mb", "processes": "processes", "file": "file_mb", "cpu": "cpu_seconds"}
"""The kinds of ``--bot-limit KIND=N`` and the field of ``Limits`` each sets."""


def parse_limit(limits: Limits, text: str) -> Limits:
    """``limits`` with the limit ``KIND=N`` of ``text`` set; ``ValueError`` naming what is wrong.

    >>> parse_limit(Limits(), "disk=1")
    Traceback (most recent call last):
    ...
    ValueError: KIND=N, KIND one of memory, processes, file or cpu
    """
    kind, _, value = text.partition("=")
    if kind not in LIMIT_NAMES:
        raise ValueError(f"KIND=N, KIND one of {', '.join(list(LIMIT_NAMES)[:-1])} or {list(LIMIT_NAMES)[-1]}")
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{kind}=N, N a whole number from 1 up")
    return msgspec.structs.replace(limits, **{LIMIT_NAMES[kind]: int(value)})


class Seal(msgspec.Struct, frozen=True):
    """How bot programs are run (see the module): ``sealed`` where the machine allows it,
    with the ``network`` or not, the folders and files ``hidden`` from them, within ``limits``."""

    sealed: bool = True
    network: bool = False
    hidden: tuple[str, ...] = ()
    limits: Limits = Limits()
    bots: tuple[tuple[str, ...], ...] = ()
    """The commands of every bot program of the run: each bot's files are hidden from the others."""

    def command(self, command: Sequence[str]) -> list[str]:
        """The command line that runs ``command`` as this seal says (itself, unsealed); sealed,
        ``OSError`` as ``exec`` would give when its program is not found or not executable."""
        if not self.sealed or unsealed_why() is not None:
            return list(command)
        argv = _absolute(command)
        if argv and shutil.which(argv[0]) is None:  # as starting it unsealed says, not bwrap's status 1
            error = errno.EACCES if os.path.exists(argv[0]) else errno.ENOENT
            raise OSError(error, os.strerror(error), argv[0])
        env = [arg for name in PASSED if name in os.environ for arg in ("--setenv", name, os.environ[name])]
        seen = _seen(argv, self.network)
        own = [arg for place in seen for arg in _bind(place)]
        hide = [arg for path in self._out_of_sight(argv, seen) for arg in _hide(path)]
        return [
            *_bwrap(self.network),
            *("--size", str(self.limits.file_mb * MIB), "--tmpfs", "/tmp"),
            *own,
            *hide,
            *("--dir", FOLDER, "--chdir", FOLDER),
            *("--clearenv", *env, "--setenv", "HOME", FOLDER, "--setenv", "TMPDIR", FOLDER),
            "--",
            *argv,
        ]

    def _out_of_sight(self, argv: list[str], seen: list[str]) -> list[str]:
        """What the bot run by ``argv`` must not see of what it sees (the system's folders and
        ``seen``): the paths ``hidden``, and the other bots' files, each with its folder, or
        alone where that folder is the system's or holds what this bot sees as its own. A
        hidden folder that holds its own files is not hidden (``exposed`` says so)."""
        mine = _own_files(argv)
        hidden = {os.path.realpath(path) for path in self.hidden}
        theirs = {path for other in self.bots for path in _bot_files(_absolute(other))} - mine

        def holds_own(folder: str) -> bool:  # what it sees as its own lies there
            return any(_within(own, folder) for own in (*mine, *seen))

        found = set()
        for path in hidden | theirs:
            if not os.path.exists(path) or not any(_within(path, place) for place in (*SYSTEM, *seen)):
                continue  # out of its sight already, or not there (each is made before a bot starts)
            folder = path
            if path not in hidden and not os.path.isdir(path):  # another bot's file: with its folder
                folder = os.path.dirname(path)
                if holds_own(folder) or any(_within(folder, system) for system in SYSTEM):
                    folder = path
            elif path not in hidden and any(_within(folder, system) for system in SYSTEM):
                continue  # a system folder another bot names (its library, say) stays in sight
            if not holds_own(folder):
                found.add(folder)
        return sorted(found)

    def exposed(self, command: Sequence[str]) -> list[str]:
        """The hidden paths that ``command``'s bot sees all the same, as its own files (or what
        it runs on) lie in them: hiding them would hide the bot. A bot kept in the run's output
        folder, say."""
        argv = _absolute(command)
        own = [*_own_files(argv), *_seen(argv, self.network)]
        hidden = sorted({os.path.realpath(path) for path in self.hidden})
        return [path for path in hidden if any(_within(mine, path) for mine in own)]

    def preexec(self) -> Callable[[], None]:
        """What the bot's process does before it runs: a process group of its own, killed when
        bkref dies (Linux), within the limits."""
        limits = self.limits
        processes = _processes_of(os.getuid()) + limits.processes if os.getuid() != 0 else resource.RLIM_INFINITY
        prctl = _prctl()  # found here: the child of a threaded process loads no library

        def start() -> None:  # pragma: no cover - runs in the child
            os.setsid()
            if prctl is not None:  # killed when the thread that started it ends (bkref's, or a worker's)
                prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            for kind, value in (
                (resource.RLIMIT_AS, limits.memory_mb * MIB),
                (resource.RLIMIT_FSIZE, limits.file_mb * MIB),
                (resource.RLIMIT_CPU, limits.cpu_seconds),
                (resource.RLIMIT_NPROC, processes),
            ):
                with contextlib.suppress(ValueError, OSError):  # never above a hard limit bkref was given
                    hard = resource.getrlimit(kind)[1]
                    resource.setrlimit(kind, (value if hard == resource.RLIM_INFINITY else min(value, hard), hard))

        return start


def _absolute(command: Sequence[str]) -> list[str]:
    """``command`` with the relative paths of files bkref sees made absolute."""
    here = os.getcwd()
    return [os.path.join(here, arg) if _names_a_file(arg, n == 0) else arg for n, arg in enumerate(command)]


def _own_files(argv: list[str]) -> set[str]:
    """The files a sealed bot run by ``argv`` sees where they lie, never hidden from it: those
    its command names, and its program as found on the ``PATH``, as named and as they really
    are (a symbolic link's target)."""
    named = {arg for arg in argv if _is_path(arg)} | {shutil.which(argv[0]) or argv[0]}
    return named | {os.path.realpath(path) for path in named}


def _seen(argv: list[str], network: bool) -> list[str]:
    """Where the bot run by ``argv`` sees the machine's files, beside the system's folders
    (``SYSTEM``): the folder of each file its command names (or the folder it names), and
    its program's installation (``_installation``: of its interpreter too, for a script that
    names one on its first line), each as named and as it really is; never its home, nor a
    folder holding its own ``/tmp/bot`` (the file alone, then)."""
    program = shutil.which(argv[0]) if argv else None
    places: set[str] = set()
    for arg in _own_files(argv):
        if not _is_path(arg) or arg == program:
            continue
        folder = arg if os.path.isdir(arg) else os.path.dirname(arg)
        if _within(FOLDER, folder) or _is_home(folder):
            folder = arg  # /tmp itself, or a home: the file alone
        if not _within(FOLDER, folder):
            places.add(folder)
    for found in (program, _interpreter(program)):
        if found is not None:
            places |= {_installation(found), _installation(os.path.realpath(found))}
    if network and os.path.exists("/etc/resolv.conf"):  # often a link to where a resolver keeps it
        places.add(os.path.dirname(os.path.realpath("/etc/resolv.conf")))
    places = {place for place in places if not any(_within(place, system) for system in SYSTEM)}
    return sorted(place for place in places if not any(_within(place, other) for other in places - {place}))


def _installation(program: str) -> str:
    """The folder a program is installed in, which it may read at its start: the one above
    its ``bin`` folder (a Python's standard library, a virtual environment's packages) or a
    version manager's ``shims`` (pyenv's, asdf's: the versions they run), or its own folder;
    the program alone when that is a home or the root."""
    folder = os.path.dirname(program)
    above = os.path.dirname(folder)
    if os.path.basename(folder) in ("bin", "shims") and above != "/" and not _is_home(above):
        return above
    return program if folder == "/" or _is_home(folder) else folder


def _interpreter(program: str | None) -> str | None:
    """The interpreter a script names on its first line (``#!/usr/bin/env node``: found on the
    ``PATH``), or None."""
    if program is None:
        return None
    try:
        with open(program, "rb") as file:
            first = file.readline(256)
    except OSError:
        return None
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") else []
    if words and os.path.basename(words[0]) == "env":
        words = [word for word in words[1:] if not word.startswith("-")]
        return shutil.which(words[0]) if words else None
    return words[0] if words and os.path.isabs(words[0]) else None


def _is_home(folder: str) -> bool:
    """Whether ``folder`` is someone's home (``$HOME``, ``/root``, ``/home/NAME``) or ``/home``."""
    folder = folder.rstrip(os.sep) or os.sep
    return folder in (os.path.expanduser("~"), "/root", "/home") or os.path.dirname(folder) == "/home"


def _bind(place: str) -> list[str]:
    """bwrap's options that show ``place`` read-only where it lies."""
    return ["--ro-bind", place, place]


def _hide(path: str) -> list[str]:
    """bwrap's options that show ``path`` empty: a folder with nothing in it, a file of no bytes."""
    return ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]


def _bot_files(argv: list[str]) -> set[str]:
    """The files and folders of a bot that ``argv`` names, as they really are: its
    arguments', and its program's unless found on the ``PATH`` (an interpreter, shared by
    every bot). Never a system folder (``SYSTEM``) or one that holds one."""
    path = os.environ.get("PATH", "").split(os.pathsep)
    named = [arg for arg in argv[1:] if _is_path(arg)]
    if argv and _is_path(argv[0]) and os.path.dirname(argv[0]) not in path:
        named.append(argv[0])
    real = {os.path.realpath(arg) for arg in named}
    return {arg for arg in real if not any(_within(system, arg) for system in SYSTEM)}


def _within(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or in it."""
    return (path + os.sep).startswith(folder.rstrip(os.sep) + os.sep)


def _names_a_file(arg: str, program: bool) -> bool:
    """Whether ``arg`` is a relative path to something bkref sees (made absolute for a sealed
    bot); the ``program`` only when it has a folder (``node`` is looked up on the ``PATH``)."""
    return not os.path.isabs(arg) and (os.sep in arg or not program) and os.path.exists(arg)


def _is_path(arg: str) -> bool:
    """Whether ``arg``, made absolute, names a file or folder outside the bot's own ``/tmp/bot``."""
    return os.path.isabs(arg) and os.path.exists(arg) and not (arg + os.sep).startswith(FOLDER + os.sep)


def _bwrap(network: bool) -> list[str]:
    """bwrap and its options: the namespaces, the file system read-only, no capability."""
    command = [
        shutil.which("bwrap") or "bwrap",
        *("--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts"),
        "--unshare-cgroup-try",
        *(() if network else ("--unshare-net",)),
        *(
            arg
            for path in SYSTEM
            for arg in (("--symlink", os.readlink(path), path) if os.path.islink(path) else _bind(path))
        ),
        *(arg for path in SECRETS if os.path.lexists(path) for arg in _hide(path)),
        *("--dev", "/dev", "--proc", "/proc"),
    ]
    if os.getuid() == 0:
        command += ["--cap-drop", "ALL"]
    return command


@functools.cache
def _prctl() -> Callable[[int, int], int] | None:
    """Linux's ``prctl``, or None elsewhere."""
    if sys.platform != "linux":
        return None
    try:
        return ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None


def _processes_of(uid: int) -> int:
    """How many processes the user ``uid`` runs now (0 where ``/proc`` does not tell)."""
    count = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    count += entry.stat().st_uid == uid
    return count


@functools.cache
def unsealed_why() -> str | None:
    """Why bot programs cannot be sealed on this machine, or None when they can (bwrap makes
    the namespaces here: tried once)."""
    if not sys.platform.startswith("linux"):
        return f"sealing needs Linux's namespaces, and this is {sys.platform}"
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    try:
        tried = subprocess.run([*_bwrap(False), "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap cannot run: {error}"
    if tried.returncode != 0:
        said = tried.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap cannot make the namespaces here ({said[-1] if said else f'status {tried.returncode}'})"
    return None
