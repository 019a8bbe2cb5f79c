"""The legal moves at a position of a log in words, for ``bkref moves``.

The position is the end of the log, or the state after event N (events count from 1, as
in ``bkref replay --to``). The moves are ``bkref.game.moves.legal_moves`` there: each,
appended to the log cut after that event, is legal (``bkref validate --partial``).

>>> from bkref.game.events import Build, Pick
>>> words(Pick(round=1, turn=2, player="ann", keep=["A3"], discard=["city1"]))
'ann keeps A3, discards city1'
>>> words(Build(round=1, player="bob", card="sky_tower", at=["B4", "C7"]))
'bob builds sky_tower on B4 and C7'
"""

from __future__ import annotations

from bkref.game.engine import State
from bkref.game.events import Build, Deal, Draw, End, Event, Harvest, Pick
from bkref.game.words import count, joined
from bkref.io.diagnostics import Diagnostic
from bkref.io.referee import NoEvent, Step, play
from bkref.io.sources import LogSource
from bkref.views.navigation import NoSuchEvent
from bkref.views.seenby import problems_seen


def words(move: Event) -> str:
    """One legal move in words."""
    if isinstance(move, Pick):
        kept = f"{move.player} keeps {joined(move.keep)}"
        return f"{kept}, discards {joined(move.discard)}" if move.discard else kept
    if isinstance(move, Build):
        return f"{move.player} builds {move.card} on {joined(move.at)}"
    if isinstance(move, Harvest):
        declared = [
            f"{p} declares {', '.join(f'{sq} {resource}' for sq, resource in posts.items())}"
            for p, posts in move.trading_posts.items()
        ]
        return "the harvest" + (f": {'; '.join(declared)}" if declared else " (no trading post to declare)")
    if isinstance(move, End):
        chosen = [
            f"{p}'s {card} copies {target or 'nothing'}"
            for p, cards in move.copies.items()
            for card, target in cards.items()
        ]
        return "the end" + (f": {'; '.join(chosen)}" if chosen else " (no copy card)")
    if isinstance(move, Draw):
        return f"{move.player}'s provisions draws {joined(move.cards)}"
    if isinstance(move, Deal):
        return f"the deal of round {move.round}, from the deck"
    return type(move).__name__.lower()


def moves_at(
    source: LogSource, label: str | None, number: int | None, seen_by: str | None = None
) -> tuple[Step, list[Diagnostic], int]:
    """The step after event ``number`` of the log from ``source`` (default: the last), the
    diagnostics up to it (as ``seen_by`` may read them, ``seenby.problems_seen``), and the
    number of events up to it.

    Raises ``NoEvent`` for a log without any event, ``NoSuchEvent`` for a ``number`` past
    its last event, ``OSError`` for a source that cannot be read.
    """
    played = play(source, label, partial=True)
    diagnostics: list[Diagnostic] = []
    last: Step | None = None
    events = 0
    for step in played:
        events += 1
        diagnostics.extend(problems_seen(step, seen_by))
        last = step
        if events == number:
            break
    else:
        diagnostics.extend(played.after)
    if last is None:
        raise NoEvent(played.name, diagnostics)
    if number is not None and events < number:
        raise NoSuchEvent(number, events)
    return last, diagnostics, events


def heading(
    label: str, step: Step, events: int, moves: list[Event], player: str | None = None, seen_by: str | None = None
) -> str:
    """What the list is of: the position, the decision due, how many moves (of ``player``, if given).
    With ``seen_by``, the moves are that player's, and who else has still to pick is not said (a pick
    is secret, I3)."""
    state: State = step.state
    where = f"{label}: after event {events} (line {step.line})"
    due = state.due()
    if due.kind == "over":
        return f"{where}: the game is over, no move is left"
    whose = f" ({', '.join(due.players)})" if due.players else ""
    if seen_by is not None and due.kind == "pick":
        whose = f" ({seen_by})" if seen_by in due.players else f" ({seen_by} has picked)"
    what = {
        "pick": "picks",
        "draw": "a provisions draw",
        "build": "builds, or the harvest that closes it",
        "end": "the end: copy choices",
        "deal": "the deal",
        "game": "the game event",
    }[due.kind]
    how_many = count(len(moves), "legal move") + (f" of {player}" if player is not None else "")
    if not moves and due.kind in ("deal", "draw") and state.deck is None:
        how_many = "the log's game event has no deck, so the cards cannot be known"
    return f"{where}, {state.where()}: {what}{whose}; {how_many}"
