"""Every log in replays/illegal breaks exactly the rule its name starts with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bkref.game.rules import RULES
from tests.conftest import REPLAYS, ROOT

ILLEGAL = sorted((REPLAYS / "illegal").glob("*.jsonl"))


# Every way a log breaks each rule, as a condition of the rule's sentences in RULES.md, each
# named by its log in replays/illegal (RULE-way.jsonl). Each log gives one diagnostic, a root.
WAYS: dict[str, tuple[str, ...]] = {
    "C2": (
        "city-on-another-players-square",
        "city-on-unclaimed-square",
        "farm-on-another-players-square",
        "sky-tower-on-another-players-square",
    ),
    "C3": ("city-on-printed-city", "city-on-two-squares", "farm-on-a-city"),
    "C4": ("city3-off-mountain", "luxury-farm-off-its-terrain"),
    "C5": ("sky-tower-in-one-fief", "tokens-on-the-same-square", "tower-with-one-token"),
    "C6": ("camp-on-a-printed-city", "camp-on-a-rabbit", "camp-on-own-square"),
    "C7": ("camps-out-of-order",),
    "D1": (
        "deal-out-of-deck-order",
        "hand-one-card-short",
        "no-hand-for-a-player",
        "no-reserve-for-a-player",
        "reserves-with-three-players",
    ),
    "D2": (
        "discards-with-three-players",
        "keep-not-in-hand",
        "keeps-one-card",
        "keeps-one-card-twice",
        "keeps-three-cards",
    ),
    "D3": (
        "discards-a-card-not-in-hand",
        "discards-the-kept-card",
        "keeps-a-later-reserve-card",
        "keeps-two-cards",
        "no-discard",
    ),
    "D4": ("draw-before-picks",),
    "D5": ("passed-right-in-round-1", "passed-the-wrong-way"),
    "E7": (
        "copies-a-copy-card",
        "copies-nothing-when-it-could",
        "copies-what-neighbour-lacks",
        "copy-card-not-owned",
        "copy-cycle-under-follow",
        "no-copy-choice",
    ),
    "F1": (
        "expect-for-a-stranger",
        "pick-by-a-stranger",
        "trading-post-declares-gold",
        "unknown-field",
        "unknown-format",
    ),
    "H1": ("declared-for-another-players-post", "declared-where-no-post", "trading-post-undeclared"),
    "P1": ("territory-built",),
    "P2": ("built-twice", "not-in-supply"),
    "P3": ("draw-by-another-player", "draw-out-of-deck-order", "draws-three-cards", "provisions-built"),
    "P4": ("mission-built", "parchment-built"),
    "S1": ("five-players", "one-player", "player-seated-twice"),
    "S4": ("card-dealt-twice", "card-used-twice", "deck-has-ten-city2", "deck-missing-a-card"),
    "S5": ("camp-with-no-rabbit-left", "no-rabbit-left"),
    "T1": (
        "build-marked-the-next-round",
        "deal-marked-a-later-round",
        "draw-after-the-harvest",
        "end-before-the-last-round",
        "log-stops-early",
        "no-deal",
        "no-harvest",
        "pick-after-the-harvest",
        "pick-marked-an-earlier-turn",
        "pick-missing",
        "provisions-draw-missing",
        "second-deal",
        "second-game-event",
        "second-pick",
    ),
    "X1": ("final-expect", "harvest-expect"),
}


def rule_of(path: Path) -> str:
    return path.name.split("-")[0]


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_illegal_log_gives_its_recorded_diagnostic(bkref, monkeypatch, path: Path) -> None:
    monkeypatch.chdir(ROOT)
    relative = path.relative_to(ROOT)
    result = bkref("validate", relative)
    assert result.stdout == path.with_suffix(".expected").read_text()
    assert result.exit_code == (2 if rule_of(path) == "F1" else 1)


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_illegal_log_breaks_exactly_its_rule_on_the_recorded_line(bkref, path: Path) -> None:
    result = bkref("validate", "--format", "json", path)
    diagnostics = json.loads(result.stdout)
    assert [d["rule"] for d in diagnostics] == [rule_of(path)]
    recorded_line = int(path.with_suffix(".expected").read_text().split(":")[1])
    assert diagnostics[0]["line"] == recorded_line
    assert diagnostics[0]["file"] == str(path)
    # the line named is the event that breaks the rule, and its type is reported
    lines = path.read_text().splitlines()
    if recorded_line <= len(lines) and diagnostics[0]["event"] is not None:
        assert json.loads(lines[recorded_line - 1])["type"] == diagnostics[0]["event"]


def test_every_rule_a_log_can_break_has_an_illegal_log() -> None:
    breakable = {rule_id for rule_id, rule in RULES.items() if rule.checked_by == "move"}
    assert {rule_of(p) for p in ILLEGAL} == breakable


def test_the_illegal_readme_lists_every_log() -> None:
    readme = (REPLAYS / "illegal" / "README.md").read_text()
    for path in ILLEGAL:
        assert f"`{path.stem}`" in readme


def test_every_way_to_break_a_rule_has_its_log_and_every_log_its_way() -> None:
    assert sorted(f"{rule}-{way}" for rule, ways in WAYS.items() for way in ways) == sorted(p.stem for p in ILLEGAL)
