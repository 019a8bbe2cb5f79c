"""``bkref standings``: many games at once, agreeing with ``bkref score`` game by game."""

from __future__ import annotations

import csv
import io
import json
import shutil
from fractions import Fraction
from pathlib import Path

import jsonschema
import msgspec
import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from bkref.bots.simulate import simulate, to_jsonl
from bkref.io.breakdown import Breakdown
from bkref.io.standings import CSV_HEADER, CSV_TABLES, Standings, aggregate, game_record
from tests.conftest import REPLAYS, ROOT

GENERATED = REPLAYS / "generated"
ILLEGAL = REPLAYS / "illegal"


class TextSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> Path:
    """A folder of simulated games (2, 3 and 4 players, both policies), plus two illegal ones."""
    folder = tmp_path_factory.mktemp("tournament")
    for players in (2, 3, 4):
        for seed, policy in ((5, "random"), (6, "greedy")):
            (folder / f"{players}p-{seed}.jsonl").write_text(to_jsonl(simulate(players, seed, policy)))
    for name in ("D2-keep-not-in-hand.jsonl", "F1-unknown-field.jsonl"):
        shutil.copy(ILLEGAL / name, folder / f"zz-{name}")
    return folder


def standings_json(bkref, *args: str | Path) -> tuple[int, Standings]:
    result = bkref("standings", "--format", "json", *args)
    return result.exit_code, msgspec.json.decode(result.stdout, type=Standings, strict=True)


def test_standings_agree_with_score_on_every_game(bkref, tournament: Path) -> None:
    status, standings = standings_json(bkref, tournament)
    assert status == 2  # the F1 log
    paths = sorted(tournament.glob("*.jsonl"))
    assert [r.file for r in standings.games] == [str(p) for p in paths]
    scored = 0
    for record, path in zip(standings.games, paths):
        result = bkref("score", "--format", "json", path)
        score = msgspec.json.decode(result.stdout, type=Breakdown, strict=True)
        assert record.status == {0: "legal", 1: "illegal", 2: "unreadable"}[result.exit_code]
        assert record.players == score.players
        assert (record.first_problem, record.problems) == (
            (score.diagnostics[0], len(score.diagnostics)) if score.diagnostics else (None, 0)
        )
        if score.final is None:
            assert (record.seats, record.winners) == ([], [])
            continue
        scored += 1
        assert record.winners == score.final.winners
        for seat in record.seats:
            expected = score.final.players[seat.player]
            assert (seat.harvest, seat.parchment_total, seat.total) == (
                expected.harvest,
                expected.parchment_total,
                expected.total,
            )
            assert [(c.card, c.copied, c.points) for c in seat.parchments] == [
                (r.card, r.copied, r.points) for r in expected.parchments
            ]
    assert scored == len(paths) - 1  # every game but the one whose end event is unreadable
    assert (standings.counted, standings.left_out) == (len(paths) - 2, 2)


def test_aggregates_are_the_sums_of_the_games_counted(bkref, tournament: Path) -> None:
    _, standings = standings_json(bkref, tournament)
    counted = [r for r in standings.games if r.status == "legal"]
    for s in standings.players:
        totals = [seat.total for r in counted for seat in r.seats if seat.player == s.player]
        wins = sum(Fraction(1, len(r.winners)) for r in counted if s.player in r.winners)
        assert (s.games, s.wins, s.min, s.max) == (len(totals), float(wins), min(totals), max(totals))
        assert s.mean == pytest.approx(sum(totals) / len(totals))
    assert sum(s.wins for s in standings.seats) == pytest.approx(len(counted))
    assert sum(s.fair for s in standings.seats) == pytest.approx(len(counted))
    owned = sum(len(seat.parchments) for r in counted for seat in r.seats)
    assert sum(c.owned for c in standings.parchments) == owned


def test_a_shared_victory_counts_as_a_share() -> None:
    record = game_record(REPLAYS / "3p-ann-bob-cid.jsonl")
    assert record.winners == ["bob", "cid"]
    standings = aggregate([record], include_illegal=False)
    assert {s.player: s.wins for s in standings.players} == {"bob": 0.5, "cid": 0.5, "ann": 0.0}
    assert [(s.seat, s.wins, s.fair) for s in standings.seats] == [
        (1, 0.0, pytest.approx(1 / 3)),
        (2, 0.5, pytest.approx(1 / 3)),
        (3, 0.5, pytest.approx(1 / 3)),
    ]


def unreadable_but_scored(tmp_path: Path) -> Path:
    """A complete legal game with a line that is not JSON in it: unreadable (F1), and scored."""
    lines = (REPLAYS / "2p-ann-bob.jsonl").read_text().splitlines(keepends=True)
    path = tmp_path / "unreadable.jsonl"
    path.write_text("".join([*lines[:5], "not json\n", *lines[5:]]))
    return path


def test_illegal_games_are_listed_and_left_out_unless_asked(bkref, tmp_path: Path) -> None:
    legal, illegal = REPLAYS / "3p-ann-bob-cid.jsonl", ILLEGAL / "D2-keep-not-in-hand.jsonl"
    unreadable = unreadable_but_scored(tmp_path)
    status, without = standings_json(bkref, legal, illegal, unreadable)
    assert status == 2
    assert [(r.status, r.first_problem.rule if r.first_problem else None) for r in without.games] == [
        ("legal", None),
        ("illegal", "D2"),
        ("unreadable", "F1"),
    ]
    assert (without.counted, without.left_out) == (1, 2)
    assert {s.player: s.games for s in without.players} == {"ann": 1, "bob": 1, "cid": 1}
    assert without.games[2].seats  # the unreadable game reaches a final score...
    _, counted = standings_json(bkref, "--include-illegal", legal, illegal, unreadable)
    assert (counted.counted, counted.left_out) == (2, 1)  # ... and is not counted: a line of it is lost
    assert {s.player: s.games for s in counted.players} == {"ann": 2, "bob": 2, "cid": 2}
    assert counted.games == without.games
    assert standings_json(bkref, legal, illegal)[0] == 1  # validate's status: illegal, none unreadable
    assert standings_json(bkref, legal)[0] == 0


def csv_rows(text: str, table: str = "games") -> list[dict[str, str]]:
    """The rows of one table of a CSV of the standings."""
    return [row for row in csv.DictReader(io.StringIO(text)) if row["table"] == table]


def test_csv_is_one_header_row_then_one_row_per_game(bkref, tournament: Path) -> None:
    result = bkref("standings", "--format", "csv", tournament)
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == CSV_HEADER
    _, standings = standings_json(bkref, tournament)
    games = [row for row in rows[1:] if row[0] == "games"]
    assert rows[1 : 1 + len(games)] == games and len(games) == len(standings.games)
    for row, record in zip(games, standings.games):
        cells = dict(zip(CSV_HEADER, row))
        assert (cells["file"], cells["status"]) == (record.file, record.status)
        assert cells["rule"] == (record.first_problem.rule if record.first_problem else "")
        assert [cells[f"seat{n}_player"] for n in range(1, len(record.players) + 1)] == record.players
        for n, seat in enumerate(record.seats, 1):
            assert [cells[f"seat{n}_{c}"] for c in ("player", "harvest", "parchments", "total", "won")] == [
                seat.player,
                str(seat.harvest),
                str(seat.parchment_total),
                str(seat.total),
                "1" if seat.player in record.winners else "0",
            ]
        assert all(cells[f"seat{n}_total"] == "" for n in range(len(record.seats) + 1, 5))
        assert all(cells[f"seat{n}_player"] == "" for n in range(len(record.players) + 1, 5))


def test_csv_of_the_manuals_standings(bkref, monkeypatch, snapshot) -> None:
    monkeypatch.chdir(ROOT)
    logs = ["replays/2p-ann-bob.jsonl", "replays/3p-ann-bob-cid.jsonl", "replays/illegal/D2-keep-not-in-hand.jsonl"]
    result = bkref("standings", "--format", "csv", *logs)
    assert result.exit_code == 1
    assert result.stdout == snapshot(extension_class=TextSnapshot)


def test_csv_tables_are_the_jsons_to_the_documented_decimals(bkref, tournament: Path) -> None:
    text = bkref("standings", "--format", "csv", tournament).stdout
    _, standings = standings_json(bkref, tournament)
    players = csv_rows(text, "players")
    assert [p["player"] for p in players] == [p.player for p in standings.players]
    for row, p in zip(players, standings.players):
        assert (row["wins"], row["win_rate"], row["mean"]) == (f"{p.wins:.2f}", f"{p.win_rate:.4f}", f"{p.mean:.2f}")
        assert float(row["mean_harvest"]) == pytest.approx(p.mean_harvest, abs=0.005)
    seats = csv_rows(text, "seats")
    assert [(int(r["seat"]), float(r["fair"])) for r in seats] == [(s.seat, round(s.fair, 2)) for s in standings.seats]
    cards = csv_rows(text, "parchments")
    assert [(r["card"], int(r["owned"]), float(r["mean_points"])) for r in cards] == [
        (c.card, c.owned, round(c.mean_points, 2)) for c in standings.parchments
    ]
    tables = [r["table"] for r in csv.DictReader(io.StringIO(text))]
    assert tables == sorted(tables, key=CSV_TABLES.index) and set(tables) == set(CSV_TABLES)


def renamed(tmp_path: Path, names: list[str], file: str = "game.jsonl") -> Path:
    """The 4-player replay with its players renamed ``names``, in seat order."""
    text = (REPLAYS / "4p-ann-bob-cid-dee.jsonl").read_text()
    for old, new in zip(["ann", "bob", "cid", "dee"], names):
        text = text.replace(f'"{old}"', json.dumps(new))
    path = tmp_path / file
    path.write_text(text)
    return path


def test_csv_names_holding_spaces_and_commas_read_back_one_a_cell(bkref, tmp_path: Path) -> None:
    names = ["Ann Smith", "Bob, Jr.", "cid", 'dee "the" fourth']
    result = bkref("standings", "--format", "csv", renamed(tmp_path, names))
    assert result.exit_code == 0, result.stdout
    (row,) = csv_rows(result.stdout)
    assert [row[f"seat{n}_player"] for n in range(1, 5)] == names
    assert sorted(p["player"] for p in csv_rows(result.stdout, "players")) == sorted(names)
    assert [row[f"seat{n}_won"] for n in range(1, 5)].count("1") >= 1


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_start_with_a_quote(
    bkref, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str
) -> None:
    """OWASP's CSV injection: players' names and a file's name that a spreadsheet reads as formulas."""
    names = [f"{start}HYPERLINK(1)", "+cmd|' /C calc'!A0", "@SUM(1)", "-1+1"]
    monkeypatch.chdir(tmp_path)
    renamed(tmp_path, names, file=f"{start}2+2.jsonl")
    result = bkref("standings", "--format", "csv", "--", f"{start}2+2.jsonl")
    assert result.exit_code == 0, result.stdout
    (row,) = csv_rows(result.stdout)
    shown = {"\t": "\\t", "\r": "\\r"}.get(start, f"'{start}")  # tab and CR: escaped, as validate prints them
    assert row["file"] == f"{shown}2+2.jsonl"
    assert [row[f"seat{n}_player"] for n in range(1, 5)] == [f"{shown}HYPERLINK(1)", *(f"'{n}" for n in names[1:])]


def test_json_follows_the_committed_schema(bkref, tournament: Path) -> None:
    committed = (ROOT / "schemas" / "bkref-standings-1.schema.json").read_text()
    result = bkref("standings", "--format", "json", "--include-illegal", tournament)
    jsonschema.validate(json.loads(result.stdout), json.loads(committed))


def test_processes_give_the_same_bytes(bkref, tournament: Path) -> None:
    for output in ("json", "text"):
        one = bkref("standings", "--format", output, tournament)
        two = bkref("standings", "--format", output, "-j", "2", tournament)
        assert (two.exit_code, two.stdout) == (one.exit_code, one.stdout)


def test_text_standings_of_the_generated_games(bkref, monkeypatch, snapshot) -> None:
    monkeypatch.chdir(ROOT)
    result = bkref("standings", GENERATED.relative_to(ROOT))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("Standings of 12 games: 12 counted\n")
    assert result.stdout == snapshot(extension_class=TextSnapshot)


@pytest.mark.parametrize("output", ["text", "csv", "json"])
def test_a_path_that_is_no_log_is_an_error_line_and_no_standings(bkref, tmp_path: Path, output: str) -> None:
    """A folder with no log, or a missing file, is not a game: no standings of the others."""
    empty, missing = tmp_path / "empty", tmp_path / "missing.jsonl"
    empty.mkdir()
    result = bkref("standings", "--format", output, empty, REPLAYS / "2p-ann-bob.jsonl", missing)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"bkref: error: {empty}: no *.jsonl log in this folder or below it\nbkref: error: {missing}: no such file\n"
    )


def test_relative_and_absolute_paths_together(bkref, monkeypatch: pytest.MonkeyPatch) -> None:
    """No common folder to take off the file names: each one as given (there was a traceback)."""
    monkeypatch.chdir(ROOT)
    result = bkref("standings", "replays/2p-ann-bob.jsonl", REPLAYS / "3p-ann-bob-cid.jsonl")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[2] == "Games (players in seat order)"
    assert [line.split()[0] for line in result.stdout.splitlines() if ".jsonl" in line] == [
        "replays/2p-ann-bob.jsonl",
        str(REPLAYS / "3p-ann-bob-cid.jsonl"),
    ]


def test_a_game_with_more_problems_says_how_many_more(bkref, tmp_path: Path) -> None:
    lines = (ILLEGAL / "D2-keep-not-in-hand.jsonl").read_text().splitlines(keepends=True)
    path = tmp_path / "twice.jsonl"
    path.write_text("".join([*lines[:-1], "not json\n", "not json\n", lines[-1]]))
    result = bkref("standings", path)
    assert "  unreadable: D2 line 74, 2 more problems " in result.stdout  # the first is D2, then two F1
