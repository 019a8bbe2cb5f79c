"""Policies: the programs that play the seats of a simulated game.

The protocol
------------
A policy is a function ``policy(view, moves, rng) -> move``:

- ``view`` is what the deciding player knows of the game now (RULES.md I1-I6): a
  read-only ``bkref.game.knowledge.View`` (``view.hand``, ``view.supply(p)``,
  ``view.squares(p)``, ``view.owner``, ``view.deck``, ...; ``view.position()`` is a copy
  of the board to look ahead on with ``bkref.game.fiefs``). Never the game's state: the
  deck, the other hands and parchments are not in it;
- ``moves`` is the non-empty list of legal moves of one decision, from
  ``bkref.game.moves``, in a fixed order (copies: changing them changes nothing);
- ``rng`` is the game's ``random.Random``, seeded by the game's seed: draw any randomness
  from it (not from the ``random`` module) and the same seed gives the same game;
- it returns one element of ``moves`` (compared with ``==``): anything else stops the
  game with a ``PolicyError`` naming the policy and the position. What it prints goes to
  standard error, never into the log.

The decisions, by what ``moves`` holds:

- ``Pick`` events: one player's pick of the turn (``bkref.game.moves.LegalMoves``);
- ``Build`` events, then ``None`` last: a building to place now, or ``None`` to place
  nothing more this construction. The policy is asked again after each build, as long
  as a build is left. The builds are those of every seat the policy plays;
- ``Harvest`` events, each holding only one player's trading post declarations: how
  that player declares their posts (H1); asked only of players with posts;
- ``End`` events: the copy choices (E7) of the seats the policy plays.

A policy given for several seats decides construction and the end for all of them at
once, with the view of the first of them (all it decides on is public by then: the
board, the supplies, and at the end every parchment); with one policy per seat, each
seat's policy decides for that seat.

``random`` and ``greedy`` are bundled (below), with ``mcts`` (``bkref.bots.mcts``, a search
built on them); ``bkref.bots.bundled.load(spec)`` finds a policy by its name.

>>> import random
>>> from bkref.game.events import Build
>>> from bkref.game.knowledge import view
>>> state = State()
>>> state.seat(("ann", "bob"))
>>> builds = [Build(round=1, player="ann", card="city1", at=[sq]) for sq in ("A1", "A2")]
>>> random_policy(view(state, "ann"), [*builds, None], random.Random(1))
Build(round=1, player='ann', card='city1', at=['A1'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

from bkref.bots.lookahead import Lookahead
from bkref.game.catalog import BASIC_RESOURCES, CARDS, CITY_STRENGTH, COPY_CARDS, SKY_TOWERS
from bkref.game.engine import State
from bkref.game.events import Build, End, Harvest, Pick
from bkref.game.fiefs import RESOURCE_INDEX, BitBoard, Group
from bkref.game.knowledge import View
from bkref.game.moves import LegalMoves, Lister, placements
from bkref.game.position import Position
from bkref.game.results import Fief
from bkref.game.scoring import final_score, opportunist_second, parchment_points

Choice = Pick | Build | Harvest | End | None
"""One choice of a decision: ``None`` is "place nothing more" in construction."""
Policy = Callable[[View, Sequence[Choice], random.Random], Choice]

T = TypeVar("T")
Outlook = tuple[int, int]
_BUILDINGS = frozenset(card.id for card in CARDS.values() if card.is_building)
_TERRITORIES = frozenset(card.id for card in CARDS.values() if card.kind == "territory")
_BASIC = sum(1 << RESOURCE_INDEX[r] for r in BASIC_RESOURCES)
"""The basic resources, as bits of a fief's resources: what a trading post may make (H1)."""
_STRENGTH: Final = CITY_STRENGTH  # a constant of this module: the compiled build reads it directly
_FARM_MAKES: Final = {
    card.id: _BASIC if card.produces is None else 1 << RESOURCE_INDEX[card.produces]
    for card in CARDS.values()
    if card.kind == "farm"
}
"""What each farm makes, as bits of a fief's resources: a trading post any basic resource."""


# -- the bundled policies ------------------------------------------------------------


def random_policy(view: View, moves: Sequence[Choice], rng: random.Random) -> Choice:
    """``random``: every decision uniform among its legal options.

    In construction: uniform over the (player, building) pairs that can be placed and
    stopping; then uniform over that building's legal placements.
    """
    if isinstance(moves[0], Build):
        groups: dict[tuple[str, str], list[Build]] = {}
        for move in moves:
            if isinstance(move, Build):
                groups.setdefault((move.player, move.card), []).append(move)
        which = rng.randrange(len(groups) + 1)
        if which == len(groups):
            return None
        return rng.choice(list(groups.values())[which])
    return rng.choice(moves)


def random_pick(moves: LegalMoves, rng: random.Random) -> Pick:
    """The pick ``random_policy`` chooses among ``moves`` (one player's picks), drawing the same
    number from ``rng``, without making the list (``LegalMoves`` counts them and makes the one
    chosen): what ``bkref simulate`` plays for its seats."""
    pick = moves.choose(rng.randrange)  # the draw of rng.choice(moves): rng.randrange(len(moves))
    assert isinstance(pick, Pick)
    return pick


def random_build(
    moves: LegalMoves, rng: random.Random, players: Collection[str] | None = None, camps: bool = True
) -> Build | None:
    """The build ``random_policy`` chooses in construction among the builds of ``moves`` (of
    ``players`` only, if given; but a camp's, unless ``camps``: the camps placed first),
    drawing the same numbers from ``rng``, without making the list of builds
    (``LegalMoves.counts`` and ``LegalMoves.build``): what ``bkref simulate`` plays for its
    seats. None when it places nothing more, or when no build is left (then nothing is drawn:
    the policy is not asked)."""
    groups = [
        (p, c, n)
        for p, c, n in moves.counts()
        if (players is None or p in players) and (camps or CARDS[c].kind != "camp")
    ]
    if not groups:
        return None
    which = rng.randrange(len(groups) + 1)
    if which == len(groups):
        return None
    player, card, count = groups[which]
    return moves.build(player, card, rng.randrange(count))  # the draw of a choice among them


def greedy_policy(view: View, moves: Sequence[Choice], rng: random.Random) -> Choice:
    """``greedy``: the option that raises the player's harvest the most; ties by ``rng``.

    It reads only its view, and looks ahead on a copy of the board (``view.position()``).
    A pick is valued by what its territory cards add to the player's fiefs now, plus
    what its buildings would add if placed now at their best square; with 2 players the
    discard is the card worth least to the player. Construction places, one at a time,
    the building that gains its owner the most, and stops when none gains anything.
    Trading posts declare the best resources; copy cards copy the parchment that scores
    the copiers most (E7; a colonist counting the camps on the board).
    """
    first = moves[0]
    if isinstance(first, Pick):
        return _greedy_pick(view, first.player, moves, rng)  # type: ignore[arg-type]
    if isinstance(first, Build):
        return _greedy_build(view, moves, rng)
    if isinstance(first, Harvest):
        return _greedy_declare(view, moves, rng)  # type: ignore[arg-type]
    return _greedy_end(view, moves, rng)  # type: ignore[arg-type]


def outlook(position: Position, player: str) -> Outlook:
    """What ``player`` would harvest in ``position`` now, then the sum of their fiefs' strength
    and wealth. The second figure ranks moves that harvest nothing yet but build towards it."""
    return _outlook(Lookahead(position, player).groups)


def _outlook(fiefs: Iterable[Group]) -> Outlook:
    carrots = total = 0
    for _, strength, made in fiefs:
        wealth = made.bit_count()
        carrots += strength * wealth
        total += strength + wealth
    return carrots, total


def _change(before: list[Group], after: list[Group]) -> Outlook:
    """What the fiefs ``after`` add to the outlook over the fiefs ``before`` they replace
    (``_outlook(after)`` less ``_outlook(before)``, in one pass)."""
    carrots = total = 0
    for _, strength, made in after:
        wealth = made.bit_count()
        carrots += strength * wealth
        total += strength + wealth
    for _, strength, made in before:
        wealth = made.bit_count()
        carrots -= strength * wealth
        total -= strength + wealth
    return carrots, total


def built_gain(ahead: Lookahead, card: str, at: list[str]) -> Outlook:
    """What placing ``card`` on ``at`` adds to the outlook of ``ahead``'s player (only the fiefs
    it changes count); a new trading post at its best declaration (H1)."""
    more = _STRENGTH.get(card)
    if more is not None:  # a city: its strength more, in a fief as wealthy as before
        _, _, made = ahead.fief_of(at[0])
        return more * made.bit_count(), more
    wanted = _FARM_MAKES.get(card)
    if wanted is not None:  # a farm: a resource more, unless the fief makes it already
        _, strength, made = ahead.fief_of(at[0])
        return (strength, 1) if wanted & ~made else (0, 0)
    if card in SKY_TOWERS:  # its two fiefs become one, as strong as both, making what either makes
        (squares, strength, made), (others, other, makes) = ahead.fief_of(at[0]), ahead.fief_of(at[1])
        if squares == others:
            return 0, 0
        wealth, more, both = made.bit_count(), makes.bit_count(), (made | makes).bit_count()
        return (strength + other) * both - strength * wealth - other * more, both - wealth - more
    before, after = ahead.built(card, at)  # a camp: the fiefs it joins
    return _change(before, after)


def claimed_gain(ahead: Lookahead, squares: Iterable[str]) -> Outlook:
    """What claiming ``squares`` adds to the outlook of ``ahead``'s player (P1, as the engine
    plays it: a camp there leaves, and counted nothing)."""
    before, after = ahead.claimed(squares)
    return _change(before, after)


def _best(rng: random.Random, options: Sequence[T], key: Callable[[T], Any]) -> T:
    """The option with the highest key; ties broken by the seeded generator."""
    keys = [key(option) for option in options]
    top = max(keys)
    return rng.choice([option for option, k in zip(options, keys) if k == top])


class Claims:
    """``claimed_gain`` on ``ahead``, each set of squares found once: two squares whose claims
    join no fief in common and that are not next to each other add what each adds alone
    (the fiefs either makes are the same as when it is claimed alone)."""

    def __init__(self, ahead: Lookahead) -> None:
        self.ahead = ahead
        self.known: dict[tuple[str, ...], Outlook] = {}
        self.joined: dict[str, int] = {}
        """The squares of the fief each square claimed alone makes."""

    def __call__(self, squares: tuple[str, ...]) -> Outlook:
        known = self.known
        gain = known.get(squares)
        if gain is None:
            if len(squares) == 2 and self.apart(*squares):
                (carrots, total), (more, others) = known[squares[:1]], known[squares[1:]]
                gain = carrots + more, total + others
            else:
                before, after = self.ahead.claimed(squares)
                gain = _change(before, after)
                if len(squares) == 1:
                    self.joined[squares[0]] = after[0][0]
            known[squares] = gain
        return gain

    def apart(self, a: str, b: str) -> bool:
        """Whether claiming ``a`` and ``b`` together makes the fiefs each makes alone."""
        joined = self.joined
        if a not in joined:
            self((a,))
        if b not in joined:
            self((b,))
        return not joined[a] & joined[b] and not self.ahead.linked(a, b)


def _building_value(now: Position, ahead: Lookahead, card: str, lister: Lister) -> Outlook:
    """The most ``card`` would add to the outlook of ``ahead``'s player if it were placed now (0 if nothing)."""
    return max([(0, 0), *(built_gain(ahead, card, at) for at in placements(now, ahead.player, card, lister))])


def _greedy_pick(view: View, player: str, options: Sequence[Pick], rng: random.Random) -> Pick:
    now = view.position()
    ahead = Lookahead(now, player)
    cards = sorted({c for pick in options for c in pick.keep + (pick.discard or [])})
    lister = Lister()  # the placements of every card on one board
    buildings = {c: _building_value(now, ahead, c, lister) for c in cards if c in _BUILDINGS}
    territories = _TERRITORIES.intersection(cards)
    claims = Claims(ahead)
    known = claims.known

    def value(kept: list[str]) -> Outlook:
        squares = tuple([c for c in kept if c in territories])
        total = known.get(squares)
        if total is None:
            total = claims(squares)
        for c in kept:
            worth = buildings.get(c)
            if worth is not None:
                total = (total[0] + worth[0], total[1] + worth[1])
        return total

    def key(pick: Pick) -> tuple[int, ...]:
        lost = value(pick.discard) if pick.discard else (0, 0)
        return (*value(pick.keep), -lost[0], -lost[1])

    return _best(rng, options, key)


def _greedy_build(view: View, options: Sequence[Choice], rng: random.Random) -> Build | None:
    now = view.position()
    board = BitBoard.of(now, tuple(view.players))  # read once for every player
    ahead: dict[str, Lookahead] = {}
    moves = []
    for build in options:
        if isinstance(build, Build):
            p = build.player
            looking = ahead.get(p)
            if looking is None:
                looking = ahead[p] = Lookahead(now, p, board)
            carrots, total = built_gain(looking, build.card, build.at)
            if carrots > 0 or (carrots == 0 and total > 0):  # it adds something: (carrots, total) > (0, 0)
                moves.append((build, (carrots, total)))
    if not moves:
        return None
    return _best(rng, moves, lambda move: move[1])[0]


def _greedy_declare(view: View, options: Sequence[Harvest], rng: random.Random) -> Harvest:
    now = view.position()

    def harvest(option: Harvest) -> int:
        ((player, declared),) = option.trading_posts.items()
        position = now.copy()
        position.declared = dict(declared)
        return outlook(position, player)[0]

    return _best(rng, options, harvest)


def _greedy_end(view: View, options: Sequence[End], rng: random.Random) -> End:
    return _best(rng, options, copiers_total(view))


def copiers_total(view: View, *, whole: bool = False) -> Callable[[End], int]:
    """What ``greedy`` weighs a set of copy choices by: the copiers' final totals with it, as
    every player can score them at the end (I6: the board and the parchments). Unless copies
    follow copies (R3 ``follow``), a player's total before the Opportunists depends on their
    own choices alone, so each player's choices are scored once, their parchments alone, not
    every combination of them; an Opportunist then scores from those totals (R2). ``whole``:
    every set scored whole, what the fast way is checked against."""
    revealed = view.revealed
    assert revealed is not None  # the end is decided after the reveal (E1)
    public = State()
    public.seat(view.players)
    public.rulings = view.rulings
    public.position = view.position()
    public.parchments = {p: list(cards) for p, cards in revealed.items()}
    camps = [public.position.owner[sq] for sq, card in view.buildings.items() if CARDS[card].kind == "camp"]
    public.camps_played = public.camps_placed = {p: camps.count(p) for p in view.players}  # those in sight
    public.harvests = [{p: [Fief((), 0, (), view.carrots(p))] for p in view.players}]  # the four, as one
    board = BitBoard.of(public.position, public.players)  # the same board for every set of choices

    def scored(end: End) -> int:
        public.copies = _with_all_copies(public.parchments, end).copies
        final = final_score(public, board, explain=False)
        return sum(final.players[p].total for p in end.copies)

    if whole or view.rulings.copy_of_copy == "follow":
        return scored
    own: dict[tuple[str, tuple[tuple[str, str | None], ...]], int] = {}

    def before(p: str, chosen: Mapping[str, str | None]) -> int:
        """``p``'s total with their choices ``chosen`` (their other copy cards copying nothing),
        Opportunists aside: their parchments alone scored."""
        key = (p, tuple(chosen.items()))
        if key not in own:
            public.copies = _with_all_copies(public.parchments, End(copies={p: dict(chosen)})).copies
            own[key] = view.carrots(p) + parchment_points(public, board, p)
        return own[key]

    def by_player(end: End) -> int:
        totals = {p: before(p, chosen) for p, chosen in end.copies.items()}
        if not any(
            "opportunist" in revealed[p] or "opportunist" in chosen.values() for p, chosen in end.copies.items()
        ):
            return sum(totals.values())
        # a copier's Opportunist scores from every total before the Opportunists (R2)
        ahead = {p: totals[p] if p in totals else before(p, {}) for p in view.players}
        second, award = opportunist_second(view.players, ahead, view.rulings.opportunist_tie)
        total = 0
        for p, chosen in end.copies.items():
            total += totals[p]
            if award and p in second:
                total += 10 * (revealed[p].count("opportunist") + list(chosen.values()).count("opportunist"))
        return total

    return by_player


def _with_all_copies(parchments: dict[str, list[str]], end: End) -> End:
    """``end`` with every other copy card copying nothing, so that it can be scored."""
    copies: dict[str, dict[Any, Any]] = {
        p: dict.fromkeys(sorted(COPY_CARDS.intersection(c))) for p, c in parchments.items()
    }
    for p, chosen in end.copies.items():
        copies[p].update(chosen)
    return End(copies={p: c for p, c in copies.items() if c})
