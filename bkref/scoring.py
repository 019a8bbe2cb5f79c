"""End-of-game scoring: every parchment (E1-E9) under the rulings R1-R5.

Scoring reads a finished ``State``: its final ``Position`` (with the 4th harvest's
trading post declarations, E2), each player's parchments and copy choices, the
harvests. Every row says the figures it counted, so a breakdown can be checked by hand.

Treasure Hunter's doubling is shown in the treasure rows it doubles ("royal_crown: 5
x2"), and the Treasure Hunter row itself scores 0, as the printed scoresheet does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import msgspec

from bkref.catalog import BOARD, CARDS, COPY_CARDS, CORNERS, LUXURY_RESOURCES
from bkref.fiefs import Fief, city_strength, fiefs, produces
from bkref.position import Position

if TYPE_CHECKING:
    from bkref.engine import State
    from bkref.events import Rulings

CYCLE: Final = object()
"""``resolve_copy``'s answer for a copy chain that comes back to itself (R3 follow)."""


class ParchmentRow(msgspec.Struct, omit_defaults=True):
    """One parchment of one player: what it counted and what it scores."""

    card: str
    points: int
    counted: str
    copied: str | None = None


class PlayerScore(msgspec.Struct):
    harvests: list[int]
    harvest: int
    parchments: list[ParchmentRow]
    parchment_total: int
    total: int


class FinalScore(msgspec.Struct):
    players: dict[str, PlayerScore]
    ranking: list[str]
    winners: list[str]
    rulings: dict[str, str]


@dataclass
class Holdings:
    """What one player has at the end, as the missions count it (E2-E4)."""

    player: str
    position: Position
    fiefs: list[Fief]
    squares: list[str]
    cities: int
    production: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, position: Position, player: str) -> Holdings:
        squares = position.controlled(player)
        production: Counter[str] = Counter()
        for sq in squares:
            production.update(produces(position, sq))
        cities = sum(1 for sq in squares if city_strength(position, sq))
        return cls(player, position, fiefs(position, player), squares, cities, production)


def resolve_copy(players: tuple[str, ...], copies: dict[str, dict[str, str | None]], player: str,
                 card: str) -> str | None | object:
    """What ``player``'s copy ``card`` finally copies, following copies of copies (R3).

    Returns the parchment id, None when it copies nothing, or ``CYCLE``.
    """
    seen = set()
    n = len(players)
    while card in COPY_CARDS:
        if (player, card) in seen:
            return CYCLE
        seen.add((player, card))
        target = copies.get(player, {}).get(card)
        if target is None:
            return None
        i = players.index(player)
        player = players[(i - 1) % n] if card == "liberal" else players[(i + 1) % n]
        card = target
    return card


# -- the missions ---------------------------------------------------------------------
# Each takes the player's holdings and returns (points, what was counted).

def _per(unit: int, count: int, what: str) -> tuple[int, str]:
    return unit * count, f"{count} {what}"


def _threshold(points: int, count: int, least: int, what: str) -> tuple[int, str]:
    return (points if count >= least else 0), f"{count} {what} (needs {least})"


def _wood(h: Holdings) -> int:
    return h.production["wood"]


def _fish(h: Holdings) -> int:
    return h.production["fish"]


def _carrot(h: Holdings) -> int:
    return h.production["carrot"]


def _luxury(h: Holdings) -> int:
    return sum(h.production[r] for r in LUXURY_RESOURCES)


def _unproductive_cities(h: Holdings) -> int:
    return sum(1 for f in h.fiefs if not f.resources for sq in f.squares if city_strength(h.position, sq))


def _barren(h: Holdings) -> int:
    return sum(1 for sq in h.squares if not city_strength(h.position, sq) and not produces(h.position, sq))


def _little_prince(h: Holdings) -> tuple[int, str]:
    carrots = sorted((f.carrots for f in h.fiefs), reverse=True)
    if not carrots:
        return 0, "no fief"
    return sum(carrots[1:]), f"{len(carrots)} fiefs harvested again without the best ({carrots[0]})"


MISSIONS = {
    "burgomaster": lambda h: _per(1, h.cities, "cities"),
    "diplomat": lambda h: _per(1, sum(BOARD[sq].on_edge for sq in h.squares), "territories on the edge"),
    "explorer": lambda h: _per(3, sum(sq in CORNERS for sq in h.squares), "corners"),
    "carpenter": lambda h: _per(1, _wood(h), "wood produced"),
    "master_carpenter": lambda h: _per(2, _wood(h), "wood produced"),
    "woodland_king": lambda h: _threshold(20, _wood(h), 7, "wood produced"),
    "fisher": lambda h: _per(1, _fish(h), "fish produced"),
    "master_fisher": lambda h: _per(2, _fish(h), "fish produced"),
    "fisher_king": lambda h: _threshold(20, _fish(h), 7, "fish produced"),
    "farmer": lambda h: _per(1, _carrot(h), "carrots produced"),
    "master_farmer": lambda h: _per(2, _carrot(h), "carrots produced"),
    "carrot_king": lambda h: _threshold(15, _carrot(h), 5, "carrots produced"),
    "merchant": lambda h: _per(3, _luxury(h), "luxury resources produced"),
    "master_of_the_mountains": lambda h: _per(
        2, sum(BOARD[sq].terrain == "mountain" for sq in h.squares), "mountains"),
    "carrotistador": lambda h: _per(4, sum(len(f.squares) >= 3 for f in h.fiefs), "fiefs of 3+ squares"),
    "harecingetorix": lambda h: _per(1, len(h.fiefs), "fiefs"),
    "hun_ny_king": lambda h: _threshold(12, len(h.fiefs), 10, "fiefs"),
    "bun_shee": lambda h: _per(2, _unproductive_cities(h), "cities in fiefs producing nothing"),
    "panpan_the_barbarian": lambda h: _per(2, _barren(h), "territories with no city and no production"),
    "king_of_thieves": lambda h: _threshold(12, h.cities, 9, "cities"),
    "little_prince": _little_prince,
}
"""Missions scored from the player's own board alone."""


class _Scorer:
    """Scores every parchment of a finished game; see ``final_score``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.rulings: Rulings = state.rulings
        self.holdings = {p: Holdings.of(state.position, p) for p in state.players}
        # Each parchment a player owns, with the card it finally stands for (E7).
        self.cards: dict[str, list[tuple[str, str | None]]] = {}
        for p in state.players:
            row = []
            for card in state.parchments[p]:
                if card in COPY_CARDS:
                    target = resolve_copy(state.players, state.copies, p, card)
                    row.append((card, None if target is CYCLE else target))  # type: ignore[arg-type]
                else:
                    row.append((card, card))
            self.cards[p] = row

    def effective(self, player: str) -> list[str]:
        return [card for _, card in self.cards[player] if card is not None]

    def treasures(self, player: str) -> list[str]:
        return [c for c in self.effective(player) if CARDS[c].kind == "treasure"]

    def treasure(self, player: str, card: str) -> tuple[int, str]:
        owned = self.treasures(player)
        if card in ("left_glove", "right_glove") and {"left_glove", "right_glove"} <= set(owned):
            base, why = 4, "both gloves (E5)"
        else:
            base, why = CARDS[card].value, ""
        hunters = self.effective(player).count("treasure_hunter")
        if hunters and self.rulings.treasure_hunter_stacking == "once":
            hunters = 1
        factor = 2**hunters
        counted = f"{base}" + (f" x{factor} (treasure_hunter)" if hunters else "") + (f", {why}" if why else "")
        return base * factor, counted

    def matriarch(self, player: str) -> tuple[int, str]:
        counts = {p: len(h.squares) for p, h in self.holdings.items()}
        best = max(counts.values())
        tied = sorted(p for p, c in counts.items() if c == best)
        mine = counts[player]
        if mine < best:
            return 0, f"{mine} territories, most is {best}"
        if len(tied) == 1:
            return 12, f"most territories ({mine})"
        others = ", ".join(p for p in tied if p != player)
        if self.rulings.matriarch_tie == "shared":
            return 12, f"tied for most territories ({mine}) with {others} (R1 shared)"
        return 0, f"tied for most territories ({mine}) with {others} (R1 none)"

    def score(self, player: str, card: str) -> tuple[int, str]:
        """Points and figures of one parchment ``card`` scored for ``player`` (not opportunist)."""
        kind = CARDS[card].kind
        if kind == "treasure":
            return self.treasure(player, card)
        if card in MISSIONS:
            return MISSIONS[card](self.holdings[player])  # type: ignore[no-any-return]
        if card == "bureaucrat":
            return _per(1, len(self.state.parchments[player]), "parchments owned")
        if card == "colonist":
            if self.rulings.colonist_counts == "played":
                return _per(3, self.state.camps_played[player], "camp cards played (R5 played)")
            return _per(3, self.state.camps_placed[player], "camps placed (R5 placed)")
        if card == "matriarch":
            return self.matriarch(player)
        if card == "treasure_guardian":
            return _per(3, len(self.treasures(player)), "treasures")
        if card == "treasure_hunter":
            return 0, f"doubles {len(self.treasures(player))} treasures (in their rows)"
        raise AssertionError(f"no scoring for {card}")  # opportunist and copies are handled by rows()

    def rows(self, player: str) -> list[ParchmentRow]:
        out = []
        for card, target in self.cards[player]:
            copied = target if card in COPY_CARDS else None
            if target is None:
                out.append(ParchmentRow(card, 0, "copies nothing", None))
            elif target == "opportunist":
                out.append(ParchmentRow(card, 0, "", copied))  # filled in by opportunist()
            else:
                points, counted = self.score(player, target)
                out.append(ParchmentRow(card, points, counted, copied))
        return out

    def opportunist(self, rows: dict[str, list[ParchmentRow]], harvest: dict[str, int]) -> None:
        """Score every Opportunist once all else is scored (R2)."""
        before = {p: harvest[p] + sum(r.points for r in rows[p]) for p in self.state.players}
        second = sorted(p for p in before if sum(1 for q in before if before[q] > before[p]) == 1)
        award = len(second) == 1 or (second and self.rulings.opportunist_tie == "shared")
        standings = ", ".join(f"{p} {before[p]}" for p in self.state.players)
        for p in self.state.players:
            for row in rows[p]:
                if "opportunist" not in (row.card, row.copied):
                    continue
                if p in second:
                    tie = f" (tied with {', '.join(q for q in second if q != p)}; R2 " \
                          f"{self.rulings.opportunist_tie})" if len(second) > 1 else ""
                    row.points = 10 if award else 0
                    row.counted = f"second before opportunist{tie}: {standings}"
                else:
                    row.points = 0
                    row.counted = f"not second before opportunist: {standings}"


def final_score(state: State) -> FinalScore:
    """Score a finished game: harvests, every parchment, totals, ranking and winners (E1-E9)."""
    scorer = _Scorer(state)
    rows = {p: scorer.rows(p) for p in state.players}
    harvests = {p: [sum(f.carrots for f in h[p]) for h in state.harvests] for p in state.players}
    harvest = {p: sum(v) for p, v in harvests.items()}
    scorer.opportunist(rows, harvest)
    players = {}
    for p in state.players:
        parchment_total = sum(r.points for r in rows[p])
        players[p] = PlayerScore(harvests[p], harvest[p], rows[p], parchment_total, harvest[p] + parchment_total)
    ranking = sorted(state.players, key=lambda p: (-players[p].total, state.players.index(p)))
    best = players[ranking[0]].total
    winners = [p for p in ranking if players[p].total == best]
    return FinalScore(players, ranking, winners, msgspec.structs.asdict(state.rulings))
