"""The JSON Schema of the log format, generated from ``bkref.events``."""

from __future__ import annotations

import msgspec

from bkref.events import FORMAT, Event


def log_schema() -> str:
    """The schema of one log line, as stable, pretty-printed JSON text."""
    schema = msgspec.json.schema(Event)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{FORMAT} game log event",
        "description": "One line of a bkref/1 JSON-lines game log (see LOG-FORMAT.md).",
        **schema,
    }
    return msgspec.json.format(msgspec.json.encode(schema).decode(), indent=2) + "\n"
