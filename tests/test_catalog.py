"""The packaged board and card facts (S2-S4), and that damaged data fails loudly."""

from __future__ import annotations

import pytest

from bkref.game import catalog
from bkref.game.catalog import ADJACENT, BOARD, CARDS, DECK_SIZE, LAVA, CatalogError


def test_board_has_100_squares_and_18_printed_cities() -> None:
    assert len(BOARD) == 100
    assert sorted(sq for sq, s in BOARD.items() if s.printed_city) == sorted(
        ["A4", "B3", "B7", "B9", "C1", "D3", "D9", "E6", "E10", "F8", "G2", "G5", "G9", "H3", "H7", "I1", "I9", "J3"]
    )
    assert {s.terrain for s in BOARD.values()} == {"forest", "sea", "field", "plains", "mountain", "city"}


def test_adjacency_is_symmetric_orthogonal_and_cut_by_lava() -> None:
    assert all(a in ADJACENT[b] for a in ADJACENT for b in ADJACENT[a])
    assert sorted(ADJACENT["A1"]) == ["A2", "B1"]
    assert sorted(ADJACENT["E5"]) == ["D5", "E4", "E6", "F5"]
    assert len(LAVA) == 8
    for edge in LAVA:
        a, b = sorted(edge)
        assert b not in ADJACENT[a]
    assert "D6" not in ADJACENT["D5"]


def test_cards_total_182_with_their_copies() -> None:
    assert DECK_SIZE == 182
    copies = {c: CARDS[c].copies for c in ("city1", "city2", "city3", "sky_tower", "provisions", "trading_post")}
    assert copies == {"city1": 9, "city2": 9, "city3": 3, "sky_tower": 3, "provisions": 3, "trading_post": 2}
    assert sum(c.copies for c in CARDS.values() if c.is_parchment) == 37
    assert (CARDS["camp4"].priority, CARDS["city2"].strength, CARDS["royal_carrot"].value) == (4, 2, 6)
    assert (CARDS["farm_pearl"].produces, CARDS["farm_pearl"].requires_terrain) == ("pearl", "sea")
    assert CARDS["trading_post"].produces is None


def _damaged(monkeypatch, name: str, change) -> None:
    real = catalog._rows

    def rows(file: str):
        got = real(file)
        return change(got) if file == name else got

    monkeypatch.setattr(catalog, "_rows", rows)


@pytest.mark.parametrize(
    ("name", "change", "words"),
    [
        ("board.csv", lambda rows: rows[:-1], "99 squares"),
        (
            "board.csv",
            lambda rows: [dict(r, printed_city="0") if r["square"] == "A4" else r for r in rows],
            "17 printed cities",
        ),
        (
            "board.csv",
            lambda rows: [dict(r, terrain="swamp") if r["square"] == "A1" else r for r in rows],
            "unknown terrain",
        ),
        ("cards.csv", lambda rows: [dict(r, copies="8") if r["id"] == "city1" else r for r in rows], "card counts"),
        ("cards.csv", lambda rows: rows + rows[:1], "repeated id"),
    ],
)
def test_damaged_data_fails_loudly(monkeypatch, name, change, words) -> None:
    _damaged(monkeypatch, name, change)
    with pytest.raises(CatalogError, match=words):
        catalog._load_board() if name == "board.csv" else catalog._load_cards()


def test_lava_edge_between_non_neighbours_fails(monkeypatch) -> None:
    _damaged(monkeypatch, "lava.csv", lambda rows: [*rows, {"square_a": "A1", "square_b": "C1"}])
    with pytest.raises(CatalogError, match="A1-C1"):
        catalog._load_lava()
