"""The JSON Schemas in ``schemas/``, generated from the types: one table, ``SCHEMAS``.

Each ``Schema`` names the option of ``bkref schema`` that prints it, the file of its
committed copy in ``schemas/``, the type it describes, its title and its description:
one line of a ``bkref/1`` log (``bkref.game.events``), the output of ``bkref score
--format json`` (``bkref.io.breakdown``), of ``bkref standings --format json``
(``bkref.io.standings``), a tournament's standings (``bkref.io.tournament``), and what one
player sees: the view of a position and the seen events (``bkref.game.seen``). The bot
protocol's schema is ``bkref.bots.protocol.protocol_schema``, written with ``document``.

>>> [s.option for s in SCHEMAS]
['', '--score', '--standings', '--tournament', '--view', '--seen']
>>> import json
>>> json.loads(SCHEMAS[0].text())["title"]
'bkref/1 game log event'
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from bkref.game.events import FORMAT, Event
from bkref.game.seen import SEEN_FORMAT, VIEW_FORMAT, SeenEvent, SeenView
from bkref.io.breakdown import SCORE_FORMAT, Breakdown
from bkref.io.standings import STANDINGS_FORMAT, Standings
from bkref.io.tournament.tally import TOURNAMENT_STANDINGS_FORMAT, TournamentStandings


class Schema(msgspec.Struct, frozen=True):
    """One schema of ``schemas/``: ``option`` of ``bkref schema`` ("" for the log's, the
    default), ``file`` its committed copy, ``described`` the type, ``title``, ``description``."""

    option: str
    file: str
    described: Any
    title: str
    description: str

    def text(self) -> str:
        """The schema, as stable, pretty-printed JSON text."""
        return document(msgspec.json.schema(self.described), self.title, self.description)


SCHEMAS: Final = (
    Schema(
        "",
        "bkref-1.schema.json",
        Event,
        f"{FORMAT} game log event",
        "One line of a bkref/1 JSON-lines game log (see docs/log-format.md).",
    ),
    Schema(
        "--score",
        "bkref-score-1.schema.json",
        Breakdown,
        f"{SCORE_FORMAT} score breakdown",
        "Where every golden carrot of a bkref/1 game log came from: each harvest's fiefs, "
        "each parchment, the totals, the ranking and the winners (bkref score --format json).",
    ),
    Schema(
        "--standings",
        "bkref-standings-1.schema.json",
        Standings,
        f"{STANDINGS_FORMAT} standings",
        "Many bkref/1 games at once: each game's verdict and scores, then wins and scores by player, "
        "seat and parchment over the games counted (bkref standings --format json).",
    ),
    Schema(
        "--tournament",
        "bkref-tournament-standings-1.schema.json",
        TournamentStandings,
        f"{TOURNAMENT_STANDINGS_FORMAT} tournament standings",
        "The games of a bkref tournament, by bot: win shares and margins with 95 % intervals, the "
        "candidate's paired difference, head to head and ratings (bkref standings --format json of "
        "a tournament's folder).",
    ),
    Schema(
        "--view",
        "bkref-view-1.schema.json",
        SeenView,
        f"{VIEW_FORMAT} view",
        "The position of a bkref/1 game as one player sees it (RULES.md I1-I6; docs/bot-protocol.md, views).",
    ),
    Schema(
        "--seen",
        "bkref-seen-1.schema.json",
        SeenEvent,
        f"{SEEN_FORMAT} seen event",
        "One event of a bkref/1 game as one player sees it: every card that player may not know "
        "is null, the nulls last in their list (RULES.md I1-I6; docs/bot-protocol.md, seen events).",
    ),
)


def schema_of(option: str) -> Schema:
    """The schema ``bkref schema`` prints for ``option`` ("" for none: the log's).

    >>> schema_of("--view").file
    'bkref-view-1.schema.json'
    """
    return next(s for s in SCHEMAS if s.option == option)


def document(schema: dict[str, Any], title: str, description: str) -> str:
    """``schema`` with its header, as stable, pretty-printed JSON text."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "description": description,
        **schema,
    }
    return msgspec.json.format(msgspec.json.encode(schema).decode(), indent=2) + "\n"
