"""The ``bkref`` command line: a thin layer over the referee, the scorer and the renderer.

Each command is a module of this package, registered on ``app`` when imported; they
are imported in the order ``bkref --help`` lists them.
"""

from __future__ import annotations

import copy
import signal
import sys
from importlib import import_module

import typer
from typer.main import get_command_name

from bkref.cli.app import app

COMMANDS = ("validate", "score", "standings", "replay", "moves", "simulate", "explain", "schema")
for _command in COMMANDS:
    import_module(f"bkref.cli.{_command}")

__all__ = ["COMMANDS", "app", "main", "running"]


def main() -> None:
    """The ``bkref`` command, with the habits of command-line tools.

    A closed pipe (``bkref validate DIR | head -1``) ends bkref as SIGPIPE ends any tool
    (status 141 in the shell), never with a status that means something else (Click
    would exit 1, "illegal"). Ctrl-C ends a command with status 130 and no traceback
    (Typer's doing). ``prog_name`` keeps completion the same for ``python -m bkref``.
    """
    if hasattr(signal, "SIGPIPE"):  # not on Windows
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    running(sys.argv[1:])(prog_name="bkref")


def running(args: list[str]) -> typer.Typer:
    """The application that runs ``bkref ARGS``: when the first argument names a command, a
    copy of ``app`` with that command alone, else ``app``.

    Typer reads every command's signature and builds its options before it parses the
    arguments: building only the command that runs takes a tenth off ``bkref validate``'s
    start. What the command does, prints and exits with is the same, ``--help`` included.

    >>> [info.callback.__name__ for info in running(["score", "game.jsonl"]).registered_commands]
    ['score']
    >>> running(["--help"]) is app
    True
    """
    for info in app.registered_commands:
        if args[:1] == [info.name or get_command_name(info.callback.__name__)]:  # type: ignore[union-attr]
            alone = copy.copy(app)
            alone.registered_commands = [info]
            return alone
    return app
