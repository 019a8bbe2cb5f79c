"""The JSON Schemas in ``schemas/``, generated from the types.

``log_schema`` describes one line of a ``bkref/1`` log (``bkref.game.events``),
``score_schema`` the output of ``bkref score --format json`` (``bkref.io.breakdown``),
``standings_schema`` that of ``bkref standings --format json`` (``bkref.io.standings``),
``tournament_schema`` that of a tournament's standings (``bkref.io.tournament``),
``view_schema`` and ``seen_schema`` what one player sees: the view of a position and the
seen events (``bkref.game.seen``).
``bkref schema`` prints them (``--score``, ``--standings``, ``--tournament``, ``--view``, ``--seen``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from bkref.game.events import FORMAT, Event
from bkref.game.seen import SEEN_FORMAT, VIEW_FORMAT, SeenEvent, SeenView
from bkref.io.breakdown import SCORE_FORMAT, Breakdown
from bkref.io.standings import STANDINGS_FORMAT, Standings
from bkref.io.tournament import TOURNAMENT_STANDINGS_FORMAT, TournamentStandings


def document(schema: dict[str, Any], title: str, description: str) -> str:
    """``schema`` with its header, as stable, pretty-printed JSON text."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "description": description,
        **schema,
    }
    return msgspec.json.format(msgspec.json.encode(schema).decode(), indent=2) + "\n"


def log_schema() -> str:
    """The schema of one log line, as stable, pretty-printed JSON text."""
    return document(
        msgspec.json.schema(Event),
        f"{FORMAT} game log event",
        "One line of a bkref/1 JSON-lines game log (see LOG-FORMAT.md).",
    )


def score_schema() -> str:
    """The schema of a score breakdown (``bkref score --format json``), as stable JSON text."""
    return document(
        msgspec.json.schema(Breakdown),
        f"{SCORE_FORMAT} score breakdown",
        "Where every golden carrot of a bkref/1 game log came from: each harvest's fiefs, "
        "each parchment, the totals, the ranking and the winners (bkref score --format json).",
    )


def standings_schema() -> str:
    """The schema of ``bkref standings --format json``, as stable JSON text."""
    return document(
        msgspec.json.schema(Standings),
        f"{STANDINGS_FORMAT} standings",
        "Many bkref/1 games at once: each game's verdict and scores, then wins and scores by player, "
        "seat and parchment over the games counted (bkref standings --format json).",
    )


def tournament_schema() -> str:
    """The schema of a tournament's standings (``bkref standings --format json`` of a
    tournament's folder), as stable JSON text."""
    return document(
        msgspec.json.schema(TournamentStandings),
        f"{TOURNAMENT_STANDINGS_FORMAT} tournament standings",
        "The games of a bkref tournament, by bot: win shares and margins with 95 % intervals, the "
        "candidate's paired difference, head to head and ratings (bkref standings --format json of "
        "a tournament's folder).",
    )


def view_schema() -> str:
    """The schema of the view of one player (``View.struct()``), as stable JSON text."""
    return document(
        msgspec.json.schema(SeenView),
        f"{VIEW_FORMAT} view",
        "The position of a bkref/1 game as one player sees it (RULES.md I1-I6; BOT-PROTOCOL.md, views).",
    )


def seen_schema() -> str:
    """The schema of one seen event (``bkref.game.knowledge.Seer``), as stable JSON text."""
    return document(
        msgspec.json.schema(SeenEvent),
        f"{SEEN_FORMAT} seen event",
        "One event of a bkref/1 game as one player sees it: every card that player may not know "
        "is null, the nulls last in their list (RULES.md I1-I6; BOT-PROTOCOL.md, seen events).",
    )
