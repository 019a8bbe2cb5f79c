"""bkref: the referee and replay tool for Bunny Kingdom game logs (``bkref/1``).

The public API is the names below (``bkref.__all__``); the manual's "Using bkref from
Python" shows them at work. Where things are: the rules are pure and apart from any
I/O in ``bkref.game`` (``engine.State`` is the game, ``state.play(event)`` applies one
event and returns the rules it broke, ``moves`` lists the legal moves); ``bkref.io``
reads logs from any source and plays them through the engine; ``bkref.views`` draws
them; ``bkref.bots`` plays games; ``bkref.cli`` is the command line on top of them.

>>> import bkref
>>> report = bkref.check("replays/2p-ann-bob.jsonl")
>>> report.status, report.state.final.winners, report.scores
(0, ['ann'], {'ann': 125, 'bob': 123})

The names are loaded when first used, so that ``import bkref`` (and the command line)
stays quick.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bkref.game.engine import Due, History, State, Violation, apply
    from bkref.game.events import Build, Deal, Draw, End, Event, Game, Harvest, Pick, Rulings
    from bkref.game.knowledge import Seer, View, view
    from bkref.game.moves import LegalMoves, Lister, Move, builds, declarations, ends, harvests, legal_moves, picks
    from bkref.game.results import Fief
    from bkref.game.seen import SeenEvent
    from bkref.io.breakdown import Breakdown
    from bkref.io.breakdown import breakdown as score
    from bkref.io.diagnostics import Diagnostic
    from bkref.io.logfile import Problem, Record
    from bkref.io.referee import NoEvent, Playing, Report, Step, check, play
    from bkref.io.sources import LogSource, read

    __version__: str

_WHERE = {
    "Due": "bkref.game.engine",
    "History": "bkref.game.engine",
    "State": "bkref.game.engine",
    "Violation": "bkref.game.engine",
    "apply": "bkref.game.engine",
    "Build": "bkref.game.events",
    "Deal": "bkref.game.events",
    "Draw": "bkref.game.events",
    "End": "bkref.game.events",
    "Event": "bkref.game.events",
    "Game": "bkref.game.events",
    "Harvest": "bkref.game.events",
    "Pick": "bkref.game.events",
    "Rulings": "bkref.game.events",
    "Seer": "bkref.game.knowledge",
    "View": "bkref.game.knowledge",
    "view": "bkref.game.knowledge",
    "Fief": "bkref.game.results",
    "LegalMoves": "bkref.game.moves",
    "Lister": "bkref.game.moves",
    "Move": "bkref.game.moves",
    "builds": "bkref.game.moves",
    "declarations": "bkref.game.moves",
    "ends": "bkref.game.moves",
    "harvests": "bkref.game.moves",
    "legal_moves": "bkref.game.moves",
    "picks": "bkref.game.moves",
    "Breakdown": "bkref.io.breakdown",
    "score": "bkref.io.breakdown:breakdown",
    "Diagnostic": "bkref.io.diagnostics",
    "Problem": "bkref.io.logfile",
    "Record": "bkref.io.logfile",
    "NoEvent": "bkref.io.referee",
    "Playing": "bkref.io.referee",
    "Report": "bkref.io.referee",
    "Step": "bkref.io.referee",
    "check": "bkref.io.referee",
    "play": "bkref.io.referee",
    "LogSource": "bkref.io.sources",
    "read": "bkref.io.sources",
}

__all__ = [
    "Breakdown",
    "Build",
    "Deal",
    "Diagnostic",
    "Draw",
    "Due",
    "End",
    "Event",
    "Fief",
    "Game",
    "Harvest",
    "History",
    "LegalMoves",
    "Lister",
    "LogSource",
    "Move",
    "NoEvent",
    "Pick",
    "Playing",
    "Problem",
    "Record",
    "Report",
    "Rulings",
    "Seer",
    "State",
    "Step",
    "View",
    "Violation",
    "__version__",
    "apply",
    "builds",
    "check",
    "declarations",
    "ends",
    "harvests",
    "legal_moves",
    "picks",
    "play",
    "read",
    "score",
    "seen",
    "view",
]


def seen(log: LogSource, player: str) -> list[SeenEvent]:
    """The events of ``log`` (any source ``read`` takes) as ``player`` saw them (RULES.md I1-I6):
    every card they may not know is None (``bkref.game.knowledge.seen_events``). Lines that
    are not events are left out."""
    from bkref.game.knowledge import seen_events
    from bkref.io.logfile import Record
    from bkref.io.sources import read

    return seen_events((item.event for item in read(log) if isinstance(item, Record)), player)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import version

        value: Any = version("bkref")
    elif name in _WHERE:
        module, _, attribute = _WHERE[name].partition(":")
        value = getattr(import_module(module), attribute or name)
    else:
        raise AttributeError(f"module 'bkref' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
