"""``bkref score``: the breakdowns of the bundled replays, the peer's games, the schema, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from bkref.io.breakdown import Breakdown
from bkref.io.schema import schema_of
from bkref.views.terminal import console
from tests.conftest import REPLAYS, ROOT, SAMPLES, TextSnapshot, needs_shared

TOP_REPLAYS = sorted(REPLAYS.glob("*.jsonl"))
FULL_GAME = REPLAYS / "3p-ann-bob-cid.jsonl"


class JSONTextSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "json"


@pytest.fixture
def in_root(monkeypatch):
    """Run from the project root, so logs are named by relative paths, the same on every machine."""
    monkeypatch.chdir(ROOT)


def relative(path: Path) -> Path:
    return path.relative_to(ROOT)


def score_json(bkref, *args: str | Path) -> Breakdown:
    result = bkref("score", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return msgspec.json.decode(result.stdout, type=Breakdown, strict=True)


def test_the_snapshots_cover_the_bundled_replays() -> None:
    assert {p.name for p in TOP_REPLAYS} >= {
        "worked-example.jsonl",
        "2p-ann-bob.jsonl",
        "3p-ann-bob-cid.jsonl",
        "4p-ann-bob-cid-dee.jsonl",
    }


# -- snapshots of the bundled replays ---------------------------------------------------


@pytest.mark.parametrize("path", TOP_REPLAYS, ids=lambda p: p.stem)
def test_text_breakdown_of_replay(bkref, in_root, snapshot, path: Path) -> None:
    result = bkref("score", relative(path))
    assert (result.exit_code, result.stderr) == (0, "")
    assert "\x1b" not in result.stdout
    assert result.stdout == snapshot(extension_class=TextSnapshot)


@pytest.mark.parametrize("path", TOP_REPLAYS, ids=lambda p: p.stem)
def test_json_breakdown_of_replay(bkref, in_root, snapshot, path: Path) -> None:
    result = bkref("score", "--format", "json", relative(path))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == snapshot(extension_class=JSONTextSnapshot)


def test_scores_of_the_generated_games(bkref, snapshot) -> None:
    """Each simulated game of replays/generated: harvests, parchments, totals and winners."""
    scores = {}
    for path in sorted((REPLAYS / "generated").glob("*.jsonl")):
        final = score_json(bkref, path).final
        assert final is not None
        scores[path.name] = {
            "players": {
                p: f"{'+'.join(map(str, s.harvests))} = {s.harvest} harvested, {s.parchment_total} from "
                f"parchments, {s.total} in all"
                for p, s in final.players.items()
            },
            "winners": final.winners,
        }
    assert len(scores) >= 6
    assert json.dumps(scores, indent=2) + "\n" == snapshot(extension_class=JSONTextSnapshot)


def test_illegal_replays_are_scored_with_validates_diagnostics(bkref, snapshot) -> None:
    """Each log of replays/illegal: the same problems as validate, and what it scores.

    score reads any log as possibly cut off after a round, as ``validate --partial`` does.
    """
    scores = {}
    for path in sorted((REPLAYS / "illegal").glob("*.jsonl")):
        validated = bkref("validate", "--partial", "--format", "json", path)
        result = bkref("score", "--format", "json", path)
        assert result.exit_code == validated.exit_code
        if not result.stdout:  # no usable game event: nothing to score
            assert "nothing to score" in result.stderr
            scores[path.name] = "not scored"
            continue
        scored = msgspec.json.decode(result.stdout, type=Breakdown, strict=True)
        assert scored.legal == (validated.exit_code == 0)
        assert msgspec.to_builtins(scored.diagnostics) == json.loads(validated.stdout)
        final = scored.final
        scores[path.name] = (
            {p: s.total for p, s in final.players.items()} if final else f"no final score: the log stops {scored.stops}"
        )
    assert json.dumps(scores, indent=2) + "\n" == snapshot(extension_class=JSONTextSnapshot)


def test_text_breakdown_of_one_player(bkref, in_root, snapshot) -> None:
    result = bkref("score", "--player", "cid", relative(FULL_GAME))
    assert result.exit_code == 0
    assert result.stdout == snapshot(extension_class=TextSnapshot)


# -- what the breakdown says ------------------------------------------------------------


def test_the_breakdown_adds_up(bkref) -> None:
    """Every fief is strength x wealth, every round the sum of its fiefs, every total the sum."""
    b = score_json(bkref, FULL_GAME)
    assert b.final is not None
    for p in b.players:
        running = 0
        for r in b.rounds:
            h = r.players[p]
            for f in h.fiefs:
                assert (f.wealth, f.carrots) == (len(f.resources), f.strength * f.wealth)
                assert f.cities <= f.strength
            running += h.carrots
            assert (h.carrots, h.running_total) == (sum(f.carrots for f in h.fiefs), running)
        score = b.final.players[p]
        assert score.harvests == [r.players[p].carrots for r in b.rounds]
        assert score.parchment_total == sum(row.points for row in score.parchments)
        assert score.total == score.harvest + score.parchment_total == running + score.parchment_total
    assert [s.total for s in b.final.ranking] == sorted((s.total for s in b.final.ranking), reverse=True)


def test_trading_posts_are_the_declarations_each_harvest_used(bkref) -> None:
    b = score_json(bkref, FULL_GAME)
    declared = [
        json.loads(line).get("trading_posts", {})
        for line in FULL_GAME.read_text().splitlines()
        if line.startswith('{"type":"harvest"')
    ]
    assert [{p: h.trading_posts for p, h in r.players.items() if h.trading_posts} for r in b.rounds] == declared
    assert any(declared)


def test_player_narrows_rounds_parchments_and_rulings_but_not_the_ranking(bkref) -> None:
    whole = score_json(bkref, FULL_GAME)
    b = score_json(bkref, FULL_GAME, "--player", "bob")
    assert b.player == "bob" and b.players == ["ann", "bob", "cid"]
    assert all(list(r.players) == ["bob"] for r in b.rounds)
    assert b.final is not None and whole.final is not None
    assert list(b.final.players) == ["bob"]
    assert b.final.players["bob"] == whole.final.players["bob"]
    assert (b.final.ranking, b.final.winners) == (whole.final.ranking, whole.final.winners)
    assert [[a.player for a in r.applied_to] for r in b.rulings] == [[], [], [], [], ["bob"], []]


def test_a_partial_log_has_its_harvests_and_no_final(bkref) -> None:
    b = score_json(bkref, REPLAYS / "worked-example.jsonl")
    assert (b.complete, b.stops, b.final, len(b.rounds)) == (False, "before the deal of round 2", None, 1)


def test_a_shared_victory_ranks_the_tied_players_together(bkref) -> None:
    b = score_json(bkref, FULL_GAME)
    assert b.final is not None
    assert [(s.rank, s.player) for s in b.final.ranking] == [(1, "bob"), (1, "cid"), (3, "ann")]
    assert b.final.winners == ["bob", "cid"]


def test_a_round_without_a_harvest_event_is_harvested_at_the_next_deal(bkref, tmp_path: Path) -> None:
    lines = FULL_GAME.read_text().splitlines(keepends=True)
    harvest_2 = next(i for i, line in enumerate(lines) if line.startswith('{"type":"harvest","round":2'))
    path = tmp_path / "no-harvest-2.jsonl"
    path.write_text("".join([*lines[:harvest_2], "# the harvest of round 2 is missing\n", *lines[harvest_2 + 1 :]]))
    result = bkref("score", "--format", "json", path)
    assert result.exit_code == 1
    b = msgspec.json.decode(result.stdout, type=Breakdown)
    assert [(r.round, r.line) for r in b.rounds][1] == (2, harvest_2 + 2)  # the deal of round 3
    assert next(d.rule for d in b.diagnostics) == "T1"
    assert [r.round for r in b.rounds] == [1, 2, 3, 4]
    # round 2 is harvested without its trading post declaration (bob's C10 wood)
    assert b.rounds[1].players["bob"].trading_posts == {}
    whole = score_json(bkref, FULL_GAME)
    assert whole.rounds[1].players["bob"].trading_posts == {"C10": "wood"}
    assert [r.players["ann"] for r in b.rounds] == [r.players["ann"] for r in whole.rounds]


def with_rulings(tmp_path: Path, rulings: dict[str, str]) -> Path:
    """The 3-player replay with other rulings in its game event (and no expects)."""
    lines = []
    for line in FULL_GAME.read_text().splitlines():
        if line.startswith("{"):
            event = json.loads(line)
            event.pop("expect", None)
            if event["type"] == "game":
                event["rulings"] = rulings
            line = json.dumps(event)
        lines.append(line)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("tie, points", [("none", 0), ("shared", 12)])
def test_the_breakdown_names_the_rulings_it_applied(bkref, tmp_path: Path, tie: str, points: int) -> None:
    # In this game cid ties ann for most territories (31): R1 decides cid's matriarch.
    b = score_json(bkref, with_rulings(tmp_path, {"matriarch_tie": tie}))
    r1 = b.rulings[0]
    assert (r1.id, r1.name, r1.value, r1.default) == ("R1", "matriarch_tie", tie, tie == "shared")
    assert [(a.player, a.card) for a in r1.applied_to] == [("cid", "matriarch")]
    assert b.final is not None
    row = next(row for row in b.final.players["cid"].parchments if row.card == "matriarch")
    assert (row.points, row.rulings) == (points, ["R1"])


# -- the peer's games -------------------------------------------------------------------


@needs_shared
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_score_reproduces_the_peer(bkref, path: Path) -> None:
    """Every harvest, fief, parchment row and total of the peer's *.peer.json.

    The peer folds Treasure Hunter's doubling into the treasure rows (its own row shows
    0), as bkref does. It lists a provisions draw's parchments before the rest of the
    pick, the log format after (LOG-FORMAT "draw"), so rows are compared by card.
    """
    peer = json.loads(path.with_suffix(".peer.json").read_text())
    b = score_json(bkref, path)
    assert [r.round for r in b.rounds] == [r["round"] for r in peer["rounds"]] == [1, 2, 3, 4]
    for ours, theirs in zip(b.rounds, peer["rounds"]):
        assert list(ours.players) == list(theirs["players"])
        for p, harvest in theirs["players"].items():
            fiefs = [
                {
                    "squares": f.squares,
                    "strength": f.strength,
                    "resources": sorted(f.resources),
                    "wealth": f.wealth,
                    "points": f.carrots,
                }
                for f in ours.players[p].fiefs
            ]
            expected = [dict(f, resources=sorted(f["resources"])) for f in harvest["fiefs"]]
            assert sorted(fiefs, key=lambda f: f["squares"]) == sorted(expected, key=lambda f: f["squares"])
            assert ours.players[p].carrots == harvest["points"]
    assert b.final is not None
    final = peer["final"]
    for p, theirs in final["players"].items():
        score = b.final.players[p]
        rows = sorted(
            (
                {"card": r.card, "points": r.points, **({"copied": r.copied} if r.copied else {})}
                for r in score.parchments
            ),
            key=lambda r: r["card"],
        )
        assert rows == sorted(theirs["rows"], key=lambda r: r["card"])
        assert (score.harvests, score.harvest, score.parchment_total, score.total) == (
            theirs["harvests"],
            theirs["harvest"],
            theirs["parchments"],
            theirs["total"],
        )
    assert b.final.winners == final["winners"]


@needs_shared
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_r1_is_applied_where_the_peer_answered_it(bkref, path: Path) -> None:
    """The peer names R1 on a Matriarch tie, as bkref does (its ``rulings_answered``).

    It also names R2 on the Opportunist rows of 2-player games where nobody ties for
    second; R2 settles only a tie (RULES.md R2: second is the player with exactly one
    higher total), so bkref names no ruling there. The points agree either way.
    """
    peer = json.loads(path.with_suffix(".peer.json").read_text())
    b = score_json(bkref, path)
    ours = {r.id: len(r.applied_to) for r in b.rulings}
    theirs = [entry["rule"] for entry in peer["rulings_answered"]]
    assert ours["R1"] == theirs.count("R1 shared")
    assert ours["R2"] == ours["R3"] == ours["R4"] == 0


# -- the schema -------------------------------------------------------------------------


def test_score_schema_describes_the_breakdown() -> None:
    schema = json.loads(schema_of("--score").text())
    assert schema["$ref"] == "#/$defs/Breakdown"
    breakdown = schema["$defs"]["Breakdown"]
    assert breakdown["required"] == list(Breakdown.__struct_fields__)
    assert breakdown["properties"]["format"] == {"enum": ["bkref-score/1"]}


# -- colour, bad input, illegal logs ------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_not_with_no_color() -> None:
    cases = [(Terminal(), False, True), (Terminal(), True, False), (io.StringIO(), False, False)]
    for out, no_color, coloured in cases:
        con = console(out, no_color=no_color)
        con.print("bold", style="bold")
        assert ("\x1b[" in out.getvalue()) is coloured


def test_plain_output_has_the_fixed_width(bkref, in_root) -> None:
    lines = bkref("score", relative(FULL_GAME)).stdout.splitlines()
    assert max(len(line) for line in lines) == 100
    assert all(line == line.rstrip() for line in lines)


def test_unknown_player_is_a_one_line_error(bkref, in_root) -> None:
    result = bkref("score", relative(FULL_GAME), "--player", "zed")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "bkref: error: replays/3p-ann-bob-cid.jsonl: 'zed' is not a player of this game (ann, bob, cid)\n"
    )


@pytest.mark.parametrize(
    "name, message", [("missing.jsonl", "no such file"), ("folder", "is a directory, not a log file")]
)
def test_a_path_that_is_not_a_log_is_a_one_line_error(bkref, tmp_path: Path, name: str, message: str) -> None:
    (tmp_path / "folder").mkdir()
    result = bkref("score", tmp_path / name)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"bkref: error: {tmp_path / name}: {message}\n"


def test_an_unreadable_log_is_not_scored(bkref, tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text("{not json\n" + FULL_GAME.read_text())
    for fmt in ("text", "json"):
        result = bkref("score", "--format", fmt, path)
        assert (result.exit_code, result.stdout) == (2, "")
        problem, verdict = result.stderr.splitlines()
        assert problem.startswith(f"{path}:1: F1 line 1 is not JSON")
        assert verdict == f"{path}: nothing to score: the log is unreadable"


def test_a_log_with_crlf_line_ends_is_scored_as_the_lf_log(bkref, tmp_path: Path) -> None:
    (tmp_path / "lf").mkdir()
    (tmp_path / "crlf").mkdir()
    lf, crlf = tmp_path / "lf" / "game.jsonl", tmp_path / "crlf" / "game.jsonl"
    lf.write_bytes(FULL_GAME.read_bytes())
    crlf.write_bytes(FULL_GAME.read_bytes().replace(b"\n", b"\r\n"))
    plain, windows = bkref("score", "--format", "json", lf), bkref("score", "--format", "json", crlf)
    assert (plain.exit_code, windows.exit_code) == (0, 0)
    assert windows.stdout == plain.stdout.replace(str(lf), str(crlf))


def test_a_log_without_a_usable_game_event_is_not_scored(bkref, tmp_path: Path) -> None:
    path = tmp_path / "five.jsonl"
    path.write_text('{"type":"game","format":"bkref/1","players":["a","b","c","d","e"]}\n')
    result = bkref("score", "--format", "json", path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{path}:1: S1 5 players; Bunny Kingdom is for 2 to 4\n{path}: nothing to score: it has no usable game event\n"
    )


def illegal_copy(tmp_path: Path) -> Path:
    """The 3-player replay with bob's expected harvest of round 1 wrong (X1)."""
    text = FULL_GAME.read_text().replace('"expect":{"ann":0,"bob":4,"cid":3}', '"expect":{"ann":0,"bob":5,"cid":3}')
    assert text != FULL_GAME.read_text()
    path = tmp_path / "illegal.jsonl"
    path.write_text(text)
    return path


def test_an_illegal_log_lists_its_problems_and_is_scored(bkref, tmp_path: Path) -> None:
    path = illegal_copy(tmp_path)
    result = bkref("score", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:26: X1 bob harvests 4 carrots in round 1 (fief of B10 (2 squares) 2x2), the log expects 5\n"
    )
    assert "Illegal log: 1 problem (listed on standard error)" in result.stdout
    assert "Winners, tied (E8): bob, cid" in result.stdout
    result = bkref("score", "--format", "json", path)
    assert (result.exit_code, result.stderr) == (1, "")
    b = msgspec.json.decode(result.stdout, type=Breakdown)
    assert not b.legal
    assert [(d.line, d.rule) for d in b.diagnostics] == [(26, "X1")]
    assert b.final is not None and b.final.winners == ["bob", "cid"]


def test_the_rulings_section_shows_r6_as_the_game_event_sets_it(bkref) -> None:
    log = REPLAYS / "illegal" / "S5-no-rabbit-left.jsonl"
    scored = json.loads(bkref("score", "--format", "json", log).stdout)
    assert scored["rulings"][-1] == {
        "id": "R6",
        "name": "rabbit_limit",
        "value": "pieces",
        "default": False,
        "applied_to": [],
    }
    assert [d["rule"] for d in scored["diagnostics"]] == ["S5"]
    text = bkref("score", log).stdout.splitlines()
    assert [line.split() for line in text if line.startswith("R6 ")] == [["R6", "rabbit_limit", "pieces", "-"]]


def test_score_and_replay_give_the_same_reason_for_an_empty_input(bkref) -> None:
    """/dev/null is an empty log (F1, no game event) for both, not a missing file for one."""
    scored, replayed = bkref("score", "/dev/null"), bkref("replay", "/dev/null")
    reason = "/dev/null:1: F1 the log holds no event: it needs at least a game event"
    assert scored.exit_code == replayed.exit_code == 2
    assert scored.stderr.splitlines() == [reason, "/dev/null: nothing to score: the log is unreadable"]
    assert replayed.stderr == f"bkref: error: {reason}\n"


def test_names_from_the_log_are_printed_with_control_characters_escaped(bkref, tmp_path: Path) -> None:
    """In the tables, the rulings, the parchments' sentences (opportunist's standings name
    every player), the ranking and the errors alike; the JSON keeps the name as the log has it."""
    log = tmp_path / "odd.jsonl"
    log.write_text(FULL_GAME.read_text().replace('"bob"', '"bob\\u001b[2J"'))  # a name that would clear the screen
    shown = bkref("score", "--no-color", log)
    assert shown.exit_code == 0
    assert "\x1b" not in shown.stdout
    assert shown.stdout.count("bob\\x1b[2J") >= 10
    assert "bob\x1b[2J's parchments" not in shown.stdout and "bob\\x1b[2J's parchments" in shown.stdout
    refused = bkref("score", "--player", "zed", log)
    assert refused.exit_code == 2 and "\x1b" not in refused.stderr and "bob\\x1b[2J" in refused.stderr
    assert "bob\x1b[2J" in score_json(bkref, log).players
