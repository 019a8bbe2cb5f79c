"""The printed facts of Bunny Kingdom: the board (S2, S3) and the card catalogue (S4).

The facts ship inside the package (``bkref/data/``) and are checked when loaded, so
a damaged data file stops the program loudly instead of refereeing with a wrong board.

>>> BOARD["A4"].printed_city, BOARD["A3"].terrain, BOARD["A3"].resource
(True, 'forest', 'wood')
>>> sorted(ADJACENT["B1"])  # lava lies between B1 and B2
['A1', 'C1']
>>> CARDS["city3"].copies, CARDS["city3"].requires_terrain
(3, 'mountain')
"""

from __future__ import annotations

import csv
import io
import sys
from dataclasses import dataclass
from typing import Final

from bkref import data

ROWS: Final = "ABCDEFGHIJ"
COLUMNS: Final = range(1, 11)
SQUARES: Final[tuple[str, ...]] = tuple(sys.intern(f"{r}{c}") for r in ROWS for c in COLUMNS)
BOARD_ORDER: Final = {name: i for i, name in enumerate(SQUARES)}
"""Each square's place in reading order, A1 first: squares are listed in this order."""
CORNERS: Final = frozenset({"A1", "A10", "J1", "J10"})

BASIC_RESOURCES: Final = ("wood", "fish", "carrot")
LUXURY_RESOURCES: Final = ("mushroom", "pearl", "carrot_powder", "diamond", "gold", "copper", "steel")
TERRAINS: Final = ("forest", "sea", "field", "plains", "mountain", "city")
CARD_KINDS: Final = ("territory", "city", "farm", "camp", "sky_tower", "provisions", "treasure", "mission")
BUILDING_KINDS: Final = frozenset({"city", "farm", "camp", "sky_tower"})
PARCHMENT_KINDS: Final = frozenset({"treasure", "mission"})
COPY_CARDS: Final = frozenset({"liberal", "socialist"})


class CatalogError(Exception):
    """The packaged board or card data is damaged."""


@dataclass(frozen=True, slots=True)
class Square:
    """One printed square: ``terrain``, its basic ``resource`` (or None), a printed city."""

    name: str
    row: int
    column: int
    terrain: str
    resource: str | None
    printed_city: bool

    @property
    def on_edge(self) -> bool:
        return self.row in (0, 9) or self.column in (1, 10)


@dataclass(frozen=True, slots=True)
class Card:
    """One card id of ``cards.csv`` (territory cards are the squares themselves)."""

    id: str
    kind: str
    copies: int
    effect: str
    requires_terrain: str | None = None
    strength: int = 0  # cities
    produces: str | None = None  # farms; None for a trading post (declared each harvest)
    priority: int = 0  # camps
    value: int = 0  # treasures

    @property
    def is_building(self) -> bool:
        return self.kind in BUILDING_KINDS

    @property
    def is_parchment(self) -> bool:
        return self.kind in PARCHMENT_KINDS


def _rows(name: str) -> list[dict[str, str]]:
    """The rows of a data file, every value interned: the ids, kinds and terrains the engine
    compares with the names in its code are then the same objects, which compare at once."""
    text = data.text(name)
    return [{key: sys.intern(value) for key, value in row.items()} for row in csv.DictReader(io.StringIO(text))]


def _load_board() -> dict[str, Square]:
    board: dict[str, Square] = {}
    for row in _rows("board.csv"):
        name = row["square"]
        if name not in SQUARES or name in board:
            raise CatalogError(f"board.csv: unknown or repeated square {name!r}")
        if row["terrain"] not in TERRAINS:
            raise CatalogError(f"board.csv: {name} has unknown terrain {row['terrain']!r}")
        resource = row["resource"] or None
        if resource is not None and resource not in BASIC_RESOURCES:
            raise CatalogError(f"board.csv: {name} has unknown resource {resource!r}")
        board[name] = Square(
            name=name,
            row=ROWS.index(name[0]),
            column=int(name[1:]),
            terrain=row["terrain"],
            resource=resource,
            printed_city=row["printed_city"] == "1",
        )
    if len(board) != 100:
        raise CatalogError(f"board.csv: {len(board)} squares, the board has 100")
    cities = sum(s.printed_city for s in board.values())
    if cities != 18:
        raise CatalogError(f"board.csv: {cities} printed cities, the board has 18")
    return {name: board[name] for name in SQUARES}


def _orthogonal(a: str, b: str) -> bool:
    sa, sb = BOARD[a], BOARD[b]
    return abs(sa.row - sb.row) + abs(sa.column - sb.column) == 1


def _load_lava() -> frozenset[frozenset[str]]:
    edges = set()
    for row in _rows("lava.csv"):
        a, b = row["square_a"], row["square_b"]
        if a not in BOARD or b not in BOARD or not _orthogonal(a, b):
            raise CatalogError(f"lava.csv: {a}-{b} is not an edge between two squares")
        edges.add(frozenset((a, b)))
    return frozenset(edges)


def _adjacency() -> dict[str, tuple[str, ...]]:
    adjacency = {}
    for name, square in BOARD.items():
        around = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            r, c = square.row + dr, square.column + dc
            if 0 <= r < 10 and 1 <= c <= 10:
                other = f"{ROWS[r]}{c}"
                if frozenset((name, other)) not in LAVA:
                    around.append(other)
        adjacency[name] = tuple(around)
    return adjacency


def _card(row: dict[str, str]) -> Card:
    kind, effect = row["kind"], row["effect"]
    card_id = row["id"]
    extra: dict[str, object] = {}
    if kind == "city":
        extra["strength"] = int(effect.split()[1])
    elif kind == "farm" and card_id != "trading_post":
        extra["produces"] = sys.intern(effect.split()[1])
        if extra["produces"] not in BASIC_RESOURCES + LUXURY_RESOURCES:
            raise CatalogError(f"cards.csv: {card_id} produces an unknown resource")
    elif kind == "camp":
        extra["priority"] = int(effect.split()[1])
    elif kind == "treasure":
        extra["value"] = int(effect.split()[0])
    terrain = row["requires_terrain"] or None
    if terrain is not None and terrain not in TERRAINS:
        raise CatalogError(f"cards.csv: {card_id} requires unknown terrain {terrain!r}")
    return Card(card_id, kind, int(row["copies"]), effect, terrain, **extra)  # type: ignore[arg-type]


def _load_cards() -> dict[str, Card]:
    cards = {name: Card(name, "territory", 1, "claims its square") for name in SQUARES}
    for row in _rows("cards.csv"):
        if row["kind"] not in CARD_KINDS or row["id"] in cards:
            raise CatalogError(f"cards.csv: unknown kind or repeated id {row['id']!r}")
        cards[row["id"]] = _card(row)
    counts = {kind: sum(c.copies for c in cards.values() if c.kind == kind) for kind in CARD_KINDS}
    expected = {"territory": 100, "building": 42, "provisions": 3, "parchment": 37}
    found = {
        "territory": counts["territory"],
        "building": sum(counts[k] for k in BUILDING_KINDS),
        "provisions": counts["provisions"],
        "parchment": sum(counts[k] for k in PARCHMENT_KINDS),
    }
    if found != expected:
        raise CatalogError(f"cards.csv: card counts {found}, the game has {expected}")
    return cards


BOARD: Final = _load_board()
LAVA: Final = _load_lava()
ADJACENT: Final = _adjacency()
"""Each square's neighbours (S3): sharing a side, with no lava between."""
CARDS: Final = _load_cards()
CITY_STRENGTH: Final = {card.id: card.strength for card in CARDS.values() if card.kind == "city"}
"""The strength of each city card (H3)."""
SKY_TOWERS: Final = frozenset(card.id for card in CARDS.values() if card.kind == "sky_tower")
"""The sky towers: the buildings placed on two squares (C5)."""
DECK_SIZE: Final = sum(card.copies for card in CARDS.values())
