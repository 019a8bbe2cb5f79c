"""Fiefs (H2-H4) from a board position: city strength, production, connection by sky towers."""

from __future__ import annotations

import pytest

from bkref.game.fiefs import city_strength, connected, fiefs, produces
from bkref.game.position import Position


def test_city_strength_counts_printed_cities_as_one() -> None:
    p = Position(building={"A1": "city3", "A2": "city2", "A3": "farm_mushroom"})
    assert [city_strength(p, sq) for sq in ("A4", "A1", "A2", "A3", "A5")] == [1, 3, 2, 0, 0]


def test_a_square_produces_its_terrain_then_its_farm_or_declared_post() -> None:
    p = Position(building={"A1": "farm_mushroom", "A2": "trading_post", "A3": "trading_post", "A5": "city1"})
    p.declared = {"A2": "fish"}
    assert [produces(p, sq) for sq in ("A1", "A2", "A3", "A4", "A5")] == [
        ["wood", "mushroom"],
        ["wood", "fish"],
        ["wood"],  # an undeclared post produces nothing of its own (H1)
        [],  # a printed city produces nothing
        ["fish"],
    ]


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
    p.owner["A2"] = "ann"
    assert connected(p, "ann", "A1", "A3")


def test_a_tower_joins_fiefs_into_one_in_board_order() -> None:
    p = Position(owner=dict.fromkeys(("J9", "A1", "E5", "E6"), "ann"), building={"A1": "city1"})
    assert [f.squares for f in fiefs(p, "ann")] == [("A1",), ("E5", "E6"), ("J9",)]
    p.towers.append(("J9", "A1"))
    assert [(f.squares, f.strength, f.resources, f.carrots) for f in fiefs(p, "ann")] == [
        (("A1", "J9"), 1, ("wood", "fish"), 2),
        (("E5", "E6"), 1, (), 0),
    ]
