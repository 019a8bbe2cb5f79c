"""The tables beside the board: the players, the latest harvest, the final scores.

>>> from pathlib import Path
>>> from bkref.io.referee import play
>>> state = list(play(Path("replays/2p-ann-bob.jsonl"), keep=True))[-1].state
>>> winners(state)
'ann wins with 125'
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from bkref.game.catalog import CARDS
from bkref.game.engine import State
from bkref.game.fiefs import yield_of
from bkref.game.words import count, joined
from bkref.io.diagnostics import printable
from bkref.views.palette import SEAT_STYLES
from bkref.views.seenby import seen_hand
from bkref.views.squares import seat_letters
from bkref.views.terminal import table as table_of


def supply(state: State, player: str) -> str:
    """The buildings in ``player``'s supply, in card order ("city2 x2, farm_pearl"), or "-"."""
    held = state.supply_of(player)
    shown = [f"{card} x{n}" if n > 1 else card for card in CARDS if (n := held.get(card, 0)) > 0]
    return ", ".join(shown) or "-"


def hand_of(state: State, player: str, seen_by: str | None) -> tuple[tuple[str, ...] | None, int, int]:
    """``player``'s hand: its cards (None when hidden from ``seen_by``, ``seenby.seen_hand``), how many,
    and how many cards wait in the reserve."""
    if seen_by is not None:
        return seen_hand(state, player, seen_by)
    cards = tuple(state.hand_of(player)) if state.phase == "exploring" else ()
    return cards, len(cards), state.reserve_size(player)


def _hand(state: State, player: str, seen_by: str | None) -> str:
    if state.phase != "exploring":
        return "-"
    cards, size, left = hand_of(state, player, seen_by)
    hand = count(size, "card") if cards is None else ", ".join(cards) or "-"
    return hand + (f" (+{left} in reserve)" if left else "")


def players_table(state: State, seen_by: str | None = None) -> Table:
    """Each player: squares controlled, hand, supply, parchments held, and carrots so far
    (``State.carrots_of``: the harvests, then the final total once the end is scored)."""
    table = table_of(
        "",
        "player",
        "squares",
        "hand",
        "supply",
        "parchments",
        "carrots",
        prose=("hand", "supply"),
        numbers=("squares", "parchments", "carrots"),
    )
    letters = seat_letters(state.players)
    for i, p in enumerate(state.players):
        table.add_row(
            Text(f" {letters[p]} ", SEAT_STYLES[i]),
            printable(p),
            str(len(state.squares_of(p))),
            _hand(state, p, seen_by),
            supply(state, p),
            str(len(state.parchments_of(p))),
            str(state.carrots_of(p)),
        )
    return table


def harvest_table(state: State) -> Table:
    """The latest harvest: each player's fiefs with strength, wealth and carrots (H2-H4)."""
    table = table_of(
        "player",
        "fief",
        "strength",
        "wealth",
        "carrots",
        numbers=("strength", "carrots"),
        prose=("fief",),
        title=f"harvest of round {state.harvests_done}",
    )
    for p in state.players:
        fiefs = state.last_harvest(p)
        for fief in fiefs:
            if fief.carrots:
                table.add_row(
                    printable(p),
                    f"{fief.squares[0]} ({count(len(fief.squares), 'square')})",
                    str(fief.strength),
                    f"{fief.wealth} ({', '.join(fief.resources)})",
                    str(fief.carrots),
                )
        idle = [f.squares[0] for f in fiefs if not f.carrots]
        if idle:
            table.add_row(printable(p), f"{len(idle)} more yielding nothing: {', '.join(idle)}", "", "", "0")
        table.add_row("", "", "", f"{printable(p)}'s total", str(yield_of(fiefs)), end_section=True)
    return table


def final_scores(state: State) -> Group:
    """The final scores (E1-E9): per player the harvests, each parchment's points, the total.

    What each parchment counted is ``bkref score``'s business; here one line per player
    keeps the board in view.
    """
    final = state.final
    assert final is not None
    table = table_of(
        "player",
        "harvests",
        "parchments",
        "total",
        numbers=("total",),
        prose=("parchments",),
        title="final scores (bkref score shows what each parchment counted)",
    )
    for p in final.ranking:
        score = final.players[p]
        cards = ", ".join(
            f"{row.card}{f' ({row.copied})' if row.copied else ''} {row.points}" for row in score.parchments
        )
        table.add_row(
            printable(p),
            f"{'+'.join(map(str, score.harvests))} = {score.harvest}",
            f"{score.parchment_total}: {cards}" if cards else "0",
            str(score.total),
        )
    rulings = ", ".join(f"{name} {value}" for name, value in final.rulings.items())
    return Group(table, Text(winners(state)), Text(f"rulings: {rulings}"))


def winners(state: State) -> str:
    """Who won the finished game, and with how many points: "ann wins with 125"."""
    final = state.final
    assert final is not None
    best = final.players[final.winners[0]].total
    if len(final.winners) == 1:
        return printable(f"{final.winners[0]} wins with {best}")
    return printable(f"{joined(final.winners)} win with {best} (tied)")
