"""Worlds from a view: a full ``State`` drawn at random consistent with what one player sees.

``sample(view, rng)`` is what a search bot looks ahead on without
cheating, as OpenSpiel's ``resample_from_infostate``: it reads the position only through
``view`` (RULES.md I1-I6) and deals the cards that player has not seen at random to every
place they do not see: the other players' hands (as many cards as each holds), their
parchments (parchments only, as many as each has), the 2-player reserves and the deck.
Everything the view shows is kept: the player's own hand and parchments, the board, the
supplies, the turn's revealed picks, every count.

The cards "not seen" are the game's cards less those the view shows: the player's own hand
and parchments, every territory on the board, every building placed or in a supply, and the
turn's revealed picks. A view holds no history, so a card played earlier that left no trace
(a provisions card, a 2-player discard) is still among them: it may be dealt into a sample,
a world the view cannot rule out. Pure: no module state; the same view and generator state,
the same world.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from bkref.game.catalog import CARDS, SKY_TOWERS

if TYPE_CHECKING:
    from bkref.game.engine import State
    from bkref.game.knowledge import View


def unseen(view: View) -> Counter[str]:
    """The cards ``view``'s player has not seen, with their copies: the game's cards less what the view shows."""
    shown: Counter[str] = Counter(view.hand)
    shown.update(view.parchments)
    buildings = view.buildings
    camped = {square for square, card in buildings.items() if CARDS[card].kind == "camp" if card in CARDS}
    shown.update(square for square in view.owner if square in CARDS and square not in camped)  # a camp claims one
    shown.update(card for card in buildings.values() if card in CARDS and card not in SKY_TOWERS)
    shown["sky_tower"] += len(view.towers)  # a sky tower stands on two squares of ``buildings``
    for player in view.players:
        shown.update(view.supply(player))
    picks = view.picks
    revealed = len(picks) == len(view.players)  # revealed picks are played: on the board, in a supply
    for pick in picks.values():
        if pick.player == view.player:
            shown.update(card for card in pick.discard or () if card is not None)
            if not revealed:  # kept, not played yet
                shown.update(card for card in pick.keep if card is not None)
        else:  # a provisions card leaves no trace once played
            shown.update(card for card in pick.keep if card is not None and CARDS[card].kind == "provisions")
    for player, cards in (view.revealed or {}).items():  # every parchment, once the 4th harvest is over
        if player != view.player:
            shown.update(cards)
    pool: Counter[str] = Counter({card.id: card.copies for card in CARDS.values()})
    pool.subtract(shown)
    return +pool


def sample(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``: the live state's public part, the unseen cards
    dealt at random to every hidden place (see the module)."""
    world = view._state.copy()  # its hidden fields are all dealt anew below
    me = view.player
    pool = sorted(unseen(view).elements())
    rng.shuffle(pool)
    others = [p for p in view.players if p != me]
    # parchments first: those slots take parchments only
    for player in others if view.revealed is None else ():
        count = view.parchment_count(player)
        if count:
            chosen = [i for i, card in enumerate(pool) if CARDS[card].is_parchment][:count]
            world.parchments[player] = [pool[i] for i in chosen]
            for i in reversed(chosen):
                del pool[i]
    world.passed = {}  # the hands passed at the last turn: the player saw only their own
    if world.phase == "exploring":
        hidden = len(world.picks) < world.seats  # a pick is secret until the turn's last (I3)
        for player in others:
            if hidden and world.picks.get(player) is not None:
                del world.picks[player]  # a secret pick is undone: the world's player picks again
            if player in world.picks:
                size = len(world.hands[player])
            else:  # the hand as at the start of the turn, without the 2-player reserve card (D3)
                size = view.hand_size(player) - (1 if world.seats == 2 else 0)
            world.hands[player], pool = pool[:size], pool[size:]
        for player in view.players:
            reserve = world.reserves.get(player)
            if reserve is not None:  # the cards of past turns are out of play; this turn's is the player's own
                past = world.turn if player == me else world.turn - 1
                size = len(reserve) - past
                world.reserves[player], pool = reserve[:past] + pool[:size], pool[size:]
    left = view.deck
    world.deck = _deck(world.deck_pos, pool[:left])
    return world


def _deck(dealt: int, rest: list[str]) -> list[str]:
    """A whole deck whose cards from ``dealt`` on are ``rest``: its first ``dealt`` places hold the
    other cards of the game (they are out of the deck, never read again), in id order."""
    others: Counter[str] = Counter({card.id: card.copies for card in CARDS.values()})
    others.subtract(rest)
    return sorted((+others).elements())[:dealt] + rest
