"""The ``bkref`` command line: a thin layer over the referee, the scorer and the renderer.

Each command is a module of this package, registered on ``app`` when imported; they
are imported in the order ``bkref --help`` lists them.
"""

from __future__ import annotations

import signal
from importlib import import_module

from bkref.cli.app import app

COMMANDS = ("validate", "score", "standings", "replay", "moves", "simulate", "explain", "schema")
for _command in COMMANDS:
    import_module(f"bkref.cli.{_command}")

__all__ = ["COMMANDS", "app", "main"]


def main() -> None:
    """The ``bkref`` command, with the habits of command-line tools.

    A closed pipe (``bkref validate DIR | head -1``) ends bkref as SIGPIPE ends any tool
    (status 141 in the shell), never with a status that means something else (Click
    would exit 1, "illegal"). Ctrl-C ends a command with status 130 and no traceback
    (Typer's doing). ``prog_name`` keeps completion the same for ``python -m bkref``.
    """
    if hasattr(signal, "SIGPIPE"):  # not on Windows
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    app(prog_name="bkref")
