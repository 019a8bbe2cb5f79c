"""Bot programs: a process that speaks ``bkbot/1`` on its standard input and output.

``Program(command)`` is one bot process: ``start()`` runs it in a process group of its own
and exchanges ``hello`` (10 s), ``send`` queues a message, ``ask_all`` writes decisions to
several programs at once and waits for their replies, each to its own deadline, and
``stop()`` sends ``quit`` and kills the group 2 s later. Nothing here ever blocks on a
bot: both pipes are non-blocking and every wait is a ``poll`` with a deadline,
so a bot that stops reading, hangs, or floods its standard error cannot stall bkref; the same
poll sees the process exit (``alive`` asks the system nothing at each decision). Its
standard error is drained by a thread of its own (``Stderr``): into its log file, when it has
one, up to ``STDERR_CAP`` bytes a game, then one line saying so and how much was dropped;
its last line is kept, to say why a bot that could not start did not. Every live process is
also killed at exit (``atexit``), and on Linux when bkref dies (``PR_SET_PDEATHSIG``).

``bkref.bots.engine.Engine`` drives one from Python, on any position.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Final

import msgspec

from bkref.bots.protocol import (
    MAX_INFO,
    MAX_INFO_DEPTH,
    MAX_LINE,
    PROTOCOL,
    BotHello,
    Choice,
    Decide,
    Fault,
    GameStart,
    Hello,
    Move,
    Quit,
    ToBot,
    decode_reply,
    encode,
    in_order,
    merge_patch,
)
from bkref.bots.sealing import Seal
from bkref.game.seen import SeenView
from bkref.io.diagnostics import printable
from bkref.io.logfile import depth
from bkref.io.processes import children, group_lives, wait_ended

HELLO_SECONDS: Final = 10.0
QUIT_SECONDS: Final = 2.0
STDERR_CAP: Final = 1 << 20
"""The bytes of a bot's standard error kept a game (``--bot-logs``): 1 MiB."""
_LIVE: set[Program] = set()


def grace(ms: int) -> float:
    """The seconds a bot has for a decision of ``ms``: ``ms`` + max(``ms`` / 10, 50 ms).

    >>> grace(200)
    0.25
    """
    return (ms + max(ms / 10, 50)) / 1000


class Answer(msgspec.Struct):
    """A bot's valid reply to one decision: the move chosen (in the bot's ``order``, when it gave
    one), its ``info`` and the size of that in JSON (0 without one), the seconds it took."""

    move: Choice
    info: Any
    seconds: float
    info_size: int = 0


class BotFault(Exception):
    """A fault of a bot (docs/bot-protocol.md, faults): ``kind`` is the fault's name."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


class Program:
    """One bot process (see the module). ``faults`` collects the faults found outside a
    decision (extra output), as (kind, id of the last decision)."""

    def __init__(
        self, command: Sequence[str], stderr: Path | None = None, seal: Seal | None = None, trace: bool = False
    ) -> None:
        self.command = list(command)
        self.stderr = stderr
        self.trace = trace
        """Whether every line sent and read is also written to the standard error's log (``--bot-trace``)."""
        self._started = 0.0
        self.seal = seal or Seal()
        """How it runs: sealed where the machine allows it, and within its limits (``bkref.bots.sealing``)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.errors: Stderr | None = None
        """The drain of the running process's standard error."""
        self.name = self.version = ""
        self.views = "whole"
        """How the bot asked for its views in its hello: ``whole``, ``patch`` or ``none``."""
        self._view: SeenView | None = None
        """The last view sent this game, when the bot takes them as patches."""
        self.next_id = 0
        self.dropped: set[int] = set()
        """The ids of decisions that faulted: a late reply to one is dropped."""
        self.stray: list[tuple[str, int]] = []
        self._out = bytearray()
        self._in = bytearray()
        self._lines: list[bytes] = []
        self._skipping = False  # inside a line over MAX_LINE
        self._eof = False
        """Its output has ended (or it has exited, and nothing is left to read): it is no longer alive."""
        self._exited = False
        self._pidfd: int | None = None
        """A descriptor of the process (Linux's pidfd) that the waits poll with its output: its exit is
        seen there, without asking the system about it at each decision."""

    # -- the process -----------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """Whether the process runs, as far as its pipes and its exit have said: a process found
        ended (its output closed, or its exit seen by a wait) is not. Without a pidfd (before
        Linux 5.3, or refused by a sandbox) the system is asked (``poll``): an exit is then seen
        even while a child of the bot holds its output open."""
        process = self.process
        return process is not None and not self._eof and (self._pidfd is not None or process.poll() is None)

    def start(self) -> None:
        """Start the process and exchange ``hello``; ``BotFault("exit")`` if it cannot start or
        does not answer ``hello`` within 10 s. A line before its hello is an ``output`` fault
        (in ``stray``)."""
        self.kill()
        self._out.clear()
        self._in.clear()
        self._lines.clear()
        self._eof = self._skipping = self._exited = False
        self._view = None
        try:
            self.process = self.seal.popen(self.command)
        except OSError as error:
            raise BotFault("exit", f"cannot start {' '.join(self.command)}: {error.strerror or error}") from None
        _LIVE.add(self)
        with contextlib.suppress(AttributeError, OSError):  # no pidfd (before Linux 5.3): its output's end says it
            self._pidfd = os.pidfd_open(self.process.pid)
        self._started = time.monotonic()
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        self.errors = Stderr(self.process.stderr, self.stderr)
        self.errors.start()
        os.set_blocking(self.process.stdin.fileno(), False)
        os.set_blocking(self.process.stdout.fileno(), False)
        self.send(Hello())
        deadline = time.monotonic() + HELLO_SECONDS
        first: str | None = None  # the first line it wrote that is not its hello (a banner)
        while True:  # the deadline holds however much it writes before its hello
            line = self._wait_line(deadline) if time.monotonic() < deadline else None
            if line is None:
                try:  # its output ended: a process that exits is reaped within moments
                    ended: int | None = self.process.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    ended = None
                self.kill()
                said = self.last_said()
                if ended is not None:  # it ended before its hello: no wait of 10 s was spent
                    raise BotFault("exit", f"it exited with status {ended} before its hello{said}")
                wrote = f", only other lines, the first {first!r}" if first is not None else ""
                raise BotFault("exit", f"no hello within 10 s{wrote}{said}")
            try:
                reply: object = decode_reply(line)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                if _says_hello(line):  # a hello all the same: said now, not after 10 s of waiting
                    self.kill()
                    raise BotFault("exit", f"its hello is not bkbot/1's: {_worded(error)}") from None
                reply = None
            if isinstance(reply, BotHello):
                if reply.protocol != PROTOCOL:
                    self.kill()
                    raise BotFault("exit", f"its hello speaks {reply.protocol!r}, not {PROTOCOL!r}")
                self.name, self.version, self.views = reply.name, reply.version, reply.views
                return
            self.strayed("output")  # a line before its hello (a banner), or a move
            first = line[:80].decode(errors="replace") if first is None else first

    def strayed(self, kind: str, decide_id: int | None = None) -> None:
        """A line the bot wrote out of turn, a fault of ``kind`` after the decision ``decide_id``
        (default: its last): one of each kind a decision, however many lines it writes."""
        fault = (kind, self.next_id if decide_id is None else decide_id)
        if fault not in self.stray:
            self.stray.append(fault)

    def last_said(self) -> str:
        """The last line of the bot's standard error, as the end of a sentence ("" if none)."""
        line = self.errors.last_line() if self.errors is not None else ""
        return f" (its standard error ended: {printable(line)})" if line else ""

    def kill(self) -> None:
        """Kill the process group now (nothing if not running), and wait until every process
        of the bot is gone: a sealed bot's first process in its sandbox (bwrap's child, in a
        session of its own) ends the sandbox's every process when it dies."""
        process, self.process = self.process, None
        _LIVE.discard(self)
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        if process is None:
            return
        inner = children(process.pid)
        if process.returncode is None or group_lives(process.pid):  # its number is not another's yet
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        for pid in inner:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        process.wait()
        for pid in inner:
            wait_ended(pid, QUIT_SECONDS)
        if self.errors is not None:  # every writer is gone: the drain reads to the end, then ends
            self.errors.join(QUIT_SECONDS)

    def stop(self) -> None:
        """Send ``quit``, give the bot 2 s to exit, then kill its process group."""
        if self.alive:
            self.send(Quit())
            deadline = time.monotonic() + QUIT_SECONDS
            while self.alive and time.monotonic() < deadline:
                self._wait_line(min(deadline, time.monotonic() + 0.05))
        self.kill()

    # -- writing ---------------------------------------------------------------------

    def send(self, message: ToBot, flush: bool = True) -> None:
        """Queue ``message`` and, if ``flush``, write what the pipe takes now, without waiting
        (messages that need no reply may wait for the next one that does: fewer writes)."""
        if self.process is None:
            return
        if isinstance(message, GameStart):
            self._view = None  # a game's first view is sent whole
            if self.errors is not None:
                self.errors.new_game()
        line = encode(message)
        self._traced("bkref>", line)
        self._out += line
        if flush:
            self._flush()

    def _flush(self) -> None:
        process = self.process
        if process is None or not self._out or process.stdin is None:
            return
        try:
            written = os.write(process.stdin.fileno(), self._out)
        except BlockingIOError:
            return
        except (BrokenPipeError, OSError):
            self._out.clear()
            self._eof = True
            return
        del self._out[:written]

    # -- reading ---------------------------------------------------------------------

    def _read(self) -> list[bytes]:
        """The complete lines the bot has written so far (an over-long one as ``b"\\0"``): those
        read before, if any are left, else what the pipe holds now (at most 64 KiB of it: however
        much a bot writes, bkref holds no more of it than that)."""
        lines, self._lines = self._lines, []
        process = self.process
        if lines or process is None or process.stdout is None or self._eof:
            return lines
        try:
            chunk = os.read(process.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            self._eof = self._exited  # it exited, and all it wrote has been read
            return lines
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
            return lines
        self._in += chunk
        while True:
            end = self._in.find(b"\n")
            if end < 0:
                if len(self._in) > MAX_LINE:
                    self._in.clear()
                    if not self._skipping:
                        lines.append(b"\0")
                    self._skipping = True
                return lines
            line = bytes(self._in[:end]).rstrip(b"\r")
            del self._in[: end + 1]
            if self._skipping:
                self._skipping = False
                continue
            if len(line) > MAX_LINE:
                lines.append(b"\0")
            elif line.strip():
                self._traced("bot>", line)
                lines.append(line)

    def _wait_line(self, deadline: float) -> bytes | None:
        """The next line, waiting at most until ``deadline``; None at the deadline or the bot's end."""
        pending = self._read()
        while not pending:
            if not self.alive or time.monotonic() >= deadline:
                return None
            _wait([self], deadline)
            pending = self._read()
        self._lines = pending[1:]
        return pending[0]

    def _traced(self, who: str, line: bytes) -> None:
        """With ``trace``, ``line`` in the log, after the time since the start and who wrote it."""
        if self.trace and self.errors is not None:
            self.errors.note(
                f"[{time.monotonic() - self._started:9.3f} s] {who} ".encode() + line.rstrip(b"\n") + b"\n"
            )

    def drain(self) -> None:
        """Read what the bot wrote between decisions: late replies to faulted ids are dropped,
        anything else is a stray fault (``id`` for a move, ``output`` otherwise)."""
        for line in self._read():
            kind = _stray(line, self.dropped)
            if kind:
                self.strayed(kind)


class Stderr(threading.Thread):
    """Drains a bot process's standard error (``pipe``) until its end: into the file at
    ``path``, if any, up to ``STDERR_CAP`` bytes a game, then one line saying that the rest
    is dropped, and at the game's end (or the process's) how many bytes were; the last
    line written is kept (``last_line``)."""

    def __init__(self, pipe: IO[bytes], path: Path | None) -> None:
        super().__init__(name="bot stderr", daemon=True)
        self.pipe, self.path = pipe, path
        self._lock = threading.Lock()
        self._file: IO[bytes] | None = None
        if path is not None:  # opened here: bkref's own lines (``note``) may come before the bot's
            with contextlib.suppress(OSError):  # a folder gone: the bot plays on, unlogged
                self._file = path.open("ab")
        self._kept = self._dropped = 0
        self._tail = b""

    def run(self) -> None:
        try:
            while chunk := self.pipe.read1(1 << 16):  # type: ignore[attr-defined]
                with self._lock:
                    self._tail = (self._tail + chunk)[-4096:]
                    self._write(chunk)
        except (OSError, ValueError):  # the pipe closed under it
            pass
        finally:
            with self._lock:
                self._close_game()
                if self._file is not None:
                    with contextlib.suppress(OSError):
                        self._file.close()
            self.pipe.close()

    def _write(self, chunk: bytes) -> None:
        room = max(0, STDERR_CAP - self._kept)
        if room:
            self._log(chunk[:room])
        if len(chunk) > room:
            if not self._dropped:
                self._log(f"\nbkref: over {STDERR_CAP >> 20} MiB of standard error in this game: the rest is dropped\n")
            self._dropped += len(chunk) - room
        self._kept += min(room, len(chunk))

    def _log(self, said: bytes | str) -> None:
        """Write ``said`` to the log file; a file that cannot be written (a full disk) is given
        up, and the bot's standard error still drained: a bot is never stopped by bkref's disk."""
        if self._file is None:
            return
        try:
            self._file.write(said.encode() if isinstance(said, str) else said)
            self._file.flush()
        except OSError:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None

    def _close_game(self) -> None:
        if self._dropped:
            self._log(f"bkref: {self._dropped} bytes of standard error dropped in this game\n")
        self._kept = self._dropped = 0

    def note(self, line: bytes) -> None:
        """Write ``line`` of bkref's own in the log, among the bot's (within the same cap)."""
        with self._lock:
            self._write(line)

    def new_game(self) -> None:
        """A game begins: its standard error has the whole cap."""
        with self._lock:
            self._close_game()

    def last_line(self) -> str:
        """The last non-blank line the bot wrote on its standard error, "" if none."""
        with self._lock:
            lines = [line for line in self._tail.decode(errors="replace").splitlines() if line.strip()]
        return lines[-1].strip() if lines else ""


def _says_hello(line: bytes) -> bool:
    """Whether ``line`` is a JSON object of type ``hello``, valid or not: Python's reader too
    takes what msgspec refuses, a string with half a surrogate pair (``"\\ud800"``), say.

    >>> _says_hello(b'{"type":"hello","name":"\\\\ud800"}'), _says_hello(b"my bot 1.0")
    (True, False)
    """
    try:
        message = msgspec.json.decode(line)
    except msgspec.DecodeError:
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
            return False
    return isinstance(message, dict) and message.get("type") == "hello"


def _worded(error: Exception) -> str:
    """msgspec's message for a hello it refused, as the end of bkref's line.

    >>> _worded(msgspec.ValidationError("Object missing required field `version`"))
    'object missing required field `version`'
    >>> _worded(msgspec.DecodeError("JSON is malformed: unexpected end of escaped utf-16 surrogate pair"))
    'JSON is malformed: unexpected end of escaped utf-16 surrogate pair'
    """
    text = str(error)
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _stray(line: bytes, dropped: set[int]) -> str:
    try:
        reply = decode_reply(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return "garbage"
    if isinstance(reply, Move):
        return "" if reply.id in dropped else "id"
    return "output"


def _wait(programs: Sequence[Program], deadline: float) -> None:
    """Wait until one of ``programs`` has output (or takes input it waits for), or ``deadline``;
    write what the waiting ones take."""
    poller = select.poll()
    by_fd: dict[int, Program] = {}
    exits: dict[int, Program] = {}
    for program in programs:
        process = program.process
        if process is None or process.stdout is None or process.stdin is None or program._eof:
            continue
        poller.register(process.stdout.fileno(), select.POLLIN)
        if program._pidfd is not None and not program._exited:
            poller.register(program._pidfd, select.POLLIN)
            exits[program._pidfd] = program
        if program._out:
            with contextlib.suppress(ValueError, OSError):
                fd = process.stdin.fileno()
                poller.register(fd, select.POLLOUT)
                by_fd[fd] = program
    timeout = max(0, math.ceil((deadline - time.monotonic()) * 1000))
    if any(program._lines for program in programs):  # lines read already wait: none is to wait for
        timeout = 0
    for fd, events in poller.poll(timeout):
        if events & select.POLLOUT and fd in by_fd:
            by_fd[fd]._flush()
        elif fd in exits:  # it exited: what it wrote before is still read
            exits[fd]._exited = True


def ask_all(asks: Sequence[tuple[Program, Decide]]) -> list[Answer | BotFault]:
    """Write each decision to its program at once, then wait for every reply, each until its
    deadline (``grace``): each program's ``Answer``, or the ``BotFault`` its reply was (a
    line written before the decision counts as a reply to it, but a late reply to a faulted
    decision is dropped: its id is dropped from then on). ``fault`` is the caller's to send."""
    results: list[Answer | BotFault | None] = [None] * len(asks)
    started = []
    for program, decide in asks:  # what a bot wrote since its last decision is read as a reply to this one
        program.send(decide)
        started.append(time.monotonic())
    deadlines = [start + grace(decide.ms) for start, (_, decide) in zip(started, asks)]
    while True:
        open_ = [i for i, result in enumerate(results) if result is None]
        if not open_:
            break
        _wait([asks[i][0] for i in open_], min(deadlines[i] for i in open_))
        now = time.monotonic()
        for i in open_:
            program, decide = asks[i]
            for line in program._read():
                if results[i] is not None:
                    kind = _stray(line, program.dropped)
                    if kind:
                        program.strayed(kind, decide.id)
                    continue
                results[i] = _judge(line, decide, program.dropped, now - started[i])
                if isinstance(results[i], BotFault):
                    program.dropped.add(decide.id)  # its late reply, even in this same read, is dropped
            if results[i] is None and not program.alive:
                results[i] = BotFault("exit", "the process exited")
            elif results[i] is None and now >= deadlines[i]:
                results[i] = BotFault("timeout", f"no reply within {decide.ms} ms")
            if isinstance(results[i], BotFault):
                program.dropped.add(decide.id)
    final: list[Answer | BotFault] = []
    for result in results:
        assert result is not None
        final.append(result)
    return final


def _judge(line: bytes, decide: Decide, dropped: set[int], seconds: float) -> Answer | BotFault | None:
    """What ``line`` is as a reply to ``decide``: an answer, a fault, or None (a late reply dropped)."""
    try:
        reply = decode_reply(line)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        return BotFault("garbage", str(error)[:200])
    if not isinstance(reply, Move):
        return BotFault("output", "a second hello")
    if reply.id != decide.id:
        return None if reply.id in dropped else BotFault("id", f"id {reply.id}, not {decide.id}")
    info = b""
    if reply.info is not None:
        info = msgspec.json.encode(reply.info)
        if len(info) > MAX_INFO:
            return BotFault("garbage", "info over 16 KiB")
        if len(info) > MAX_INFO_DEPTH and depth(info) > MAX_INFO_DEPTH:
            return BotFault("garbage", f"info nests deeper than {MAX_INFO_DEPTH}")
    if not 0 <= reply.index < len(decide.moves):
        return BotFault("index", f"index {reply.index} of {len(decide.moves)} moves")
    move = decide.moves[reply.index]
    if reply.order is not None:
        move = in_order(move, reply.order)
        if move is None:  # no legal move is played in that order: a reply naming no move of ``moves``
            return BotFault("index", f"order {reply.order} is not move {reply.index}'s cards or squares")
    return Answer(move, reply.info, seconds, len(info))


def new_decide(program: Program, kind: str, moves: Sequence[Choice], view: SeenView | None, ms: int) -> Decide:
    """The next decision for ``program``, with the next id of its process, and ``view`` as its bot
    asked for it in its hello: whole; as a patch of the last view it was sent this game (whole
    the first time, and when no patch can say it: ``merge_patch``); or not at all."""
    program.next_id += 1
    patch = None
    if program.views == "none":
        view = None
    elif program.views == "patch" and view is not None:
        before, program._view = program._view, view
        patch = None if before is None else merge_patch(before, view)
        if patch is not None:
            view = None
    return Decide(id=program.next_id, kind=kind, moves=list(moves), view=view, ms=ms, patch=patch)


def fault(program: Program, decide_id: int, kind: str) -> None:
    """Tell ``program`` (if it lives) that its reply to ``decide_id`` was a fault."""
    if program.alive:
        program.send(Fault(id=decide_id, kind=kind))


@atexit.register
def stop_all() -> None:
    """Kill every bot process still running: at exit, however bkref ends."""
    for program in list(_LIVE):
        program.kill()
