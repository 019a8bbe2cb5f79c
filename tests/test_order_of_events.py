"""T1, the order of events: each event comes in its phase, round and turn, and nowhere else.

Each case is a real game (``replays/3p-ann-bob-cid.jsonl``: 3 players, 6 turns a round, line
N is event N) cut or changed at one place; each asserts the rule, the line and the state after.
"""

from __future__ import annotations

from pathlib import Path

from bkref.game.engine import State
from bkref.game.events import Deal, Game
from tests.conftest import found, referee, replay

GAME = replay("3p-ann-bob-cid")
HARVEST_1, DEAL_2, END = GAME[25], GAME[26], GAME[117]
assert (HARVEST_1["type"], HARVEST_1["round"], DEAL_2["type"], END["type"]) == ("harvest", 1, "deal", "end")


def test_an_end_after_round_one_is_refused_and_nothing_is_scored(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:26], END])
    assert found(report) == [
        ("T1", 27, "the end event comes before the deal of round 2"),
        # the end of the log follows from the end event not played (issue 45): one root
        (
            "T1",
            27,
            "the log ends before the deal of round 2; a game has 4 rounds and an end event (after the T1 at line 27)",
        ),
    ]
    state = report.state
    assert (state.phase, state.round, state.final, state.copies) == ("dealing", 1, None, {})


def test_a_second_harvest_of_a_round_counts_nothing_twice(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:26], HARVEST_1])
    assert found(report)[0] == ("T1", 27, "the harvest of round 1 comes before the deal of round 2")
    state = report.state
    assert len(state.harvests) == 1
    assert [state.harvest_total(p) for p in state.players] == [0, 4, 3]  # the expect of line 26, once


def test_a_harvest_is_marked_with_its_own_round(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:25], dict(HARVEST_1, round=2)])
    assert found(report)[0] == ("T1", 26, "the harvest is marked round 2, but the game is in round 1")
    assert (report.state.phase, report.state.harvests) == ("building", [])


def test_a_harvest_during_the_picks_closes_the_turns_left_and_is_played(tmp_path: Path) -> None:
    # issue 25: the harvest that is there is judged in its phase, never called missing
    report = referee(tmp_path, [*GAME[:10], HARVEST_1])
    messages = found(report)
    assert messages[0] == ("T1", 11, "turn 3 of round 1 has no pick by bob, cid; that hand passes on unplayed")
    assert not any("no harvest" in message or "harvest of round 1 comes" in message for _, _, message in messages)
    state = report.state
    assert (state.phase, state.round, len(state.harvests)) == ("dealing", 1, 1)


def test_a_build_after_a_missing_last_pick_is_played_in_the_construction(tmp_path: Path) -> None:
    # line 21 is cid's pick of turn 6, the last of round 1; line 22 bob's city2 on B10
    assert (GAME[20]["type"], GAME[20]["turn"], GAME[21]["type"]) == ("pick", 6, "build")
    report = referee(tmp_path, [*GAME[:20], *GAME[21:]])
    assert found(report)[0] == ("T1", 21, "turn 6 of round 1 has no pick by cid; that hand passes on unplayed")
    assert [rule for rule, _, _ in found(report)].count("T1") == 1  # the builds are not out of turn
    assert report.state.position.building["B10"] == "city2"


def test_a_pick_of_a_round_with_no_deal_is_dealt_from_the_deck(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:26], *GAME[27:]])
    assert found(report)[0] == ("T1", 27, "round 2 has no deal event; its hands are dealt from the deck")
    assert [rule for rule, _, _ in found(report)] == ["T1"]  # the deck's deal is the log's: nothing else


def test_a_deal_that_skips_the_harvest_harvests_the_round_once(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:25], DEAL_2])
    assert found(report)[0] == (
        "T1",
        26,
        "round 1 has no harvest event; it is harvested with no trading post declared",
    )
    state = report.state
    assert (state.phase, state.round, state.turn, len(state.harvests)) == ("exploring", 2, 1, 1)
    assert [state.harvest_total(p) for p in state.players] == [
        0,
        2,
        3,
    ]  # bob's undeclared trading post adds no wood: 2x1, not 2x2


def test_a_deal_in_the_middle_of_the_picks_closes_every_turn_left_then_the_round(tmp_path: Path) -> None:
    # after line 10, ann's pick of turn 3, the rest of round 1 is missing
    report = referee(tmp_path, [*GAME[:10], DEAL_2])
    messages = [(rule, line, message) for rule, line, message in found(report)]
    assert messages[0] == ("T1", 11, "turn 3 of round 1 has no pick by bob, cid; that hand passes on unplayed")
    assert messages[1] == (
        "T1",
        11,
        "turn 4 of round 1 has no pick by ann, bob, cid; that hand passes on unplayed (after the T1 at line 11)",
    )
    assert [m for _, _, m in messages].count(
        "round 1 has no harvest event; it is harvested with no trading post declared (after the T1 at line 11)"
    ) == 1
    assert {rule for rule, _, _ in messages} == {"T1"} and {line for _, line, _ in messages} == {11}
    state = report.state
    assert (state.phase, state.round, state.turn, len(state.harvests)) == ("exploring", 2, 1, 1)


def test_a_fifth_deal_is_refused() -> None:
    state = State()
    state.play(Game(format="bkref/1", players=["ann", "bob", "cid"]))
    state.phase, state.round = "ending", 4
    assert [tuple(v) for v in state.play(Deal(round=5, hands={}))] == [
        ("T1", "the deal of round 5 comes after the 4th harvest, before the end event")
    ]
    assert (state.phase, state.round, state.hands) == ("ending", 4, {})


def test_a_deal_must_be_the_next_rounds(tmp_path: Path) -> None:
    report = referee(tmp_path, [GAME[0], dict(GAME[1], round=2)])
    assert found(report)[0] == ("T1", 2, "the deal is marked round 2; round 1 is due")
    assert (report.state.phase, report.state.round, report.state.deck_pos) == ("dealing", 0, 0)


def test_a_pick_during_construction_is_out_of_order_not_a_wrong_pick(tmp_path: Path) -> None:
    last_pick = GAME[20]
    assert (last_pick["type"], last_pick["turn"]) == ("pick", 6)
    report = referee(tmp_path, [*GAME[:25], last_pick])
    assert found(report)[0] == ("T1", 26, "a pick for round 1, turn 6 comes in the construction of round 1")
    state = report.state
    assert (state.phase, state.picks, state.hands) == ("building", {}, {"ann": [], "bob": [], "cid": []})


def test_a_pick_marked_with_another_round_is_refused(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:2], dict(GAME[2], round=2)])
    assert found(report)[0] == ("T1", 3, "the pick is marked round 2, but the game is in round 1")
    assert report.state.picks == {}


# A log may jump ahead within a round: the turns skipped are reported and passed on unplayed.
# In round 1 of ann, bob and cid, hands pass left: after 5 passes ann holds bob's first hand.
JUMP = {"type": "pick", "round": 1, "player": "ann", "keep": ["socialist", "provisions"]}


def test_a_log_that_jumps_to_the_last_turn_closes_each_turn_skipped(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:2], dict(JUMP, turn=6)])
    skipped = [
        ("T1", 3, f"turn {t} of round 1 has no pick by ann, bob, cid; that hand passes on unplayed{after}")
        for t, after in zip(range(1, 6), ["", *[" (after the T1 at line 3)"] * 4], strict=True)
    ]  # one jump, one lead: the turns after the first name it
    assert found(report)[:5] == skipped
    assert found(report)[5:] == [("T1", 3, "the log ends in round 1, turn 6; a game has 4 rounds and an end event")]
    state = report.state
    assert (state.phase, state.turn) == ("exploring", 6)
    assert state.hands["ann"] == [c for c in GAME[1]["hands"]["bob"] if c not in ("socialist", "provisions")]
    assert state.picks["ann"] is not None and state.position.owner == {}  # played once all have picked


def test_a_pick_past_the_last_turn_is_refused(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:2], dict(JUMP, turn=7)])
    assert found(report)[0] == ("T1", 3, "the pick is marked turn 7, but the round is in turn 1")
    state = report.state
    assert (state.turn, state.picks) == (1, {})
    assert state.hands == {p: GAME[1]["hands"][p] for p in state.players}


def test_a_pick_of_an_earlier_turn_is_refused(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:6], GAME[2]])  # ann's turn-1 pick again, in turn 2
    assert found(report)[0] == ("T1", 7, "the pick is marked turn 1, but the round is in turn 2")
    assert (report.state.turn, report.state.picks) == (2, {})


def test_a_second_game_event_is_refused(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:2], GAME[0]])
    assert found(report)[0] == ("T1", 3, "a second game event: a log holds one game")
    assert (report.state.phase, report.state.turn) == ("exploring", 1)


def test_a_build_or_harvest_marked_the_next_round_does_not_close_this_rounds_turns(tmp_path: Path) -> None:
    # After round 1's first turn (line 5: bob's draw), a build or a harvest of round 2 is out
    # of place on its own: reported once, and round 1's turns are left open, not closed
    build = {"type": "build", "round": 2, "player": "bob", "card": "city2", "at": ["B10"]}
    harvest = {"type": "harvest", "round": 2, "trading_posts": {}}
    for event, what in ((build, "bob's city2 build"), (harvest, "the harvest of round 2")):
        report = referee(tmp_path, [*GAME[:6], event])
        assert found(report)[0] == ("T1", 7, f"{what} comes in round 1, turn 2")
        assert (report.state.phase, report.state.turn) == ("exploring", 2)


def test_a_hand_a_missing_last_pick_passed_is_out_of_the_next_round_not_a_wrong_way_pass(tmp_path: Path) -> None:
    # cid's last pick of round 1 (line 21, F10 and F6: her whole hand) is missing, so her
    # hand passes on unplayed to ann. In round 2 hands pass right, and cid sits on ann's right:
    # her hand of round 1 is not one ann would hold had hands passed the wrong way (D5), it is
    # out of play, and ann's keeping F10 in round 2 keeps a card not in her hand (D2)
    pick = dict(GAME[27], keep=["F10", "J5"])
    assert (pick["round"], pick["turn"], pick["player"], GAME[20]["keep"]) == (2, 1, "ann", ["F10", "F6"])
    report = referee(tmp_path, [*GAME[:20], *GAME[21:27], pick, *GAME[28:]])
    rule, line, message = found(report)[1]
    assert (rule, line) == ("D2", 27)
    assert message.startswith("ann keeps F10, which is not in ann's hand: ")
    assert "(after " not in message  # a root of its own
