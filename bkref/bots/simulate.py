"""Simulated games: a complete legal ``bkref/1`` log from a player count and a seed.

``simulate(players, seed, policy)`` plays a whole game through the engine and returns
its events: the ``game`` header with a shuffled 182-card deck, every deal, pick and
provisions draw, the builds of each construction (camps in ascending priority, sky
towers, trading posts, ...), every harvest with its trading post declarations and
``expect`` figures, and the ``end`` with the copy choices and the final totals.

The engine is the only judge of legality. Picks come from the hands the state
holds; a build is offered only when the engine accepts it on a copy of the state;
copy choices likewise. Every event is played on the live state before it is written,
and one the engine refuses stops the simulation (``SimulationError``): a simulated
log is legal by construction. The ``expect`` figures are the engine's own.

The legal options of each decision come from ``bkref.game.moves``; a policy (the
protocol is in ``bkref.bots.policies``) chooses one, for all seats or one per seat.
The bundled ``random`` chooses uniformly; ``greedy`` chooses the option that raises
the player's harvest the most. Randomness comes from one generator seeded by ``seed``
(it shuffles the deck, then serves every policy), so the same arguments give the
same game, byte for byte, on every run and machine.

>>> events = simulate(2, seed=1)
>>> [type(e).__name__ for e in events[:3]], len(events[0].deck), type(events[-1]).__name__
(['Game', 'Deal', 'Pick'], 182, 'End')
>>> to_jsonl(events) == to_jsonl(simulate(2, seed=1))
True
"""

from __future__ import annotations

import contextlib
import random
import sys
import traceback
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

import msgspec

from bkref.bots.errors import OptionError, PolicyError, SimulationError, traceback_of
from bkref.bots.policies import BUNDLED, Choice, Policy, load, random_build, random_pick, random_policy
from bkref.bots.seats import BotOptions, ProgramSeat, command_of, decide, is_program, own_parts
from bkref.game import moves
from bkref.game.catalog import CARDS
from bkref.game.engine import State, apply
from bkref.game.events import FORMAT, End, Event, Game, Harvest
from bkref.game.fiefs import yield_of
from bkref.game.knowledge import view
from bkref.io.diagnostics import printable

PLAYER_IDS: Final = ("ann", "bob", "cid", "dee")
POLICIES: Final = tuple(BUNDLED)


def check_options(players: int, seed: int, policies: Sequence[str]) -> None:
    """Raise ``OptionError`` (its parameter, value and what it may be) when the arguments
    of ``simulate`` make no game; for ``policy``, the value is how many policies it names.

    >>> check_options(5, 1, ["random"])
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: players must be 2, 3 or 4, not 5
    >>> check_options(3, 1, ["random", "greedy"])
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: policy must be 1 or 3 policies (one for every seat, or one per seat), not 2
    """
    if players not in (2, 3, 4):
        raise OptionError("players", players, "2, 3 or 4")
    if seed < 0:
        raise OptionError("seed", seed, "a whole number from 0 up")
    if len(policies) not in (1, players):
        raise OptionError("policy", len(policies), f"1 or {players} policies (one for every seat, or one per seat)")
    for spec in policies:
        if is_program(spec):
            try:
                command = command_of(spec)
            except ValueError as error:
                raise OptionError("policy", spec, f"cmd: then a command line ({error})") from None
            if not command:
                raise OptionError("policy", spec, "cmd: then a command line")


def simulate(
    players: int,
    seed: int,
    policy: str | Sequence[str] = "random",
    *,
    bots: BotOptions | None = None,
    deck: Sequence[str] | None = None,
    seats: dict[str, ProgramSeat] | None = None,
) -> list[Event]:
    """Every event of one complete legal game of ``players`` players (see the module).

    ``policy`` names one policy for every seat, or one per seat (see
    ``bkref.bots.policies.load``; ``cmd:COMMAND ARGS...`` is a bot program, run as
    ``bots`` says, ``bkref.bots.seats``). ``deck`` deals those cards instead of a
    shuffled deck. ``seats`` holds the program seats of a run (``program_seats``), to
    reuse their processes; without it they are started and stopped for this game.
    Raises ``OptionError`` for arguments that make no game (``check_options``), and
    ``PolicyError`` when a policy cannot be loaded or breaks the protocol (both
    ``ValueError``).

    >>> simulate(5, 1)
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: players must be 2, 3 or 4, not 5
    """
    specs = [policy] if isinstance(policy, str) else list(policy)
    check_options(players, seed, specs)
    chosen = dict(zip(PLAYER_IDS[:players], specs * players if len(specs) == 1 else specs))
    with contextlib.ExitStack() as stack:
        if seats is None:
            seats = stack.enter_context(program_seats(chosen, bots or BotOptions()))
        game = _Game(list(chosen), chosen, random.Random(seed), seats)
        return game.play(seed, specs[0] if len(specs) == 1 else specs, deck)


@contextlib.contextmanager
def program_seats(specs: dict[str, str], options: BotOptions) -> Iterator[dict[str, ProgramSeat]]:
    """The program seats of ``specs`` (player to policy), for every game of a run: each one's
    process is stopped when the run ends, however it ends."""
    seats = {p: ProgramSeat(spec, p, options) for p, spec in specs.items() if is_program(spec)}
    try:
        yield seats
    finally:
        for seat in seats.values():
            seat.close()


def to_jsonl(events: Iterable[Event]) -> str:
    """The events as a ``bkref/1`` log: one compact JSON object a line."""
    return "".join(msgspec.json.encode(event).decode() + "\n" for event in events)


def log_of(game: tuple[int, int, Sequence[str]]) -> str:
    """The log of ``simulate(players, seed, policies)``, as ``bkref simulate`` writes it.

    One argument, and picklable, so that many games map onto processes.
    """
    return to_jsonl(simulate(*game))


def game_name(players: int, seed: int) -> str:
    """The file name of one game of ``bkref simulate --games``; sorted names are in seed order.

    >>> game_name(4, 42)
    '4p-seed-000042.jsonl'
    """
    return f"{players}p-seed-{seed:06d}.jsonl"


def tournament(
    game: tuple[int, int, Sequence[str]], games: int, jobs: int = 1, bots: BotOptions | None = None
) -> Iterator[tuple[str, str]]:
    """``games`` games from ``game``'s seed on, played in ``jobs`` processes: each one's file
    name (``game_name``) and log (``log_of``), in seed order. With bot programs, the games
    are played in this process, each program's process reused from one game to the next.

    >>> [name for name, _ in tournament((2, 7, ["random"]), 2)]
    ['2p-seed-000007.jsonl', '2p-seed-000008.jsonl']
    """
    from bkref.io.batch import Local

    players, first, policies = game
    seeds = range(first, first + games)
    if any(is_program(spec) for spec in policies):
        chosen = dict(zip(PLAYER_IDS[:players], list(policies) * players if len(policies) == 1 else policies))
        with program_seats(chosen, bots or BotOptions()) as seats:
            for seed in seeds:
                yield game_name(players, seed), to_jsonl(simulate(players, seed, policies, bots=bots, seats=seats))
        return
    logs = Local(jobs).map(log_of, [(players, seed, policies) for seed in seeds])
    for seed, log in zip(seeds, logs, strict=True):
        yield game_name(players, seed), log


# -- one game ------------------------------------------------------------------------


class _Game:
    """One simulated game: the live state, the events so far, each seat's policy or program."""

    def __init__(
        self, players: Sequence[str], specs: dict[str, str], rng: random.Random, seats: dict[str, ProgramSeat]
    ) -> None:
        self.players = list(players)
        self.specs = specs
        self.programs = seats
        """The seats played by bot programs."""
        python = [spec for spec in dict.fromkeys(specs.values()) if not is_program(spec)]
        with contextlib.redirect_stdout(sys.stderr):  # what a policy's module prints as it loads
            loaded = {spec: load(spec) for spec in python}
        self.policy: dict[str, Policy] = {p: loaded[spec] for p, spec in specs.items() if spec in loaded}
        self.groups = [
            group
            for spec in dict.fromkeys(specs.values())
            for group in (
                [[p] for p in seats if specs[p] == spec]
                if is_program(spec)
                else [[p for p in self.players if specs[p] == spec]]
            )
        ]
        """The seats of each Python policy, and each program seat alone, in seat order of their first seat."""
        self.rng = rng
        self.state = State()
        self.events: list[Event] = []

    def emit(self, event: Event | None) -> None:
        assert event is not None
        violations = self.state.play(event)
        if violations:
            rule, message = violations[0]
            raise SimulationError(
                f"the engine refuses simulated event {len(self.events) + 1} ({type(event).__name__.lower()}): "
                f"{rule} {message}"
            )
        self.events.append(event)
        for seat in self.programs.values():
            seat.observe(event)

    def ask(self, player: str, options: Sequence[Choice], what: str) -> Choice:
        """``player``'s policy's choice among ``options``; ``PolicyError`` if it breaks the protocol.

        The policy gets a view of its own (``player``'s) and the options, and what it prints goes to standard
        error; a policy that changes the options it was given breaks the protocol.
        """
        spec = self.specs[player]
        where = f"{what} {self.state.where()} (event {len(self.events) + 1})"
        policy = self.policy[player]
        before = msgspec.json.encode(options)
        try:
            with contextlib.redirect_stdout(sys.stderr):
                move = policy(view(self.state, player), list(options), self.rng)
            index = _index_of(move, options)
        except (Exception, SystemExit) as error:  # the policy is the user's code: anything it raises is its error
            raised = f"{type(error).__name__}: {printable(str(error))}{_line_of(policy, error)}"
            raise PolicyError(
                f"policy {spec} raised {raised} at {where}",
                spec=spec,
                traceback=traceback_of(error),
            ) from None
        if msgspec.json.encode(options) != before:
            raise PolicyError(f"policy {spec} changed the legal moves it was given at {where}", spec=spec)
        if index is None:
            raise PolicyError(
                f"policy {spec} returned {printable(_shown(move))}, which is not one of the "
                f"{len(options)} legal moves at {where}",
                spec=spec,
            )
        return options[index]

    def play(self, seed: int, policy: str | list[str], dealt: Sequence[str] | None = None) -> list[Event]:
        deck = [card.id for card in CARDS.values() for _ in range(card.copies)]
        self.rng.shuffle(deck)
        meta: dict[str, Any] = {"generator": "bkref simulate", "seed": seed, "policy": policy}
        if dealt is not None:
            deck = list(dealt)
            meta["deck"] = "given"
        game = Game(format=FORMAT, players=self.players, deck=deck, meta=meta)
        self.emit(game)
        for seat in self.programs.values():
            seat.begin(self.state, seed, game)
        try:
            self._play()
        except BaseException:
            for seat in self.programs.values():
                seat.over(self.state, self.events, aborted=True)
            raise
        for seat in self.programs.values():
            seat.over(self.state, self.events)
        if self.programs:
            meta["bots"] = {p: seat.record() for p, seat in self.programs.items()}
            self.events[0] = msgspec.structs.replace(game, meta=meta)
        return self.events

    def _play(self) -> None:
        state = self.state
        while state.due().kind == "deal":
            self.emit(moves.deal(state))
            while state.due().kind in ("pick", "draw"):
                self.explore()
                while state.pending:
                    self.emit(moves.draw(state))
            self.camps()
            for group in self.groups:
                if group[0] in self.programs:
                    self.program_builds(group[0])
                    continue
                while (build := self.construction(group)) is not None:
                    self.emit(build)
            self.emit(self.harvest())
            if state.phase == "ending":
                for seat in self.programs.values():
                    seat.reveal(state)
        self.emit(self.end())

    def construction(self, group: list[str]) -> Choice:
        """The next build of ``group``'s policy, or None once it places nothing more or no build
        is left. The bundled ``random`` chooses without the list of builds (``random_build``)."""
        state = self.state
        if self.policy[group[0]] is random_policy:
            return random_build(state, group, self.rng)
        options = [build for p in group for build in moves.builds(state, p)]
        return self.ask(group[0], [*options, None], f"the construction of {', '.join(group)}") if options else None

    def explore(self) -> None:
        """One turn's picks: the programs asked at once (they think in parallel), then the policies;
        every pick played in seat order."""
        state = self.state
        asks = []
        for p, seat in self.programs.items():
            seat.hand(state)
            asks.append((seat, "pick", moves.picks(state, p)))
        chosen = dict(zip(self.programs, decide(state, asks, len(self.events) + 1))) if asks else {}
        for player in self.players:
            if player in chosen:
                self.emit(chosen[player])
            elif self.policy.get(player) is random_policy:  # its choice without the list (random_pick)
                self.emit(random_pick(state, player, self.rng))
            else:
                self.emit(self.ask(player, moves.picks(state, player), f"{player}'s pick"))

    def camps(self) -> None:
        """The camps of program seats first, in ascending priority (C7): each asked once."""
        state = self.state
        camps = sorted(
            (CARDS[c].priority, p, c)
            for p in self.programs
            for c, n in state.supply[p].items()
            if n > 0 and CARDS[c].kind == "camp"
        )
        for _, p, c in camps:
            options: list[Choice] = [*moves.builds(state, p, c), None]
            (build,) = decide(state, [(self.programs[p], "camp", options)], len(self.events) + 1)
            if build is not None:
                self.emit(build)

    def program_builds(self, player: str) -> None:
        """A program seat's builds (its camps were asked before), asked again until it answers null."""
        state = self.state
        while True:
            options: list[Choice] = [b for b in moves.builds(state, player) if CARDS[b.card].kind != "camp"]
            (build,) = decide(state, [(self.programs[player], "build", [*options, None])], len(self.events) + 1)
            if build is None:
                return
            self.emit(build)

    def harvest(self) -> Harvest:
        state = self.state
        declared = {}
        posts = moves.trading_posts(state)
        asks = [(self.programs[p], "harvest", moves.declarations(state, p)) for p in posts if p in self.programs]
        chosen: dict[str, Choice] = {}
        if asks:
            chosen = dict(zip([s.player for s, _, _ in asks], decide(state, asks, len(self.events) + 1)))
        for p in posts:
            answer = (
                chosen[p]
                if p in chosen
                else self.ask(p, moves.declarations(state, p), f"{p}'s trading post declarations")
            )
            assert isinstance(answer, Harvest)
            declared.update(answer.trading_posts)
        after = apply(state, Harvest(round=state.round, trading_posts=declared))[0]
        expect = {p: yield_of(after.harvests[-1][p]) for p in self.players}
        return Harvest(round=state.round, trading_posts=declared, expect=expect)

    def end(self) -> End:
        state = self.state
        options = moves.ends(state)
        copies: dict[str, dict[Any, Any]] = {}
        follow = state.rulings.copy_of_copy == "follow"
        at_once = [] if follow else [p for p in self.programs if own_parts(options, p, {})]
        if at_once:  # R3 forbidden: each copier's choices stand alone, asked of all at once
            asks = [(self.programs[p], "end", own_parts(options, p, {})) for p in at_once]
            for answer in decide(state, asks, len(self.events) + 1):
                assert isinstance(answer, End)
                copies.update(answer.copies)
        for group in self.groups:
            if group[0] in self.programs:
                if not follow:
                    continue
                mine = own_parts(options, group[0], copies)  # R3 follow: only what keeps the whole legal
                if mine:
                    (answer,) = decide(state, [(self.programs[group[0]], "end", mine)], len(self.events) + 1)
                    assert isinstance(answer, End)
                    copies.update(answer.copies)
                continue
            if len(self.groups) == 1:
                mine = options
            else:  # this policy's seats' part of each legal set of choices (E7: each player's own)
                parts = {msgspec.json.encode(part): part for end in options if (part := _part(end, group)).copies}
                if not parts:
                    continue
                mine = list(parts.values())
            chosen = self.ask(group[0], mine, f"the copy choices of {', '.join(group)}")
            assert isinstance(chosen, End)
            copies.update(chosen.copies)
        after = apply(state, End(copies=copies))[0]
        assert after.final is not None
        return End(copies=copies, expect={p: after.final.players[p].total for p in self.players})


def _index_of(move: object, options: Sequence[Choice]) -> int | None:
    """Which of ``options`` ``move`` is (the one given, or one equal to it); None if none is."""
    for i, option in enumerate(options):
        if move is option:
            return i
    for i, option in enumerate(options):
        if type(move) is type(option) and move == option:
            return i
    return None


def _shown(move: object) -> str:
    """``move`` as the error shows it: its ``repr``, cut at 200 characters (a broken ``repr`` named so)."""
    try:
        return repr(move)[:200]
    except Exception:  # the policy's own object: its repr is its code
        return f"a {type(move).__name__} (whose repr raises)"


def _line_of(policy: Policy, error: BaseException) -> str:
    """Where in the policy's own file ``error`` came from: `` (FILE:LINE)``, the deepest
    frame in that file (the policy's line that called what raised); empty if none is."""
    file = getattr(getattr(policy, "__code__", None), "co_filename", None)
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == file]
    return f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _part(end: End, players: list[str]) -> End:
    return End(copies={p: c for p, c in end.copies.items() if p in players})
