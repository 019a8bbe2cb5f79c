"""Seats played by bot programs: the referee's side of ``bkbot/1`` for one seat.

A ``ProgramSeat`` is one seat of a game played by a program (``bkref.bots.program``): it
follows the game (``observe``: the seen events of ``bkref.game.knowledge.Seer``; ``hand``
before each pick; ``reveal`` after the 4th harvest; ``over``), keeps what it sent this
game so that a restarted process gets it all again, asks decisions (``decide``: several
seats at once), and counts the seat's faults and time. A faulted decision is played by
the bundled fallback policy, ``random``, from the seat's view and the seat's own random
stream; past ``max_faults`` faults in a game the fallback plays the seat to its end. The
same seat object (and process) plays every game of a run; ``close()`` ends it.

>>> BotOptions().ms, BotOptions().max_faults
(5000, 3)
"""

from __future__ import annotations

import hashlib
import random
import shlex
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from bkref.bots.errors import PolicyError
from bkref.bots.policies import Choice, random_policy
from bkref.bots.program import Answer, BotFault, Program, ask_all, fault, new_decide
from bkref.bots.protocol import INFO_PER_GAME, Decide, GameStart, Hand, Over, Reveal, Seen, ToBot
from bkref.bots.sealing import Seal
from bkref.game.engine import State
from bkref.game.events import End, Event, Game
from bkref.game.knowledge import Kept, Seer, structs, view
from bkref.game.moves import LegalMoves

PREFIX = "cmd:"
FALLBACK = "random"


class BotOptions(msgspec.Struct, frozen=True):
    """How program seats are run: ``ms`` per decision, ``max_faults`` per game, the folder for
    their standard error (``logs``; None discards it), and how they are sealed (``seal``)."""

    ms: int = 5000
    max_faults: int = 3
    logs: str | None = None
    seal: Seal = Seal()
    trace: bool = False
    """Whether the logs also hold every line sent and read, with its time (``--bot-trace``)."""


def is_program(spec: str) -> bool:
    """True when ``spec`` names a bot program (``cmd:COMMAND ARGS...``)."""
    return spec.startswith(PREFIX)


def command_of(spec: str) -> list[str]:
    """The command line of ``cmd:COMMAND ARGS...``, split as a shell splits words (no shell runs).

    >>> command_of("cmd:node 'my bot.js' --fast")
    ['node', 'my bot.js', '--fast']
    """
    return shlex.split(spec[len(PREFIX) :])


def bot_seed(player: str) -> int:
    """The ``seed`` a bot is given for its own randomness: fixed by its seat, unrelated to the deal."""
    return int.from_bytes(hashlib.sha256(f"bkbot/1 {player}".encode()).digest()[:4], "big")


class ProgramSeat:
    """One seat played by a bot program, across the games of a run (see the module)."""

    def __init__(self, spec: str, player: str, options: BotOptions, label: str = "") -> None:
        self.spec = spec
        self.player = player
        self.label = label
        """What names the seat's bot in its standard error's file (a tournament's bot name), if anything."""
        self.options = options
        self.program = Program(command_of(spec), seal=options.seal, trace=options.trace)
        self.games = 0
        self.deals: set[str] = set()
        """The deals its process has played (``bkref.bots.tournament.Seats`` gives none twice)."""
        self.closed = False
        self.game_file: str | None = None
        """The file of the game being played, when a run writes it: it names the game's standard error file."""
        self._begin_game(random.Random(0))

    def _begin_game(self, rng: random.Random) -> None:
        self.sent: list[ToBot] = []
        self.seer = Seer(self.player)
        self.faults: list[dict[str, Any]] = []
        self.info: list[dict[str, Any]] = []
        self.info_bytes = 0
        """The JSON bytes of ``info``: at most ``INFO_PER_GAME``."""
        self.info_dropped = 0
        self.seconds = 0.0
        self.rng = rng
        self.started_this_game = False

    def begin(self, state: State, game: Game, rng: random.Random) -> None:
        """A new game: ``game`` was just played on ``state``; ``rng`` is the seat's own random
        stream, from which the fallback draws."""
        self._begin_game(rng)
        self.program.stray.clear()  # what it wrote after the last game's over is no fault of this one
        self.games += 1
        if self.options.logs is not None:
            named = f"{self.player}-{self.label}" if self.label else self.player
            which = f"game-{self.games:06d}" if self.game_file is None else Path(self.game_file).stem
            self.program.stderr = Path(self.options.logs) / f"{named}-{which}.log"
        self._send(GameStart(self.player, list(state.players), state.rulings, bot_seed(self.player)))
        self.observe(game)

    def _send(self, message: ToBot) -> None:
        self.sent.append(message)
        self.program.send(message, flush=False)  # written with the next decision, or ``over``

    def observe(self, event: Event) -> None:
        for seen in self.seer.see(event):
            self._send(Seen(seen))

    def hand(self, state: State) -> None:
        self._send(Hand(state.round, state.turn, list(view(state, self.player).hand)))

    def reveal(self, state: State) -> None:
        self._send(Reveal({p: list(state.parchments[p]) for p in state.players}))

    def over(self, state: State, aborted: bool = False) -> None:
        final = state.final
        scores = {} if final is None else {p: final.players[p].total for p in state.players}
        self.program.send(Over(scores, [] if final is None else list(final.winners), aborted))
        self.program.drain()

    def close(self) -> None:
        """Stop the process: for good, as the run ends (a game still under way, on a cluster's
        worker after Ctrl-C, goes on with the fallback rather than start it again)."""
        self.closed = True
        self.program.stop()

    def record(self) -> dict[str, Any]:
        """What the log's ``meta`` says of this seat: the command, the bot's name and version, the
        time it used (``ms``, a timed-out decision counted at the time it was given), its faults
        (kind, and the number of the event the seat's own decision led to), and the ``info``
        its replies carried (with the same event numbers), if any, and how many were not
        recorded (``keep_info``)."""
        return {
            "command": self.spec[len(PREFIX) :],
            "name": self.program.name,
            "version": self.program.version,
            "ms": round(self.seconds * 1000),
            "faults": self.faults,
            **({"info": self.info} if self.info else {}),
            **({"info_dropped": self.info_dropped} if self.info_dropped else {}),
        }

    def keep_info(self, event: int, info: Any, size: int) -> None:
        """Record a reply's ``info`` (with the number of the event the decision led to; ``size``,
        its bytes in JSON), up to ``INFO_PER_GAME`` a game; what comes after is counted in
        ``info_dropped``."""
        if self.info_bytes + size > INFO_PER_GAME:
            self.info_dropped += 1
            return
        self.info_bytes += size
        self.info.append({"event": event, "info": info})

    def _fault(self, kind: str, event: int, decide_id: int) -> None:
        self.faults.append({"kind": kind, "event": event})
        fault(self.program, decide_id, kind)

    @property
    def retired(self) -> bool:
        """True once the seat has ``max_faults`` faults this game: the fallback plays it to the end."""
        return len(self.faults) >= self.options.max_faults

    def ready(self, event: int) -> bool:
        """The process running and told the game so far, (re)started if need be; False (a fault
        recorded) when it cannot be, or when the seat is retired."""
        if self.retired or self.closed:
            return False
        program = self.program
        if program.alive:
            return True
        if self.started_this_game and program.process is not None:  # it ran in this game, and exited
            self._fault("exit", event, program.next_id)
            if self.retired:
                return False
        try:
            program.start()
        except BotFault as error:
            self._fault(error.kind, event, program.next_id)
            return False
        self.started_this_game = True
        for message in self.sent:
            program.send(message, flush=False)
        return True

    def fallback(self, state: State, options: Sequence[Choice]) -> Choice:
        return random_policy(view(state, self.player), options, self.rng)


def check_programs(specs: Sequence[str], seal: Seal) -> None:
    """Start each distinct bot program of ``specs`` once, as ``seal`` says, exchange ``hello``
    and stop it: ``PolicyError`` naming the first that cannot start, and why (before any game
    is played)."""
    for spec in dict.fromkeys(s for s in specs if is_program(s)):
        program = Program(command_of(spec), seal=seal)
        try:
            program.start()
        except BotFault as error:
            raise PolicyError(f"bot {spec}: no game played: {error.detail}", spec=spec) from None
        finally:
            program.stop()


def fault_notes(bots: dict[str, Any], max_faults: int | None = None) -> list[str]:
    """One line for each program seat of ``bots`` (the ``meta`` of a log's game event) that
    faulted: what it made, and that the fallback played for it, and for the rest of the game
    after ``max_faults`` faults when the run that played it says so (issue 44: a faulty bot
    is noticed at once, in the terminal, and by whoever reads its log).

    >>> print(*fault_notes({"bob": {"command": "node b.js", "faults": [{"kind": "index", "event": 3}]}}, 3))
    note: seat bob (cmd:node b.js) made 1 fault (1 index, first at event 3); random played the decisions it faulted
    """
    notes = []
    for player, seat in bots.items():
        faults = seat["faults"]
        if not faults:
            continue
        kinds: dict[str, int] = {}
        for one in faults:
            kinds[one["kind"]] = kinds.get(one["kind"], 0) + 1
        made = ", ".join(f"{n} {kind}" for kind, n in kinds.items())
        rest = f" and all after fault {max_faults}" if max_faults is not None and len(faults) >= max_faults else ""
        notes.append(
            f"note: seat {player} ({PREFIX}{seat['command']}) made {len(faults)} fault{'s' * (len(faults) > 1)}"
            f" ({made}, first at event {faults[0]['event']}); random played the decisions it faulted{rest}"
        )
    return notes


def decide(
    state: State,
    asks: Sequence[tuple[ProgramSeat, str, Sequence[Choice]]],
    events: Sequence[int],
    meanwhile: Sequence[Callable[[], Choice]] = (),
    kept: Kept | None = None,
) -> tuple[list[Choice], list[Choice]]:
    """The choices of program seats for their decisions, asked all at once (``events``: for
    each, the number of the event that seat's decision leads to, for the faults' record; a
    timed-out decision counts the time it was given in the seat's ``ms``), and the choices of
    ``meanwhile``, the Python policies' decisions of the same step, made while the programs
    think (``_while_they_think``). ``kept``: the game's board as the last views read it, whose
    parts that have not changed since are used again (``bkref.game.knowledge.structs``)."""
    ready = [i for i, ((seat, _, _), event) in enumerate(zip(asks, events, strict=True)) if seat.ready(event)]
    shown = [asks[i][0] for i in ready if asks[i][0].program.views != "none"]  # a bot may keep its own view
    views = structs(state, [seat.player for seat in shown], kept)
    seen = dict(zip([seat.player for seat in shown], views, strict=True))
    live = [
        (i, seat, new_decide(seat.program, kind, options, seen.get(seat.player), seat.options.ms))
        for i in ready
        for seat, kind, options in (asks[i],)
    ]
    for _, seat, _ in live:
        seat.started_this_game = True
    others, replies = _while_they_think(meanwhile, [(seat.program, d) for _, seat, d in live])
    results: dict[int, Answer | BotFault] = dict(zip([i for i, _, _ in live], replies, strict=True))
    chosen = []
    for i, ((seat, _, options), event) in enumerate(zip(asks, events, strict=True)):
        result = results.get(i)
        if isinstance(result, BotFault):
            decide_id = next(d.id for j, _, d in live if j == i)
            seat._fault(result.kind, event, decide_id)
            if result.kind == "timeout":
                seat.seconds += seat.options.ms / 1000
            if result.kind == "exit":
                seat.program.kill()  # counted: it is started again at the next decision
        for kind, decide_id in seat.program.stray:  # what came after its reply (one of each kind)
            if not seat.retired:
                seat._fault(kind, event, decide_id)
        seat.program.stray.clear()
        if isinstance(result, Answer):
            seat.seconds += result.seconds
            if result.info is not None:  # recorded, never acted on
                seat.keep_info(event, result.info, result.info_size)
            chosen.append(result.move)
        else:
            chosen.append(seat.fallback(state, options))
    return chosen, others


def _while_they_think(
    meanwhile: Sequence[Callable[[], Choice]], asks: Sequence[tuple[Program, Decide]]
) -> tuple[list[Choice], list[Answer | BotFault]]:
    """Each of ``meanwhile``'s choices, and the programs' replies to ``asks``: the programs asked
    at once, and waited for with their own deadlines (``ask_all``) in this thread, while the
    Python policies decide in a thread of their own. So a program's time is its own, to within
    the interpreter's switch interval (5 ms), however long a policy takes; what a policy
    raises is raised here once the programs have answered (or their time is up)."""
    if not asks or not meanwhile:
        return [policy() for policy in meanwhile], ask_all(asks)
    others: list[Choice] = []
    raised: list[BaseException] = []

    def think() -> None:
        try:
            others.extend(policy() for policy in meanwhile)
        except BaseException as error:  # the policy's own error (PolicyError), raised in the caller's thread
            raised.append(error)

    thinking = threading.Thread(target=think, name="bkref python policies", daemon=True)
    thinking.start()
    replies = ask_all(asks)
    thinking.join()
    if raised:
        raise raised[0]
    return others, replies


def asked(moves: LegalMoves) -> tuple[str, list[Choice]]:
    """The decision of one player (``moves``: ``state.legal_moves(player)``) as a bot is asked
    it on any position (``bkref.bots.engine.Engine``): its kind and moves. A pick: their
    picks; a construction: their builds, then ``None`` (place nothing more); the end: their
    own part of each set of copy choices (``own_parts``). ``ValueError`` when none is due."""
    kind, player = moves.due.kind, moves.player
    if player is None or player not in moves.players or kind not in ("pick", "build", "end"):
        raise ValueError(f"no decision of {player} is due {moves.state.where()}")
    if kind == "pick":
        return kind, list(moves.picks())
    if kind == "build":
        return kind, [*moves.builds(), None]
    return kind, list(own_parts(moves.ends(), player, {}))


def own_parts(ends: Sequence[End], player: str, chosen: dict[str, Any]) -> list[End]:
    """``player``'s part of each legal end agreeing with the copy choices ``chosen`` so far, once each."""
    parts: dict[bytes, End] = {}
    for end in ends:
        if all(end.copies.get(p) == c for p, c in chosen.items()) and player in end.copies:
            part = End(copies={player: end.copies[player]})
            parts.setdefault(msgspec.json.encode(part), part)
    return list(parts.values())
