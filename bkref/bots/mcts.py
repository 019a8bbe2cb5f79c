"""``mcts``: a search bot that plays from what its player knows (issue 46), an example of a
search policy built on the library.

Each pick is a determinized Monte Carlo tree search at the root (information-set MCTS one
level deep, as OpenSpiel's IS-MCTS with a single decision node): every rollout samples a
world consistent with the player's view (``bkref.game.worlds.sample``: the cards they have not seen dealt
at random to every place they do not see), plays one of the legal picks on it, chosen by
UCB1 over the picks' results so far, then plays the game to its end with the fast ``random``
policy for every seat, and scores the player's final total less the best other total. The
pick with the best mean wins; ties by the order of the moves. Construction, trading posts and
copy choices are greedy's (``bkref.bots.policies.greedy_policy``): a one-step greedy places
better than random rollouts can find within the budget.

The budget is a number of rollouts per pick (``ROLLOUTS``, or ``mcts_with(rollouts)``), all
drawn from the game's generator: the same seed gives the same game, byte for byte. A bot
program adds a time: ``mcts_within(deadline)`` stops at ``ROLLOUTS`` rollouts or at the
deadline, whichever comes first (``bkref bot mcts`` gives it half of each decision's ``ms``),
so it plays as ``mcts`` whenever the time suffices. It reads the game only through its view,
so it never cheats.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from bkref.bots.policies import Choice, Policy, greedy_policy, random_build, random_pick
from bkref.game.events import Event, Pick
from bkref.game.moves import Lister
from bkref.game.worlds import sample

if TYPE_CHECKING:
    from bkref.game.engine import State
    from bkref.game.knowledge import View

ROLLOUTS: Final = 200
"""The rollouts of a pick by default: about 0.3 s a decision on one core."""

_EXPLORE: Final = 0.5
"""UCB1's exploration constant, for rewards scaled to about [-1, 1] (a margin of 100 points is 1)."""


def mcts_with(rollouts: int) -> Policy:
    """The ``mcts`` policy with ``rollouts`` rollouts a pick."""

    def policy(view: View, moves: Sequence[Choice], rng: random.Random) -> Choice:
        return search(view, moves, rng, rollouts)

    return policy


def mcts_within(deadline: float) -> Policy:
    """The ``mcts`` policy stopping its search at ``deadline`` (``time.monotonic()``), after one rollout at least."""

    def policy(view: View, moves: Sequence[Choice], rng: random.Random) -> Choice:
        return search(view, moves, rng, ROLLOUTS, deadline)

    return policy


def mcts_policy(view: View, moves: Sequence[Choice], rng: random.Random) -> Choice:
    """``mcts``: picks searched over sampled worlds (see the module), everything else greedy's."""
    return search(view, moves, rng, ROLLOUTS)


def search(
    view: View, moves: Sequence[Choice], rng: random.Random, rollouts: int, deadline: float = math.inf
) -> Choice:
    """The move of the search with ``rollouts`` rollouts, or as many as come before ``deadline``
    (``time.monotonic()``; one at least), unvisited picks last (see the module)."""
    if not isinstance(moves[0], Pick) or len(moves) == 1:
        return greedy_policy(view, moves, rng)
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    lister = Lister()  # what the rollouts list, kept from one decision to the next
    for n in range(rollouts):
        if n and time.monotonic() > deadline:
            break
        if n < len(moves):
            chosen = n  # every pick once first
        else:
            log_n = math.log(n)
            chosen = max(
                range(len(moves)),
                key=lambda i: totals[i] / visits[i] + _EXPLORE * math.sqrt(log_n / visits[i]),
            )
        world = sample(view, rng)
        world.play(moves[chosen])  # type: ignore[arg-type]  # a Pick, legal in every world of the view
        totals[chosen] += margin(rollout(world, rng, lister), view.player)
        visits[chosen] += 1
    best = max(range(len(moves)), key=lambda i: (totals[i] / visits[i] if visits[i] else -math.inf, -i))
    return moves[best]


def rollout(world: State, rng: random.Random, lister: Lister) -> State:
    """``world`` played to the end of the game by ``random`` for every seat, in place, its
    moves listed by ``lister``."""
    while (due := world.due()).kind != "over":
        event: Event | None
        if due.kind == "pick":
            event = random_pick(world.legal_moves(due.players[0], lister), rng)
        elif due.kind == "build":
            moves = world.legal_moves(None, lister)
            event = random_build(moves, rng)
            if event is None:  # construction closes with the harvest
                event = moves.closing()[0]
        else:
            event = rng.choice(world.legal_moves(None, lister))
        world.play(event)
    return world


def margin(world: State, player: str) -> float:
    """``player``'s final total less the best other total, in hundreds of points."""
    assert world.final is not None
    totals = {p: score.total for p, score in world.final.players.items()}
    mine = totals.pop(player)
    return (mine - max(totals.values())) / 100
