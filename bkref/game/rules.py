"""The rule ids the referee names, with their text from RULES.md (shipped in ``bkref/data``).

>>> RULES["C6"].title
'Camp'
>>> RULES["X1"].checked_by
'move'
>>> RULES["H4"].checked_by
'expect'
>>> RULES["I3"].checked_by
'information'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bkref import data
from bkref.game.catalog import CatalogError

COMPUTED: Final = frozenset({"S2", "S3", "C1", "C8", "H2", "H3", "H4", "E1", "E2", "E3", "E4", "E5", "E6", "E8", "E9"})
"""Rules no single event can break: facts and formulas the referee applies. A log that
reads them otherwise shows it in its ``expect`` figures (X1)."""

_ITEM = re.compile(r"^- \*\*(?P<id>[A-Z]\d+) (?P<title>.+?)\*\*(?P<colon>:?)\s*(?P<text>.*)$")


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str

    @property
    def checked_by(self) -> str:
        """``move`` for rules a log's events can break, ``expect`` for computed ones, ``ruling`` for
        R1-R6, ``information`` for I1-I6 (what each player may know: ``bkref.game.knowledge``)."""
        if self.id.startswith("R"):
            return "ruling"
        if self.id.startswith("I"):
            return "information"
        return "expect" if self.id in COMPUTED else "move"


_EXTRA = (
    Rule(
        "F1",
        "Format",
        "Every line of a log is a bkref/1 event (docs/log-format.md): UTF-8 JSON, one object a "
        "line, a known type, the fields of that type and no others, known card, square and player ids, "
        "starting with a game event.",
    ),
    Rule(
        "X1",
        "Expectation",
        "Every `expect` in a log (a harvest's carrots, the end's totals) equals the referee's own figure.",
    ),
)


def _load() -> dict[str, Rule]:
    """Each ``- **ID Title.** text`` item of RULES.md, with its indented continuation lines.

    An item may go on from its title ("**E3 Cities for missions** are counted"): its text
    then starts with the title, so that it reads as a sentence on its own; after a colon
    ("**R2 `opportunist_tie`**: a player is second"), with a capital.
    """
    text = data.text("RULES.md")
    items: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        match = _ITEM.match(line)
        if match:
            title, first = match["title"].rstrip(".").strip("`"), match["text"]
            if first[:1].islower():
                first = first[0].upper() + first[1:] if match["colon"] else f"{match['title']} {first}"
            items.append((match["id"], title, [first]))
        elif items and line.startswith("  ") and line.strip():
            items[-1][2].append(line.strip())
    return {rule_id: Rule(rule_id, title, " ".join(lines)) for rule_id, title, lines in items}


def _finish(rules: dict[str, Rule]) -> dict[str, Rule]:
    for rule in _EXTRA:
        rules[rule.id] = rule
    expected = {
        "T1",
        *(f"S{i}" for i in range(1, 6)),
        *(f"D{i}" for i in range(1, 6)),
        *(f"P{i}" for i in range(1, 5)),
        *(f"C{i}" for i in range(1, 9)),
        *(f"H{i}" for i in range(1, 5)),
        *(f"E{i}" for i in range(1, 10)),
        *(f"I{i}" for i in range(1, 7)),
        *(f"R{i}" for i in range(1, 7)),
        "F1",
        "X1",
    }
    if set(rules) != expected:
        raise CatalogError(f"RULES.md: rule ids differ from the referee's: {sorted(set(rules) ^ expected)}")
    return rules


RULES: Final = _finish(_load())
