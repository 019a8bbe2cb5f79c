"""What a player may see (``--as PLAYER``), as ``bkref.game.knowledge`` says (RULES.md I1-I6):
the hands, picks and draws as that player knows them, and the words of the problems that
could name cards they do not see. Without ``seen_by``, all is shown.

>>> from pathlib import Path
>>> from bkref.views.navigation import load
>>> state = load(Path("replays/2p-ann-bob.jsonl"))[4].state  # ann has picked turn 2, bob not yet
>>> seen_hand(state, "ann", "bob"), seen_hand(state, "bob", "bob")[0][:3]
((None, 10, 8), ('C5', 'J8', 'diplomat'))
"""

from __future__ import annotations

import msgspec

from bkref.game.engine import State
from bkref.game.events import Deal, Draw, Pick
from bkref.game.knowledge import seen_draw, seen_pick, view
from bkref.io.diagnostics import Diagnostic
from bkref.io.referee import Step


def seen_hand(state: State, player: str, seen_by: str) -> tuple[tuple[str, ...] | None, int, int]:
    """``player``'s hand as ``seen_by`` knows it (``knowledge.View``): its cards (None for another
    player's hand), how many, and how many cards wait in the 2-player reserve."""
    seen = view(state, seen_by)
    if player == seen_by:
        return seen.hand, len(seen.hand), seen.reserve
    return None, seen.hand_size(player), seen.reserve_size(player)


def kept_seen(pick: Pick, seen_by: str | None) -> tuple[list[str | None], list[str | None] | None]:
    """The cards of a revealed pick as ``seen_by`` sees them (``knowledge.seen_pick``): kept, discarded;
    an unknown card is None."""
    if seen_by is None:
        return list(pick.keep), None if pick.discard is None else list(pick.discard)
    seen = seen_pick(pick, seen_by)
    return seen.keep, seen.discard


def drawn_seen(draw: Draw, seen_by: str | None) -> list[str | None]:
    """The cards of a provisions draw as ``seen_by`` sees them (``knowledge.seen_draw``); an unknown card is None."""
    return list(draw.cards) if seen_by is None else seen_draw(draw, seen_by).cards


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
