"""Driving a bot program from Python, as ``chess.engine.SimpleEngine`` drives a UCI engine:
``Engine.open(command)`` starts it (``hello``), ``ask(state, player, ms=...)`` gives its move
on any position with the seconds it took, ``close()`` (or ``with``) stops it. A bot author
can so test their program on chosen positions.

>>> import sys
>>> from bkref.bots.simulate import simulate
>>> from bkref.game.engine import State
>>> state = State()
>>> for event in simulate(3, seed=1)[:2]:
...     found = state.play(event)
>>> bot = [sys.executable, "examples/bots/random_bot.py"]  # the checkout's example bot
>>> with Engine.open(bot) as engine:
...     played = engine.ask(state, "ann", ms=5000)
>>> played.move in state.legal_moves("ann"), engine.program.alive
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec

from bkref.bots.program import BotFault, Program, ask_all, new_decide
from bkref.bots.protocol import Choice, GameStart
from bkref.bots.seats import asked
from bkref.game.engine import State
from bkref.game.knowledge import view


class Engine:
    """A bot program driven from Python (see the module): ``Engine.open(command)``, then
    ``ask(state, player, ms=...)`` for its move on any position, ``close()`` (or ``with``)."""

    def __init__(self, program: Program) -> None:
        self.program = program

    @classmethod
    def open(cls, command: Sequence[str], stderr: Path | None = None) -> Engine:
        """Start ``command`` and exchange ``hello``; ``BotFault`` if it does not."""
        program = Program(command, stderr)
        program.start()
        return cls(program)

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def version(self) -> str:
        return self.program.version

    def ask(self, state: State, player: str, ms: int = 5000, seed: int = 0) -> Played:
        """``player``'s move on ``state`` as the bot chooses it (the decision due now): the move,
        its ``info`` and the seconds it took; ``BotFault`` for a fault. The bot is sent the
        game and the seat first (no seen events: the view holds the position). A construction
        is asked as one ``build`` decision, every build of the player (camps included) and
        ``None``: a position does not say which camps its player has already kept this round,
        so the ``camp`` decisions of a game (docs/bot-protocol.md) cannot be asked from it.
        ``ValueError`` for a bot that asked for no views (``views: "none"`` in its hello): it
        would be sent neither the position nor the events that lead to it."""
        if self.program.views == "none":
            raise ValueError(
                f"{self.name} asked for no views in its hello: Engine.ask gives a bot a position, "
                "which only a view holds (start it so that it asks for views whole or as patches)"
            )
        kind, moves = asked(state.legal_moves(player))
        self.program.send(GameStart(seat=player, players=list(state.players), rulings=state.rulings, seed=seed))
        ((result),) = ask_all([(self.program, new_decide(self.program, kind, moves, view(state, player).struct(), ms))])
        if isinstance(result, BotFault):
            raise result
        return Played(result.move, result.info, result.seconds)

    def close(self) -> None:
        self.program.stop()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class Played(msgspec.Struct):
    """A bot's move on a position (``Engine.ask``): the move, its ``info``, the seconds it took."""

    move: Choice
    info: Any
    seconds: float
