"""The ``mcts`` policy (issue 46): deterministic with a seed and a rollout budget, and fair."""

from __future__ import annotations

import random

from bkref.bots.bundled import BUNDLED
from bkref.bots.mcts import mcts_policy, mcts_with
from bkref.bots.simulate import simulate
from bkref.game.engine import State
from bkref.game.events import Pick
from bkref.game.knowledge import view
from bkref.game.worlds import sample


def _at_a_pick(players: int, seed: int, skip: int) -> State:
    """The state of a simulated game at its ``skip``-th pick decision after the first deal."""
    state, picks = State(), 0
    for event in simulate(players, seed=seed):
        if isinstance(event, Pick):
            picks += 1
            if picks > skip:
                return state
        state.play(event)
    raise AssertionError("no such pick")


def test_mcts_is_bundled() -> None:
    assert BUNDLED["mcts"] is mcts_policy


def test_the_same_seed_and_budget_the_same_choices() -> None:
    state = _at_a_pick(3, seed=4, skip=4)
    player = state.due().players[0]
    moves = state.legal_moves(player)
    policy = mcts_with(40)
    chosen = [policy(view(state, player), moves, random.Random(9)) for _ in range(2)]
    assert chosen[0] == chosen[1] and chosen[0] in moves


def test_its_choices_do_not_depend_on_cards_it_cannot_see() -> None:
    """Swapping cards between the places the deciding player does not see (another hand,
    the deck) leaves its choice and every world it samples the same."""
    for players, seed in ((2, 1), (4, 3)):
        state = _at_a_pick(players, seed=seed, skip=players + 1)
        player = state.due().players[0]
        other = next(p for p in state.players if p != player)
        swapped = state.copy()
        assert swapped.deck is not None
        hand, deck = swapped.hands[other], list(swapped.deck)
        hand[0], deck[swapped.deck_pos + 5] = deck[swapped.deck_pos + 5], hand[0]
        swapped.deck = deck
        assert swapped.hands[other] != state.hands[other]
        moves = state.legal_moves(player)
        policy = mcts_with(30)
        assert policy(view(state, player), moves, random.Random(2)) == policy(
            view(swapped, player), moves, random.Random(2)
        )
        a, b = sample(view(state, player), random.Random(3)), sample(view(swapped, player), random.Random(3))
        assert a.fields() == b.fields()


def test_a_game_of_mcts_is_the_same_game_byte_for_byte() -> None:
    first = simulate(2, seed=6, policy=["mcts", "greedy"])
    assert first == simulate(2, seed=6, policy=["mcts", "greedy"])
