"""``bkref explain``: each rule's text, and a log line that breaks it.

The examples (``bkref/data/examples.jsonl``) are lines of the logs in
``replays/illegal/``, with the diagnostic the referee gives them; a test keeps the two
in step.

>>> print(explain("c7").splitlines()[0])
C7 Camp priority
"""

from __future__ import annotations

import json
import textwrap

from bkref import data
from bkref.game.rules import COMPUTED, RULES

WIDTH = 88


def examples() -> list[dict[str, object]]:
    """Every example: the log it comes from, the rule, the line, the event, the diagnostic."""
    text = data.text("examples.jsonl")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def example_for(rule_id: str) -> dict[str, object]:
    """The first example of ``rule_id``; a computed rule's is an X1 on a harvest (H, S, C) or the end (E)."""
    if rule_id in COMPUTED:
        wanted = "X1-final-expect" if rule_id.startswith("E") else "X1-harvest-expect"
        return next(e for e in examples() if str(e["log"]).endswith(f"/{wanted}.jsonl"))
    return next(e for e in examples() if e["rule"] == rule_id)


def _wrap(text: str) -> str:
    return textwrap.fill(text, WIDTH, initial_indent="  ", subsequent_indent="  ")


def _example(example: dict[str, object]) -> list[str]:
    event = json.dumps(example["event"], separators=(",", ":"))
    return [
        f"Example: {example['log']}, line {example['line']}",
        f"  {event}",
        "bkref validate says:",
        f"  {example['diagnostic']}",
    ]


def explain(rule_id: str) -> str:
    """The text of one rule and how a log breaks it; KeyError for an unknown id."""
    rule = RULES[rule_id.upper()]
    lines = [f"{rule.id} {rule.title}", _wrap(rule.text), ""]
    if rule.checked_by == "ruling":
        lines.append(
            textwrap.fill(
                f"A ruling, not a move: a log sets it in its game event, as in "
                f'"rulings":{{"{rule.title}":"..."}}; score breakdowns name the '
                "rulings they applied.",
                WIDTH,
            )
        )
        return "\n".join(lines) + "\n"
    if rule.checked_by == "information":
        lines.append(
            textwrap.fill(
                "Not a move: it says what one player may know. No log breaks it; bkref gives a "
                "player, and a bot playing that seat, only what it allows (bkref.view, bkref.seen).",
                WIDTH,
            )
        )
        return "\n".join(lines) + "\n"
    if rule.id in COMPUTED:
        lines.append(
            textwrap.fill(
                f"No single event breaks {rule.id}: it is part of how the referee counts. "
                "A log that counts otherwise shows it in its expect figures, as X1.",
                WIDTH,
            )
        )
        lines.append("")
    lines += _example(example_for(rule.id))
    return "\n".join(lines) + "\n"


def listing() -> str:
    """Every rule id with its title and how the referee checks it."""
    how = {
        "move": "checked on each event",
        "expect": "counted; shown by X1",
        "information": "what a player may know",
        "ruling": "a ruling",
    }
    rows = [
        f"{rule.id:<3} {rule.title:<24} {how[rule.checked_by]}"
        for rule in sorted(RULES.values(), key=lambda r: ("TSDPCHEIFXR".index(r.id[0]), int(r.id[1:])))
    ]
    return "\n".join(rows) + "\n"
