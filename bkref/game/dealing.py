"""Setting up and dealing: the game event (S1 the seats, S4 the deck, the rulings) and each
round's deal (D1), each check next to its effect.

Neither moves the game on: ``bkref.game.flow`` does (``start_game``, ``start_round``).

>>> from bkref.game.events import Game
>>> from bkref.game.table import Table
>>> table, found = Table(), []
>>> seat(table, Game(format="bkref/1", players=["ann", "bob"], deck=["A1"]), found)
>>> table.players, table.supply, found[0].rule
(('ann', 'bob'), {'ann': {}, 'bob': {}}, 'S4')
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from bkref.game.catalog import CARDS, DECK_SIZE
from bkref.game.events import FORMAT, Deal, Game
from bkref.game.table import HAND_SIZE, Skip, Table, Violation, conserve, expect_players
from bkref.game.words import count

_DECK: Final = sorted(card.id for card in CARDS.values() for _ in range(card.copies))
"""Every card of the deck (S4), sorted by id."""


def seat(table: Table, event: Game, found: list[Violation]) -> None:
    """The game event: its format (F1) and players (S1), then the seats, the rulings, each
    player's empty supply and parchments, and the deck if it is the game's cards (S4)."""
    if event.format != FORMAT:
        raise Skip("F1", f"format is {event.format!r}; this referee reads {FORMAT!r}")
    players = event.players
    if not 2 <= len(players) <= 4:
        raise Skip("S1", f"{count(len(players), 'player')}; Bunny Kingdom is for 2 to 4")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise Skip("S1", f"player {twice[0]!r} has two seats; players must be distinct")
    table.seat(tuple(players))
    table.rulings = event.rulings
    for p in players:
        table.supply[p] = {}
        table.parchments[p] = []
        table.camps_played[p] = 0
        table.camps_placed[p] = 0
    if event.deck is not None:
        wrong = _deck_problems(event.deck)
        if not wrong:
            table.deck = list(event.deck)
            return
        shown = "; ".join(wrong[:3]) + (f"; and {len(wrong) - 3} more" if len(wrong) > 3 else "")
        found.append(
            Violation("S4", f"the deck is not the game's {DECK_SIZE} cards: it has {shown}; checking without it")
        )


def _deck_problems(deck: list[str]) -> list[str]:
    """What keeps ``deck`` from being the game's cards (S4), in words; empty when it is them."""
    try:  # the usual case, quickly: sorted, the deck is the game's cards (the decoder gives their very strings)
        if sorted(deck) == _DECK:
            return []
    except TypeError:  # not all strings: a deck made in Python, which the decoder did not check
        pass
    counts = Counter(deck)  # also a deck of objects that equal the ids but do not sort
    wrong = [
        f"{c} x{counts[c]} (the game has {CARDS[c].copies})"
        for c in sorted(CARDS)  # the deck's ids are cards: the decoder checked them
        if counts[c] != CARDS[c].copies
    ]
    extra = len(deck) - DECK_SIZE
    if not wrong and extra:  # every card as often as the game has it, and other items besides
        wrong = [f"{count(extra, 'item')} that {'is' if extra == 1 else 'are'} no card"]
    return wrong


def deal(table: Table, event: Deal, found: list[Violation]) -> None:
    """A round's deal: a hand for every player, and a reserve with 2 players, each of the
    right size (D1), then the deck's next cards (D1) or no card used too often (S4).

    It takes the dealt cards off the deck and gives each player their hand and reserve.
    """
    players = table.players
    n = len(players)
    size = HAND_SIZE[n]
    expect_players(table, event.hands, "hands")
    expect_players(table, event.reserves, "reserves")
    missing = [p for p in players if p not in event.hands]
    if missing:
        raise Skip("D1", f"no hand is dealt to {', '.join(missing)}; every player gets {size} cards")
    for p in players:
        if len(event.hands[p]) != size:
            raise Skip("D1", f"{p} is dealt {len(event.hands[p])} cards; with {n} players each gets {size}")
    if n == 2:
        reserves = event.reserves or {}
        for p in players:
            got = len(reserves.get(p, ()))
            if got != size:
                raise Skip("D1", f"{p}'s reserve has {got} cards; with 2 players each gets a reserve of {size}")
    elif event.reserves:
        raise Skip("D1", f"reserves are dealt only with 2 players, this game has {n}")
    dealt = [c for p in players for c in event.hands[p]]
    if n == 2:
        dealt += [c for p in players for c in event.reserves[p]]  # type: ignore[index]
    expected = table.from_deck(len(dealt))
    if expected is None:
        conserve(table, dealt, found)
    elif dealt != expected:
        i = next(i for i, (a, b) in enumerate(zip(dealt, expected + [""] * len(dealt))) if a != b)
        deck_card = expected[i] if i < len(expected) else "nothing (the deck is empty)"
        block, at = divmod(i, size)
        whose = players[block % n] + ("'s reserve" if block >= n else "'s hand")
        found.append(
            Violation(
                "D1",
                f"the deal does not follow the deck: card {at + 1} of {whose} is {dealt[i]}, "
                f"but card {table.deck_pos + i + 1} of the deck is {deck_card}",
            )
        )
        table.follow_deck(dealt)
    table.deck_pos += len(dealt)
    table.hands = {p: list(event.hands[p]) for p in players}
    table.reserves = {p: list(event.reserves[p]) for p in players} if n == 2 else {}  # type: ignore[index]
