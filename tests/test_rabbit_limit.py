"""The rabbit limit (S5, ruling R6 ``rabbit_limit``) both ways, on small hand-made tables.

Each test sets up a player's claimed squares and harvested carrots by hand, plays one
claim (a territory card drawn by provisions, or a camp placed) and reads what the
engine says. The figures sit on both sides of each threshold: 35 claimed squares (one
rabbit marks the score), 34 once a harvest has taken the player past 100 carrots (a
second marks the +100 space).
"""

from __future__ import annotations

import pytest

from bkref.game.catalog import SQUARES
from bkref.game.engine import State
from bkref.game.events import Build, Draw, Game, Rulings
from bkref.game.results import Fief

SEATS = ["ann", "bob", "cid"]
CLAIM = "J10"  # the square ann claims in every test
LAND = [sq for sq in SQUARES if sq != CLAIM]


def table(squares: int, carrots: int = 0, **rulings: str) -> State:
    """Round 1, turn 1, every pick made, ann's provisions card waiting to draw; ann controls
    ``squares`` squares and has harvested ``carrots``."""
    state = State()
    assert state.play(Game(format="bkref/1", players=SEATS, rulings=Rulings(**rulings))) == []  # type: ignore[arg-type]
    state.phase, state.round, state.turn = "exploring", 1, 1
    state.picks = {p: None for p in SEATS}
    state.pending = [("ann", 1)]
    for sq in LAND[:squares]:
        state.position.claim(sq, "ann")
    state.harvests = [{"ann": [Fief(("A1",), 1, ("wood",), carrots)], "bob": [], "cid": []}]
    return state


def claim(state: State) -> list[tuple[str, str]]:
    """Ann's provisions draws ``CLAIM`` and a city1: the violations, as (rule, message)."""
    return [tuple(v) for v in state.play(Draw(round=1, turn=1, player="ann", cards=[CLAIM, "city1"]))]


@pytest.mark.parametrize(
    "squares, carrots, limited",
    [
        (34, 0, False),
        (35, 0, True),
        (33, 101, False),
        (34, 100, False),  # 100 carrots is not past 100: no rabbit on the +100 space yet
        (34, 101, True),
    ],
)
def test_r6_pieces_a_claim_needs_a_rabbit(squares: int, carrots: int, limited: bool) -> None:
    state = table(squares, carrots, rabbit_limit="pieces")
    found = claim(state)
    assert [rule for rule, _ in found] == (["S5"] if limited else [])
    assert (CLAIM in state.position.owner) is not limited
    assert state.supply["ann"]["city1"] == 1  # the other drawn card is played all the same


def test_r6_pieces_message_names_where_the_rabbits_are() -> None:
    assert claim(table(34, 101, rabbit_limit="pieces")) == [
        (
            "S5",
            f"ann has no rabbit left to claim {CLAIM}: 34 squares and the score track and its +100 space "
            f"hold all 36 (R6 pieces); {CLAIM} stays unclaimed",
        )
    ]
    assert claim(table(35, rabbit_limit="pieces"))[0][1] == (
        f"ann has no rabbit left to claim {CLAIM}: 35 squares and the score track hold all 36 (R6 pieces); "
        f"{CLAIM} stays unclaimed"
    )


@pytest.mark.parametrize("rulings", [{}, {"rabbit_limit": "none"}])
def test_r6_none_the_default_places_no_limit(rulings: dict[str, str]) -> None:
    state = table(99, 500, **rulings)
    assert claim(state) == []
    assert state.position.owner[CLAIM] == "ann"


def test_r6_pieces_a_territory_on_the_players_own_camp_needs_no_new_rabbit() -> None:
    state = table(35, rabbit_limit="pieces")
    state.position.claim(LAND[0], "bob")  # ann has 34 squares and her own camp on CLAIM: 35 rabbits out
    state.position.claim(CLAIM, "ann")
    state.position.building[CLAIM] = "camp1"
    assert claim(state) == []
    assert CLAIM not in state.position.building  # P1: the camp token leaves, ann keeps control


def test_r6_pieces_a_territory_on_an_opponents_camp_needs_a_rabbit() -> None:
    state = table(35, rabbit_limit="pieces")
    state.position.claim(CLAIM, "bob")
    state.position.building[CLAIM] = "camp1"
    assert [rule for rule, _ in claim(state)] == ["S5"]
    assert state.position.owner[CLAIM] == "bob"  # the claim did not happen: bob's camp stays


@pytest.mark.parametrize("squares, placed", [(34, True), (35, False)])
def test_r6_pieces_a_camp_needs_a_rabbit(squares: int, placed: bool) -> None:
    state = table(squares, rabbit_limit="pieces")
    state.phase, state.pending, state.picks = "building", [], {}
    state.supply["ann"]["camp1"] = 1
    found = state.play(Build(round=1, player="ann", card="camp1", at=[CLAIM]))
    assert [v.rule for v in found] == ([] if placed else ["S5"])
    assert (state.position.building.get(CLAIM) == "camp1") is placed
    if not placed:
        assert found[0].message.endswith("(R6 pieces); the camp1 is not placed")
        assert state.supply["ann"]["camp1"] == 1  # the build is skipped: the camp stays in supply


@pytest.mark.parametrize("rulings", [{}, {"rabbit_limit": "none"}])
def test_r6_none_a_camp_needs_no_rabbit(rulings: dict[str, str]) -> None:
    state = table(99, 500, **rulings)
    state.phase, state.pending, state.picks = "building", [], {}
    state.supply["ann"]["camp1"] = 1
    assert state.play(Build(round=1, player="ann", card="camp1", at=[CLAIM])) == []
    assert state.position.building[CLAIM] == "camp1" and state.position.owner[CLAIM] == "ann"
