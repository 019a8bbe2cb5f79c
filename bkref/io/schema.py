"""The JSON Schemas in ``schemas/``, generated from the types.

``log_schema`` describes one line of a ``bkref/1`` log (``bkref.game.events``),
``score_schema`` the output of ``bkref score --format json`` (``bkref.io.breakdown``).
``bkref schema`` and ``bkref schema --score`` write them.
"""

from __future__ import annotations

from typing import Any

import msgspec

from bkref.game.events import FORMAT, Event
from bkref.io.breakdown import SCORE_FORMAT, Breakdown


def _document(schema: dict[str, Any], title: str, description: str) -> str:
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
    return _document(
        msgspec.json.schema(Event),
        f"{FORMAT} game log event",
        "One line of a bkref/1 JSON-lines game log (see LOG-FORMAT.md).",
    )


def score_schema() -> str:
    """The schema of a score breakdown (``bkref score --format json``), as stable JSON text."""
    return _document(
        msgspec.json.schema(Breakdown),
        f"{SCORE_FORMAT} score breakdown",
        "Where every golden carrot of a bkref/1 game log came from: each harvest's fiefs, "
        "each parchment, the totals, the ranking and the winners (bkref score --format json).",
    )
