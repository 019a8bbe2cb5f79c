"""A bot program sealed: what a stranger's program may see of the machine, and how much of it it may use.

A bot is a stranger's program. Where the machine allows it (Linux, with bubblewrap's
``bwrap`` installed and user namespaces allowed), ``Seal.popen`` starts it:

- in a process namespace of its own: it sees no other process (not bkref's command line,
  which names the seeds of the deals), and every process it starts ends with it, whether
  it called ``setsid`` or not (the namespace ends with its first process, which bwrap
  ends with bkref: ``--die-with-parent``); that first process's command line is
  ``bwrap --args N -- COMMAND``, bwrap reading its options from a file it is given open,
  so it names none of the paths hidden from the bot;
- on a file system that shows, read-only, the system's folders (``SYSTEM``, less what is
  secret there: ``_secrets``), the programs and libraries of its program's installation
  (``INSTALLED``) and the folders of the files its command names, never a home (``_seen``),
  and nothing else of the machine; every path compared and given to the bot as it really
  is (no ``..``, no link: ``_absolute``); in what it sees, the folders the run writes (its
  games, the bots' logs), the logs it deals decks from (``--deck``), the runs kept beside
  it and the other bots' files (``bots``: the folder of each file another bot's command
  names, or the file alone beside this bot's own) are out of sight at every name it sees
  them under (``_out_of_sight``), each an empty folder (or an unreadable file) in its view;
  in a private, empty working folder (``/tmp/bot``, also ``$HOME`` and ``$TMPDIR``) on a
  private ``/tmp`` of ``file_mb`` at most (and a ``/dev/shm`` of as much), gone with the
  process: a bot keeps no notes from one process to the next. Nothing else may be
  written: ``/proc`` (``/proc/sys`` above all), ``/dev`` and the folders that hold what it
  sees are read-only;
- with a clean environment (``PASSED``: ``PATH``, the locale and the time zone; ``HOME``
  and ``TMPDIR`` its own folder), no network unless ``network`` (the organiser's
  ``--bot-network``), and no capability even when bkref runs as root;
- within limits (``Limits``: the address space of each process, the processes of its
  user, the size of a file it writes, the CPU time of each process), set with
  ``setrlimit`` before it starts, soft and hard: it cannot raise them. The kernel does not
  limit root's processes: a bkref run as root limits memory, file size and CPU time, and
  relies on the namespace for the rest.

Run as root, a sealed bot is root without capabilities: it owns root's files, and would
read the system's that only root may read. So what a user other than root could not read
it does not see: as root, every file of the system's folders that others may not read, and
every folder they may not list, is hidden as the ``SECRETS`` are (``_unreadable``: found
once a process, 0.5 s for a ``/usr`` of 140,000 files). Dropping the bot to an unprivileged
user instead (``setpriv --reuid=65534``, then an unprivileged ``bwrap --unshare-user``)
would hide them too, but also every file of the bot's that lies in root's folders (a
``/root/bots``, pytest's ``/tmp/pytest-of-root``, of mode 0700), which the organiser named
for it to run.

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
import stat
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

SECRETS: Final = (
    *("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd"),
    *("/etc/ssh", "/etc/ssl/private", "/etc/sudoers", "/etc/sudoers.d"),
)
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


MAX_LIMIT: Final = 10**9
"""The largest ``N`` of ``--bot-limit KIND=N``: a petabyte of memory, 31 years of CPU, as good
as none; what the kernel can be given of each kind (a larger one was a traceback)."""


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
    if not value.isdigit() or not 1 <= int(value) <= MAX_LIMIT:
        raise ValueError(f"{kind}=N, N a whole number from 1 to {MAX_LIMIT:,}")
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

    @property
    def applies(self) -> bool:
        """Whether bots are sealed: asked to be, on a machine that can (``unsealed_why``)."""
        return self.sealed and unsealed_why() is None

    def command(self, command: Sequence[str]) -> list[str]:
        """The command line that runs ``command`` as this seal says (itself, unsealed); sealed,
        ``OSError`` as ``exec`` would give when its program is not found or not executable."""
        if not self.applies:
            return list(command)
        options, argv = self._sandbox(command)
        return [*options, "--", *argv]

    def popen(self, command: Sequence[str]) -> subprocess.Popen[bytes]:
        """``command`` started as this seal says, through pipes to its standard input, output
        and error (``OSError`` if it cannot start), in a process group of its own, within the
        limits (``preexec``). Sealed, bwrap reads its options from a file it is given open
        (``--args``): its command line, the sandbox's ``/proc/1/cmdline``, is ``bwrap --args N
        -- COMMAND``, and names none of the paths it hides; it starts with no environment (it
        would be readable in ``/proc/1/environ``), and gives the bot its own."""
        argv, given = list(command), None
        env: dict[str, str] | None = None
        if self.applies:
            (bwrap, *options), argv = self._sandbox(command)
            given = os.memfd_create("bwrap-args", os.MFD_CLOEXEC)  # a file: any length, seen by no other child
            os.write(given, b"".join(os.fsencode(option) + b"\0" for option in options))
            os.lseek(given, 0, os.SEEK_SET)
            argv, env = [bwrap, "--args", str(given), "--", *argv], {}
        try:
            return subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                preexec_fn=self.preexec(),
                pass_fds=() if given is None else (given,),
                close_fds=True,
            )
        finally:
            if given is not None:
                os.close(given)  # bwrap closes its own copy once read

    def _sandbox(self, command: Sequence[str]) -> tuple[list[str], list[str]]:
        """bwrap and its options that seal ``command``, and ``command`` as the bot runs it
        (``_absolute``)."""
        argv = _absolute(command)
        if argv and shutil.which(argv[0]) is None:  # as starting it unsealed says, not bwrap's status 1
            error = errno.EACCES if os.path.exists(argv[0]) else errno.ENOENT
            raise OSError(error, os.strerror(error), argv[0])
        env = [arg for name in PASSED if name in os.environ for arg in ("--setenv", name, os.environ[name])]
        seen = _seen(argv, self.network)
        own = [arg for place in seen for arg in _bind(place)]
        hide = [arg for path in self._out_of_sight(argv, seen) for arg in _hide(path)]
        options = [
            *_bwrap(self.network),
            *("--size", str(self.limits.file_mb * MIB), "--tmpfs", "/tmp"),
            *("--size", str(self.limits.file_mb * MIB), "--tmpfs", "/dev/shm"),  # POSIX shared memory
            *own,
            *hide,
            *("--dir", FOLDER, "--chdir", FOLDER, "--remount-ro", "/"),  # the folders that hold its mounts
            *("--clearenv", *env, "--setenv", "HOME", FOLDER, "--setenv", "TMPDIR", FOLDER),
        ]
        return options, argv

    def _out_of_sight(self, argv: list[str], seen: list[str]) -> list[str]:
        """What the bot run by ``argv`` must not see of what it sees (the system's folders and
        ``seen``), at every name it sees it under: the paths ``hidden``, the runs kept beside
        its own files (a folder with a ``tournament.json``), and the other bots' files, each
        with its folder, or alone where that folder is the system's or holds what this bot
        sees as its own. A hidden folder that holds its own files is not hidden (``exposed``
        says so)."""
        mine = {os.path.realpath(path) for path in _own_files(argv)}
        places: dict[str, list[str]] = {}  # each place, really, and every name it is shown under
        for place in seen:
            places.setdefault(os.path.realpath(place), []).append(place)
        hidden = {os.path.realpath(path) for path in self.hidden} | _runs_beside(argv)
        theirs = {path for other in self.bots for path in _bot_files(_absolute(other, strict=False))} - mine

        def holds_own(folder: str) -> bool:  # what it sees as its own lies there
            return any(_within(own, folder) for own in (*mine, *places))

        found = set()
        for path in hidden | theirs:
            folder = path
            if path not in hidden and not os.path.isdir(path):  # another bot's file: with its folder
                folder = os.path.dirname(path)
                if holds_own(folder) or any(_within(folder, system) for system in SYSTEM):
                    folder = path
            elif path not in hidden and any(_within(folder, system) for system in SYSTEM):
                continue  # a system folder another bot names (its library, say) stays in sight
            if not os.path.exists(folder) or holds_own(folder):
                continue  # not there (each is made before a bot starts), or its own
            found.update(_shown(folder, places))
        return sorted(found)

    def exposed(self, command: Sequence[str]) -> list[str]:
        """The hidden paths that ``command``'s bot sees all the same, as its own files (or what
        it runs on) lie in them: hiding them would hide the bot. A bot kept in the run's output
        folder, say."""
        argv = _absolute(command, strict=False)
        own = {os.path.realpath(path) for path in [*_own_files(argv), *_seen(argv, self.network)]}
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
                    infinite = value == resource.RLIM_INFINITY
                    value = value if hard == resource.RLIM_INFINITY else hard if infinite else min(value, hard)
                    resource.setrlimit(kind, (value, value))  # hard too: the bot cannot raise it

        return start


def _absolute(command: Sequence[str], strict: bool = True) -> list[str]:
    """``command`` with the paths of files bkref sees made absolute and plain: its program's
    as named (a virtual environment's Python finds its packages by that name), every other
    as it really is (no ``..``, no link: what the bot reads is where it is shown;
    ``_really``, which refuses some, unless not ``strict``: another bot's, to hide them)."""
    here = os.getcwd()
    argv: list[str] = []
    for n, arg in enumerate(command):
        if argv and argv[-1] in ("-m", "-c"):  # a module's name or a program's text, never a path
            argv.append(arg)
            continue
        if _names_a_file(arg, n == 0):
            arg = os.path.join(here, arg)
        if os.path.isabs(arg) and os.path.exists(arg):
            arg = os.path.normpath(arg) if n == 0 else _really(arg) if strict else os.path.realpath(arg)
        argv.append(arg)
    return argv


LIVE: Final = ("/proc", "/sys", "/dev", "/run")
"""The machine's live folders (processes, devices, sockets): never shown to a bot through a path its command names."""


def _really(path: str) -> str:
    """``path`` (absolute, plain) as it really is; ``OSError`` for a symbolic link that leads out
    of the folder it lies in (a model's link to a home's credentials, to ``/proc``): the
    organiser names what they mean to show, itself; and for a path in a live folder (``LIVE``)."""
    path = os.path.normpath(path)
    real = os.path.realpath(path)
    if real != path and not _within(real, os.path.realpath(os.path.dirname(path))):
        raise OSError(errno.EPERM, f"{path} is a link out of its folder (to {real}): name {real} itself", path)
    for live in LIVE:
        if _within(real, live):
            raise OSError(errno.EPERM, f"{path} is in {live}, which no bot sees", path)
    return real


def _own_files(argv: list[str]) -> set[str]:
    """The files a sealed bot run by ``argv`` sees where they lie, never hidden from it: those
    its command names, and its program as found on the ``PATH``, as named and as it really is."""
    program = shutil.which(argv[0]) or argv[0]
    return {arg for arg in argv[1:] if _is_path(arg)} | {program, os.path.realpath(program)}


def _seen(argv: list[str], network: bool) -> list[str]:
    """Where the bot run by ``argv`` sees the machine's files, beside the system's folders
    (``SYSTEM``): the folder of each file its command names (or the folder it names), but a
    home or a folder holding its own ``/tmp/bot`` (the file alone, then); and its program's
    installation (``_installation``, as named and as it really is), and that of the
    interpreter a script names on its first line (``_interpreter``)."""
    places = _named_places(argv)
    program = shutil.which(argv[0]) if argv else None
    for found in (program, _interpreter(program)):
        if found is not None:
            places.update(_installation(found))
            places.update(_installation(os.path.realpath(found)))
    if network and os.path.exists("/etc/resolv.conf"):  # often a link to where a resolver keeps it
        places.add(os.path.dirname(os.path.realpath("/etc/resolv.conf")))
    places = {place for place in places if not any(_within(place, system) for system in SYSTEM)}
    return sorted(place for place in places if not any(_within(place, other) for other in places - {place}))


def _named_places(argv: list[str]) -> set[str]:
    """The folder of each file the command ``argv`` names (or the folder it names), but a home
    or a folder holding the bot's own ``/tmp/bot`` (the file alone, then)."""
    places = set()
    for arg in argv[1:]:
        if not _is_path(arg):
            continue
        folder = arg if os.path.isdir(arg) else os.path.dirname(arg)
        if _within(FOLDER, folder) or _is_home(folder):
            folder = arg  # /tmp itself, or a home: the file alone
        if not _within(FOLDER, folder) and not _is_home(folder):
            places.add(folder)
    return places


INSTALLED: Final = ("bin", "lib", "lib32", "lib64", "libexec", "include", "shims", "versions", "plugins")
"""What a sealed bot sees of its program's installation (``_installation``): its programs and
libraries (a version manager's shims and versions too), never the rest of the folder."""

INSTALLED_FILES: Final = ("pyvenv.cfg", "version")
"""The files of an installation a program reads at its start: a virtual environment's, pyenv's."""


def _installation(program: str) -> list[str]:
    """What a program reads of its installation: when it lies in a ``bin`` folder (or a version
    manager's ``shims``), the programs and libraries of the folder above (``INSTALLED``: a
    Python's standard library, a virtual environment's packages), not its data (a
    ``~/.local/share`` or ``~/.cargo/credentials.toml`` stays out of sight), unless that is
    a home (a ``~/bin``: the program alone); else its own folder, or the program alone when
    that folder is a home or the root."""
    folder = os.path.dirname(program)
    above = os.path.dirname(folder)
    if os.path.basename(folder) in ("bin", "shims") and above != "/":
        if _is_home(above):  # a ~/bin: the program alone
            return [program]
        parts = [os.path.join(above, part) for part in (*INSTALLED, *INSTALLED_FILES)]
        return [part for part in parts if os.path.exists(part)]
    return [program if folder == "/" or _is_home(folder) else folder]


def _interpreter(program: str | None) -> str | None:
    """The interpreter a script names on its first line: ``#!/usr/bin/python3`` (or
    ``#!/usr/bin/env node``, found on the ``PATH``), or None (an ``env`` with options: it
    is not guessed)."""
    if program is None:
        return None
    try:
        with open(program, "rb") as file:
            first = file.readline(256)
    except OSError:
        return None
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") and b"\0" not in first else []
    if words and os.path.basename(words[0]) == "env":
        return shutil.which(words[1]) if len(words) == 2 and not words[1].startswith("-") else None
    return words[0] if words and os.path.isabs(words[0]) else None


def _is_home(folder: str) -> bool:
    """Whether ``folder`` is someone's home (``$HOME``, ``/root``, ``/home/NAME``) or ``/home``."""
    folder = os.path.normpath(folder)
    homes = {os.path.normpath(os.path.expanduser("~")), "/root", "/home"}
    return folder in homes or os.path.realpath(folder) in homes or os.path.dirname(folder) == "/home"


RUNS_DEPTH: Final = 3
"""How deep below a bot's folder the runs kept there are looked for (``_runs_beside``)."""


def _runs_beside(argv: list[str]) -> set[str]:
    """The runs kept below the folders of the files a bot's command names (``_named_places``,
    each walked once), ``RUNS_DEPTH`` folders deep at most: each folder that holds a
    ``tournament.json`` (an earlier tournament's games and seed)."""
    found = set()
    for folder in _named_places(argv):
        for here, folders, files in os.walk(folder):
            if "tournament.json" in files and here != folder:
                found.add(os.path.realpath(here))
                folders.clear()  # a run's folder is hidden whole
            elif here[len(folder) :].count(os.sep) >= RUNS_DEPTH:
                folders.clear()
    return found


def _shown(path: str, places: dict[str, list[str]]) -> list[str]:
    """Every name a bot sees ``path`` (a real path) under: in the system's folders, and in each
    place it sees (``places``: each one's real path to the names it is shown under)."""
    names = [path] if any(_within(path, system) for system in SYSTEM) else []
    for real, shown in places.items():
        if _within(path, real):
            names += [name + path[len(real) :] for name in shown]
    return names


def _bind(place: str) -> list[str]:
    """bwrap's options that show ``place`` read-only where it lies."""
    return ["--ro-bind", place, place]


def _hide(path: str) -> list[str]:
    """bwrap's options that show ``path`` empty: a folder with nothing in it (and where nothing
    can be written: its owner is the bot's user), a file of no bytes."""
    return ["--tmpfs", path, "--remount-ro", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]


def _bot_files(argv: list[str]) -> set[str]:
    """The files and folders a bot's command names, as they really are: its arguments', and
    its program's when named as a path to a file of its own (not on the ``PATH``, not a
    link: a virtual environment's Python is an interpreter's link, another bot's too).
    Never a system folder (``SYSTEM``) or one that holds one."""
    named = {os.path.realpath(arg) for arg in argv[1:] if _is_path(arg)}
    path = os.environ.get("PATH", "").split(os.pathsep)
    if argv and _is_path(argv[0]) and not os.path.islink(argv[0]) and os.path.dirname(argv[0]) not in path:
        named.add(os.path.realpath(argv[0]))
    return {arg for arg in named if not any(_within(system, arg) for system in SYSTEM)}


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
        *(arg for path in _secrets() for arg in _hide(path)),
        *("--dev", "/dev", "--remount-ro", "/dev"),  # its devices, and no file made beside them
        *("--proc", "/proc", "--remount-ro", "/proc"),  # no sysctl, no sysrq, no irq written
    ]
    if os.getuid() == 0:
        command += ["--cap-drop", "ALL"]
    return command


@functools.cache
def _secrets() -> tuple[str, ...]:
    """What a sealed bot does not see of the system's folders: the ``SECRETS`` there, and, when
    bkref runs as root (the bot's user then owns root's files), every file and folder of them
    that another user could not read (``_unreadable``: found once)."""
    found = [path for path in SECRETS if os.path.lexists(path)]
    if os.getuid() == 0:
        found += _unreadable([path for path in SYSTEM if not os.path.islink(path)])
    return tuple(
        path for path in sorted(set(found)) if not any(other != path and _within(path, other) for other in found)
    )


def _unreadable(folders: Sequence[str]) -> list[str]:
    """The files below ``folders`` that others (not their owner, not their group) may not read,
    and the folders they may not list or enter (not walked further); no link (bwrap shows a
    link's target where it lies)."""
    found = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue
            needed = 0o005 if stat.S_ISDIR(mode) else 0o004
            if mode & needed != needed:
                found.append(entry.path)
            elif stat.S_ISDIR(mode):
                found += _unreadable([entry.path])
    return found


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
