"""validate's outputs for CI: folders and totals, GitHub annotations, SARIF, JSON."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from bkref.game.rules import RULES
from tests.conftest import REPLAYS

ILLEGAL = sorted((REPLAYS / "illegal").glob("*.jsonl"))


def recorded(path: Path) -> tuple[int, str, str]:
    """(line, rule, message) of an illegal replay's recorded diagnostic."""
    where, text = path.with_suffix(".expected").read_text().splitlines()[0].split(": ", 1)
    rule, message = text.split(" ", 1)
    return int(where.rsplit(":", 1)[1]), rule, message


def test_a_folder_means_every_log_below_it_sorted_with_totals(bkref, tmp_path: Path) -> None:
    (tmp_path / "b" / "deep").mkdir(parents=True)
    shutil.copy(REPLAYS / "2p-ann-bob.jsonl", tmp_path / "b" / "deep" / "z.jsonl")
    shutil.copy(ILLEGAL[0], tmp_path / "b" / "a.jsonl")
    (tmp_path / "a.jsonl").write_text("not json\n")
    (tmp_path / "b" / "notes.txt").write_text("ignored")
    result = bkref("validate", "--verbose", tmp_path, REPLAYS / "3p-ann-bob-cid.jsonl")
    assert result.exit_code == 2
    checked = [line.split(":")[0] for line in result.stderr.splitlines()[:-1]]
    assert checked == [
        str(tmp_path / "a.jsonl"),
        str(tmp_path / "b" / "a.jsonl"),
        str(tmp_path / "b" / "deep" / "z.jsonl"),
        str(REPLAYS / "3p-ann-bob-cid.jsonl"),
    ]
    assert result.stderr.splitlines()[-1] == "4 files: 3 games, 2 legal, 1 illegal, 1 unreadable"


def test_github_annotations_point_at_each_diagnostic(bkref) -> None:
    result = bkref("validate", "--format", "github", *ILLEGAL)
    assert result.exit_code == 2  # F1-unknown-field is among them
    pattern = re.compile(r"^::error file=(?P<file>[^,]+),line=(?P<line>\d+),title=(?P<title>[A-Z]\d)::(?P<msg>.+)$")
    lines = result.stdout.splitlines()
    assert len(lines) == len(ILLEGAL)
    for path, annotation in zip(ILLEGAL, lines):
        match = pattern.match(annotation)
        assert match, annotation
        line, rule, message = recorded(path)
        assert (match["file"], int(match["line"]), match["title"]) == (str(path).replace(":", "%3A"), line, rule)
        assert match["msg"] == message.replace("%", "%25")


def test_github_escapes_what_would_break_a_workflow_command(bkref, tmp_path: Path) -> None:
    path = tmp_path / "50%, odd: name.jsonl"
    path.write_text("{oops\n")
    line = bkref("validate", "--format", "github", path).stdout.strip()
    assert line.startswith(f"::error file={tmp_path!s}/50%25%2C odd%3A name.jsonl,line=1,title=F1::")


def test_sarif_has_the_required_fields_one_rule_per_id_and_one_result_per_diagnostic(bkref) -> None:
    result = bkref("validate", "--format", "sarif", *ILLEGAL)
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0" and sarif["$schema"].endswith("sarif-2.1.0.json")
    (run,) = sarif["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "bkref" and driver["version"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert sorted(ids) == sorted(r for r, rule in RULES.items() if rule.checked_by in ("move", "expect"))
    for rule in driver["rules"]:
        assert rule["fullDescription"]["text"] == RULES[rule["id"]].text
    assert len(run["results"]) == len(ILLEGAL)
    for path, res in zip(ILLEGAL, run["results"]):
        line, rule, message = recorded(path)
        assert (res["ruleId"], res["message"]["text"], res["level"]) == (rule, message, "error")
        assert driver["rules"][res["ruleIndex"]]["id"] == rule
        location = res["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == str(path)
        assert location["region"]["startLine"] == line


def test_sarif_for_a_missing_file_has_no_region(bkref, tmp_path: Path) -> None:
    sarif = json.loads(bkref("validate", "--format", "sarif", tmp_path / "none.jsonl").stdout)
    (res,) = sarif["runs"][0]["results"]
    assert res["ruleId"] == "F1" and "region" not in res["locations"][0]["physicalLocation"]


def test_json_lists_every_diagnostic_and_nothing_for_legal_logs(bkref) -> None:
    result = bkref("validate", "--format", "json", *ILLEGAL, REPLAYS / "2p-ann-bob.jsonl")
    found = json.loads(result.stdout)
    assert [(d["file"], d["line"], d["rule"]) for d in found] == [(str(path), *recorded(path)[:2]) for path in ILLEGAL]
    assert json.loads(bkref("validate", "--format", "json", REPLAYS / "2p-ann-bob.jsonl").stdout) == []


def test_parallel_validation_prints_the_same_in_input_order(bkref) -> None:
    paths = [*ILLEGAL, REPLAYS / "2p-ann-bob.jsonl", REPLAYS / "missing.jsonl", REPLAYS / "3p-ann-bob-cid.jsonl"]
    for output in ("text", "json", "sarif"):
        one = bkref("validate", "--format", output, *paths)
        two = bkref("validate", "--format", output, "-j", "2", *paths)
        assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert bkref("validate", "-j", "0", *paths).exit_code == 2


def test_many_logs_print_the_problems_and_one_totals_line_and_verbose_the_legal_ones_too(bkref) -> None:
    paths = [REPLAYS / "2p-ann-bob.jsonl", ILLEGAL[0], REPLAYS / "3p-ann-bob-cid.jsonl"]
    plain, verbose, quiet = bkref("validate", *paths), bkref("validate", "-v", *paths), bkref("validate", "-q", *paths)
    assert plain.stdout == verbose.stdout == quiet.stdout
    assert plain.exit_code == verbose.exit_code == quiet.exit_code == 1
    assert verbose.stderr.splitlines() == [
        f"{paths[0]}: legal (113 events)",
        f"{ILLEGAL[0]}: illegal, 1 problem (C2)",
        f"{paths[2]}: legal (118 events)",
        "3 files: 3 games, 2 legal, 1 illegal, 0 unreadable",
    ]
    assert (
        plain.stderr.splitlines()
        == quiet.stderr.splitlines()
        == [*verbose.stderr.splitlines()[1:2], "3 files: 3 games, 2 legal, 1 illegal, 0 unreadable"]
    )


def test_one_log_gets_its_legal_line_unless_quiet(bkref, tmp_path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "game.jsonl").write_bytes((REPLAYS / "2p-ann-bob.jsonl").read_bytes())
    assert bkref("validate", folder).stderr == f"{folder / 'game.jsonl'}: legal (113 events)\n"
    assert bkref("validate", "-q", folder).stderr == ""
    both = bkref("validate", "-q", "-v", folder)
    assert (both.exit_code, both.stderr) == (2, "bkref: error: --quiet and --verbose cannot be used together\n")


def test_a_problem_that_follows_from_an_earlier_one_names_it(bkref, tmp_path: Path) -> None:
    """One mistake, one lead: ann's pick at line 72 keeps A1, not in her hand (D2), so it plays
    nothing; her city on H1 (which that pick kept), her farm_copper (the card she meant to keep:
    a later problem of the player an illegal pick cost a move) and her scores then follow from it."""
    lines = (REPLAYS / "3p-ann-bob-cid.jsonl").read_text().splitlines(keepends=True)
    assert lines[71] == '{"type":"pick","round":3,"turn":6,"player":"ann","keep":["farm_copper","H1"]}\n'
    lines[71] = lines[71].replace("farm_copper", "A1")
    path = tmp_path / "one-mistake.jsonl"
    path.write_text("".join(lines))
    problems = [line.split(": ", 1)[1] for line in bkref("validate", path).stdout.splitlines()]
    assert problems == [
        "D2 ann keeps A1, which is not in ann's hand: farm_copper, H1",
        "C2 ann builds city1 on H1, which ann does not control (nobody controls it) (after the D2 at line 72)",
        "P2 ann builds farm_copper, but has none in supply; a building must be played first (after the D2 at line 72)",
        "X1 ann harvests 42 carrots in round 4 (fief of A2 (11 squares) 10x4; fief of G7 (3 squares) 1x2), "
        "the log expects 52 (after the D2 at line 72)",
        "X1 ann ends with 148 carrots (harvests 75 + parchments 73), the log expects 161 (after the D2 at line 72)",
    ]


def test_an_x1_with_no_earlier_problem_names_none(bkref) -> None:
    result = bkref("validate", REPLAYS / "illegal" / "X1-harvest-expect.jsonl")
    assert result.stdout.count("\n") == 1 and "(after " not in result.stdout


def test_a_building_never_played_names_the_illegal_pick_that_kept_it(bkref, tmp_path: Path) -> None:
    lines = (REPLAYS / "3p-ann-bob-cid.jsonl").read_text().splitlines(keepends=True)
    lines[71] = lines[71].replace('"H1"', '"A1"')  # the pick keeps farm_copper and A1 (not in hand)
    path = tmp_path / "unplayed-farm.jsonl"
    path.write_text("".join(lines))
    assert (
        f"{path}:110: P2 ann builds farm_copper, but has none in supply; a building must be played first "
        "(after the D2 at line 72)"
    ) in bkref("validate", path).stdout.splitlines()
