"""The errors of ``bkref.bots``, in the library's words and carrying their values:
``bkref.cli.simulate`` words them with the command's option names.

>>> str(OptionError("players", 5, "2, 3 or 4"))
'players must be 2, 3 or 4, not 5'
>>> error = PolicyError("policy bot.py:play: bot.py has no function play", spec="bot.py:play")
>>> error.spec, error.traceback
('bot.py:play', '')
"""

from __future__ import annotations

import traceback as tracebacks


class OptionError(ValueError):
    """An argument of ``simulate`` that makes no game: the ``parameter`` as ``simulate``
    names it, the ``value`` it was given, and what it may be (``accepted``, a phrase that
    follows "must be")."""

    def __init__(self, parameter: str, value: object, accepted: str) -> None:
        super().__init__(parameter, value, accepted)
        self.parameter = parameter
        self.value = value
        self.accepted = accepted

    def __str__(self) -> str:
        return f"{self.parameter} must be {self.accepted}, not {self.value!r}"


class PolicyError(ValueError):
    """A policy that cannot be loaded or that broke the protocol: a one-line message, the
    policy as it was named (``spec``), and the ``traceback`` of the policy's own exception
    when it raised one (empty otherwise)."""

    def __init__(self, message: str, *, spec: str = "", traceback: str = "") -> None:
        super().__init__(message)
        self.spec = spec
        self.traceback = traceback


class SimulationError(Exception):
    """The engine refused an event the simulator made: a bug in one of the two."""


def traceback_of(error: BaseException) -> str:
    """The traceback Python prints for ``error``, as text."""
    return "".join(tracebacks.format_exception(error))
