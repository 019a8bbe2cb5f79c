"""The ``bkref`` command line: a thin layer over the referee, the scorer and the renderer.

Each command is a module of this package, registered on ``app`` when imported; they
are imported in the order ``bkref --help`` lists them.
"""

from __future__ import annotations

from importlib import import_module

from bkref.cli.app import app

COMMANDS = ("validate", "score", "standings", "replay", "simulate", "explain", "schema")
for _command in COMMANDS:
    import_module(f"bkref.cli.{_command}")

__all__ = ["COMMANDS", "app", "main"]


def main() -> None:
    app()
