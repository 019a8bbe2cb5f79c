"""Exploration: picks (D2, D3, D5), their reveal (D4), provisions draws (P3) and what a
played card does (P1-P4, S5), each check next to its effect.

Whether a pick or a draw comes at its turn, and what follows once a turn's picks and
draws are all in, is ``bkref.game.flow``'s.

>>> from bkref.game.events import Pick
>>> from bkref.game.table import Table
>>> table = Table()
>>> table.seat(("ann", "bob", "cid"))
>>> table.hands = {"ann": ["A1", "A2", "city1"], "bob": [], "cid": []}
>>> found = []
>>> print(pick(table, Pick(round=1, turn=1, player="ann", keep=["A1", "B1"]), found))
None
>>> [v.rule for v in found], table.hands["ann"]
(['D2'], ['A1', 'A2', 'city1'])
"""

from __future__ import annotations

from typing import Final

from bkref.game.catalog import CARDS
from bkref.game.events import Draw, Pick
from bkref.game.table import Skip, Table, Violation, conserve, no_rabbit
from bkref.game.words import cards, count

_KIND: Final = {card.id: card.kind for card in CARDS.values()}


def pass_direction(rnd: int) -> str:
    """Where hands pass in round ``rnd`` (D5): to the left in odd rounds, to the right in even ones."""
    return "left" if rnd % 2 == 1 else "right"


def passing_to(table: Table) -> dict[str, str]:
    """Whom each player passes their hand to this round (D5)."""
    return table.left if pass_direction(table.round) == "left" else table.right


# -- picks (D2, D3, D5) ----------------------------------------------------------------


def pick(table: Table, event: Pick, found: list[Violation]) -> Pick | None:
    """``event`` if its cards are legal; else None, reported (D2, D3, D5). Either way it is
    its player's pick of the turn (``flow.on_pick``).

    The player's hand becomes what they pass on: the rest after a legal pick, the whole
    hand after an illegal one.
    """
    p, n, keep = event.player, table.seats, event.keep
    if n == 2:
        hand = table.hands[p] = table.hand_now(p)
        rule = "D3"
        discard = event.discard or []
        if len(keep) != 1 or len(discard) != 1:
            found.append(
                Violation(
                    rule,
                    f"{p} keeps {count(len(keep), 'card')} and discards "
                    f"{len(discard)}; with 2 players each turn keeps 1 card and discards 1",
                )
            )
            return None
        chosen = keep + discard
    else:
        hand = table.hands[p]
        rule = "D2"
        if event.discard is not None:
            found.append(Violation(rule, f"{p} discards {cards(event.discard)}; only 2-player games discard"))
            return None
        if len(keep) != 2:
            found.append(
                Violation(rule, f"{p} keeps {count(len(keep), 'card')}; with {n} players each turn keeps exactly 2")
            )
            return None
        chosen = keep
    rest = hand.copy()
    try:
        for card in chosen:
            rest.remove(card)
    except ValueError:  # card: the first card named more often than the hand holds it
        pass
    else:
        table.hands[p] = rest
        return event
    verb = "keeps" if card in keep else "discards"
    where = "hand (with the reserve card)" if n == 2 else "hand"
    if card in hand:  # named more often than the hand holds it
        found.append(
            Violation(
                rule,
                f"{p} picks {card} {chosen.count(card)} times, but {p}'s {where} holds "
                f"only {hand.count(card)}: {cards(hand)}",
            )
        )
        return None
    wrong_way = table.passed.get(passing_to(table)[p])  # what p would hold had hands passed the other way
    if wrong_way is not None and card in wrong_way:
        direction = pass_direction(table.round)
        found.append(
            Violation(
                "D5",
                f"{p} {verb} {card}, which would be in {p}'s hand only if hands passed the "
                f"wrong way; in round {table.round} hands pass to the {direction}",
            )
        )
    else:
        found.append(Violation(rule, f"{p} {verb} {card}, which is not in {p}'s {where}: {cards(hand)}"))
    return None


def reveal(table: Table, found: list[Violation]) -> None:
    """Every player has picked: play the kept cards in seat order (D4) and pass the hands (D5)."""
    picks = table.picks
    limited = table.rulings.rabbit_limit == "pieces"  # R6: a territory may find no rabbit left (S5)
    for p in table.players:
        chosen = picks[p]
        if chosen is not None:  # an illegal pick plays nothing
            for card in chosen.keep:
                if limited:
                    play_claiming(table, p, card, found)
                else:
                    play_card(table, p, card)
    to = passing_to(table)
    table.passed = passed = table.hands
    table.hands = {to[p]: rest for p, rest in passed.items()}


# -- provisions draws (P3) -------------------------------------------------------------


def draw(table: Table, event: Draw, found: list[Violation]) -> None:
    """The draw of the oldest provisions card waiting (D4, P3): its owner draws the deck's
    next 2 cards (or, with no deck, no card used too often: S4), and plays them."""
    if not table.pending:
        # A provisions card waits only once every player has picked: the turn moves on as
        # soon as its picks are in and nothing waits (flow.next_turn). So a draw with
        # nothing waiting comes before a pick.
        waiting = [p for p in table.players if p not in table.picks]
        raise Skip(
            "D4",
            f"{event.player} draws before {', '.join(waiting)} picked in turn {table.turn}; "
            "kept cards are played only once every player has picked",
        )
    owner, _ = table.pending[0]
    if owner != event.player:
        raise Skip("P3", f"{event.player} draws, but the oldest provisions card to resolve is {owner}'s")
    if len(event.cards) != 2:
        raise Skip("P3", f"{event.player}'s provisions draws {count(len(event.cards), 'card')}; it draws exactly 2")
    expected = table.from_deck(2)
    if expected is None:
        conserve(table, event.cards, found)
    elif event.cards != expected:
        found.append(
            Violation("P3", f"{event.player} draws {cards(event.cards)}, but the top of the deck is {cards(expected)}")
        )
        table.follow_deck(event.cards)
    table.deck_pos += 2
    table.pending.pop(0)
    for card in event.cards:
        play_claiming(table, event.player, card, found)


# -- playing a card (P1-P4) ------------------------------------------------------------


def play_card(table: Table, player: str, card: str) -> None:
    """Give ``card``'s effect to ``player`` as when it is played (P1-P4), without checking anything."""
    kind = _KIND[card]
    if kind == "territory":
        position = table.position
        if card in position.building and position.building[card].startswith("camp"):
            del position.building[card]  # P1: a camp leaves, whoever's it was
        position.claim(card, player)
        table.board_fiefs = None
    elif kind in ("treasure", "mission"):
        table.parchments[player].append(card)
    elif kind == "provisions":
        table.pending.append((player, table.turn))
    else:
        supply = table.supply[player]
        supply[card] = supply.get(card, 0) + 1
        if kind == "camp":
            table.camps_played[player] += 1


def play_claiming(table: Table, player: str, card: str, found: list[Violation]) -> None:
    """Play ``card`` for ``player`` (P1-P4); a territory with no rabbit left to claim it breaks S5 (R6)."""
    if _KIND[card] == "territory" and table.rulings.rabbit_limit == "pieces":
        problem = no_rabbit(table, player, card, f"{card} stays unclaimed")
        if problem:
            found.append(Violation("S5", problem))
            return
    play_card(table, player, card)
