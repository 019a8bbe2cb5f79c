"""What a program may ask of a state: the decision due, and each player's cards, squares and carrots."""

from __future__ import annotations

from pathlib import Path

import pytest

from bkref.game.engine import Due, State
from bkref.game.events import Pick
from tests.conftest import referee, replay

THREE = replay("3p-ann-bob-cid")
TWO = replay("2p-ann-bob")
PLAYERS = ("ann", "bob", "cid")


def after(tmp_path: Path, events: list[dict], lines: int) -> State:
    """The state after the first ``lines`` events of ``events``."""
    return referee(tmp_path, events[:lines]).state


@pytest.mark.parametrize(
    ("lines", "due"),
    [
        (1, Due("deal", ())),
        (2, Due("pick", PLAYERS)),
        (3, Due("pick", ("bob", "cid"))),
        (5, Due("draw", ("bob",))),  # bob kept a provisions card
        (6, Due("pick", PLAYERS)),
        (21, Due("build", PLAYERS)),
        (26, Due("deal", ())),
        (117, Due("end", ("cid",))),  # cid owns the copy cards
        (118, Due("over", ())),
    ],
)
def test_the_decision_due(tmp_path: Path, lines: int, due: Due) -> None:
    assert after(tmp_path, THREE, lines).due() == due


def test_nothing_is_due_before_the_game_event_but_the_game_event() -> None:
    assert State().due() == Due("game", ())


def test_each_players_cards_squares_and_carrots(tmp_path: Path) -> None:
    state = after(tmp_path, THREE, 6)  # turn 1 played, bob's draw made
    rest = list(THREE[1]["hands"]["cid"])  # cid's rest passed left, to ann
    for card in THREE[4]["keep"]:
        rest.remove(card)
    assert state.hand_of("ann") == rest and len(rest) == 10 and state.hand_of("zed") == []
    state.hand_of("ann").clear()  # each answer is a new object
    assert len(state.hands["ann"]) == 10
    assert state.supply_of("bob") == {"city2": 1, "farm_mushroom": 1} and state.supply_of("zed") == {}
    assert state.squares_of("cid") == ["A7"] and state.squares_of("bob") == ["H5"]
    assert state.parchments_of("ann") == [] and state.parchments_of("zed") == []
    assert [f.squares for f in state.fiefs_of("cid")] == [("A7",)]
    assert [state.carrots_of(p) for p in PLAYERS] == [0, 0, 0]
    harvested = after(tmp_path, THREE, 26)
    assert [harvested.carrots_of(p) for p in PLAYERS] == [0, 4, 3]  # the expect of the first harvest
    over = after(tmp_path, THREE, 118)
    assert [over.carrots_of(p) for p in PLAYERS] == [THREE[117]["expect"][p] for p in PLAYERS]


def test_a_supply_lists_only_buildings_still_to_place(tmp_path: Path) -> None:
    state = after(tmp_path, THREE, 21)
    before = state.supply_of("bob")
    assert before == dict(sorted(before.items())) and all(n > 0 for n in before.values())
    placed = after(tmp_path, THREE, 22)  # bob builds city2 on B10
    assert "city2" not in placed.supply_of("bob") and before["city2"] == 1


def test_a_reserve_shows_the_cards_still_to_come(tmp_path: Path) -> None:
    reserve = TWO[1]["reserves"]["ann"]
    assert after(tmp_path, TWO, 2).reserve_of("ann") == reserve  # turn 1: the first card is next
    assert after(tmp_path, TWO, 3).reserve_of("ann") == reserve[1:]  # ann picked: her first card is taken
    assert after(tmp_path, TWO, 3).reserve_of("bob") == TWO[1]["reserves"]["bob"]
    assert after(tmp_path, TWO, 4).reserve_of("ann") == reserve[1:]  # turn 2
    assert after(tmp_path, TWO, 1).reserve_of("ann") == []  # not in exploration


def test_is_legal_asks_without_changing_the_state(tmp_path: Path) -> None:
    state = after(tmp_path, THREE, 2)
    good = Pick(round=1, turn=1, player="ann", keep=THREE[2]["keep"])
    bad = Pick(round=1, turn=1, player="ann", keep=["J10", "J9"])
    assert state.is_legal(good) is True and state.is_legal(bad) is False
    assert state.picks == {} and state.due() == Due("pick", PLAYERS)
