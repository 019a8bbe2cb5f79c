"""Construction: placing a building (C2-C7, P2, S5), one check for each kind of building
next to the effect they share.

- a city or a farm goes on one square its builder controls, free of any building (C2,
  C3), a farm on its terrain (C4): ``_on_own_square``;
- a camp goes on one empty square nobody controls (C6), in ascending priority in a
  construction (C7), and needs a rabbit (S5 under R6 ``pieces``): ``_camp``;
- a sky tower's two tokens go on two free squares of its builder, in two different
  fiefs (C5): ``_sky_tower``.

Every building must be in its builder's supply (P2). Whether a build comes in a
construction is ``bkref.game.flow``'s.

>>> from bkref.game.events import Build
>>> from bkref.game.table import Table
>>> table = Table()
>>> table.seat(("ann", "bob"))
>>> table.supply = {"ann": {"city1": 1}}
>>> table.position.claim("A1", "ann")
>>> build(table, Build(round=1, player="ann", card="city1", at=["A1"]))
>>> table.position.building, table.supply
({'A1': 'city1'}, {'ann': {'city1': 0}})
>>> build(table, Build(round=1, player="ann", card="city1", at=["A2"]))
Traceback (most recent call last):
bkref.game.table.Skip: ann builds city1, but has none in supply; a building must be played first
"""

from __future__ import annotations

from typing import Final

from bkref.game.catalog import BOARD, CARDS, Card
from bkref.game.events import Build
from bkref.game.fiefs import connected
from bkref.game.position import Position
from bkref.game.table import Skip, Table, no_rabbit
from bkref.game.words import count

_NOT_BUILDINGS: Final = {
    "territory": ("P1", "a territory card claims its square when it is played"),
    "provisions": ("P3", "a provisions card draws 2 cards when it is played"),
    "treasure": ("P4", "a parchment stays face down until the end"),
    "mission": ("P4", "a parchment stays face down until the end"),
}
"""The rule a card that is not a building breaks when it is built, and why, by kind."""


def build(table: Table, event: Build) -> None:
    """Place ``event``'s building if its card may go there (see the module's docstring);
    raise ``Skip`` with the first rule it breaks otherwise."""
    p, card_id, at = event.player, event.card, event.at
    card = CARDS[card_id]
    kind = card.kind
    if kind in _NOT_BUILDINGS:
        rule, what = _NOT_BUILDINGS[kind]
        raise Skip(rule, f"{p} builds {card_id}, which is not a building: {what}")
    supply = table.supply[p]
    if not supply.get(card_id):
        raise Skip("P2", f"{p} builds {card_id}, but has none in supply; a building must be played first")
    if kind == "camp":
        _camp(table, p, card, at)
    elif kind == "sky_tower":
        _sky_tower(table, p, card, at)
    else:  # a city or a farm
        _on_own_square(table, p, card, at)
    # the effect
    position = table.position
    supply[card_id] -= 1
    table.board_fiefs = None
    for sq in at:
        position.building[sq] = card_id
    if kind == "camp":
        position.claim(at[0], p)
        table.camp_floor = card.priority
        table.camps_placed[p] += 1
    elif kind == "sky_tower":
        position.towers.append((at[0], at[1]))


def _wrong_count(card: Card, at: list[str], takes: int, rule: str) -> Skip:
    return Skip(rule, f"{card.id} is placed on {count(len(at), 'square')}; it takes {takes}")


def _held(position: Position, p: str, card: Card, sq: str) -> Skip:
    """C3: ``sq`` holds a building already, printed city included."""
    return Skip("C3", f"{p} builds {card.id} on {sq}, which already holds {_describe(position, sq)}")


def _not_controlled(p: str, card: Card, sq: str, holder: str | None) -> Skip:
    """C2: ``p`` does not control ``sq``."""
    whose = f"{holder} controls it" if holder else "nobody controls it"
    return Skip("C2", f"{p} builds {card.id} on {sq}, which {p} does not control ({whose})")


def _on_own_square(table: Table, p: str, card: Card, at: list[str]) -> None:
    """A city or a farm: one free square ``p`` controls (C2, C3), of its terrain if it needs one (C4)."""
    if len(at) != 1:
        raise _wrong_count(card, at, 1, "C3")
    position, sq = table.position, at[0]
    if position.occupied(sq):
        raise _held(position, p, card, sq)
    holder = position.owner.get(sq)
    if holder != p:
        raise _not_controlled(p, card, sq, holder)
    terrain, requires = BOARD[sq].terrain, card.requires_terrain
    if requires and terrain != requires:
        raise Skip("C4", f"{p} builds {card.id} on {sq}, a {terrain} square; {card.id} goes only on a {requires}")


def _camp(table: Table, p: str, card: Card, at: list[str]) -> None:
    """A camp: one empty square, with no building and no rabbit (C6), in ascending priority
    order within a construction (C7), with a rabbit to claim it (S5, R6 ``pieces``)."""
    if len(at) != 1:
        raise _wrong_count(card, at, 1, "C3")
    position = table.position
    sq = at[0]
    if position.occupied(sq):
        raise Skip(
            "C6",
            f"{p} places {card.id} on {sq}, which holds {_describe(position, sq)}; a camp goes only on an empty square",
        )
    if sq in position.owner:
        raise Skip(
            "C6",
            f"{p} places {card.id} on {sq}, where {position.owner[sq]} has a rabbit; "
            "a camp goes only on an empty square",
        )
    if card.priority < table.camp_floor:
        raise Skip(
            "C7",
            f"{p} places {card.id} after camp{table.camp_floor} in this construction; "
            "camps go in ascending priority order",
        )
    problem = no_rabbit(table, p, sq, f"the {card.id} is not placed")
    if problem:
        raise Skip("S5", problem)


def _sky_tower(table: Table, p: str, card: Card, at: list[str]) -> None:
    """A sky tower: two free squares ``p`` controls (C2, C3), apart and in two different fiefs (C5)."""
    if len(at) != 2:
        raise _wrong_count(card, at, 2, "C5")
    position = table.position
    for sq in at:
        if position.occupied(sq):
            raise _held(position, p, card, sq)
    for sq in at:
        holder = position.owner.get(sq)
        if holder != p:
            raise _not_controlled(p, card, sq, holder)
    a, b = at
    if a == b:
        raise Skip("C5", f"both sky tower tokens are placed on {a}; they go on two different squares")
    if connected(position, p, a, b):
        raise Skip("C5", f"{a} and {b} are already in one fief of {p}; a sky tower joins two different fiefs")


def _describe(position: Position, square: str) -> str:
    if BOARD[square].printed_city:
        return "a printed city"
    building = position.building[square]
    who = position.owner.get(square)
    return f"{who}'s {building}" if who else building
