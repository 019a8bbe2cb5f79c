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
import functools
import hashlib
import random
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

import msgspec

from bkref.bots.bundled import BUNDLED, load
from bkref.bots.errors import OptionError, PolicyError, SimulationError, traceback_of
from bkref.bots.policies import Choice, Policy, random_build, random_pick, random_policy
from bkref.bots.seats import BotOptions, ProgramSeat, command_of, decide, is_program, own_parts
from bkref.game.catalog import CARDS
from bkref.game.engine import State
from bkref.game.events import FORMAT, End, Event, Game, Harvest, Rulings
from bkref.game.fiefs import harvest_carrots
from bkref.game.knowledge import Kept, view
from bkref.game.moves import LegalMoves, Lister, trading_posts
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
        check_policy(spec)


def check_policy(spec: str) -> None:
    """``OptionError`` when ``spec`` cannot name a policy: text that is not UTF-8 (a log's
    ``meta`` names it), or ``cmd:`` without a command line (split as a shell splits words).

    >>> check_policy("cmd:")
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: policy must be cmd: then a command line, not 'cmd:'
    """
    try:
        spec.encode("utf-8")
    except UnicodeEncodeError:
        raise OptionError("policy", spec, "text in UTF-8") from None
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
    rulings: Rulings | None = None,
    seat_streams: bool | None = None,
) -> list[Event]:
    """Every event of one complete legal game of ``players`` players (see the module).

    ``policy`` names one policy for every seat, or one per seat (see
    ``bkref.bots.bundled.load``; ``cmd:COMMAND ARGS...`` is a bot program, run as
    ``bots`` says, ``bkref.bots.seats``). ``deck`` deals those cards instead of a
    shuffled deck; ``rulings`` are the game's rulings (R1-R6). ``seats`` holds the program
    seats of a run (``program_seats``), to reuse their processes; without it they are
    started and stopped for this game. With ``seat_streams`` (the default when a seat is a
    bot program), each seat decides alone, in the order of docs/bot-protocol.md, drawing from a
    random stream of its own (``play``); without it, the seed's one generator serves every
    policy, and a policy playing several seats decides for them together.
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
    rng = random.Random(seed)
    shuffled = shuffled_deck(rng)
    shown = specs[0] if len(specs) == 1 else specs
    meta: dict[str, Any] = {"generator": "bkref simulate", "seed": seed, "policy": shown}
    if deck is not None:
        meta["deck"] = "given"
    if seat_streams is None:
        seat_streams = any(is_program(spec) for spec in specs)
    dealt = shuffled if deck is None else list(deck)
    if seat_streams:
        return play(chosen, dealt, meta, deal_key(seed if deck is None else None, dealt), rulings, bots, seats)
    if any(is_program(spec) for spec in specs):
        raise OptionError("seat_streams", seat_streams, "True when a seat is a bot program")
    return _Game(chosen, {}, rng).play(dealt, meta, rulings)


def play(
    specs: dict[str, str],
    deck: Sequence[str],
    meta: dict[str, Any],
    deal: str,
    rulings: Rulings | None = None,
    bots: BotOptions | None = None,
    seats: dict[str, ProgramSeat] | None = None,
) -> list[Event]:
    """Every event of one game whose seats (player to policy, in seat order) decide alone, in
    the order of docs/bot-protocol.md, each drawing from a random stream of its own
    (``seat_stream``, from ``deal``, the seat and its policy): a seat's choices do not
    depend on which other policies share its game. ``meta`` is the game event's.

    >>> a = play({"ann": "greedy", "bob": "random"}, shuffled_deck(random.Random(3)), {}, "seed 3")
    >>> b = play({"ann": "random", "bob": "random"}, shuffled_deck(random.Random(3)), {}, "seed 3")
    >>> a[2] == b[2], a[3] == b[3]  # ann's first picks differ; bob's, after hers, are his own
    (False, True)
    """
    streams = {p: seat_stream(deal, n, spec) for n, (p, spec) in enumerate(specs.items(), 1)}
    with contextlib.ExitStack() as stack:
        if seats is None:
            seats = stack.enter_context(program_seats(specs, bots or BotOptions()))
        return _Game(specs, seats, streams).play(list(deck), dict(meta), rulings)


def shuffled_deck(rng: random.Random) -> list[str]:
    """The 182 cards shuffled by ``rng``: the deck of the deal of seed S is ``shuffled_deck(Random(S))``."""
    deck = [card.id for card in CARDS.values() for _ in range(card.copies)]
    rng.shuffle(deck)
    return deck


def deal_key(seed: int | None, deck: Sequence[str]) -> str:
    """What names a deal in the seats' random streams: its seed, or (a deck given) its cards.

    >>> deal_key(17, []), deal_key(None, ["carrot-1"])[:5]
    ('seed 17', 'deck ')
    """
    if seed is not None:
        return f"seed {seed}"
    return "deck " + hashlib.sha256(" ".join(deck).encode()).hexdigest()[:16]


def seat_stream(deal: str, seat: int, policy: str) -> random.Random:
    """The random stream of seat ``seat`` (1 is the first) on ``deal`` (``deal_key``), played by
    ``policy``: the same for the same three, whatever the other seats hold, so that the
    same policy in the same seat of the same deal plays the same game against the same moves."""
    return random.Random(f"bkref seat {deal} {seat} {policy}")


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


def game_name(players: int, seed: int) -> str:
    """The file name of one game of ``bkref simulate --games``; sorted names are in seed order.

    >>> game_name(4, 42)
    '4p-seed-000042.jsonl'
    """
    return f"{players}p-seed-{seed:06d}.jsonl"


# -- one game ------------------------------------------------------------------------


class _Game:
    """One simulated game: the live state, the events so far, each seat's policy or program.

    With a random stream per seat (``randomness``, a dict), each seat decides alone, as
    docs/bot-protocol.md orders the decisions, whether a program or a Python policy plays it. With
    one generator, it serves every policy, and a policy playing several seats decides for them together (the
    order ``bkref simulate`` has always played, which its logs keep).
    """

    def __init__(
        self,
        specs: dict[str, str],
        seats: dict[str, ProgramSeat],
        randomness: dict[str, random.Random] | random.Random,
    ) -> None:
        self.players = list(specs)
        self.specs = specs
        self.programs = seats
        """The seats played by bot programs."""
        python = [spec for spec in dict.fromkeys(specs.values()) if not is_program(spec)]
        with contextlib.redirect_stdout(sys.stderr):  # what a policy's module prints as it loads
            loaded = {spec: load(spec) for spec in python}
        self.policy: dict[str, Policy] = {p: loaded[spec] for p, spec in specs.items() if spec in loaded}
        self.randomness = randomness
        streams = randomness if isinstance(randomness, dict) else None
        self.streams = streams
        """Each seat's own random stream; or None, when one generator serves every seat."""
        self.groups = (
            [[p] for p in self.players]
            if streams is not None
            else [[p for p in self.players if specs[p] == spec] for spec in dict.fromkeys(specs.values())]
        )
        """The seats that decide together: each seat alone, or (one stream) the seats of each policy."""
        self.state = State()
        self.events: list[Event] = []
        self.kept = Kept()
        """The board as the programs' last views read it (``bkref.game.knowledge.structs``)."""
        self.lister = Lister()
        """What the game's listings keep for the next decision (dropped with the game, and with
        it any move a user's policy changed)."""

    @property
    def rng(self) -> random.Random:
        """The one generator that serves every seat (a game without seat streams)."""
        assert isinstance(self.randomness, random.Random)
        return self.randomness

    def emit(self, event: Event | None, expect: Callable[[State], dict[str, int]] | None = None) -> None:
        """Play ``event`` on the live state and log it; with ``expect``, the event logged holds
        the ``expect`` figures it reads off the state after it (the engine's own, X1)."""
        assert event is not None
        violations = self.state.play(event)
        if violations:
            rule, message = violations[0]
            raise SimulationError(
                f"the engine refuses simulated event {len(self.events) + 1} ({type(event).__name__.lower()}): "
                f"{rule} {message}"
            )
        if expect is not None:
            event = msgspec.structs.replace(event, expect=expect(self.state))
        self.events.append(event)
        for seat in self.programs.values():
            seat.observe(event)

    def ask(self, player: str, options: Sequence[Choice], what: str) -> Choice:
        """``player``'s policy's choice among ``options``; ``PolicyError`` if it breaks the protocol.

        The policy gets a view of its own (``player``'s), the options and its random stream,
        and what it prints goes to standard error; a policy that changes the options it was
        given breaks the protocol.
        """
        spec = self.specs[player]
        policy = self.policy[player]
        rng = self.randomness[player] if isinstance(self.randomness, dict) else self.randomness
        # a bundled policy prints nothing and changes nothing it is given (tests/test_policies.py)
        bundled = policy in BUNDLED.values()
        before = None if bundled else msgspec.json.encode(options)
        try:
            if bundled:
                move = policy(view(self.state, player), options, rng)
            else:  # a user's policy: what it prints goes to standard error, and its moves are checked
                with contextlib.redirect_stdout(sys.stderr):
                    move = policy(view(self.state, player), list(options), rng)
            index = index_of(move, options)
        except (Exception, SystemExit) as error:  # the policy is the user's code: anything it raises is its error
            raised = f"{type(error).__name__}: {printable(str(error))}{_line_of(policy, error)}"
            raise PolicyError(
                f"policy {spec} raised {raised} at {self.where(what)}",
                spec=spec,
                traceback=traceback_of(error),
            ) from None
        if before is not None and msgspec.json.encode(options) != before:
            raise PolicyError(f"policy {spec} changed the legal moves it was given at {self.where(what)}", spec=spec)
        if index is None:
            raise PolicyError(
                f"policy {spec} returned {printable(_shown(move))}, which is not one of the "
                f"{len(options)} legal moves at {self.where(what)}",
                spec=spec,
            )
        return options[index]

    def where(self, what: str) -> str:
        """The decision ``what`` as an error names it: its place in the game, and the event it is for."""
        return f"{what} {self.state.where()} (event {len(self.events) + 1})"

    def decide(self, kind: str, asks: Mapping[str, Sequence[Choice]], what: str) -> dict[str, Choice]:
        """The choices of the seats of ``asks`` (player to options) for decisions of ``kind``,
        taken together: the programs asked at once, the Python policies deciding (in seat
        order) while the programs think. A program is asked all the same when its only move
        is ``None`` (docs/bot-protocol.md); a Python policy is not (as with one stream, it is
        asked only when there is something to build)."""
        programs = [(self.programs[p], kind, options) for p, options in asks.items() if p in self.programs]
        python = [p for p, options in asks.items() if p not in self.programs and options != [None]]
        thinking = [functools.partial(self.ask, p, asks[p], what.format(p)) for p in python]
        answers, others = decide(
            self.state, programs, [self.event_of(kind, seat.player) for seat, _, _ in programs], thinking, self.kept
        )
        chosen: dict[str, Choice] = dict(zip([seat.player for seat, _, _ in programs], answers, strict=True))
        chosen.update(zip(python, others, strict=True))
        return {p: chosen.get(p) for p in asks}

    def event_of(self, kind: str, player: str) -> int:
        """The number of the event ``player``'s decision of ``kind`` leads to: the step's picks
        are played in seat order, each other decision leads to the next event."""
        return len(self.events) + 1 + (self.players.index(player) if kind == "pick" else 0)

    def play(self, deck: list[str], meta: dict[str, Any], rulings: Rulings | None) -> list[Event]:
        game = Game(format=FORMAT, players=self.players, deck=deck, rulings=rulings or Rulings(), meta=meta)
        self.emit(game)
        if self.streams is not None:
            for p, seat in self.programs.items():
                seat.begin(self.state, game, self.streams[p])
        try:
            self._play()
        except BaseException:
            for seat in self.programs.values():
                seat.over(self.state, aborted=True)
            raise
        for seat in self.programs.values():
            seat.over(self.state)
        if self.programs:
            meta["bots"] = {p: seat.record() for p, seat in self.programs.items()}
            self.events[0] = msgspec.structs.replace(game, meta=meta)
        return self.events

    def _play(self) -> None:
        """The game after its game event: who is due (``state.due()``), what they may do
        (``LegalMoves``), and their choice applied, until it is over. A deal or draw is the one
        the deck gives; a turn's picks are asked of every seat (``explore``); a construction
        is asked in the order of docs/bot-protocol.md (``construction``); the end's copy
        choices follow the reveal of every parchment."""
        state = self.state
        while (due := state.due().kind) != "over":
            if due in ("deal", "draw"):
                self.emit(LegalMoves(state, None, self.lister)[0])
            elif due == "pick":
                self.explore()
            elif due == "build":
                self.construction()
            else:
                for seat in self.programs.values():
                    seat.reveal(state)
                self.emit(self.end(), self.final)

    def construction(self) -> None:
        """A round's construction, then its harvest. The order of bkbot/1 (docs/bot-protocol.md):
        the camps first, in ascending priority (C7), each camp's owner asked once; then each seat
        in turn, asked again after each build until it answers ``None``; then every trading post's
        owner at once. With one generator, the order ``bkref simulate`` has always played, which
        its logs keep: each policy's builds for all its seats, camps among them, until ``None``."""
        if self.streams is None:
            for group in self.groups:
                while (build := self.group_build(group)) is not None:
                    self.emit(build)
        else:
            self.camps()
            for player in self.players:
                self.builds(player)
        self.emit(self.harvest(), self.harvested)

    def explore(self) -> None:
        """One turn's picks, played in seat order: every seat decides at once (D4), or (one
        stream) each seat's policy in turn."""
        state = self.state
        if self.streams is None:
            rng = self.rng
            for player in self.players:
                if self.policy[player] is random_policy:  # its choice without the list (LegalMoves)
                    self.emit(random_pick(LegalMoves(state, player, self.lister), rng))
                    continue
                self.emit(self.ask(player, LegalMoves(state, player, self.lister).picks(), f"{player}'s pick"))
            return
        for seat in self.programs.values():
            seat.hand(state)
        drawn = [p for p in self.players if self.policy.get(p) is random_policy]  # chosen without the list
        asks = {p: LegalMoves(state, p, self.lister).picks() for p in self.players if p not in drawn}
        chosen = self.decide("pick", asks, "{}'s pick") if asks else {}
        chosen.update({p: random_pick(LegalMoves(state, p, self.lister), self.streams[p]) for p in drawn})
        for player in self.players:
            self.emit(chosen[player])

    def camps(self) -> None:
        """The camps first, in ascending priority (C7): each camp's owner asked once, with
        that camp's builds and ``None`` (keep it)."""
        state = self.state
        camps = sorted(
            (CARDS[c].priority, p, c)
            for p in self.players
            for c, n in state.supply[p].items()
            if n > 0 and CARDS[c].kind == "camp"
        )
        for _, p, c in camps:
            build = self.decide("camp", {p: [*LegalMoves(state, p, self.lister).builds(c), None]}, "{}'s camp " + c)[p]
            if build is not None:
                self.emit(build)

    def builds(self, player: str) -> None:
        """A seat's builds after the camps, asked again after each until it answers ``None``
        (the bundled ``random`` chooses without the list of builds: ``random_build``)."""
        state = self.state
        if self.policy.get(player) is random_policy and self.streams is not None:
            while (
                placed := random_build(LegalMoves(state, player, self.lister), self.streams[player], camps=False)
            ) is not None:
                self.emit(placed)
            return
        while True:
            options: list[Choice] = [
                b for b in LegalMoves(state, player, self.lister).builds() if CARDS[b.card].kind != "camp"
            ]
            build = self.decide("build", {player: [*options, None]}, "the construction of {}")[player]
            if build is None:
                return
            self.emit(build)

    def group_build(self, group: list[str]) -> Choice:
        """(One stream) the next build of ``group``'s policy, or None once it places nothing more
        or no build is left. The bundled ``random`` chooses without the list of builds (``random_build``)."""
        state = self.state
        if self.policy[group[0]] is random_policy:
            return random_build(LegalMoves(state, None, self.lister), self.rng, group)
        every = len(group) == len(self.players)  # (in seat order, as builds lists them)
        options = (
            LegalMoves(state, None, self.lister).builds()
            if every
            else [build for p in group for build in LegalMoves(state, p, self.lister).builds()]
        )
        return self.ask(group[0], [*options, None], f"the construction of {', '.join(group)}") if options else None

    def harvest(self) -> Harvest:
        """The harvest, with the declarations of every trading post's owner, asked at once
        (its ``expect``: ``harvested``)."""
        state = self.state
        asks = {p: LegalMoves(state, p, self.lister).closing() for p in trading_posts(state)}
        chosen = self.decide("harvest", asks, "{}'s trading post declarations")
        declared = {}
        for p in asks:
            answer = chosen[p]
            assert isinstance(answer, Harvest)
            declared.update(answer.trading_posts)
        return Harvest(round=state.round, trading_posts=declared)

    def harvested(self, state: State) -> dict[str, int]:
        """Every player's carrots at the harvest just played: its ``expect``."""
        return {p: harvest_carrots(state.harvests[-1], p) for p in self.players}

    def final(self, state: State) -> dict[str, int]:
        """Every player's final total at the end just played: its ``expect``."""
        assert state.final is not None
        return {p: state.final.players[p].total for p in self.players}

    def end(self) -> End:
        """The end, with every copier's choices (E7; its ``expect``: ``final``): under R3 ``forbidden`` each one's part
        asked at once; under ``follow`` one at a time in seat order, each offered only the
        parts that keep the whole legal."""
        state = self.state
        options = LegalMoves(state, None, self.lister).ends()
        copies: dict[str, dict[Any, Any]] = {}
        if self.streams is None:
            for group in self.groups:
                copies.update(self.group_copies(group, options))
        elif state.rulings.copy_of_copy == "follow":
            for p in self.players:
                if mine := own_parts(options, p, copies):
                    copies.update(self._copies(self.decide("end", {p: mine}, "the copy choices of {}")))
        else:
            asks = {p: mine for p in self.players if (mine := own_parts(options, p, {}))}
            copies.update(self._copies(self.decide("end", asks, "the copy choices of {}")))
        return End(copies=copies)

    @staticmethod
    def _copies(chosen: dict[str, Choice]) -> dict[str, dict[Any, Any]]:
        copies: dict[str, dict[Any, Any]] = {}
        for answer in chosen.values():
            assert isinstance(answer, End)
            copies.update(answer.copies)
        return copies

    def group_copies(self, group: list[str], options: Sequence[End]) -> dict[str, dict[Any, Any]]:
        """(One stream) the copy choices of a policy's seats, together: its part of each legal end."""
        if len(self.groups) == 1:
            mine = list(options)
        else:  # this policy's seats' part of each legal set of choices (E7: each player's own)
            parts = {msgspec.json.encode(part): part for end in options if (part := _part(end, group)).copies}
            if not parts:
                return {}
            mine = list(parts.values())
        chosen = self.ask(group[0], mine, f"the copy choices of {', '.join(group)}")
        assert isinstance(chosen, End)
        return dict(chosen.copies)


def index_of(move: object, options: Sequence[Choice]) -> int | None:
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
