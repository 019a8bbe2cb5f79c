"""The score breakdown of a whole log: where every golden carrot came from (``bkref score``).

Walks a log with ``referee.play`` (a log cut off after any round is fine) and keeps,
for each harvest and player, every fief with its cities, strength, resources and
wealth (H2-H4), the trading post declarations the harvest used (H1), the round's
carrots and the running total; then, after the end event, every parchment row
(``scoring``), the totals, the ranking and the winners (E8), and which ruling (R1-R6)
settled which row. The breakdown is a tree of msgspec Structs: its JSON form is the
``bkref-score/1`` shape, whose JSON Schema is generated from these classes
(``schemas/bkref-score-1.schema.json``).

>>> from pathlib import Path
>>> b = breakdown(Path("replays/worked-example.jsonl"))
>>> b.complete, b.stops, [r.players["ann"].carrots for r in b.rounds]
(False, 'before the deal of round 2', [15])
>>> fief = b.rounds[0].players["ann"].fiefs[0]
>>> fief.squares, fief.cities, fief.strength, fief.resources, fief.carrots
(['A2', 'A3', 'A4', 'B2', 'B3', 'B4'], 3, 5, ['wood', 'fish', 'mushroom'], 15)
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final, Literal

import msgspec

from bkref.game.catalog import BASIC_RESOURCES, BOARD_ORDER, LUXURY_RESOURCES
from bkref.game.engine import State
from bkref.game.events import End, Resource, Round, Rulings, SquareId
from bkref.game.fiefs import BitBoard, mask, yield_of
from bkref.game.results import Fief, FinalScore, PlayerScore
from bkref.game.scoring import RULING_IDS
from bkref.io.diagnostics import Diagnostic
from bkref.io.referee import Playing, play
from bkref.io.sources import LogSource

SCORE_FORMAT: Final = "bkref-score/1"
if TYPE_CHECKING:  # mypy reads plain strings; the schema has the Literals built from the data
    AnyResource = str
    RulingId = str
    RulingName = str
else:
    AnyResource = Literal[BASIC_RESOURCES + LUXURY_RESOURCES]
    RulingId = Literal[tuple(RULING_IDS.values())]
    RulingName = Literal[tuple(RULING_IDS)]


class FiefScore(msgspec.Struct):
    """One fief at one harvest: ``strength`` x ``wealth`` = ``carrots`` (H3, H4)."""

    squares: list[SquareId]
    cities: int
    strength: int
    resources: list[AnyResource]
    wealth: int
    carrots: int


class HarvestScore(msgspec.Struct):
    """One player's harvest: every fief, the trading post declarations used, the carrots."""

    fiefs: list[FiefScore]
    trading_posts: dict[SquareId, Resource]
    carrots: int
    running_total: int


class RoundScore(msgspec.Struct):
    """The harvest of one round, player by player; ``line`` is its ``harvest`` event's line
    (or, for a round the log left without one, the line of the next deal, T1)."""

    round: Round
    line: int
    players: dict[str, HarvestScore]


class Standing(msgspec.Struct):
    """A place in the final ranking; tied players share a rank (E8)."""

    rank: int
    player: str
    harvest: int
    parchment_total: int
    total: int


class FinalBreakdown(msgspec.Struct):
    """The end of the game (the ``end`` event on ``line``): parchments, totals, ranking, winners."""

    line: int
    players: dict[str, PlayerScore]
    ranking: list[Standing]
    winners: list[str]


class RowRef(msgspec.Struct):
    """One parchment row: the player and the card of the row."""

    player: str
    card: str


class RulingUse(msgspec.Struct):
    """One ruling of RULES.md (R1-R6): its value in this game and the rows it settled."""

    id: RulingId
    name: RulingName
    value: str
    default: bool
    applied_to: list[RowRef]


class Breakdown(msgspec.Struct):
    """The whole score of one log (``bkref score --format json``).

    ``players`` are the seats; ``player`` the one the breakdown is narrowed to, if any.
    ``stops`` says where the log stops; ``final`` is null until the end event.
    """

    format: Literal["bkref-score/1"]
    file: str
    players: list[str]
    player: str | None
    complete: bool
    stops: str
    legal: bool
    diagnostics: list[Diagnostic]
    rulings: list[RulingUse]
    rounds: list[RoundScore]
    final: FinalBreakdown | None

    def only(self, player: str) -> Breakdown:
        """The breakdown narrowed to one player; the ranking and winners stay whole."""
        replace = msgspec.structs.replace
        final = self.final
        if final is not None:
            final = replace(final, players={player: final.players[player]})
        return replace(
            self,
            player=player,
            rulings=[replace(r, applied_to=[a for a in r.applied_to if a.player == player]) for r in self.rulings],
            rounds=[replace(r, players={player: r.players[player]}) for r in self.rounds],
            final=final,
        )


def _fief_score(fief: Fief, cities: int) -> FiefScore:
    """``fief`` as scored, on a board whose cities stand on the squares ``cities`` (a bitmask)."""
    held = (mask(fief.squares) & cities).bit_count()
    return FiefScore(list(fief.squares), held, fief.strength, list(fief.resources), fief.wealth, fief.carrots)


def _round_score(line: int, state: State, running: Counter[str]) -> RoundScore:
    """The harvest just played on ``state`` (its position is still the harvest's own).

    The harvest is the round's ``harvest`` event, or the engine's harvest of a round the
    log left without one, when the next deal comes (T1).
    """
    position = state.position
    cities = BitBoard.of(position, ()).cities
    players = {}
    for p in state.players:
        fiefs = state.last_harvest(p)
        carrots = yield_of(fiefs)
        running[p] += carrots
        posts = {
            sq: position.declared[sq]
            for sq in sorted(position.declared, key=BOARD_ORDER.__getitem__)
            if state.owner_of(sq) == p
        }
        players[p] = HarvestScore([_fief_score(f, cities) for f in fiefs], posts, carrots, running[p])
    return RoundScore(state.harvests_done, line, players)


def final_breakdown(line: int, final: FinalScore) -> FinalBreakdown:
    """The final score of the ``end`` event on ``line``, with the ranking (E8)."""
    totals = {p: s.total for p, s in final.players.items()}
    ranking = [
        Standing(
            1 + sum(t > totals[p] for t in totals.values()),
            p,
            final.players[p].harvest,
            final.players[p].parchment_total,
            totals[p],
        )
        for p in final.ranking
    ]
    return FinalBreakdown(line, final.players, ranking, final.winners)


def _rulings(rulings: Rulings, final: FinalBreakdown | None) -> list[RulingUse]:
    defaults = Rulings()
    uses = []
    for name, rule in RULING_IDS.items():
        rows = (
            []
            if final is None
            else [
                RowRef(p, row.card)
                for p, score in final.players.items()
                for row in score.parchments
                if rule in row.rulings
            ]
        )
        value = getattr(rulings, name)
        uses.append(RulingUse(rule, name, value, value == getattr(defaults, name), rows))
    return uses


def breakdown(source: LogSource | Playing, label: str | None = None) -> Breakdown:
    """Score the log from ``source`` (see ``bkref.io.sources``) as far as it goes; illegal
    events are skipped, as ``validate`` does. ``label`` names it (default: its path).
    ``source`` may be the log being played (``play(source, label, partial=True)``), to read
    its ``meta`` after.

    Raises ``OSError`` when the source cannot be read.
    """
    diagnostics: list[Diagnostic] = []
    rounds: list[RoundScore] = []
    running: Counter[str] = Counter()
    state = State()
    final = None
    played = source if isinstance(source, Playing) else play(source, label, partial=True)
    for step in played:
        diagnostics.extend(step.diagnostics)
        state = step.state
        if state.harvests_done > len(rounds):
            rounds.append(_round_score(step.line, state, running))
        elif isinstance(step.event, End) and final is None:
            explained = state.final_explained()  # None when the end event was refused
            if explained is not None:
                final = final_breakdown(step.line, explained)
    diagnostics.extend(played.after)
    return Breakdown(
        format=SCORE_FORMAT,
        file=played.name,
        players=list(state.players),
        player=None,
        complete=state.complete,
        stops=state.where(),
        legal=not diagnostics,
        diagnostics=diagnostics,
        rulings=_rulings(state.rulings, final),
        rounds=rounds,
        final=final,
    )
