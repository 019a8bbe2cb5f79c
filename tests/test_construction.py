"""Construction: camps counted as placed (R5 placed) and sky towers (C5), through the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bkref.game.engine import State
from bkref.game.events import Build, Game
from tests.conftest import found, referee, replay

FOUR = replay("4p-ann-bob-cid-dee")
CAMP6 = FOUR[81]
assert CAMP6 == {"type": "build", "round": 3, "player": "cid", "card": "camp6", "at": ["E3"]}


def without_expect(events: list[dict[str, Any]], colonist_counts: str) -> list[dict[str, Any]]:
    """``events`` with the given R5 ruling and no ``expect`` (the figures are asserted here)."""
    game = dict(events[0], rulings={"colonist_counts": colonist_counts})
    return [game, *({k: v for k, v in e.items() if k != "expect"} for e in events[1:])]


def colonist(state: State, player: str) -> tuple[int, str, list[str]]:
    final = state.final_explained()
    assert final is not None
    (row,) = [r for r in final.players[player].parchments if r.card == "colonist"]
    return row.points, row.counted, row.rulings


def test_every_camp_placed_is_counted(tmp_path: Path) -> None:
    report = referee(tmp_path, without_expect(FOUR, "placed"))
    assert found(report) == []
    state = report.state
    assert state.camps_placed == state.camps_played == {"ann": 0, "bob": 1, "cid": 3, "dee": 2}
    assert colonist(state, "cid") == (9, "3 camps placed (R5 placed)", ["R5"])


@pytest.mark.parametrize(
    ("events", "diagnostics"),
    [
        ([*FOUR[:81], *FOUR[82:]], []),  # cid never places camp6
        (  # cid places camp6 on E2, where cid's own rabbit stands: refused
            [*FOUR[:81], dict(CAMP6, at=["E2"]), *FOUR[82:]],
            [("C6", 82, "cid places camp6 on E2, where cid has a rabbit; a camp goes only on an empty square")],
        ),
    ],
    ids=["left-out", "refused"],
)
def test_a_camp_played_but_not_placed(tmp_path: Path, events: list[dict[str, Any]], diagnostics: list[Any]) -> None:
    placed = referee(tmp_path, without_expect(events, "placed"))
    assert found(placed) == diagnostics
    state = placed.state
    assert state.camps_placed == {"ann": 0, "bob": 1, "cid": 2, "dee": 2}
    assert state.camps_played == {"ann": 0, "bob": 1, "cid": 3, "dee": 2}
    assert state.supply["cid"]["camp6"] == 1 and state.position.building.get("E3") is None
    assert colonist(state, "cid") == (6, "2 camps placed (R5 placed)", ["R5"])
    played = referee(tmp_path, without_expect(events, "played")).state
    assert colonist(played, "cid") == (9, "3 camp cards played (R5 played)", ["R5"])


# -- sky towers (C5) -----------------------------------------------------------------


def building(*squares: str, towers: int) -> State:
    """A 3-player game in round 1's construction: ann controls ``squares``, holds ``towers`` sky towers."""
    state = State()
    state.play(Game(format="bkref/1", players=["ann", "bob", "cid"]))
    state.phase, state.round = "building", 1
    state.supply["ann"]["sky_tower"] = towers
    for sq in squares:
        state.position.claim(sq, "ann")
    return state


def test_both_sky_tower_tokens_on_one_square_are_refused() -> None:
    state = building("A1", "A2", towers=1)
    found = state.play(Build(round=1, player="ann", card="sky_tower", at=["A1", "A1"]))
    assert [tuple(v) for v in found] == [
        ("C5", "both sky tower tokens are placed on A1; they go on two different squares")
    ]
    assert (state.supply["ann"]["sky_tower"], state.position.towers, state.position.building) == (1, [], {})


def test_a_sky_tower_between_fiefs_an_earlier_tower_joined_is_refused() -> None:
    # A1-A2 and J9-J10 are two fiefs of ann; the first tower joins them, so the second joins nothing
    state = building("A1", "A2", "J9", "J10", towers=2)
    assert state.play(Build(round=1, player="ann", card="sky_tower", at=["A1", "J9"])) == []
    found = state.play(Build(round=1, player="ann", card="sky_tower", at=["A2", "J10"]))
    assert [tuple(v) for v in found] == [
        ("C5", "A2 and J10 are already in one fief of ann; a sky tower joins two different fiefs")
    ]
    assert state.supply["ann"]["sky_tower"] == 1 and state.position.towers == [("A1", "J9")]
    assert state.position.building == {"A1": "sky_tower", "J9": "sky_tower"}


def test_a_sky_tower_joins_fiefs_through_another_players_square_only_by_its_own_link() -> None:
    # A1 and A3 are ann's, A2 between them is bob's: two fiefs of ann, which a tower may join
    state = building("A1", "A3", towers=1)
    state.position.claim("A2", "bob")
    assert state.play(Build(round=1, player="ann", card="sky_tower", at=["A1", "A3"])) == []
    assert state.position.towers == [("A1", "A3")] and state.supply["ann"]["sky_tower"] == 0


# -- what construction refuses (C3, T1, P1-P4) --------------------------------------


@pytest.mark.parametrize(
    ("card", "rule", "what"),
    [
        ("A5", "P1", "a territory card claims its square when it is played"),
        ("provisions", "P3", "a provisions card draws 2 cards when it is played"),
        ("royal_ring", "P4", "a parchment stays face down until the end"),
        ("fisher", "P4", "a parchment stays face down until the end"),
    ],
)
def test_only_a_building_is_built(card: str, rule: str, what: str) -> None:
    state = building("A1", towers=0)
    found = state.play(Build(round=1, player="ann", card=card, at=["A1"]))
    assert [tuple(v) for v in found] == [(rule, f"ann builds {card}, which is not a building: {what}")]


def test_a_building_on_another_players_building_names_it() -> None:
    state = building("A1", towers=0)
    state.position.claim("A2", "bob")
    state.position.building["A2"] = "city2"
    state.supply["ann"]["city1"] = 1
    found = state.play(Build(round=1, player="ann", card="city1", at=["A2"]))
    assert [tuple(v) for v in found] == [("C3", "ann builds city1 on A2, which already holds bob's city2")]


@pytest.mark.parametrize(
    ("card", "at", "found"),
    [
        ("city1", ["A1", "A2"], ("C3", "city1 is placed on 2 squares; it takes 1")),
        ("camp1", [], ("C3", "camp1 is placed on 0 squares; it takes 1")),
        ("sky_tower", ["A1"], ("C5", "sky_tower is placed on 1 square; it takes 2")),
    ],
)
def test_a_building_on_the_wrong_number_of_squares_says_how_many_it_takes(
    card: str, at: list[str], found: tuple[str, str]
) -> None:
    state = building("A1", "A2", towers=1)
    state.supply["ann"] |= {"city1": 1, "camp1": 1}
    assert [tuple(v) for v in state.play(Build(round=1, player="ann", card=card, at=at))] == [found]
    assert state.position.building == {}


@pytest.mark.parametrize(
    ("phase", "rnd", "message"),
    [
        ("building", 2, "the build is marked round 2, but the game is in round 1"),
        ("exploring", 2, "ann's city1 build comes in round 1, turn 6"),  # a build of its own round closes the turns
    ],
)
def test_a_build_outside_its_construction_is_refused(phase: str, rnd: int, message: str) -> None:
    state = building("A1", towers=0)
    state.phase, state.turn = phase, 6
    state.supply["ann"]["city1"] = 1
    found = state.play(Build(round=rnd, player="ann", card="city1", at=["A1"]))
    assert [tuple(v) for v in found] == [("T1", message)]
    assert state.position.building == {} and state.supply["ann"]["city1"] == 1
