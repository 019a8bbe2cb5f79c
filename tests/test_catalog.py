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
    assert all(
        (CARDS[sq].kind, CARDS[sq].copies, CARDS[sq].effect) == ("territory", 1, "claims its square") for sq in BOARD
    )


def _damaged(monkeypatch, name: str, change) -> None:
    real = catalog._rows

    def rows(file: str):
        got = real(file)
        return change(got) if file == name else got

    monkeypatch.setattr(catalog, "_rows", rows)


GAME_HAS = ", the game has {'territory': 100, 'building': 42, 'provisions': 3, 'parchment': 37}"


def _edit(rows: list[dict[str, str]], key: str, value: str, **fields: str) -> list[dict[str, str]]:
    """``rows`` with ``fields`` changed in the row whose ``key`` column is ``value``."""
    return [dict(r, **fields) if r[key] == value else r for r in rows]


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("board.csv", lambda rows: rows[:-1], "board.csv: 99 squares, the board has 100"),
        ("board.csv", lambda rows: [*rows, rows[0]], "board.csv: unknown or repeated square 'A1'"),
        (
            "board.csv",
            lambda rows: _edit(rows, "square", "J10", square="K1"),
            "board.csv: unknown or repeated square 'K1'",
        ),
        (
            "board.csv",
            lambda rows: _edit(rows, "square", "A4", printed_city="0"),
            "board.csv: 17 printed cities, the board has 18",
        ),
        (
            "board.csv",
            lambda rows: _edit(rows, "square", "A1", printed_city="1"),
            "board.csv: 19 printed cities, the board has 18",
        ),
        (
            "board.csv",
            lambda rows: _edit(rows, "square", "A1", terrain="swamp"),
            "board.csv: A1 has unknown terrain 'swamp'",
        ),
        (
            "board.csv",
            lambda rows: _edit(rows, "square", "A1", resource="gold"),
            "board.csv: A1 has unknown resource 'gold'",
        ),
        (
            "cards.csv",
            lambda rows: _edit(rows, "id", "city1", copies="8"),
            "cards.csv: card counts {'territory': 100, 'building': 41, 'provisions': 3, 'parchment': 37}" + GAME_HAS,
        ),
        (
            "cards.csv",
            lambda rows: _edit(rows, "id", "provisions", copies="4"),
            "cards.csv: card counts {'territory': 100, 'building': 42, 'provisions': 4, 'parchment': 37}" + GAME_HAS,
        ),
        (
            "cards.csv",
            lambda rows: _edit(rows, "id", "fisher", copies="2"),
            "cards.csv: card counts {'territory': 100, 'building': 42, 'provisions': 3, 'parchment': 38}" + GAME_HAS,
        ),
        ("cards.csv", lambda rows: [*rows, rows[0]], "cards.csv: unknown kind or repeated id 'city1'"),
        ("cards.csv", lambda rows: [*rows, dict(rows[0], id="A1")], "cards.csv: unknown kind or repeated id 'A1'"),
        (
            "cards.csv",
            lambda rows: _edit(rows, "id", "city1", kind="castle"),
            "cards.csv: unknown kind or repeated id 'city1'",
        ),
        (
            "cards.csv",
            lambda rows: _edit(rows, "id", "farm_wood", effect="produces silk"),
            "cards.csv: farm_wood produces an unknown resource",
        ),
        (
            "cards.csv",
            lambda rows: _edit(rows, "id", "city3", requires_terrain="swamp"),
            "cards.csv: city3 requires unknown terrain 'swamp'",
        ),
    ],
)
def test_damaged_data_fails_loudly(monkeypatch, name, change, message) -> None:
    _damaged(monkeypatch, name, change)
    with pytest.raises(CatalogError) as raised:
        catalog._load_board() if name == "board.csv" else catalog._load_cards()
    assert str(raised.value) == message


def test_the_data_loads_as_printed() -> None:
    """Loading the packaged files again gives the same facts (each value parsed from its column)."""
    assert catalog._load_board() == BOARD
    assert catalog._load_cards() == CARDS
    assert catalog._load_lava() == LAVA
    assert (BOARD["J10"].row, BOARD["J10"].column, BOARD["A1"].resource, BOARD["A4"].resource) == (9, 10, "wood", None)
    assert [sq for sq in ("A1", "A5", "B1", "B2", "J5", "E10", "E5") if BOARD[sq].on_edge] == [
        "A1",
        "A5",
        "B1",
        "J5",
        "E10",
    ]
    assert CARDS["camp4"].is_building and CARDS["sky_tower"].is_building and not CARDS["provisions"].is_building
    assert CARDS["fisher"].is_parchment and CARDS["royal_ring"].is_parchment and not CARDS["A1"].is_parchment
    assert (CARDS["A1"].kind, CARDS["A1"].copies, CARDS["royal_ring"].value, CARDS["city1"].requires_terrain) == (
        "territory",
        1,
        1,
        None,
    )


def test_lava_edge_between_non_neighbours_fails(monkeypatch) -> None:
    _damaged(monkeypatch, "lava.csv", lambda rows: [*rows, {"square_a": "A1", "square_b": "C1"}])
    with pytest.raises(CatalogError) as raised:
        catalog._load_lava()
    assert str(raised.value) == "lava.csv: A1-C1 is not an edge between two squares"


@pytest.mark.parametrize(("a", "b"), [("A1", "K1"), ("K1", "A1"), ("A1", "A1"), ("A1", "B2")])
def test_lava_edge_off_the_board_or_not_orthogonal_fails(monkeypatch, a: str, b: str) -> None:
    _damaged(monkeypatch, "lava.csv", lambda rows: [*rows, {"square_a": a, "square_b": b}])
    with pytest.raises(CatalogError) as raised:
        catalog._load_lava()
    assert str(raised.value) == f"lava.csv: {a}-{b} is not an edge between two squares"
