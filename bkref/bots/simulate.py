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

Policies: ``random`` chooses uniformly among the legal options of every decision;
``greedy`` chooses the option that raises the player's harvest the most. Both break
ties with the seeded generator, so the same arguments give the same game, byte for
byte, on every run and machine.

>>> events = simulate(2, seed=1)
>>> [type(e).__name__ for e in events[:3]], len(events[0].deck), type(events[-1]).__name__
(['Game', 'Deal', 'Pick'], 182, 'End')
>>> to_jsonl(events) == to_jsonl(simulate(2, seed=1))
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeVar

import msgspec

from bkref.game.catalog import BASIC_RESOURCES, CARDS, COPY_CARDS, SQUARES
from bkref.game.engine import HAND_SIZE, KEEP, State, apply
from bkref.game.events import FORMAT, Build, Deal, Draw, End, Event, Game, Harvest, Pick, event_type
from bkref.game.fiefs import fiefs, yield_of
from bkref.game.position import Position

PLAYER_IDS: Final = ("ann", "bob", "cid", "dee")
POLICIES: Final = ("random", "greedy")

T = TypeVar("T")
Outlook = tuple[int, int]


class SimulationError(Exception):
    """The engine refused an event the simulator made: a bug in one of the two."""


def parse_options(players: str | None, seed: str | None, policy: str) -> tuple[int, int, str]:
    """The command line's ``--players``, ``--seed`` and ``--policy``, checked.

    Raises ``ValueError`` with a one-line reason when they make no game.

    >>> parse_options("3", "17", "greedy")
    (3, 17, 'greedy')
    >>> parse_options("5", "1", "random")
    Traceback (most recent call last):
    ...
    ValueError: --players must be 2, 3 or 4 (Bunny Kingdom is for 2 to 4 players), not 5
    """
    numbers = []
    for name, metavar, text in (("--players", "N", players), ("--seed", "S", seed)):
        if text is None:
            raise ValueError(f"{name} {metavar} is required, e.g. bkref simulate --players 3 --seed 1")
        try:
            numbers.append(int(text))
        except ValueError:
            raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    check_options(numbers[0], numbers[1], policy)
    return numbers[0], numbers[1], policy


def check_options(players: int, seed: int, policy: str) -> None:
    """Raise ``ValueError`` with a one-line reason when the arguments make no game."""
    if players not in (2, 3, 4):
        raise ValueError(f"--players must be 2, 3 or 4 (Bunny Kingdom is for 2 to 4 players), not {players}")
    if seed < 0:
        raise ValueError(f"--seed must be a whole number from 0 up, not {seed}")
    if policy not in POLICIES:
        raise ValueError(f"--policy must be {' or '.join(POLICIES)}, not {policy!r}")


def simulate(players: int, seed: int, policy: str = "random") -> list[Event]:
    """Every event of one complete legal game of ``players`` players (see the module)."""
    check_options(players, seed, policy)
    rng = random.Random(seed)
    chooser = (Greedy if policy == "greedy" else Uniform)(rng)
    return _Game(PLAYER_IDS[:players], chooser).play(seed, policy)


def to_jsonl(events: Iterable[Event]) -> str:
    """The events as a ``bkref/1`` log: one compact JSON object a line."""
    return "".join(msgspec.json.encode(event).decode() + "\n" for event in events)


# -- what a player may do, as the engine sees it -------------------------------------


def pick_options(state: State, player: str) -> list[Pick]:
    """The distinct picks ``player`` may make in this turn (D2, D3), in a fixed order.

    With 2 players the reserve's next card joins the hand first; one card is kept and
    one other discarded. Otherwise two cards of the hand are kept.
    """
    n = len(state.players)
    hand = state.hand_now(player)
    picks: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for kept in itertools.combinations(range(len(hand)), KEEP[n]):
        keep = tuple(sorted(hand[i] for i in kept))
        if n == 2:
            picks |= {(keep, (hand[i],)) for i in range(len(hand)) if i not in kept}
        else:
            picks.add((keep, ()))
    return [
        Pick(round=state.round, turn=state.turn, player=player, keep=list(keep), discard=list(discard) or None)
        for keep, discard in sorted(picks)
    ]


def placements(state: State, player: str, card: str) -> list[tuple[Build, State]]:
    """Every build of ``card`` by ``player`` the engine accepts now, with the state after it.

    The squares tried are the player's (a camp: those nobody holds; a sky tower: pairs
    of the player's squares with no building yet); the engine decides which are legal.
    """
    position = state.position
    mine = [sq for sq in SQUARES if position.owner.get(sq) == player]
    if CARDS[card].kind == "camp":
        tried: Iterable[list[str]] = ([sq] for sq in SQUARES if sq not in position.owner)
    elif CARDS[card].kind == "sky_tower":
        free = [sq for sq in mine if not position.occupied(sq)]
        tried = (list(pair) for pair in itertools.combinations(free, 2))
    else:
        tried = ([sq] for sq in mine)
    found = []
    for at in tried:
        build = Build(round=state.round, player=player, card=card, at=at)
        after, violations = apply(state, build)
        if not violations:
            found.append((build, after))
    return found


def build_options(state: State) -> dict[tuple[str, str], list[tuple[Build, State]]]:
    """For each player and building card in supply with a legal placement, those placements."""
    options = {}
    for player in state.players:
        for card in sorted(c for c, n in state.supply[player].items() if n > 0):
            legal = placements(state, player, card)
            if legal:
                options[player, card] = legal
    return options


def trading_posts(state: State) -> dict[str, list[str]]:
    """Each player's trading posts on the board (H1), in seat and board order."""
    position = state.position
    posts: dict[str, list[str]] = {}
    for sq in SQUARES:
        if position.building.get(sq) == "trading_post":
            posts.setdefault(position.owner[sq], []).append(sq)
    return {p: posts[p] for p in state.players if p in posts}


def declarations(posts: list[str]) -> list[dict[str, str]]:
    """Every way to declare the resources of ``posts`` (H1).

    >>> declarations(["C7"])
    [{'C7': 'wood'}, {'C7': 'fish'}, {'C7': 'carrot'}]
    """
    return [dict(zip(posts, choice)) for choice in itertools.product(BASIC_RESOURCES, repeat=len(posts))]


def end_options(state: State) -> list[tuple[End, State]]:
    """Every set of copy choices (E7) the engine accepts, with the scored state after it.

    Each copy card is tried on every parchment of the neighbour it looks at, and on
    nothing; the engine keeps the legal combinations.
    """
    cards = [(p, card) for p in state.players for card in sorted(COPY_CARDS & set(state.parchments[p]))]
    choices = []
    for p, card in cards:
        neighbour = state.right_of(p) if card == "liberal" else state.left_of(p)
        choices.append([*sorted(set(state.parchments[neighbour])), None])
    found = []
    for combination in itertools.product(*choices):
        copies: dict[str, dict[str, str | None]] = {}
        for (p, card), target in zip(cards, combination):
            copies.setdefault(p, {})[card] = target
        end = End(copies=copies)
        after, violations = apply(state, end)
        if not violations:
            found.append((end, after))
    return found


def outlook(state: State, player: str) -> Outlook:
    """What ``player`` would harvest now, then the sum of their fiefs' strength and wealth.

    The second figure ranks moves that harvest nothing yet but build towards it.
    """
    return _outlook(state.position, player)


def _outlook(position: Position, player: str) -> Outlook:
    mine = fiefs(position, player)
    return yield_of(mine), sum(f.strength + f.wealth for f in mine)


def built_outlook(after: State, build: Build) -> Outlook:
    """The builder's ``outlook`` after ``build``; a new trading post at its best declaration (H1)."""
    if build.card != "trading_post":
        return outlook(after, build.player)
    outlooks = []
    for resource in BASIC_RESOURCES:
        position = after.position.copy()
        position.declared[build.at[0]] = resource
        outlooks.append(_outlook(position, build.player))
    return max(outlooks)


def _gain(after: Outlook, before: Outlook) -> Outlook:
    return after[0] - before[0], after[1] - before[1]


# -- policies ------------------------------------------------------------------------


class Uniform:
    """The ``random`` policy: every decision uniform among its legal options."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, state: State, player: str, options: list[Pick]) -> Pick:
        return self.rng.choice(options)

    def build(self, state: State, options: dict[tuple[str, str], list[tuple[Build, State]]]) -> Build | None:
        """A building to place now, or None to end the construction.

        Uniform over the (player, building) pairs that can be placed and stopping;
        then uniform over that building's legal placements.
        """
        which = self.rng.randrange(len(options) + 1)
        if which == len(options):
            return None
        legal = list(options.values())[which]
        return self.rng.choice(legal)[0]

    def declare(self, state: State, player: str, options: list[dict[str, str]]) -> dict[str, str]:
        return self.rng.choice(options)

    def end(self, state: State, options: list[tuple[End, State]]) -> tuple[End, State]:
        return self.rng.choice(options)


class Greedy(Uniform):
    """The ``greedy`` policy: the option that raises the player's harvest the most.

    A pick is valued by what its territory cards add to the player's fiefs now, plus
    what its buildings would add if placed now at their best square; with 2 players the
    discard is the card worth least to the player. Construction places, one at a time,
    the building that gains its owner the most, and stops when none gains anything.
    Trading posts declare the best resources, copy cards copy the best parchment.
    """

    def pick(self, state: State, player: str, options: list[Pick]) -> Pick:
        before = outlook(state, player)
        cards = sorted({c for pick in options for c in pick.keep + (pick.discard or [])})
        buildings = {c: _building_value(state, player, c, before) for c in cards if CARDS[c].is_building}
        claims: dict[tuple[str, ...], Outlook] = {}

        def value(kept: list[str]) -> Outlook:
            squares = tuple(c for c in kept if CARDS[c].kind == "territory")
            if squares not in claims:
                claimed = state.copy()
                for square in squares:
                    claimed.play_card(player, square)  # P1, as the engine plays it
                claims[squares] = _gain(outlook(claimed, player), before)
            total = claims[squares]
            for c in kept:
                total = _plus(total, buildings.get(c, (0, 0)))
            return total

        def key(pick: Pick) -> tuple[int, ...]:
            lost = value(pick.discard) if pick.discard else (0, 0)
            return (*value(pick.keep), -lost[0], -lost[1])

        return self.best(options, key)

    def build(self, state: State, options: dict[tuple[str, str], list[tuple[Build, State]]]) -> Build | None:
        before = {p: outlook(state, p) for p in state.players}
        moves = [
            (build, _gain(built_outlook(after, build), before[build.player]))
            for legal in options.values()
            for build, after in legal
        ]
        moves = [(build, gain) for build, gain in moves if gain > (0, 0)]
        if not moves:
            return None
        return self.best(moves, lambda move: move[1])[0]

    def declare(self, state: State, player: str, options: list[dict[str, str]]) -> dict[str, str]:
        def harvest(declared: dict[str, str]) -> int:
            position = state.position.copy()
            position.declared = declared
            return _outlook(position, player)[0]

        return self.best(options, harvest)

    def end(self, state: State, options: list[tuple[End, State]]) -> tuple[End, State]:
        def copiers_total(option: tuple[End, State]) -> int:
            end, after = option
            assert after.final is not None
            return sum(after.final.players[p].total for p in end.copies)

        return self.best(options, copiers_total)

    def best(self, options: Sequence[T], key: Callable[[T], Any]) -> T:
        """The option with the highest key; ties broken by the seeded generator."""
        keys = [key(option) for option in options]
        top = max(keys)
        return self.rng.choice([option for option, k in zip(options, keys) if k == top])


def _plus(a: Outlook, b: Outlook) -> Outlook:
    return a[0] + b[0], a[1] + b[1]


def _building_value(state: State, player: str, card: str, before: Outlook) -> Outlook:
    """The most ``card`` would add to ``player``'s outlook if it were built now (0 if nothing)."""
    now = state.copy()
    now.play_card(player, card)  # P2: into the supply
    now.phase, now.camp_floor = "building", 0  # as if construction began now
    gains = [_gain(built_outlook(after, build), before) for build, after in placements(now, player, card)]
    return max([(0, 0), *gains])


# -- one game ------------------------------------------------------------------------


class _Game:
    """One simulated game: the live state, the events so far, the policy."""

    def __init__(self, players: Sequence[str], policy: Uniform) -> None:
        self.players = list(players)
        self.policy = policy
        self.state = State()
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        violations = self.state.play(event)
        if violations:
            rule, message = violations[0]
            raise SimulationError(
                f"the engine refuses simulated event {len(self.events) + 1} ({event_type(event)}): {rule} {message}"
            )
        self.events.append(event)

    def play(self, seed: int, policy: str) -> list[Event]:
        deck = [card.id for card in CARDS.values() for _ in range(card.copies)]
        self.policy.rng.shuffle(deck)
        meta = {"generator": "bkref simulate", "seed": seed, "policy": policy}
        self.emit(Game(format=FORMAT, players=self.players, deck=deck, meta=meta))
        state = self.state
        while state.phase == "dealing":
            self.emit(self.deal())
            while state.phase == "exploring":
                for player in self.players:
                    self.emit(self.policy.pick(state, player, pick_options(state, player)))
                turn = state.turn
                while state.pending:
                    owner, _ = state.pending[0]
                    self.emit(Draw(round=state.round, turn=turn, player=owner, cards=self.top(2)))
            while (options := build_options(state)) and (build := self.policy.build(state, options)):
                self.emit(build)
            self.emit(self.harvest())
        self.emit(self.end())
        return self.events

    def top(self, count: int) -> list[str]:
        """The next ``count`` cards of the deck."""
        state = self.state
        assert state.deck is not None
        return state.deck[state.deck_pos : state.deck_pos + count]

    def deal(self) -> Deal:
        """The next round's deal (D1): every hand, then (2 players) every reserve."""
        size = HAND_SIZE[len(self.players)]
        cards = self.top(size * len(self.players) * (2 if len(self.players) == 2 else 1))
        blocks = [cards[i : i + size] for i in range(0, len(cards), size)]
        hands = dict(zip(self.players, blocks))
        reserves = dict(zip(self.players, blocks[len(self.players) :])) or None
        return Deal(round=self.state.round + 1, hands=hands, reserves=reserves)

    def harvest(self) -> Harvest:
        state = self.state
        declared = {p: self.policy.declare(state, p, declarations(posts)) for p, posts in trading_posts(state).items()}
        after = apply(state, Harvest(round=state.round, trading_posts=declared))[0]
        expect = {p: yield_of(after.harvests[-1][p]) for p in self.players}
        return Harvest(round=state.round, trading_posts=declared, expect=expect)

    def end(self) -> End:
        chosen, after = self.policy.end(self.state, end_options(self.state))
        assert after.final is not None
        return End(copies=chosen.copies, expect={p: after.final.players[p].total for p in self.players})
