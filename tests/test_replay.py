"""`bkref replay`: positions drawn on the board, stepping with piped keys, illegal and broken logs."""

from __future__ import annotations

import _thread
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bkref.views.navigation import load
from bkref.views.printout import show, typed_lines
from bkref.views.screen import event_lines
from bkref.views.terminal import console
from tests.conftest import BKREF_COMMAND, ROOT

# Paths as a user types them in the project's folder: the output names the log as given.
TWO, THREE, FOUR, WORKED = (
    Path("replays") / f"{name}.jsonl"
    for name in ("2p-ann-bob", "3p-ann-bob-cid", "4p-ann-bob-cid-dee", "worked-example")
)


@pytest.fixture(autouse=True)
def in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


# Positions checked by hand once against the log: after the first deal; mid-round with a camp and
# a sky tower on the board (2p: bob's camp1 on A8, ann's tower F5-I5; 3p: bob's camp6 on H2, his
# tower C2-I2; 4p: cid's camp3 on B10, two towers, and bob's provisions claims E3 and A7, which
# removes cid's and dee's camps); a harvest (carrots as the log expects); the end.
POSITIONS = {
    "start": {TWO: ["--to", "2"], THREE: ["--to", "2"], FOUR: ["--to", "2"]},
    "mid-round": {TWO: ["--to", "95"], THREE: ["--to", "65"], FOUR: ["--to", "100"]},
    "harvest": {TWO: ["--round", "3"], THREE: ["--round", "2"], FOUR: ["--round", "3"]},
    "end": {TWO: [], THREE: [], FOUR: []},
}
CASES = [(path, kind, args) for kind, by_log in POSITIONS.items() for path, args in by_log.items()]


def board_square(output: str, square: str) -> str:
    """The five characters the printed board shows for ``square`` (plain lines end without spaces)."""
    row = next(line for line in output.splitlines() if line.startswith(f" {square[0]}  "))
    start = 4 + 6 * (int(square[1:]) - 1)
    return row[start : start + 5].ljust(5)


def headers(output: str) -> list[int]:
    """The event number of every position printed, in order."""
    return [int(n) for n in re.findall(r"^\S+: event (\d+) of \d+", output, flags=re.M)]


@pytest.mark.parametrize(("path", "kind", "args"), CASES, ids=[f"{p.stem}-{k}" for p, k, _ in CASES])
def test_position_matches_the_snapshot(bkref, text_snapshot, path: Path, kind: str, args: list[str]) -> None:
    result = bkref("replay", path, *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "\x1b" not in result.stdout
    shown = result.stdout
    if kind == "mid-round":
        assert shown.splitlines()[1].endswith("exploration")
        assert "^" in shown.split("\nF forest")[0] and "sky towers: T1" in shown
    elif kind == "harvest":
        assert f"\nharvest of round {args[1]}\n" in shown
    elif kind == "end":
        assert shown.splitlines()[1] == "game over" and "final scores" in shown
    assert shown == text_snapshot


def test_board_squares_agree_with_the_log(bkref) -> None:
    # 3p after event 50 (round 2 construction): bob's sky tower C2-I2 (line 50), ann's camp3 on
    # the field J6 and city3 on the mountain J7 (lines 46, 48), bob's camp6 on H2 (line 47), bob's
    # trading post on C10 declared wood at the round 1 harvest (lines 23, 26), cid's city1 on A5.
    shown = bkref("replay", THREE, "--to", "50").stdout
    expected = {
        "C2": "bMT1 ",
        "I2": "bPT1 ",
        "J6": "aC^3 ",
        "J7": "aM[3]",
        "H2": "bC^6 ",
        "C10": "bPtpw",
        "A5": "cS[1]",
        "A4": " #(1)",
        "E1": " F   ",
    }
    assert {sq: board_square(shown, sq) for sq in expected} == expected
    lines = shown.splitlines()
    row_b = next(i for i, line in enumerate(lines) if line.startswith(" B "))
    assert lines[row_b].startswith(" B   M   | M ")  # lava between B1 and B2
    assert lines[row_b + 1] == " " * (4 + 6 * 5) + "~~~~~"  # lava between B6 and C6, and only there


def test_the_turn_above_a_pick_or_a_draw_is_the_turn_it_belongs_to(bkref) -> None:
    # 3p: event 6 is bob's provisions draw of turn 1, event 9 cid's last pick of turn 2; event 10
    # is ann's first pick of turn 3; cid's last pick of turn 6 (event 21) leads to the construction.
    for event, turn in ((6, 1), (9, 2), (10, 3), (21, 6)):
        assert bkref("replay", THREE, "--to", event).stdout.splitlines()[1] == f"round 1, turn {turn} of 6: exploration"


def test_final_position_is_the_last_event(bkref) -> None:
    assert bkref("replay", FOUR).stdout == bkref("replay", FOUR, "--to", "124").stdout


class Terminal(io.StringIO):
    """A text stream that says it is a terminal, as rich asks."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_colour_only_adds_escape_codes_to_the_same_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("COLORTERM", "truecolor")
    steps = load(THREE)
    outputs = {}
    for no_color in (False, True):
        out = Terminal()
        show(console(out, no_color=no_color), steps, 64, "log")
        outputs[no_color] = out.getvalue()
    assert "\x1b[" in outputs[False] and "\x1b[" not in outputs[True]
    assert "\x1b[30;48;2;230;159;0maF   \x1b[0m" in outputs[False]  # black on orange: the first seat, ann
    assert re.sub(r"\x1b\[[0-9;]*m", "", outputs[False]) == outputs[True]


def test_step_with_piped_keys_goes_forward_back_to_an_event_and_to_the_next_round(bkref) -> None:
    result = bkref("replay", THREE, "--step", input="\nb\nb\n3\nn\nb\nr\n5\nq\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    # Enter, b, b (already at the first event: a note, no new position), 3, n, b, r (the harvest of
    # round 1, as in the viewer), 5, q; each key is echoed after the prompt, as it is not typed on a terminal.
    assert headers(out) == [1, 2, 1, 3, 4, 3, 26, 5]
    screens = re.split(r"^\[Enter or n next.*\] > .*\n", out, flags=re.M)
    assert len(screens) == 10 and screens[-1] == ""  # q quits at once
    assert screens[3] == "this is the first event\n"
    assert screens[0] == screens[2] and screens[4] == screens[6]  # back shows the very same position
    assert "\nann picks for turn 1: keeps 2 cards, face down until every player has picked\n" in screens[4]
    assert "\nbob picks for turn 1: keeps 2 cards, face down" in screens[5]
    assert screens[7].startswith("replays/3p-ann-bob-cid.jsonl: event 26 of 118 (line 26)\nround 1 harvested")
    assert (
        "\ncid picks last for turn 1: every pick is revealed and played\n  ann plays camp3: a building, into the "
        "supply\n  ann plays F8: claims a printed city\n  bob plays city2" in screens[8]
    )
    assert board_square(screens[8], "F8") == "a#(1)" and board_square(screens[4], "F8") == " #(1)"
    assert re.findall(r"\] > (.*)$", out, flags=re.M) == ["", "b", "b", "3", "n", "b", "r", "5", "q"]


def test_step_stops_at_the_last_event_and_at_the_end_of_input(bkref) -> None:
    result = bkref("replay", TWO, "--step", "--to", "112", input="\n\n999\n")
    assert result.exit_code == 0
    assert headers(result.stdout) == [112, 113]
    assert "\nthis is the last event\n" in result.stdout
    assert "\nno event 999: this log has events 1 to 113\n" in result.stdout
    assert "\nann wins with 125\n" in result.stdout  # the log's end event expects ann 125, bob 123


@pytest.fixture
def illegal_log(tmp_path: Path) -> Path:
    """The 3-player replay with ann's first pick changed: she keeps J10, which is not in her hand."""
    lines = THREE.read_text().splitlines(keepends=True)
    assert lines[2].startswith('{"type":"pick","round":1,"turn":1,"player":"ann","keep":["camp3","F8"]}')
    lines[2] = lines[2].replace('"camp3"', '"J10"')
    path = tmp_path / "illegal.jsonl"
    path.write_text("".join(lines))
    return path


def test_illegal_event_shows_the_validate_diagnostic_at_its_step(bkref, illegal_log: Path) -> None:
    problems = bkref("validate", illegal_log).stdout.splitlines()[:-1]
    assert problems[0].startswith(f"{illegal_log}:3: D2 ann keeps J10, which is not in ann's hand")
    for problem in problems:  # each at its own step (this log's events stand on lines 1, 2, 3...)
        line = problem.split(":")[1]
        assert problem + "\n" in bkref("replay", illegal_log, "--to", line).stdout
    stepped = bkref("replay", illegal_log, "--step", "--to", "2", input="\n\n\n").stdout
    screens = re.split(r"^\[Enter or n next.*\] > .*\n", stepped, flags=re.M)
    assert headers(stepped) == [2, 3, 4, 5]
    assert problems[0] not in screens[0]
    assert problems[0] + "\n" in screens[1] and "earlier problem" not in screens[1]
    assert problems[0] not in screens[2] and "\n1 earlier problem in this log, on line 3\n" in screens[2]
    assert "\n  ann's pick breaks the rules: none of its cards is played\n" in screens[3]
    skipped = bkref("replay", illegal_log, "--to", "46").stdout
    assert "\nann builds camp3 on J6: illegal, skipped (the position does not change)\n" + problems[1] in skipped
    # The replay goes on to the end of the game.
    end = bkref("replay", illegal_log)
    assert end.exit_code == 1  # the log is illegal, as validate says
    assert "\ngame over\n" in end.stdout and "\nfinal scores" in end.stdout
    assert "\n3 earlier problems in this log, on lines 3, 46 and 53\n" in end.stdout


def test_a_log_that_stops_early_still_replays(bkref) -> None:
    result = bkref("replay", WORKED)
    assert result.exit_code == 0
    assert "\nthe log stops here, before the deal of round 2\n" in result.stdout
    assert headers(result.stdout) == [23]
    assert bkref("replay", WORKED, "--round", "1").stdout == result.stdout
    assert board_square(result.stdout, "B2") == "aM[3]" and board_square(result.stdout, "A3") == "aFmus"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.jsonl"], "missing.jsonl: no such file"),
        (["replays"], "replays: is a directory, not a log file"),
        ([THREE, "--to", "0"], "--to 0: give an event number; this log has events 1 to 118"),
        ([THREE, "--to", "119"], "--to 119: give an event number; this log has events 1 to 118"),
        ([THREE, "--to", "ten"], "--to ten: give an event number; this log has events 1 to 118"),
        ([THREE, "--to", "²"], "--to ²: give an event number; this log has events 1 to 118"),
        ([THREE, "--round", "5"], "--round 5: give a round number, 1 to 4"),
        (
            [WORKED, "--round", "2"],
            "--round 2: this log has no harvest of round 2; it stops before the deal of round 2",
        ),
        ([THREE, "--to", "3", "--round", "1"], "--to and --round both name a position; give one of them"),
    ],
    ids=[
        "missing",
        "directory",
        "to-0",
        "to-past-the-end",
        "to-not-a-number",
        "to-superscript",
        "round-5",
        "round-not-played",
        "to-and-round",
    ],
)
def test_bad_input_is_one_line_and_exit_2(bkref, args: list, message: str) -> None:
    result = bkref("replay", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"bkref: error: {message}\n"


def test_the_library_raises_errors_that_carry_values_and_leave_the_options_to_the_command() -> None:
    """Finding a position raises errors with the values (the command words them with --to and
    --round, as above); none of them names an option."""
    from bkref.io.referee import NoEvent
    from bkref.views.movelist import moves_at
    from bkref.views.navigation import NoHarvest, NoSuchEvent, event_index, harvest_index

    steps = load(WORKED)
    with pytest.raises(NoSuchEvent) as past:
        event_index(steps, 24)
    with pytest.raises(NoSuchEvent) as past_moves:
        moves_at(WORKED, None, 30)
    with pytest.raises(NoHarvest) as unplayed:
        harvest_index(steps, 2)
    with pytest.raises(NoEvent) as empty:
        load(b"\n")
    with pytest.raises(NoEvent) as unreadable:
        moves_at("not json\n", "notes.jsonl", None)
    assert (past.value.number, past.value.events, past_moves.value.number, past_moves.value.events) == (24, 23, 30, 23)
    assert (unplayed.value.round, unplayed.value.stops) == (2, "before the deal of round 2")
    assert (empty.value.name, str(empty.value)) == (
        "<bytes>",
        "<bytes>:1: F1 the log holds no event: it needs at least a game event",
    )
    assert [d.text() for d in unreadable.value.diagnostics] == [str(unreadable.value)]
    assert str(unreadable.value).startswith("notes.jsonl:1: F1 ")
    assert not any("--" in str(e.value) for e in (past, past_moves, unplayed, empty, unreadable))


def test_a_file_that_is_not_a_log_is_one_line_naming_the_file(bkref, tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("hello\n")
    result = bkref("replay", path)
    assert result.exit_code == 2
    problem = bkref("validate", path).stdout.splitlines()[0]
    assert problem.startswith(f"{path}:1: F1 line 1 is not JSON")
    assert result.stderr == f"bkref: error: {problem}\n"


def test_a_line_that_is_not_an_event_is_shown_with_the_next_event(bkref, tmp_path: Path) -> None:
    lines = THREE.read_text().splitlines(keepends=True)
    path = tmp_path / "broken.jsonl"
    path.write_text("".join([*lines[:10], '{"type":"pick","round":1\n', *lines[10:]]))
    problem = bkref("validate", path).stdout.splitlines()[0]
    assert problem.startswith(f"{path}:11: F1 ")
    assert problem not in bkref("replay", path, "--to", "10").stdout
    shown = bkref("replay", path, "--to", "11")
    assert shown.exit_code == 2  # as validate: a line that is not an event
    assert shown.stdout.startswith(f"{path}: event 11 of 118 (line 12)\n")
    assert f"\n{problem}\n" in shown.stdout


def test_a_missing_pick_closes_the_turn_at_the_next_pick_as_the_referee_does(bkref, tmp_path: Path) -> None:
    lines = THREE.read_text().splitlines(keepends=True)
    assert lines[3].startswith('{"type":"pick","round":1,"turn":1,"player":"bob"')
    path = tmp_path / "gap.jsonl"
    path.write_text("".join(lines[:3] + lines[4:]))  # bob's pick of turn 1 is missing
    shown = bkref("replay", path, "--to", "6").stdout
    assert shown.startswith(
        f"{path}: event 6 of 117 (line 6)\nround 1, turn 2 of 6: exploration\n"
        "turn 1 ends without every pick; the picks made are played\n"
        "  ann plays camp3: a building, into the supply\n"
        "  ann plays F8: claims a printed city\n"
        "  bob has no pick: the hand passes on unplayed\n"
        "  cid plays city2: a building, into the supply\n"
        "  cid plays A7: claims a sea\n"
        "ann picks for turn 2: keeps 2 cards, face down until every player has picked\n"
        f"{path}:6: T1 turn 1 of round 1 has no pick by bob"
    )
    assert board_square(shown, "F8") == "a#(1)" and board_square(shown, "A7") == "cS   "


def test_a_game_event_the_referee_refuses_still_shows_the_empty_board(bkref, tmp_path: Path) -> None:
    path = tmp_path / "five.jsonl"
    path.write_text('{"type":"game","format":"bkref/1","players":["ann","bob","cid","dee","eve"]}\n')
    result = bkref("replay", path)
    assert result.exit_code == 1
    assert result.stdout.startswith(
        f"{path}: event 1 of 1 (line 1)\nbefore the game\n"
        "a game for ann, bob, cid, dee and eve: illegal, skipped (the position does not change)\n"
        f"{path}:1: S1 5 players; Bunny Kingdom is for 2 to 4\n"
        "the log stops here, before the game event\n"
    )
    assert board_square(result.stdout, "A4") == " #(1)" and board_square(result.stdout, "J10") == " S   "


def test_no_color_in_the_environment_turns_colour_off_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = Terminal()
    show(console(out), load(THREE), 64, "log")
    assert "aF" in out.getvalue() and "\x1b[" not in out.getvalue()


def test_a_deal_that_closes_a_round_and_is_then_refused_says_so(bkref, tmp_path: Path) -> None:
    lines = THREE.read_text().splitlines(keepends=True)
    assert lines[25].startswith('{"type":"harvest","round":1') and lines[26].startswith('{"type":"deal","round":2')
    deal = json.loads(lines[26])
    deal["hands"]["ann"].append("royal_crown")  # 13 cards: D1
    path = tmp_path / "no-harvest.jsonl"
    path.write_text("".join(lines[:25]) + json.dumps(deal) + "\n")
    shown = bkref("replay", path, "--to", "26").stdout.splitlines()
    assert shown[2:4] == [
        "round 1 ends without its harvest event: it is harvested with no trading post declared",
        "the deal of round 2: illegal, skipped",
    ]


def test_a_harvest_shows_the_declarations_the_referee_took_not_the_ignored_ones(bkref, tmp_path: Path) -> None:
    lines = THREE.read_text().splitlines(keepends=True)
    harvest = json.loads(lines[25])
    harvest["trading_posts"]["ann"] = {"A1": "fish"}  # ann has no trading post on A1: H1, ignored
    path = tmp_path / "wrong-post.jsonl"
    path.write_text("".join(lines[:25]) + json.dumps(harvest) + "\n")
    shown = bkref("replay", path, "--to", "26").stdout
    assert "  bob's trading post on C10 makes wood\n" in shown
    assert "trading post on A1" not in shown.split("\n\n")[0]
    assert f"{path}:26: H1 ann declares fish for A1, where ann has no trading post" in shown


def test_two_players_reserve_counts_the_card_a_pick_has_taken(bkref) -> None:
    # After event 3 ann has picked turn 1 (her first reserve card is in play), bob has not.
    shown = bkref("replay", TWO, "--to", "3").stdout
    assert re.findall(r"\(\+(\d+) in reserve\)", shown) == ["9", "10"]


def test_as_a_player_hides_the_others_hands_parchments_and_discards(bkref) -> None:
    # 2p, event 8: bob's pick reveals turn 3: ann plays the parchment fisher and discards diplomat,
    # bob plays the parchment farmer. Event 7 is ann's own pick, still face down for bob.
    everything = bkref("replay", TWO, "--to", "8").stdout
    assert "  ann plays fisher: a parchment, kept face down\n  ann discards diplomat\n" in everything
    as_bob = bkref("replay", TWO, "--to", "8", "--as", "bob").stdout
    assert "  ann plays a parchment, kept face down\n  ann discards 1 card\n" in as_bob
    assert "  bob plays farmer: a parchment, kept face down\n" in as_bob  # his own, by name
    assert "fisher" not in as_bob and "diplomat" not in as_bob
    hands = {row.split()[1]: row for row in as_bob.splitlines() if re.match(r" [ab]  +(ann|bob) ", row)}
    assert re.search(r"\b\d+ cards \(\+\d+ in reserve\)", hands["ann"])  # only the size of ann's hand
    assert not re.search(r"\b\d+ cards\b", hands["bob"])  # bob's own hand, card by card
    own_pick = bkref("replay", TWO, "--to", "7", "--as", "ann").stdout
    assert "\nann picks for turn 3: keeps fisher and discards diplomat, face down until every player" in own_pick
    assert "keeps 1 card and discards 1, face down" in bkref("replay", TWO, "--to", "7", "--as", "bob").stdout
    assert bkref("replay", TWO, "--as", "bob").stdout.count("fisher") >= 1  # the end reveals every parchment


def test_as_a_player_another_players_hand_and_reserve_do_not_show_whether_they_have_picked(bkref) -> None:
    # 2p, event 5: ann picks turn 2 face down; bob knows her hand and reserve as the turn started (I3, D3).
    def seats(args: list[str]) -> dict[str, str]:
        shown = bkref("replay", TWO, *args).stdout
        return {row.split()[1]: row for row in shown.splitlines() if re.match(r" [ab]  +(ann|bob) ", row)}

    before, after = seats(["--to", "4", "--as", "bob"]), seats(["--to", "5", "--as", "bob"])
    assert re.search(r"\b10 cards \(\+8 in reserve\)", before["ann"]) and after["ann"] == before["ann"]
    assert re.search(r"\b10 cards \(\+8 in reserve\)", seats(["--to", "5", "--as", "ann"])["bob"])


def test_as_a_player_the_problems_of_another_players_pick_keep_their_rule_but_not_their_cards(bkref) -> None:
    log = Path("replays") / "illegal" / "D2-keep-not-in-hand.jsonl"  # line 74: cid keeps a card not in cid's hand
    as_ann = bkref("replay", log, "--to", "74", "--as", "ann").stdout
    assert f"{log}:74: D2 not shown with --as ann: it may name cards ann does not see\n" in as_ann
    assert "E3, I6" not in as_ann  # cid's hand
    as_cid = bkref("replay", log, "--to", "74", "--as", "cid").stdout
    assert f"{log}:74: D2 cid keeps J10, which is not in cid's hand: E3, I6\n" in as_cid
    in_the_viewer = [text.plain for text, _ in event_lines(load(log), 73, "ann")]
    assert "line 74: D2 not shown with --as ann: it may name cards ann does not see" in in_the_viewer


def test_as_a_player_a_broken_line_shown_with_another_players_pick_keeps_its_words(bkref, tmp_path: Path) -> None:
    lines = THREE.read_text().splitlines(keepends=True)
    log = tmp_path / "broken.jsonl"
    log.write_text("".join([*lines[:3], "{broken\n", *lines[3:]]))  # line 5 is bob's pick, shown with line 4
    shown = bkref("replay", log, "--to", "4", "--as", "ann").stdout
    assert f"{log}:4: F1 line 4 is not JSON: object keys must be strings at column 2\n" in shown


def test_as_someone_who_is_not_playing_is_one_line_and_exit_2(bkref) -> None:
    result = bkref("replay", THREE, "--as", "zed")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "bkref: error: --as zed: this game's players are ann, bob, cid\n"


def test_the_log_as_a_player_saw_it_is_json_lines_of_seen_events(bkref) -> None:
    import msgspec

    from bkref.game.knowledge import seen_events

    events = [step.event for step in load(TWO)]
    printed = bkref("replay", TWO, "--as", "bob", "--format", "seen")
    assert printed.exit_code == 0
    assert printed.stdout == "".join(msgspec.json.encode(e).decode() + "\n" for e in seen_events(events, "bob"))
    lines = printed.stdout.splitlines()
    assert lines[2] == '{"type":"pick","round":1,"turn":1,"player":"ann","keep":[null],"discard":[null]}'
    assert '"ann":[null,' in lines[1] and '"bob":["master_farmer",' in lines[1]
    up_to = bkref("replay", TWO, "--as", "bob", "--format", "seen", "--to", "3").stdout.splitlines()
    assert up_to == lines[:2]  # ann's pick of event 3 is still secret


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "seen"], "--format seen is the log as one player saw it: give --as PLAYER"),
        (["--as", "zed", "--format", "seen"], "--as zed: this game's players are ann, bob"),
        (["--as", "ann", "--format", "seen", "--svg", "-"], "--format seen prints the seen events; --step, --svg"),
    ],
)
def test_the_seen_log_with_bad_usage_is_one_line(bkref, args: list[str], message: str) -> None:
    result = bkref("replay", TWO, *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"bkref: error: {message}") and result.stderr.count("\n") == 1


def test_piped_keys_are_the_viewers_letters_for_turns_rounds_first_and_last(bkref) -> None:
    # 3p: turn 1 ends with bob's provisions draw (event 6), turn 2 with cid's pick (9); the harvests
    # of rounds 1 and 2 are events 26 and 53, as r and R go in the full-screen viewer.
    keys = "t\nt\nT\nr\nr\nR\nG\ng\nR\nq\n"
    result = bkref("replay", THREE, "--step", input=keys)
    assert headers(result.stdout) == [1, 2, 6, 2, 26, 53, 26, 118, 1]
    assert "\nthis is the first event\n" in result.stdout


def test_step_by_turn_and_by_round_with_piped_keys(bkref) -> None:
    # 3p: turn 1 ends with bob's provisions draw (event 6); round 1's harvest is event 26.
    assert headers(bkref("replay", THREE, "--step", "--by", "turn", input="\n\n\nb\nq\n").stdout) == [1, 2, 6, 9, 6]
    assert headers(bkref("replay", THREE, "--step", "--by", "round", input="\n\nb\nq\n").stdout) == [1, 26, 53, 26]


def test_names_from_the_log_are_printed_with_control_characters_escaped(bkref, tmp_path: Path) -> None:
    log = tmp_path / "odd.jsonl"
    log.write_text(THREE.read_text().replace('"bob"', '"bob\\u001b[2J"'))  # a name that would clear the screen
    for args in (["--to", "5"], ["--round", "1"], []):  # the reveal, a harvest, the final scores
        shown = bkref("replay", log, *args).stdout
        assert "\x1b" not in shown and "bob\\x1b[2J" in shown


@pytest.mark.usefixtures("ctrl_c_as_in_a_terminal")
def test_ctrl_c_while_stepping_with_piped_keys_exits_130() -> None:
    process = subprocess.Popen(
        [*BKREF_COMMAND, "replay", str(THREE), "--step"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.read1(65536).startswith(b"replays/3p-ann-bob-cid.jsonl: event 1 of 118")
        # The first position is printed: the replay now waits for a key on its open standard input.
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 130
    finally:
        process.kill()
        process.wait(timeout=10)


def test_stepping_with_standard_input_closed_is_an_error_of_one_line() -> None:
    closed = ["sh", "-c", 'exec "$@" <&-', "sh"]  # runs the command with no standard input at all
    result = subprocess.run([*closed, *BKREF_COMMAND, "replay", str(THREE), "--step"], capture_output=True, cwd=ROOT)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr == b"bkref: error: replay --step: the keys come on standard input, and it is closed\n"


def test_typed_lines_from_a_pipe_are_read_as_they_come() -> None:
    read_end, write_end = os.pipe()
    with open(read_end, encoding="utf-8") as keys, open(write_end, "wb", buffering=0) as pipe:
        lines = typed_lines(keys)
        pipe.write(b"n\n12\n\xc3")  # two lines, and the first byte of an é
        assert next(lines) == "n\n"
        assert next(lines) == "12\n"  # read with the first line: it did not wait for more
        pipe.write(b"\xa9\nq")
        pipe.close()
        assert list(lines) == ["é\n", "q"]  # the end of input ends the last line


@pytest.mark.usefixtures("ctrl_c_as_in_a_terminal")
def test_a_ctrl_c_that_comes_just_before_the_wait_for_a_line_is_not_lost() -> None:
    """A SIGINT that comes after the interpreter's last step and before the read begins trips
    Python's handler but interrupts no system call: interrupt_main() does just that. Had the
    wait been one blocking read, the Ctrl-C would wait for the next line (the fallback's)."""
    read_end, write_end = os.pipe()
    main = threading.main_thread().ident
    caught, late = threading.Event(), []

    def waiting_for_a_line() -> bool:
        frame = sys._current_frames().get(main)
        while frame is not None and frame.f_code.co_name != "typed_lines":
            frame = frame.f_back
        return frame is not None

    def ctrl_c_then_a_late_line() -> None:
        while not waiting_for_a_line():
            if caught.wait(0.01):  # typed_lines ended before it waited
                return
        _thread.interrupt_main()
        if not caught.wait(10):
            late.append(os.write(write_end, b"n\n"))

    with open(read_end, encoding="utf-8") as keys:
        helper = threading.Thread(target=ctrl_c_then_a_late_line)
        helper.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                next(typed_lines(keys))
        finally:
            caught.set()
            helper.join()
            os.close(write_end)
    assert late == []  # the Ctrl-C ended the wait: no line had come


def test_the_legend_breaks_between_entries_never_inside_one() -> None:
    from rich.console import Console

    from bkref.views.boardtext import legend_text

    state = load(FOUR)[-1].state
    entries = ["# city space", "T1 sky tower pair 1", "pow carrot powder", "^3 camp of priority 3", " d  dee"]
    for width in (80, 60, 50):
        con = Console(width=width, color_system=None)
        with con.capture() as captured:
            con.print(legend_text(state))
        lines = [line.rstrip() for line in captured.get().splitlines()]
        assert max(map(len, lines)) <= width
        for entry in entries:
            assert any(entry in line for line in lines), (width, entry, lines)


def test_the_players_table_heads_the_carrots_as_the_viewer_does(bkref) -> None:
    header = next(line for line in bkref("replay", THREE).stdout.splitlines() if line.lstrip().startswith("player"))
    assert header.split()[-1] == "carrots" and "harvests" not in header


def test_as_a_player_the_others_picks_do_not_tell_who_picked_in_which_order(bkref) -> None:
    # 3p, turn 1: ann picks (event 3), then bob (4), then cid last (5). The seen log gives the
    # picks together in seat order (I3), so as bob the narration names no other picker.
    lines = [bkref("replay", THREE, "--to", str(k), "--as", "bob").stdout.splitlines()[2] for k in (3, 4, 5)]
    assert lines == [
        "another player picks for turn 1: keeps 2 cards, face down until every player has picked",
        "bob picks for turn 1: keeps city2 and provisions, face down until every player has picked",
        "another player picks last for turn 1: every pick is revealed and played",
    ]
    assert bkref("replay", THREE, "--to", "5").stdout.splitlines()[2].startswith("cid picks last for turn 1")
