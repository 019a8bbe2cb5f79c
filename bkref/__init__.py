"""bkref: the referee and replay tool for Bunny Kingdom game logs (``bkref/1``).

The rules are pure and apart from any I/O: ``bkref.engine.State`` is the game, and
``state.play(event)`` applies one event and returns the rules it broke.
``bkref.referee`` reads a log into that engine, and ``bkref.scoring`` and
``bkref.render`` explain the result. ``bkref.cli`` is the command line on top of them.

>>> from pathlib import Path
>>> from bkref.referee import check
>>> report = check(Path("replays/2p-ann-bob.jsonl"))
>>> report.status, report.state.final.winners
(0, ['ann'])
"""
