"""The log types: strict decoding, and the committed JSON Schema is the one the types generate."""

from __future__ import annotations

import json

import jsonschema
import msgspec
import pytest

from bkref.game.events import Build, Event, Game
from bkref.io.schema import SCHEMAS, Schema
from tests.conftest import REPLAYS, ROOT, SAMPLES

SCHEMA_FILE = ROOT / "schemas" / "bkref-1.schema.json"
decode = msgspec.json.Decoder(Event).decode


def test_decodes_each_event_type_by_its_tag() -> None:
    event = decode(b'{"type":"build","round":2,"player":"bob","card":"sky_tower","at":["A3","C5"]}')
    assert event == Build(round=2, player="bob", card="sky_tower", at=["A3", "C5"])
    game = decode(b'{"type":"game","format":"bkref/1","players":["ann","bob"],"meta":{"anything":[1,{}]}}')
    assert isinstance(game, Game) and game.rulings.matriarch_tie == "shared"


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"build","round":1,"player":"bob","card":"city2","at":["B4"],"note":"x"}',  # unknown field
        b'{"type":"build","round":"1","player":"bob","card":"city2","at":["B4"]}',  # wrong type
        b'{"type":"build","round":1,"player":"bob","card":"city4","at":["B4"]}',  # unknown card
        b'{"type":"build","round":1,"player":"bob","card":"city2","at":["K4"]}',  # unknown square
        b'{"type":"build","round":5,"player":"bob","card":"city2","at":["B4"]}',  # no round 5
        b'{"type":"harvest","round":1,"trading_posts":{"bob":{"B4":"gold"}}}',  # not a basic resource
        b'{"type":"game","format":"bkref/1","players":["a","b"],"rulings":{"matriarch_tie":"all"}}',
        b'{"type":"shuffle"}',
    ],
)
def test_strict_decoding_rejects(line: bytes) -> None:
    with pytest.raises(msgspec.ValidationError):
        decode(line)


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s.file)
def test_each_committed_schema_is_what_the_types_generate(schema: Schema) -> None:
    committed = (ROOT / "schemas" / schema.file).read_text()
    assert committed == schema.text(), f"run `bkref schema {schema.option} -o schemas/{schema.file}`"


def test_every_schema_of_the_folder_is_in_the_table() -> None:
    """The bot protocol's, beside the table, is checked by tests/test_bots.py."""
    files = {path.name for path in (ROOT / "schemas").iterdir()}
    assert files == {s.file for s in SCHEMAS} | {"bkbot-1.schema.json"}


def test_bkref_schema_prints_the_schema_or_writes_it_with_o(bkref, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    printed = bkref("schema")
    assert (printed.exit_code, printed.stdout) == (0, SCHEMA_FILE.read_text())
    assert list(tmp_path.iterdir()) == []  # nothing written, no schemas/ folder made
    assert bkref("schema", "-o", "-").stdout == SCHEMA_FILE.read_text()
    written = bkref("schema", "--output", "schema.json")
    assert (written.exit_code, written.stdout) == (0, "")
    assert (tmp_path / "schema.json").read_text() == SCHEMA_FILE.read_text()


@pytest.mark.parametrize(
    ("command", "why"),
    [
        (["schema"], "No such file or directory"),
        (
            ["simulate", "--players", "2", "--seed", "1"],
            "the folder {} does not exist (bkref makes no folder for -o FILE)",
        ),
    ],
)
def test_o_into_a_missing_folder_is_refused_and_makes_no_folder(bkref, tmp_path, command: list[str], why: str) -> None:
    target = tmp_path / "out" / "file.json"
    result = bkref(*command, "-o", target)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"bkref: error: cannot write {target}: {why.format(target.parent)}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", sorted(REPLAYS.rglob("*.jsonl")) + SAMPLES, ids=lambda p: p.name)
def test_every_bundled_log_line_is_valid_by_the_schema(path) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    # an illegal F1 log's broken line (its .expected names it) may break the schema on purpose
    broken = int(path.with_suffix(".expected").read_text().split(":")[1]) if path.name.startswith("F1-") else None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip() and not line.startswith("#") and number != broken:
            validator.validate(json.loads(line))


def test_the_schema_rejects_what_the_decoder_rejects() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    for bad in (
        {"type": "build", "round": 1, "player": "b", "card": "city4", "at": ["B4"]},
        {"type": "build", "round": 1, "player": "b", "card": "city2", "at": ["K4"], "x": 1},
        {"type": "pick", "round": 1, "turn": 11, "player": "b", "keep": []},
    ):
        assert not validator.is_valid(bad)


def test_bkref_schema_score_writes_the_committed_score_schema(bkref, tmp_path) -> None:
    target = tmp_path / "score.json"
    assert bkref("schema", "--score", "-o", target).exit_code == 0
    assert target.read_text() == (ROOT / "schemas" / "bkref-score-1.schema.json").read_text()


@pytest.mark.parametrize(("option", "name"), [("--view", "view"), ("--seen", "seen")])
def test_bkref_schema_prints_the_view_and_seen_event_schemas(bkref, option: str, name: str) -> None:
    printed = bkref("schema", option)
    assert (printed.exit_code, printed.stdout) == (0, (ROOT / "schemas" / f"bkref-{name}-1.schema.json").read_text())


def test_bkref_schema_of_two_schemas_at_once_is_one_line(bkref) -> None:
    result = bkref("schema", "--view", "--seen", "--score")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "bkref: error: --score, --view and --seen are different schemas: give one\n"
