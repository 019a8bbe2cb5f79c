"""P3, provisions: the draw after a turn's picks, its checks, and a draw the log leaves out.

The game is ``replays/3p-ann-bob-cid.jsonl`` (deck mode: every card comes from the deck in
order), where bob keeps a provisions card in turn 1 and draws at line 6.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bkref.game.engine import State
from bkref.game.events import Draw, Game
from tests.conftest import found, referee, replay

GAME = replay("3p-ann-bob-cid")
DRAW = GAME[5]
assert DRAW == {"type": "draw", "round": 1, "turn": 1, "player": "bob", "cards": ["farm_mushroom", "H5"]}
DEALT = 36  # 3 hands of 12


def test_a_draw_outside_exploration_is_refused(tmp_path: Path) -> None:
    game = [dict(GAME[0], deck=None), *GAME[1:]]  # no deck: the draw's cards are not checked against one
    construction = next(i for i, e in enumerate(game) if e["type"] == "build")
    report = referee(tmp_path, [*game[:construction], dict(DRAW, turn=6)])
    assert found(report)[0] == (
        "T1",
        construction + 1,
        "a draw for round 1, turn 6 comes in the construction of round 1",
    )


@pytest.mark.parametrize(
    ("change", "rule", "message"),
    [
        ({"round": 2}, "T1", "the draw is marked round 2, but the game is in round 1"),
        ({"turn": 2}, "T1", "the draw is marked turn 2, but the round is in turn 1"),
        ({"player": "zed"}, "F1", "player 'zed' is not a player of this game (ann, bob, cid)"),
        ({"player": "ann"}, "P3", "ann draws, but the oldest provisions card to resolve is bob's"),
        ({"cards": ["farm_mushroom"]}, "P3", "bob's provisions draws 1 card; it draws exactly 2"),
        ({"cards": ["farm_mushroom", "H5", "J1"]}, "P3", "bob's provisions draws 3 cards; it draws exactly 2"),
        ({"cards": []}, "P3", "bob's provisions draws 0 cards; it draws exactly 2"),
    ],
)
def test_a_refused_draw_draws_nothing(tmp_path: Path, change: dict[str, object], rule: str, message: str) -> None:
    report = referee(tmp_path, [*GAME[:5], dict(DRAW, **change)])
    assert found(report)[0] == (rule, 6, message)
    state = report.state
    assert (state.turn, state.pending, state.deck_pos) == (1, [("bob", 1)], DEALT)
    assert "H5" not in state.position.owner and "farm_mushroom" not in state.supply["bob"]


def test_the_draw_takes_the_two_top_cards_and_plays_them(tmp_path: Path) -> None:
    report = referee(tmp_path, GAME[:6])
    assert found(report) == [("T1", 6, "the log ends in round 1, turn 2; a game has 4 rounds and an end event")]
    state = report.state
    assert (state.turn, state.pending, state.deck_pos) == (2, [], DEALT + 2)
    assert state.position.owner["H5"] == "bob" and state.supply["bob"]["farm_mushroom"] == 1


def test_a_draw_off_the_deck_is_reported_and_played_as_written(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:5], dict(DRAW, cards=["H5", "farm_mushroom"])])
    assert found(report)[0] == ("P3", 6, "bob draws H5, farm_mushroom, but the top of the deck is farm_mushroom, H5")
    state = report.state
    assert (state.turn, state.pending, state.deck_pos) == (2, [], DEALT + 2)
    assert state.position.owner["H5"] == "bob" and state.supply["bob"]["farm_mushroom"] == 1


def test_a_draw_with_nothing_waiting_comes_before_the_picks(tmp_path: Path) -> None:
    report = referee(tmp_path, [*GAME[:6], dict(DRAW, turn=2)])
    assert found(report)[0] == (
        "D4",
        7,
        "bob draws before ann, bob, cid picked in turn 2; kept cards are played only once every player has picked",
    )
    assert (report.state.turn, report.state.pending, report.state.deck_pos) == (2, [], DEALT + 2)


def test_in_conservation_mode_a_draw_counts_its_cards(tmp_path: Path) -> None:
    game = {k: v for k, v in GAME[0].items() if k != "deck"}
    # I5 was dealt to bob: drawn again, it is used twice, and the game has one
    report = referee(tmp_path, [game, *GAME[1:5], dict(DRAW, cards=["farm_mushroom", "I5"])])
    assert found(report)[0] == ("S4", 6, "I5 is used 2 times, the game has 1 copy")
    state = report.state
    assert state.used["I5"] == 2 and state.used["farm_mushroom"] == 1 and state.deck_pos == DEALT + 2
    assert state.pending == [] and state.supply["bob"] == {"city2": 1, "farm_mushroom": 1}


def test_a_skipped_draw_still_uses_up_its_two_cards_of_the_deck(tmp_path: Path) -> None:
    # bob's draw is left out: the next pick reports it; the deal of round 2 still follows the deck
    report = referee(tmp_path, [*GAME[:5], *GAME[6:27]])
    assert found(report) == [
        (
            "T1",
            6,
            "the draw of a provisions card of turn 1 of round 1 is late: bob's (turn 1); its cards are not played",
        ),
        ("T1", 26, "the log ends in round 2, turn 1; a game has 4 rounds and an end event"),
    ]
    state = report.state
    assert state.deck_pos == DEALT + 2 + DEALT  # the draw's 2 cards left the deck unplayed
    assert "H5" not in state.position.owner and "farm_mushroom" not in state.supply["bob"]


def test_a_chained_draw_left_out_is_reported_once_at_the_next_pick(tmp_path: Path) -> None:
    # round 3: ann's first draw (line 58) brings a second provisions card, drawn at line 59
    first, second = GAME[57], GAME[58]
    assert (first["cards"], second["player"]) == (["farm_steel", "provisions"], "ann")
    report = referee(tmp_path, [*GAME[:58], *GAME[59:62]])
    assert found(report) == [
        (
            "T1",
            59,
            "the draw of a provisions card of turn 1 of round 3 is late: ann's (turn 1); its cards are not played",
        ),
        ("T1", 61, "the log ends in round 3, turn 3; a game has 4 rounds and an end event"),
    ]
    full = referee(tmp_path, GAME[:62]).state
    state = report.state
    assert state.deck_pos == full.deck_pos and state.pending == [] and state.turn == 3
    assert "D5" not in state.position.owner and full.position.owner["D5"] == "ann"


def test_a_draw_found_further_down_the_deck_is_followed_from_there(tmp_path: Path) -> None:
    # The deck as written holds two cards (its last two, never dealt with 3 players) before
    # bob's draw: the draw is off the deck, reported once; the deal of round 2 is read on from
    # after the cards drawn, as the log dealt it, and agrees.
    deck = GAME[0]["deck"]
    moved = [*deck[:DEALT], *deck[-2:], *deck[DEALT:-2]]
    report = referee(tmp_path, [dict(GAME[0], deck=moved), *GAME[1:27]])
    assert found(report) == [
        ("P3", 6, f"bob draws farm_mushroom, H5, but the top of the deck is {deck[-2]}, {deck[-1]}"),
        ("T1", 27, "the log ends in round 2, turn 1; a game has 4 rounds and an end event"),
    ]
    assert report.state.deck_pos == DEALT + 2 + 2 + DEALT


def test_a_draw_from_a_used_up_deck_breaks_p3() -> None:
    # S4: the deck is never reshuffled. With every card of it dealt or drawn, no card is on
    # top: a draw breaks P3, whether or not its cards are used more often than their copies.
    state = State()
    deck = GAME[0]["deck"]
    assert state.play(Game(format="bkref/1", players=["ann", "bob", "cid"], deck=deck)) == []
    state.phase, state.round, state.turn = "exploring", 4, 1
    state.picks = {p: None for p in ("ann", "bob", "cid")}
    state.pending = [("bob", 1)]
    state.deck_pos = len(deck)
    found = state.play(Draw(round=4, turn=1, player="bob", cards=["farm_mushroom", "H5"]))
    assert [tuple(v) for v in found] == [("P3", "bob draws farm_mushroom, H5, but the top of the deck is nothing")]
