"""Worlds sampled from a view (issue 46): consistent with all the player sees, the unseen cards dealt at random."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from bkref.bots.simulate import simulate
from bkref.game.engine import State
from bkref.game.knowledge import view
from bkref.game.worlds import sample, unseen


def _states(players: int, seed: int, every: int) -> list[State]:
    """The states of a simulated game after every ``every``-th event."""
    state, kept = State(), []
    for i, event in enumerate(simulate(players, seed=seed)):
        state.play(event)
        if i % every == 0:
            kept.append(state.copy())
    return kept


def _hidden(state: State, player: str) -> Counter[str]:
    """The cards ``player`` does not see in the real state: the other hands and parchments,
    the reserves to come, the deck."""
    cards: Counter[str] = Counter()
    for other in state.players:
        if other != player:
            if view(state, player).revealed is None:  # parchments are shown after the 4th harvest
                cards.update(state.parchments.get(other, ()))
            if state.phase == "exploring":
                cards.update(state.hands[other])
    if state.phase == "exploring":
        for reserve in state.reserves.values():
            cards.update(reserve[state.turn :])
    assert state.deck is not None
    cards.update(state.deck[state.deck_pos :])
    return cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sample_never_contradicts_the_view(players: int) -> None:
    for n, state in enumerate(_states(players, seed=11, every=3)):
        for player in state.players:
            seen = view(state, player)
            world = sample(seen, random.Random(n))
            assert msgspec.to_builtins(view(world, player).struct()) == msgspec.to_builtins(seen.struct())
            assert not _hidden(state, player) - unseen(seen), "a card the player cannot see is missing from the unseen"


@pytest.mark.parametrize("players", [2, 4])
def test_a_sampled_world_plays_on_to_the_end(players: int) -> None:
    state = _states(players, seed=3, every=7)[3]
    world = sample(view(state, state.players[0]), random.Random(1))
    rng = random.Random(2)
    while world.phase != "over":
        moves = world.legal_moves()
        assert world.play(rng.choice(moves)) == []
    assert world.final is not None


def test_every_hidden_card_is_as_frequent_as_its_unseen_copies() -> None:
    state = _states(3, seed=7, every=1)[1]  # after the first deal: nobody has a parchment yet
    assert state.phase == "exploring"
    seen = view(state, "ann")
    pool = unseen(seen)
    size, total, draws = len(state.hands["bob"]), sum(pool.values()), 600
    held: Counter[str] = Counter()
    for n in range(draws):
        held.update(sample(seen, random.Random(n)).hands["bob"])
    assert set(held) <= set(pool)
    expected = {card: draws * size * copies / total for card, copies in pool.items()}
    chi2 = sum((held[card] - e) ** 2 / e for card, e in expected.items())
    df = len(expected) - 1
    assert chi2 < df + 5 * (2 * df) ** 0.5, f"chi-square {chi2:.1f} with {df} degrees of freedom"


def test_the_same_generator_state_gives_the_same_world() -> None:
    state = _states(4, seed=2, every=9)[2]
    seen = view(state, "cid")
    a, b = sample(seen, random.Random(5)), sample(seen, random.Random(5))
    assert a.fields() == b.fields()
    assert a.fields() != sample(seen, random.Random(6)).fields()
