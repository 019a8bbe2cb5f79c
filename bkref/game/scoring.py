"""End-of-game scoring: every parchment (E1-E9) under the rulings R1-R5.

Scoring reads a finished game's ``Table``: its final ``Position`` (with the 4th harvest's
trading post declarations, E2), each player's parchments and copy choices, the
harvests. Every row says the figures it counted, so a breakdown can be checked by hand,
and names the rulings that settled it.

Treasure Hunter's doubling is shown in the treasure rows it doubles ("worth 5, x2 for
1 treasure hunter"), and the Treasure Hunter row itself scores 0, as the printed
scoresheet does.

>>> from bkref.game.position import Position
>>> p = Position()
>>> for sq in ("A1", "A2", "A3"): p.claim(sq, "ann")
>>> h = Holdings.of(p, "ann")
>>> MISSIONS["explorer"](h), MISSIONS["carpenter"](h), MISSIONS["carrotistador"](h)
((3, '1 corner (A1)'), (3, '3 wood produced'), (4, '1 fief of 3+ territories'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

import msgspec

from bkref.game.catalog import BOARD, CARDS, COPY_CARDS, CORNERS, LUXURY_RESOURCES
from bkref.game.fiefs import RESOURCE_INDEX, BitBoard, Group, harvest_carrots, mask, names
from bkref.game.position import Position
from bkref.game.results import FinalScore, ParchmentRow, PlayerScore
from bkref.game.table import Table
from bkref.game.words import count

if TYPE_CHECKING:
    from collections.abc import Callable

    from bkref.game.events import Rulings

    MissionScore = Callable[["Holdings"], tuple[int, str]]
    Copied = tuple[str | None, list[tuple[str, str]]]
    """What a copy card stands for (E7), None when it copies nothing, and the copies passed."""

CYCLE: Final = object()
"""``resolve_copy``'s answer for a copy chain that comes back to itself (R3 follow)."""

RULING_IDS: Final = {
    "matriarch_tie": "R1",
    "opportunist_tie": "R2",
    "copy_of_copy": "R3",
    "treasure_hunter_stacking": "R4",
    "colonist_counts": "R5",
    "rabbit_limit": "R6",
}
"""The id in RULES.md of each ruling, by its name in the ``game`` event."""


class Holdings:
    """What one player has at the end, as the missions count it (E2-E4), read from the
    board's bitmasks (``bkref.game.fiefs.BitBoard``).

    ``explain`` false leaves the missions' sentences empty: the points only.
    """

    def __init__(self, player: str, board: BitBoard, explain: bool = True) -> None:
        self.player = player
        self.board = board
        self.mine = board.owned[player]
        self.explain = explain

    @classmethod
    def of(cls, position: Position, player: str) -> Holdings:
        """The holdings of ``player`` in ``position``."""
        return cls(player, BitBoard.of(position, (player,)))

    def count(self, squares: int) -> int:
        """How many of the player's squares are among ``squares`` (a bitmask)."""
        return (self.mine & squares).bit_count()

    @property
    def fiefs(self) -> list[Group]:
        """The player's fiefs, as bitmasks (squares, strength, resources)."""
        return self.board.groups(self.player)

    def produced(self, resource: str) -> int:
        """How many units of ``resource`` the player's squares produce (E2)."""
        return self.board.produced(self.player, RESOURCE_INDEX[resource])

    @property
    def cities(self) -> int:
        """How many of the player's squares hold a city (E3)."""
        return self.count(self.board.cities)


def _walk(
    table: Table, copies: Mapping[str, Mapping[str, str | None]], player: str, card: str
) -> tuple[list[tuple[str, str]], str | object | None]:
    """The copy cards a chain passes through, as (owner, card), and what it ends on."""
    passed: list[tuple[str, str]] = []
    while card in COPY_CARDS:
        if (player, card) in passed:
            return passed, CYCLE
        passed.append((player, card))
        target = copies.get(player, {}).get(card)
        if target is None:
            return passed, None
        player, card = table.copies_from(player, card), target
    return passed, card


def resolve_copy(
    table: Table, copies: Mapping[str, Mapping[str, str | None]], player: str, card: str
) -> str | object | None:
    """What ``player``'s copy ``card`` finally copies, following copies of copies (R3).

    Returns the parchment id, None when it copies nothing, or ``CYCLE``.

    >>> table = Table()
    >>> table.seat(("ann", "bob", "cid"))
    >>> resolve_copy(table, {"ann": {"socialist": "liberal"}, "bob": {"liberal": "fisher"}}, "ann", "socialist")
    'fisher'
    >>> loop = {"ann": {"socialist": "liberal"}, "bob": {"liberal": "socialist"}}
    >>> resolve_copy(table, loop, "ann", "socialist") is CYCLE
    True
    """
    return _walk(table, copies, player, card)[1]


# -- the missions ---------------------------------------------------------------------
# Each takes the player's holdings and returns (points, what was counted).


def _per(h: Holdings, unit: int, n: int, one: str, many: str) -> tuple[int, str]:
    return unit * n, count(n, one, many) if h.explain else ""


def _threshold(h: Holdings, points: int, n: int, least: int, one: str, many: str) -> tuple[int, str]:
    return (points if n >= least else 0), f"{count(n, one, many)}, needs {least}" if h.explain else ""


_PLURAL: Final = {"wood": "wood", "fish": "fish", "carrot": "carrots"}


def _produced(resource: str, unit: int) -> MissionScore:
    """``unit`` per ``resource`` produced (E2)."""
    one, many = f"{resource} produced", f"{_PLURAL[resource]} produced"
    return lambda h: _per(h, unit, h.produced(resource), one, many)


def _produced_at_least(resource: str, points: int, least: int) -> MissionScore:
    """``points`` if at least ``least`` ``resource`` produced (E2)."""
    one, many = f"{resource} produced", f"{_PLURAL[resource]} produced"
    return lambda h: _threshold(h, points, h.produced(resource), least, one, many)


def _corners(h: Holdings) -> tuple[int, str]:
    mine = h.mine & _CORNERS
    points, counted = _per(h, 3, mine.bit_count(), "corner", "corners")
    return points, counted + (f" ({', '.join(names(mine))})" if mine and h.explain else "")


def _luxury(h: Holdings) -> tuple[int, str]:
    produced = [h.produced(r) for r in LUXURY_RESOURCES]
    points, counted = _per(h, 3, sum(produced), "luxury resource produced", "luxury resources produced")
    if not h.explain:
        return points, counted
    made = [r for r, n in zip(LUXURY_RESOURCES, produced, strict=True) if n]
    return points, counted + (f" ({', '.join(made)})" if made else "")


def _unproductive_cities(h: Holdings) -> tuple[int, str]:
    n = sum((group & h.board.cities).bit_count() for group, _, made in h.fiefs if not made)
    return _per(h, 2, n, "city in fiefs producing nothing", "cities in fiefs producing nothing")


def _barren(h: Holdings) -> tuple[int, str]:
    n = h.count(~(h.board.cities | h.board.producing()))
    return _per(h, 2, n, "territory with no city and no production", "territories with no city and no production")


def _little_prince(h: Holdings) -> tuple[int, str]:
    """Every fief harvested again but one best fief (E6).

    >>> p = Position(owner={"A1": "ann", "A4": "ann", "B10": "ann"})
    >>> p.building.update({"A1": "city1", "B10": "city1"})
    >>> _little_prince(Holdings.of(p, "ann"))
    (1, '2 of 3 fiefs harvested again; 2 tie for best (1 carrot), one left out (E6)')
    """
    carrots = [strength * made.bit_count() for _, strength, made in h.fiefs]
    if not carrots:
        return 0, "no fief" if h.explain else ""
    if not h.explain:
        return sum(carrots) - max(carrots), ""
    carrots.sort(reverse=True)
    best = count(carrots[0], "carrot", "carrots")
    ties = carrots.count(carrots[0])
    again = f"{len(carrots) - 1} of {count(len(carrots), 'fief', 'fiefs')} harvested again"
    if ties > 1:
        return sum(carrots[1:]), f"{again}; {ties} tie for best ({best}), one left out (E6)"
    return sum(carrots[1:]), f"{again}, the best ({best}) left out"


_EDGE: Final = mask([name for name, square in BOARD.items() if square.on_edge])
_MOUNTAINS: Final = mask([name for name, square in BOARD.items() if square.terrain == "mountain"])
_CORNERS: Final = mask(CORNERS)

MISSIONS: Final[dict[str, MissionScore]] = {
    "burgomaster": lambda h: _per(h, 1, h.cities, "city", "cities"),
    "diplomat": lambda h: _per(h, 1, h.count(_EDGE), "territory on the edge", "territories on the edge"),
    "explorer": _corners,
    "carpenter": _produced("wood", 1),
    "master_carpenter": _produced("wood", 2),
    "woodland_king": _produced_at_least("wood", 20, 7),
    "fisher": _produced("fish", 1),
    "master_fisher": _produced("fish", 2),
    "fisher_king": _produced_at_least("fish", 20, 7),
    "farmer": _produced("carrot", 1),
    "master_farmer": _produced("carrot", 2),
    "carrot_king": _produced_at_least("carrot", 15, 5),
    "merchant": _luxury,
    "master_of_the_mountains": lambda h: _per(h, 2, h.count(_MOUNTAINS), "mountain", "mountains"),
    "carrotistador": lambda h: _per(
        h,
        4,
        sum(group.bit_count() >= 3 for group, _, _ in h.fiefs),
        "fief of 3+ territories",
        "fiefs of 3+ territories",
    ),
    "harecingetorix": lambda h: _per(h, 1, len(h.fiefs), "fief", "fiefs"),
    "hun_ny_king": lambda h: _threshold(h, 12, len(h.fiefs), 10, "fief", "fiefs"),
    "bun_shee": _unproductive_cities,
    "panpan_the_barbarian": _barren,
    "king_of_thieves": lambda h: _threshold(h, 12, h.cities, 9, "city", "cities"),
    "little_prince": _little_prince,
}
"""Missions scored from the player's own board alone."""


_TREASURES: Final = frozenset(card.id for card in CARDS.values() if card.kind == "treasure")


class _Scorer:
    """Scores every parchment of a finished game; see ``final_score``."""

    def __init__(self, state: Table, board: BitBoard, explain: bool) -> None:
        self.state = state
        self.rulings: Rulings = state.rulings
        self.explain = explain
        self.holdings = {p: Holdings(p, board, explain) for p in state.players}
        self.copied: dict[tuple[str, str], Copied] = {}  # by (owner, copy card)
        self.effective: dict[str, list[str]] = {}  # the parchments each player's cards stand for
        for p in state.players:
            cards = state.parchments[p]
            if COPY_CARDS.isdisjoint(cards):  # most players: their cards stand for themselves
                self.effective[p] = cards
                continue
            stands = []
            for card in cards:
                if card in COPY_CARDS:
                    passed, target = _walk(state, state.copies, p, card)
                    if not isinstance(target, str):  # it copies nothing, or its chain is a CYCLE
                        self.copied[p, card] = (None, passed)
                        continue
                    self.copied[p, card] = (target, passed[1:])
                    card = target
                stands.append(card)
            self.effective[p] = stands
        self.treasures = {p: [c for c in cards if c in _TREASURES] for p, cards in self.effective.items()}

    def treasure(self, player: str, card: str) -> tuple[int, str, list[str]]:
        owned = self.treasures[player]
        if card in ("left_glove", "right_glove") and "left_glove" in owned and "right_glove" in owned:
            base, counted = 4, "both gloves, worth 4 each (E5)" if self.explain else ""
        else:
            base, counted = CARDS[card].value, f"worth {CARDS[card].value}" if self.explain else ""
        hunters = self.effective[player].count("treasure_hunter")
        stacking = self.rulings.treasure_hunter_stacking
        if not hunters:
            return base, counted, []
        factor = 2 if stacking == "once" else 2**hunters
        if self.explain:
            counted += f", x{factor} for {count(hunters, 'treasure hunter', 'treasure hunters')}"
        if hunters == 1:
            return base * factor, counted, []
        return base * factor, f"{counted} (R4 {stacking})" if self.explain else "", ["R4"]

    def matriarch(self, player: str) -> tuple[int, str, list[str]]:
        counts = {p: h.mine.bit_count() for p, h in self.holdings.items()}
        best = max(counts.values())
        leaders = [p for p in self.state.players if counts[p] == best]
        mine = counts[player]
        tie = self.rulings.matriarch_tie
        shared = mine == best and len(leaders) > 1
        points = 0 if mine < best or (shared and tie != "shared") else 12
        rulings = ["R1"] if shared else []
        if not self.explain:
            return points, "", rulings
        if mine < best:
            return points, f"{count(mine, 'territory', 'territories')}; most is {best} ({', '.join(leaders)})", rulings
        if len(leaders) == 1:
            return points, f"most territories ({mine})", rulings
        others = ", ".join(p for p in leaders if p != player)
        return points, f"tied for most territories ({mine}) with {others} (R1 {tie})", rulings

    def score(self, player: str, card: str) -> tuple[int, str, list[str]]:
        """Points, figures and rulings of one parchment ``card`` scored for ``player`` (not a
        mission of ``MISSIONS``, not opportunist)."""
        if card in _TREASURES:
            return self.treasure(player, card)
        explain = self.explain
        if card == "bureaucrat":
            n = len(self.state.parchments[player])
            return n, f"{count(n, 'parchment', 'parchments')} owned, copy cards included (E9)" if explain else "", []
        if card == "colonist":
            if self.rulings.colonist_counts == "played":
                n = self.state.camps_played[player]
                return 3 * n, f"{count(n, 'camp card', 'camp cards')} played (R5 played)" if explain else "", ["R5"]
            n = self.state.camps_placed[player]
            return 3 * n, f"{count(n, 'camp', 'camps')} placed (R5 placed)" if explain else "", ["R5"]
        if card == "matriarch":
            return self.matriarch(player)
        if card == "treasure_guardian":
            return (*_per(self.holdings[player], 3, len(self.treasures[player]), "treasure", "treasures"), [])
        if card == "treasure_hunter":
            n = len(self.treasures[player])
            rows = "its row" if n == 1 else "their rows"
            return 0, f"doubles {count(n, 'treasure', 'treasures')}, in {rows}" if explain else "", []
        raise AssertionError(f"no scoring for {card}")  # missions, opportunist and copies are handled by rows()

    def rows(self, player: str) -> list[ParchmentRow]:
        out = []
        explain = self.explain
        holdings = self.holdings[player]
        for card in self.state.parchments[player]:
            if card in COPY_CARDS:
                copied, via = self.copied[player, card]
                if copied is None:
                    out.append(ParchmentRow(card=card, counted="copies nothing" if explain else "", points=0))
                    continue
                target = copied
            else:
                target = card
            mission = MISSIONS.get(target)
            if mission is not None:
                points, counted = mission(holdings)
                rulings: list[str] = []
            elif target == "opportunist":
                points, counted, rulings = 0, "", []  # filled in by opportunist()
            else:
                points, counted, rulings = self.score(player, target)
            if card == target:  # not a copy card
                out.append(ParchmentRow(card=card, counted=counted, points=points, rulings=rulings))
                continue
            if via:
                if explain:
                    chain = ", ".join(f"{owner}'s {copy}" for owner, copy in via)
                    counted = f"through {chain} (R3 follow): {counted}"
                rulings = ["R3", *rulings]
            out.append(ParchmentRow(card=card, copied=target, counted=counted, points=points, rulings=rulings))
        return out

    def opportunist(self, rows: dict[str, list[ParchmentRow]], before: dict[str, int]) -> dict[str, int]:
        """Score every Opportunist once all else is scored (R2); ``before`` holds each player's
        total so far. Returns the points the Opportunists give, by player."""
        second, award = opportunist_second(self.state.players, before, self.rulings.opportunist_tie)
        tie = self.rulings.opportunist_tie
        explain = self.explain
        standings = ", ".join(f"{p} {before[p]}" for p in self.state.players) if explain else ""
        given = dict.fromkeys(self.state.players, 0)
        for p in self.state.players:
            if "opportunist" not in self.effective[p]:
                continue  # no opportunist among their rows
            for row in rows[p]:
                if "opportunist" not in (row.card, row.copied):
                    continue
                # rows() left counted empty, or holding only the copy chain (R3 follow)
                if p not in second:
                    row.points = 0
                    if explain:
                        row.counted += f"not second before opportunists: {standings}"
                    continue
                row.points = 10 if award else 0
                given[p] += row.points
                if explain:
                    row.counted += f"second before opportunists: {standings}"
                if len(second) > 1:
                    if explain:
                        row.counted += f"; tied with {', '.join(q for q in second if q != p)} (R2 {tie})"
                    row.rulings = [*row.rulings, "R2"]
        return given


def opportunist_second(players: Sequence[str], before: Mapping[str, int], tie: str) -> tuple[list[str], bool]:
    """Who is second before the Opportunists are scored (R2), from every player's total
    ``before`` them: exactly one player ahead, so nobody when the first place is shared;
    and whether an Opportunist of theirs scores its 10 (a tie for second under R2 ``tie``).

    >>> opportunist_second(["ann", "bob", "cid"], {"ann": 50, "bob": 40, "cid": 40}, "none")
    (['bob', 'cid'], False)
    """
    first, *rest = sorted(before.values(), reverse=True)
    second = [p for p in players if before[p] == rest[0]] if rest and rest[0] < first else []
    return second, len(second) == 1 or (bool(second) and tie == "shared")


def parchment_points(state: Table, board: BitBoard, player: str) -> int:
    """The points ``player``'s parchments score at the end, Opportunists aside: ``final_score``'s
    parchment total of ``player`` when they hold no Opportunist, copied or not (R2: only an
    Opportunist's points depend on every player's total), without scoring the others."""
    return sum([row.points for row in _Scorer(state, board, False).rows(player)])


def final_score(state: Table, board: BitBoard | None = None, *, explain: bool = True) -> FinalScore:
    """Score a finished game: harvests, every parchment, totals, ranking and winners (E1-E9).

    ``board``, the final position read into bitmasks, saves reading it again when the
    caller has it (the engine has, from the 4th harvest). With
    ``explain`` false, the points only: every row's ``counted`` is empty (the referee's
    fast path; ``bkref score`` and the replay explain).
    """
    scorer = _Scorer(state, board or BitBoard.of(state.position, state.players), explain)
    rows = {p: scorer.rows(p) for p in state.players}
    harvests = {p: [harvest_carrots(h, p) for h in state.harvests] for p in state.players}
    harvest = {p: sum(v) for p, v in harvests.items()}
    parchments = {p: sum([r.points for r in rows[p]]) for p in state.players}
    # rows() scores every Opportunist 0, so the points opportunist() gives are all they score
    given = scorer.opportunist(rows, {p: harvest[p] + parchments[p] for p in state.players})
    players = {}
    for p in state.players:
        parchment_total = parchments[p] + given[p]
        players[p] = PlayerScore(harvests[p], harvest[p], rows[p], parchment_total, harvest[p] + parchment_total)
    ranking = sorted(state.players, key=lambda p: -players[p].total)  # a stable sort: ties in seat order
    best = players[ranking[0]].total
    winners = [p for p in ranking if players[p].total == best]
    return FinalScore(players, ranking, winners, msgspec.structs.asdict(state.rulings))
