"""The library's errors in the command line's words: which option gave the value, and what to give.

The library raises errors that carry values (``NoEvent``, ``NoSuchEvent``, ``NoHarvest``);
the commands word them here, with their option names, as one-line errors (exit status 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import typer

from bkref.cli.app import fail
from bkref.game.engine import ROUNDS

if TYPE_CHECKING:
    from bkref.views.navigation import NoHarvest, NoSuchEvent


def event_number(to: str, events: int | None = None) -> typer.Exit:
    """``--to`` names no event: it is not a number from 1, or (given ``events``) the log has no such event."""
    if events is None:
        return fail(f"--to {to}: give an event number, from 1")
    return fail(f"--to {to}: give an event number; this log has events 1 to {events}")


def no_such_event(to: str, error: NoSuchEvent) -> typer.Exit:
    """``--to`` names an event past the log's last one."""
    return event_number(to, error.events)


def round_number(round_: str) -> typer.Exit:
    """``--round`` is not a round number."""
    return fail(f"--round {round_}: give a round number, 1 to {ROUNDS}")


def no_harvest(error: NoHarvest) -> typer.Exit:
    """``--round`` names a round whose harvest the log does not reach."""
    return fail(f"--round {error.round}: this log has no harvest of round {error.round}; it stops {error.stops}")


def seen_by(name: str, players: Sequence[str], option: str = "--as") -> typer.Exit:
    """``replay --as`` (or ``moves --player``: ``option``) names no player of the game."""
    known = f"this game's players are {', '.join(players)}" if players else "this log names no players"
    return fail(f"{option} {name}: {known}")


def scored_player(path: object, name: str, players: Sequence[str]) -> typer.Exit:
    """``score --player`` names no player of the game."""
    return fail(f"{path}: {name!r} is not a player of this game ({', '.join(players)})")
