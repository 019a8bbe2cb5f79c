"""``bkref moves``: the legal moves at a position of a log, in words or as ``bkref/1`` events.

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

from pathlib import Path
from typing import TextIO

import msgspec

from bkref.game.engine import State
from bkref.game.events import Build, Deal, Draw, End, Event, Harvest, Pick
from bkref.game.moves import legal_moves
from bkref.game.words import count, joined
from bkref.io.diagnostics import Diagnostic, exit_status
from bkref.io.referee import Step, play
from bkref.io.sources import STDIN, one_log


class MovesError(Exception):
    """A log with no position to list, or a ``--to`` that names no event: one line for the user."""


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


def position(source: Path, to: str | None, stdin: TextIO | None) -> tuple[Step, list[Diagnostic], int]:
    """The step after event ``to`` (default: the last), the diagnostics up to it, and the number of events."""
    wanted = None
    if to is not None:
        if not to.strip().isdecimal() or int(to) < 1:
            raise MovesError(f"--to {to}: give an event number, from 1")
        wanted = int(to)
    diagnostics: list[Diagnostic] = []
    last: Step | None = None
    events = 0
    with one_log(source, stdin, MovesError) as (log, label):
        for item in play(log, label, partial=True):
            if isinstance(item, Diagnostic):
                diagnostics.append(item)
                continue
            events += 1
            diagnostics.extend(item.diagnostics)
            last = item
            if events == wanted:
                break
    if last is None:
        raise MovesError(diagnostics[0].text() if diagnostics else f"{source}: the log holds no event")
    if wanted is not None and events < wanted:
        raise MovesError(f"--to {to}: give an event number; this log has events 1 to {events}")
    return last, diagnostics, events


def heading(label: str, step: Step, events: int, moves: list[Event]) -> str:
    """What the list is of: the position, the decision due, how many moves."""
    state: State = step.state
    due = state.due()
    whose = f" ({', '.join(due.players)})" if due.players else ""
    what = {
        "pick": "picks",
        "draw": "a provisions draw",
        "build": "construction: builds, or the harvest that closes it",
        "end": "the end: copy choices",
        "deal": "the deal",
    }.get(due.kind, "nothing: the game is over")
    how_many = count(len(moves), "legal move")
    if not moves and due.kind in ("deal", "draw"):
        how_many = "the log's game event has no deck, so the cards cannot be known"
    return f"{label}: after event {events} (line {step.line}), {state.where()}: {what}{whose}; {how_many}"


def run(source: Path, *, to: str | None, as_json: bool, out: TextIO, err: TextIO, stdin: TextIO | None = None) -> int:
    """``bkref moves``: print the legal moves at the position; return the exit status of the
    log up to it, as ``validate --partial`` gives it. Raises ``MovesError``."""
    step, diagnostics, events = position(source, to, stdin)
    moves: list[Event] = list(legal_moves(step.state))
    err.writelines(d.text() + "\n" for d in diagnostics)
    if as_json:
        out.writelines(msgspec.json.encode(move).decode() + "\n" for move in moves)
    else:
        label = "-" if source == STDIN else str(source)
        out.write(heading(label, step, events, moves) + "\n")
        out.writelines(f"{i:>4}  {words(move)}\n" for i, move in enumerate(moves, start=1))
    return exit_status(diagnostics)
