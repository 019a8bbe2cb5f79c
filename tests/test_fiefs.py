"""Fiefs (H2-H4) from a board position: city strength, production, connection by sky towers."""

from __future__ import annotations

import random

import pytest

from bkref.bots.lookahead import Lookahead
from bkref.game.catalog import BOARD_ORDER, SQUARES
from bkref.game.fiefs import (
    RESOURCES,
    BitBoard,
    connected,
    fief_squares,
    fiefs_of,
    harvest,
    harvest_carrots,
    mask,
    names,
)
from bkref.game.position import Position


def test_city_strength_counts_printed_cities_as_one() -> None:
    p = Position(building={"A1": "city3", "A2": "city2", "A3": "farm_mushroom"})
    board = BitBoard.of(p, ())
    squares = ("A4", "A1", "A2", "A3", "A5")
    assert [board.strength[BOARD_ORDER[sq]] for sq in squares] == [1, 3, 2, 0, 0]
    assert names(board.cities & mask(squares)) == ("A1", "A2", "A4")


def test_a_square_produces_its_terrain_then_its_farm_or_declared_post() -> None:
    p = Position(building={"A1": "farm_mushroom", "A2": "trading_post", "A3": "trading_post", "A5": "city1"})
    p.declared = {"A2": "fish"}
    board = BitBoard.of(p, ())
    assert [names(board.resources[BOARD_ORDER[sq]], RESOURCES) for sq in ("A1", "A2", "A3", "A4", "A5")] == [
        ("wood", "mushroom"),
        ("wood", "fish"),
        ("wood",),  # an undeclared post produces nothing of its own (H1)
        (),  # a printed city produces nothing
        ("fish",),
    ]
    assert [names(made) for made in board.made if made] == [("A2",), ("A1",)]  # fish, then mushroom


def test_names_reads_every_bit_set_lowest_first() -> None:
    """``names`` reads a bitmask a byte at a time; here, bit by bit, on masks of every size."""
    rng = random.Random(29)
    masks = [0, 1, 1 << 99, (1 << 100) - 1, *(rng.getrandbits(rng.randrange(1, 101)) for _ in range(500))]
    for bits in masks:
        assert names(bits) == tuple(sq for i, sq in enumerate(SQUARES) if bits >> i & 1)
        low = bits & ((1 << len(RESOURCES)) - 1)
        assert names(low, RESOURCES) == tuple(r for i, r in enumerate(RESOURCES) if low >> i & 1)
    assert names(0b101, ("x", "y", "z")) == ("x", "z")  # any names, not only these two


@pytest.mark.parametrize(("a", "b"), [("A2", "J10"), ("J10", "A2"), ("A1", "J9"), ("J9", "A1")])
def test_a_sky_tower_connects_both_ways(a: str, b: str) -> None:
    p = Position(owner=dict.fromkeys(("A1", "A2", "J9", "J10"), "ann"))
    assert connected(p, "ann", a, b) is False
    p.towers.append(("A1", "J9"))
    assert connected(p, "ann", a, b) is True
    assert connected(p, "bob", a, b) is False


def test_connection_goes_only_through_the_players_own_squares() -> None:
    p = Position(owner={"A1": "ann", "A2": "bob", "A3": "ann"})
    assert not connected(p, "ann", "A1", "A3")
    assert not connected(p, "ann", "A1", "A2") and not connected(p, "ann", "A2", "A3")  # A2 is bob's
    assert connected(p, "ann", "A1", "A1") and not connected(p, "cid", "A1", "A1")  # a square is in its own fief
    p.claim("A2", "ann")
    assert connected(p, "ann", "A1", "A3")


def test_a_tower_joins_fiefs_into_one_in_board_order() -> None:
    p = Position(owner=dict.fromkeys(("J9", "A1", "E5", "E6"), "ann"), building={"A1": "city1"})
    assert [f.squares for f in fiefs_of(p, "ann")] == [("A1",), ("E5", "E6"), ("J9",)]
    assert fief_squares(p, "ann") == [("A1",), ("E5", "E6"), ("J9",)] and fief_squares(p, "bob") == []
    p.towers.append(("J9", "A1"))
    assert fief_squares(p, "ann") == [("A1", "J9"), ("E5", "E6")]
    assert [(f.squares, f.strength, f.resources, f.carrots) for f in fiefs_of(p, "ann")] == [
        (("A1", "J9"), 1, ("wood", "fish"), 2),
        (("E5", "E6"), 1, (), 0),
    ]


def test_a_position_lists_a_players_squares_and_what_is_occupied() -> None:
    p = Position(owner={"A1": "ann", "A2": "bob", "B1": "ann"}, building={"A1": "camp1"})
    assert (p.controlled("ann"), p.controlled("bob"), p.controlled("cid")) == (["A1", "B1"], ["A2"], [])
    assert [p.occupied(sq) for sq in ("A1", "A2", "A4")] == [True, False, True]  # A4: a printed city
    kept = p.copy()
    p.claim("C1", "ann")
    p.building["B1"], p.declared["A2"] = "city1", "fish"
    p.towers.append(("A1", "B1"))
    assert (kept.owner, kept.building, kept.towers, kept.declared) == (
        {"A1": "ann", "A2": "bob", "B1": "ann"},
        {"A1": "camp1"},
        [],
        {},
    )


def test_a_harvest_is_a_mapping_of_each_players_fiefs() -> None:
    p = Position(owner={"A1": "ann", "A2": "ann", "J9": "bob"}, building={"A1": "city2"})
    harvested = harvest(p, ("ann", "bob", "cid"))
    assert (list(harvested), len(harvested)) == (["ann", "bob", "cid"], 3)
    assert dict(harvested) == {"ann": fiefs_of(p, "ann"), "bob": fiefs_of(p, "bob"), "cid": []}
    assert [harvest_carrots(harvested, q) for q in ("ann", "bob", "cid", "zed")] == [2, 0, 0, 0]
    plain = dict(harvested)  # a harvest kept as a plain mapping counts the same
    assert [harvest_carrots(plain, q) for q in ("ann", "bob", "cid", "zed")] == [2, 0, 0, 0]


def test_lookahead_remakes_the_fief_each_kind_of_building_changes() -> None:
    # ann: A2 and A3 (forests, one fief) and C2 (a mountain) apart; greedy weighs its builds so
    position = Position()
    for sq in ("A2", "A3", "C2"):
        position.claim(sq, "ann")
    ahead = Lookahead(position, "ann")

    def shown(
        card: str, at: list[str], declared: str | None = None
    ) -> list[tuple[tuple[str, ...], int, tuple[str, ...]]]:
        _, after = ahead.built(card, at, declared)
        return [(names(squares), strength, names(made, RESOURCES)) for squares, strength, made in after]

    assert shown("sky_tower", ["A3", "C2"]) == [(("A2", "A3", "C2"), 0, ("wood",))]  # two fiefs become one (C5)
    assert shown("city3", ["C2"]) == [(("C2",), 3, ())]
    assert shown("farm_fish", ["A2"]) == [(("A2", "A3"), 0, ("wood", "fish"))]
    assert shown("trading_post", ["C2"], "carrot") == [(("C2",), 0, ("carrot",))]  # what it is declared for (H1)
