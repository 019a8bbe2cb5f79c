"""bkref: the referee and replay tool for Bunny Kingdom game logs (``bkref/1``).

The rules are pure and apart from any I/O: ``bkref.game.engine.State`` is the game, and
``state.play(event)`` applies one event and returns the rules it broke.
``bkref.io.referee`` reads a log into that engine, and ``bkref.game.scoring`` and
``bkref.views.render`` explain the result. ``bkref.cli`` is the command line on top of them.

>>> from pathlib import Path
>>> from bkref.io.referee import check
>>> report = check(Path("replays/2p-ann-bob.jsonl"))
>>> report.status, report.state.final.winners
(0, ['ann'])
"""
