"""What a program may ask of a state: the decision due, and each player's cards, squares and carrots."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from bkref.game.catalog import BOARD, SQUARES
from bkref.game.engine import Due, State
from bkref.game.events import Build, Pick
from bkref.game.moves import builds_at_construction
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


def test_a_reserve_size_is_the_length_of_the_reserve(tmp_path: Path) -> None:
    """``reserve_size`` counts what ``reserve_of`` lists, at every event of a 2-player game."""
    sizes = []
    for lines in range(1, len(TWO) + 1):
        state = after(tmp_path, TWO, lines)
        for p in ("ann", "bob", "zed"):
            assert state.reserve_size(p) == len(state.reserve_of(p)), (lines, p)
        sizes.append(state.reserve_size("ann"))
    assert sizes[:4] == [0, 10, 9, 9]  # before the deal, dealt, ann picked, turn 2
    assert max(sizes) == 10 and sizes[-1] == 0
    assert after(tmp_path, THREE, 2).reserve_size("ann") == 0  # no reserve with 3 players


def test_the_harvests_done(tmp_path: Path) -> None:
    assert [after(tmp_path, THREE, lines).harvests_done for lines in (1, 25, 26, 118)] == [0, 0, 1, 4]


def test_reserves_the_last_harvest_and_the_owner_of_a_square(tmp_path: Path) -> None:
    dealt, harvested = after(tmp_path, TWO, 2), after(tmp_path, THREE, 26)
    assert [after(tmp_path, TWO, 1).has_reserves, dealt.has_reserves, after(tmp_path, THREE, 2).has_reserves] == [
        False,
        True,
        False,
    ]
    assert all(harvested.last_harvest(p) is harvested.harvests[-1][p] for p in PLAYERS)
    owned = {sq: p for p in PLAYERS for sq in harvested.squares_of(p)}
    assert owned and all(harvested.owner_of(sq) == owned.get(sq) for sq in SQUARES)


RAW_FIELDS = {"harvests", "reserves", "hands", "supply", "parchments"}
"""The fields of a state whose facts its queries give (``harvests_done``, ``reserve_size``, …)."""


def test_views_and_reports_ask_the_state_its_queries_not_its_fields() -> None:
    """In ``bkref/views`` and ``bkref/io/breakdown.py``, no ``state.harvests`` or
    ``state.position.owner`` (a state named ``state``, ``before``, ``after`` or ``….state``):
    each fact is the table's query's, written once (issue 24.3)."""
    import ast

    root = Path(__file__).resolve().parent.parent / "bkref"
    found = []
    for path in [*sorted((root / "views").glob("*.py")), root / "io" / "breakdown.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute):
                continue
            value = node.value
            of_state = (isinstance(value, ast.Name) and value.id in ("state", "before", "after")) or (
                isinstance(value, ast.Attribute) and value.attr == "state"
            )
            raw = node.attr in RAW_FIELDS or (node.attr == "owner" and isinstance(value, ast.Attribute))
            if raw and (of_state or (node.attr == "owner" and value.attr == "position")):
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert found == []


def test_what_each_copy_card_copies_from() -> None:
    """Liberal copies a parchment of the player on the right, Socialist of the one on the left (E7)."""
    state = State()
    state.seat(PLAYERS)
    assert [state.copies_from(p, "liberal") for p in PLAYERS] == [state.right_of(p) for p in PLAYERS]
    assert [state.copies_from(p, "socialist") for p in PLAYERS] == [state.left_of(p) for p in PLAYERS]
    assert [state.copies_from("ann", card) for card in ("liberal", "socialist")] == ["cid", "bob"]


def test_the_builds_a_card_would_allow_leave_the_state_as_it_is(tmp_path: Path) -> None:
    """``builds_at_construction``: the builds of a card not yet kept, as if the construction
    began now, each with the state after it; the state asked stays in its exploration."""
    state = after(tmp_path, THREE, 6)  # round 1, turn 2: bob holds H5, cid A7
    before = copy.deepcopy(state.fields())
    found = builds_at_construction(state, "bob", "city1")
    assert [build.at for build, _ in found] == [["H5"]]
    ((build, built),) = found
    assert build == Build(round=1, player="bob", card="city1", at=["H5"])
    assert built.position.building == {"H5": "city1"} and built.supply_of("bob") == state.supply_of("bob")
    assert state.fields() == before and state.phase == "exploring"
    camps = builds_at_construction(state, "ann", "camp1")  # a camp: any empty square nobody holds
    empty = [sq for sq in SQUARES if not BOARD[sq].printed_city and sq not in ("H5", "A7")]
    assert [b.at for b, _ in camps] == [[sq] for sq in empty]
    assert all(after.position.owner[b.at[0]] == "ann" for b, after in camps)
