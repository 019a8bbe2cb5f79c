"""Property tests (hypothesis): the referee against simulated games, their mutations, and noise.

Every property runs a bounded, derandomized number of examples, so CI sees the same
cases on every run and the file takes seconds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bkref.bots.simulate import POLICIES, simulate, to_jsonl
from bkref.game.catalog import CARDS, SQUARES
from bkref.game.events import EVENT_TYPES
from bkref.game.rules import RULES
from bkref.io.referee import Report, check
from tests.conftest import ROOT

BOUNDED = settings(derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
BASES = {path.stem: path.read_text() for path in sorted((ROOT / "replays" / "generated").glob("*.jsonl"))}
CARD_IDS = sorted(CARDS)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("properties")


# The decoder's own wording: msgspec's error texts name types and paths like this.
DECODER_WORDING = re.compile(r"`\w+`|\$\.|Expected|Object (contains|missing)|Invalid (enum )?value| - at ")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")  # a value quoted from the log may hold anything


def assert_well_reported(report: Report, lines: int) -> None:
    """Each diagnostic names a rule of RULES.md (or F1, X1), a line of the file and one sentence
    in bkref's words: no raw control character, nothing of the decoder's wording."""
    for d in report.diagnostics:
        assert d.rule in RULES, d
        assert 0 <= d.line <= max(lines, 1), d
        assert d.message and d.message.isprintable(), d
        assert not DECODER_WORDING.search(QUOTED.sub("", d.message)), d
    assert (report.status == 0) == (not report.diagnostics)


# -- simulated games are legal ---------------------------------------------------------


@settings(BOUNDED, max_examples=12)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(POLICIES))
def test_every_simulated_game_validates(workdir: Path, players: int, seed: int, policy: str) -> None:
    path = workdir / "simulated.jsonl"
    path.write_text(to_jsonl(simulate(players, seed, policy)))
    report = check(path)
    assert report.diagnostics == []
    assert report.state.complete  # and so every harvest's and the end's expect was reproduced


# -- every single mutation of a legal log is legal or reported -------------------------

KEY = object()  # a path step: rename the dict key that follows
SCALAR_KINDS = {
    "player": "player",
    "players": "player",
    "round": "round",
    "turn": "turn",
    "card": "card",
    "keep": "card",
    "discard": "card",
    "cards": "card",
    "deck": "card",
    "at": "square",
}


def places(event: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
    """Every value of ``event`` a mutation may change: (what it is, its path)."""
    found: list[tuple[str, tuple[Any, ...]]] = []
    for field, value in event.items():
        kind = SCALAR_KINDS.get(field)
        if kind and isinstance(value, list):
            found += [(kind, (field, i)) for i in range(len(value))]
        elif kind:
            found.append((kind, (field,)))
        elif field in ("hands", "reserves", "trading_posts", "expect", "copies"):
            for player, inner in value.items():
                found.append(("player", (field, KEY, player)))
                if field in ("hands", "reserves"):
                    found += [("card", (field, player, i)) for i in range(len(inner))]
                elif field == "trading_posts":
                    found += [("square", (field, player, KEY, square)) for square in inner]
                elif field == "copies":
                    found += [("card", (field, player, card)) for card, target in inner.items() if target]
    return found


def replace(event: dict[str, Any], path: tuple[Any, ...], new: Any) -> dict[str, Any]:
    """A copy of ``event`` with the value at ``path`` (or the key after ``KEY``) set to ``new``."""
    event = json.loads(json.dumps(event))
    holder: Any = event
    for i, step in enumerate(path):
        if step is KEY:
            old = path[i + 1]
            holder_items = [(new if k == old else k, v) for k, v in holder.items()]
            holder.clear()
            holder.update(holder_items)
            return event
        if i == len(path) - 1:
            holder[step] = new
        else:
            holder = holder[step]
    return event


DOMAINS = {
    "card": st.sampled_from(CARD_IDS),
    "square": st.sampled_from(SQUARES),
    "round": st.integers(0, 5),
    "turn": st.integers(0, 11),
}


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, str, list[dict[str, Any]]]:
    """A legal simulated game with one mutation: (the mutation, the mutated event's type, the events)."""
    events = [json.loads(line) for line in BASES[draw(st.sampled_from(sorted(BASES)))].splitlines()]
    kind = draw(st.sampled_from(["drop", "duplicate", "swap", "card", "square", "player", "round", "turn"]))
    if kind in ("drop", "duplicate", "swap"):
        i = draw(st.integers(0, len(events) - 1))
        touched = events[i]["type"]
        if kind == "drop":
            del events[i]
        elif kind == "duplicate":
            events.insert(i + 1, events[i])
        else:
            j = draw(st.integers(0, len(events) - 1).filter(lambda j: events[j] != events[i]))
            events[i], events[j] = events[j], events[i]
        return kind, touched, events
    spots = [(i, path) for i, event in enumerate(events) for what, path in places(event) if what == kind]
    i, path = draw(st.sampled_from(spots))
    if KEY in path:
        current = path[path.index(KEY) + 1]
    else:
        current = events[i]
        for step in path:
            current = current[step]
    domain = st.sampled_from([*events[0]["players"], "zed"]) if kind == "player" else DOMAINS[kind]
    new = draw(domain.filter(lambda value: value != current))
    events[i] = replace(events[i], path, new)
    return kind, events[i]["type"], events


MUST_BE_ILLEGAL = (
    {("drop", t) for t in EVENT_TYPES if t != "build"}  # a dropped build can leave a legal game
    | {(kind, t) for kind in ("duplicate", "round", "turn") for t in EVENT_TYPES}
    | {("card", t) for t in ("game", "deal", "draw")}  # the deck fixes every dealt and drawn card
)


@settings(BOUNDED, max_examples=200)
@given(mutation=mutations())
def test_every_mutation_is_legal_or_reported_with_a_rule(
    bkref, workdir: Path, mutation: tuple[str, str, list[dict[str, Any]]]
) -> None:
    kind, touched, events = mutation
    path = workdir / "mutated.jsonl"
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events))
    report = check(path)  # an exception here fails the test
    assert_well_reported(report, len(events))
    if (kind, touched) in MUST_BE_ILLEGAL:
        assert report.diagnostics, f"{kind} of a {touched} event went unnoticed"
    result = bkref("validate", path)
    assert result.exit_code == report.status
    assert result.stdout.splitlines() == [d.text() for d in report.diagnostics]


def test_the_mutations_reach_every_kind_of_value() -> None:
    """The mutation strategy finds something to change of each kind in a real game."""
    events = [json.loads(line) for text in BASES.values() for line in text.splitlines()]
    kinds = {what for event in events for what, _ in places(event)}
    assert kinds == {"card", "square", "player", "round", "turn"}
    harvest = next(e for e in events if e["type"] == "harvest" and e.get("trading_posts"))
    player, posts = next(iter(harvest["trading_posts"].items()))
    square = next(iter(posts))
    moved = replace(harvest, ("trading_posts", player, KEY, square), "J10")
    assert list(moved["trading_posts"][player]) == ["J10", *list(posts)[1:]]
    assert moved["trading_posts"][player]["J10"] == posts[square]
    assert harvest["trading_posts"][player] == posts  # the original is left alone


# -- noise: random bytes and random JSON lines -----------------------------------------

SUMMARY = re.compile(r"^(?P<path>.+): unreadable, (?P<n>\d+) problems? \(F1(?: x\d+)?\)$")


def assert_unreadable(result: Any, path: Path) -> None:
    assert result.exit_code == 2
    assert "Traceback" not in result.stdout + result.stderr
    assert "\r" not in result.stdout + result.stderr
    lines = result.stdout.split("\n")[:-1]
    assert lines and all(line.startswith(f"{path}:") and " F1 " in line for line in lines)
    summary = result.stderr.split("\n")[:-1]
    assert len(summary) == 1
    match = SUMMARY.match(summary[0])
    assert match and match["path"] == str(path) and int(match["n"]) == len(lines)


@settings(BOUNDED, max_examples=150)
@given(content=st.binary(max_size=400))
def test_random_bytes_are_unreadable_in_one_line(bkref, workdir: Path, content: bytes) -> None:
    path = workdir / "bytes.jsonl"
    path.write_bytes(content)
    result = bkref("validate", path)
    assert_unreadable(result, path)
    assert result.stdout.count("\n") == 1
    assert_well_reported(check(path), content.count(b"\n") + 1)


# Any text, line breaks included: a diagnostic stays one line (Diagnostic.text escapes them).
TEXT = st.text(max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=10,
)
FIELDS = [
    "format",
    "players",
    "deck",
    "round",
    "turn",
    "player",
    "hands",
    "reserves",
    "keep",
    "discard",
    "cards",
    "card",
    "at",
    "trading_posts",
    "expect",
    "copies",
    "rulings",
    "meta",
]
EVENT_LIKE = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(EVENT_TYPES) | TEXT,
    st.dictionaries(st.sampled_from(FIELDS) | TEXT, JSON_VALUES, max_size=4),
)
JSON_LINES = st.lists(
    st.tuples(JSON_VALUES | EVENT_LIKE, st.booleans()).map(lambda v: json.dumps(v[0], ensure_ascii=v[1])),
    min_size=1,
    max_size=6,
)


@settings(BOUNDED, max_examples=150)
@given(lines=JSON_LINES.filter(lambda lines: '"bkref/1"' not in lines[0]))
def test_random_json_lines_are_unreadable_in_one_line(bkref, workdir: Path, lines: list[str]) -> None:
    path = workdir / "lines.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    result = bkref("validate", path)
    assert_unreadable(result, path)
    assert result.stdout.count("\n") == 1  # the first line is no game event: nothing after it is read


@pytest.mark.parametrize(
    "log",
    [
        '{"type":"\\r"}\n',
        '{"type":"game","format":"bkref/1","players":["a\\nb","c"]}\n{"type":"deal","round":1,"hands":{}}\n',
    ],
    ids=["event-type", "player-id"],
)
def test_a_line_break_inside_a_value_stays_on_one_line(bkref, tmp_path: Path, log: str) -> None:
    path = tmp_path / "line-break.jsonl"
    path.write_text(log)
    result = bkref("validate", path)
    assert result.stdout.count("\n") == len(check(path).diagnostics)
    assert "\r" not in result.stdout


HEADER = '{"type":"game","format":"bkref/1","players":["ann","bob","cid"]}'


@settings(BOUNDED, max_examples=100)
@given(lines=JSON_LINES)
@example(lines=['{"type":"\\n"}'])  # once printed a raw line break and msgspec's text
@example(lines=['{"type": "`"}'])
@example(lines=['{"type":"deal","round":"1","hands":{"\\u0085":[]}}', '{"type":"pick","\\u202e":1}'])
def test_random_json_lines_after_a_game_event_are_each_reported(workdir: Path, lines: list[str]) -> None:
    path = workdir / "game-then-lines.jsonl"
    path.write_text("".join(line + "\n" for line in [HEADER, *lines]), encoding="utf-8")
    report = check(path)
    assert_well_reported(report, len(lines) + 1)
    assert report.status != 0  # the game never ends (T1), whatever else
    not_objects = [i for i, line in enumerate(lines, start=2) if not line.startswith("{")]
    if not_objects:
        assert report.status == 2
        assert {d.line for d in report.diagnostics if d.rule == "F1"} >= set(not_objects)
