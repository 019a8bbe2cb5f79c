"""``bkref explain``: every rule id, and examples that are the illegal replays' own lines.

Run ``python -m tests.test_explain`` to rewrite ``bkref/data/examples.jsonl`` after
changing ``replays/illegal/``.
"""

from __future__ import annotations

import json

import pytest

from bkref.game.rules import RULES
from bkref.views.explain import example_for
from tests.conftest import REPLAYS, ROOT

EXAMPLES = ROOT / "bkref" / "data" / "examples.jsonl"


def derive_examples() -> str:
    """Each illegal replay's offending line and recorded diagnostic."""
    rows = {}
    for path in sorted((REPLAYS / "illegal").glob("*.jsonl")):
        rule = path.name.split("-")[0]
        diagnostic = path.with_suffix(".expected").read_text().splitlines()[0]
        where, message = diagnostic.split(": ", 1)
        line = int(where.rsplit(":", 1)[1])
        rows[path.name] = {
            "rule": rule,
            "log": str(path.relative_to(ROOT)),
            "line": line,
            "event": json.loads(path.read_text().splitlines()[line - 1]),
            "diagnostic": message,
        }
    return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows.values())


def test_examples_are_the_illegal_replays_lines() -> None:
    assert EXAMPLES.read_text() == derive_examples(), "run: python -m tests.test_explain"


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_explain_covers_every_rule(bkref, rule_id: str) -> None:
    result = bkref("explain", rule_id.lower())
    assert result.exit_code == 0
    rule = RULES[rule_id]
    assert result.stdout.splitlines()[0] == f"{rule_id} {rule.title}"
    assert " ".join(result.stdout.split()).count(" ".join(rule.text.split()[:8])) == 1
    if rule.checked_by == "move":
        example = example_for(rule_id)
        assert f"  {example['diagnostic']}" in result.stdout.splitlines()
        assert example["diagnostic"].startswith(f"{rule_id} ")
    elif rule.checked_by == "expect":
        assert "as X1" in result.stdout
        assert f"  {example_for(rule_id)['diagnostic']}" in result.stdout.splitlines()
        assert example_for(rule_id)["diagnostic"].startswith("X1 ")
    elif rule.checked_by == "information":
        assert "Example:" not in result.stdout
        assert "it says what one player may know" in " ".join(result.stdout.split())


def test_explain_lists_every_rule(bkref) -> None:
    result = bkref("explain")
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == sorted(
        RULES, key=lambda r: ("TSDPCHEIFXR".index(r[0]), int(r[1:]))
    )


def test_explain_unknown_rule_is_one_line_and_exit_2(bkref) -> None:
    result = bkref("explain", "Z9")
    assert result.exit_code == 2
    assert result.stderr == "bkref: error: no rule Z9; `bkref explain` lists them\n"


if __name__ == "__main__":
    EXAMPLES.write_text(derive_examples())


@pytest.mark.parametrize("rule_id", ["E2", "E3", "E4", "E9"])
def test_a_rule_whose_title_is_its_subject_reads_as_a_sentence(bkref, rule_id: str) -> None:
    """RULES.md writes "**E3 Cities for missions** are counted, ...": the text starts with the title."""
    text = bkref("explain", rule_id).stdout.splitlines()[1].strip()
    assert text.startswith(f"{RULES[rule_id].title} ") and text[0].isupper()


def test_every_rule_text_starts_a_sentence() -> None:
    assert [r for r, rule in RULES.items() if rule.text[:1].islower()] == []
