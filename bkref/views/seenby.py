"""What a player may see (``--as PLAYER``): the others' hands, the cards of their discards,
which parchments they play (P4, D3), and the words of the problems that could name them are
hidden from that player. Without ``seen_by``, all is shown.

>>> hidden_from("ann", seen_by="bob"), hidden_from("ann", seen_by="ann"), hidden_from("ann", seen_by=None)
(True, False, False)
"""

from __future__ import annotations

import msgspec

from bkref.game.catalog import CARDS
from bkref.game.events import Deal, Draw, Pick
from bkref.io.diagnostics import Diagnostic
from bkref.io.referee import Step


def hidden_from(player: str, seen_by: str | None) -> bool:
    """Whether ``player``'s secrets are hidden from whom the replay is shown to."""
    return seen_by is not None and seen_by != player


def problems_seen(step: Step, seen_by: str | None) -> list[Diagnostic]:
    """The diagnostics of ``step`` as ``seen_by`` may read them: those of a deal, and of
    another player's pick or draw, without their words, which may name cards of a hand
    ``seen_by`` could not see (the rule and the line stay). The problems of other lines
    shown with the step (an F1 line before it) keep theirs."""
    event = step.event
    if seen_by is None or not (isinstance(event, Deal) or (isinstance(event, Pick | Draw) and event.player != seen_by)):
        return step.diagnostics
    unseen = f"not shown with --as {seen_by}: it may name cards {seen_by} does not see"
    return [msgspec.structs.replace(d, message=unseen) if d.line == step.line else d for d in step.diagnostics]


def card_seen(card: str, player: str, seen_by: str | None) -> str:
    """A card ``player`` plays face up, or "a parchment" if it is hidden (P4)."""
    return "a parchment" if CARDS[card].is_parchment and hidden_from(player, seen_by) else card
