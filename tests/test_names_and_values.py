"""F1 on names and values: a player, square, card, event type, ruling or resource the game does not have.

A name the decoder knows from the catalogue (cards, squares, resources, rulings) is refused
when the line is read (``bkref.io.logfile``); a player id depends on the game event, so the
engine refuses it, and the event is skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bkref.io.logfile import Problem, Record, read_lines
from tests.conftest import found, referee, replay

THREE = replay("3p-ann-bob-cid")
TWO = replay("2p-ann-bob")
NOT_A_PLAYER = "'zed' is not a player of this game (ann, bob, cid)"


def test_a_hand_for_a_non_player_is_refused(tmp_path: Path) -> None:
    deal = THREE[1]
    report = referee(tmp_path, [THREE[0], dict(deal, hands={**deal["hands"], "zed": deal["hands"]["ann"]})])
    assert found(report)[0] == ("F1", 2, f"hands {NOT_A_PLAYER}")
    assert (report.state.phase, report.state.hands, report.state.deck_pos) == ("dealing", {}, 0)


def test_a_reserve_for_a_non_player_is_refused(tmp_path: Path) -> None:
    deal = TWO[1]
    assert deal["type"] == "deal" and set(deal["reserves"]) == {"ann", "bob"}
    reserves = {**deal["reserves"], "zed": deal["reserves"]["ann"]}
    report = referee(tmp_path, [TWO[0], dict(deal, reserves=reserves)])
    assert found(report)[0] == ("F1", 2, "reserves 'zed' is not a player of this game (ann, bob)")
    assert (report.state.phase, report.state.reserves, report.state.deck_pos) == ("dealing", {}, 0)


HARVEST_1 = THREE[25]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"trading_posts": {"zed": {"C10": "wood"}}}, "trading_posts"),
        ({"expect": {"ann": 0, "zed": 4}}, "expect"),
    ],
)
def test_a_harvest_naming_a_non_player_is_refused(tmp_path: Path, change: dict, field: str) -> None:
    report = referee(tmp_path, [*THREE[:25], dict(HARVEST_1, **change)])
    assert found(report)[0] == ("F1", 26, f"{field} {NOT_A_PLAYER}")
    assert (report.state.phase, report.state.harvests, report.state.position.declared) == ("building", [], {})


END = THREE[117]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"copies": {**END["copies"], "zed": {"liberal": None}}}, "copies"),
        ({"expect": {**END["expect"], "zed": 0}}, "expect"),
    ],
)
def test_an_end_naming_a_non_player_is_refused(tmp_path: Path, change: dict, field: str) -> None:
    report = referee(tmp_path, [*THREE[:117], dict(END, **change)])
    assert found(report)[0] == ("F1", 118, f"{field} {NOT_A_PLAYER}")
    assert (report.state.phase, report.state.final, report.state.copies) == ("ending", None, {})


def test_a_pick_by_a_non_player_is_refused(tmp_path: Path) -> None:
    report = referee(tmp_path, [*THREE[:2], dict(THREE[2], player="zed")])
    assert found(report)[0] == ("F1", 3, f"player {NOT_A_PLAYER}")
    assert report.state.picks == {} and report.state.hands["ann"] == THREE[1]["hands"]["ann"]


GAME_LINE = b'{"type":"game","format":"bkref/1","players":["ann","bob","cid"]}\n'
TYPES = "game, deal, pick, draw, build, harvest, end"


@pytest.mark.parametrize(
    ("line", "event", "message"),
    [
        # squares
        (
            '{"type":"build","round":1,"player":"ann","card":"city1","at":["K1"]}',
            "build",
            "'K1' in at[0] is not a square of the board (A1 to J10)",
        ),
        (
            '{"type":"harvest","round":1,"trading_posts":{"ann":{"K1":"wood"}}}',
            "harvest",
            "'K1' in trading_posts is not a square of the board (A1 to J10)",
        ),
        # cards
        (
            '{"type":"build","round":1,"player":"ann","card":"dragon","at":["A1"]}',
            "build",
            "'dragon' in card is not a card id of cards.csv or a square",
        ),
        (
            '{"type":"pick","round":1,"turn":1,"player":"ann","keep":["A1","dragon"]}',
            "pick",
            "'dragon' in keep[1] is not a card id of cards.csv or a square",
        ),
        (
            '{"type":"pick","round":1,"turn":1,"player":"ann","keep":["A1"],"discard":["dragon"]}',
            "pick",
            "'dragon' in discard[0] is not a card id of cards.csv or a square",
        ),
        (
            '{"type":"draw","round":1,"turn":1,"player":"ann","cards":["dragon","A1"]}',
            "draw",
            "'dragon' in cards[0] is not a card id of cards.csv or a square",
        ),
        (
            '{"type":"deal","round":1,"hands":{"ann":["dragon"]}}',
            "deal",
            "'dragon' in hands[\"ann\"][0] is not a card id of cards.csv or a square",
        ),
        (
            '{"type":"deal","round":1,"hands":{},"reserves":{"ann":["A1","dragon"]}}',
            "deal",
            "'dragon' in reserves[\"ann\"][1] is not a card id of cards.csv or a square",
        ),
        (
            '{"type":"end","copies":{"ann":{"liberal":"dragon"}}}',
            "end",
            "'dragon' in copies is not a card id of cards.csv",
        ),
        (
            '{"type":"end","copies":{"ann":{"fisher":"A1"}}}',
            "end",
            "'fisher' in copies is not a copy card (liberal or socialist)",
        ),
        # event types, one with a line break (printed escaped: Diagnostic.text)
        ('{"type":"fly","round":1}', None, f"unknown event type 'fly'; the types are {TYPES}"),
        ('{"type":"\\n"}', None, f"unknown event type '\n'; the types are {TYPES}"),
        ('{"round":1}', None, "the event lacks the required field 'type'"),
        # ruling values and resources
        (
            '{"type":"harvest","round":1,"trading_posts":{"ann":{"A1":"gold"}}}',
            "harvest",
            "'gold' in trading_posts is not a resource a trading post declares (wood, fish or carrot)",
        ),
        # fields and values
        ('{"type":"harvest","round":1,"colour":"red"}', "harvest", "the harvest event has an unknown field 'colour'"),
        ('{"type":"harvest"}', "harvest", "the harvest event lacks the required field 'round'"),
        ('{"type":"harvest","round":9}', "harvest", "the harvest event's round must be at most 4"),
        (  # a value of an object keyed by player: the key is named, not msgspec's [...]
            '{"type":"harvest","round":1,"expect":{"ann":2,"bob":"x"}}',
            "harvest",
            'the harvest event\'s expect["bob"] must be a whole number, not a string',
        ),
        (
            '{"type":"pick","round":1,"turn":1,"player":"","keep":[]}',
            "pick",
            "the pick event's player must not be an empty string",
        ),
        ("[1,2]", None, "line 2 is not an event: a JSON array where an object is needed"),
        ('{"type":"harvest",,}', "harvest", "line 2 is not JSON: object keys must be strings at column 19"),
        (
            '{"type":"harvest","round":1',
            "harvest",
            "line 2 is not complete JSON: it stops before the end of the object",
        ),
    ],
)
def test_an_unknown_name_or_value_is_refused_with_its_field(line: str, event: str | None, message: str) -> None:
    records = list(read_lines([GAME_LINE, line.encode() + b"\n", b'{"type":"end"}\n']))
    assert records[1] == Problem(2, event, message)
    assert type(records[2]) is Record and records[2].line == 3  # reading goes on after the game event


@pytest.mark.parametrize(
    ("rulings", "message"),
    [
        ({"copy_of_copy": "maybe"}, "'maybe' is not a value of ruling copy_of_copy (see RULES.md R1-R6)"),
        ({"matriarch_tie": "split"}, "'split' is not a value of ruling matriarch_tie (see RULES.md R1-R6)"),
        ({"colour": "red"}, "the game event's rulings has an unknown field 'colour'"),
    ],
)
def test_a_game_event_with_a_wrong_ruling_stops_the_reading(rulings: dict, message: str) -> None:
    game = json.dumps({"type": "game", "format": "bkref/1", "players": ["ann", "bob"], "rulings": rulings})
    records = list(read_lines([game.encode() + b"\n", GAME_LINE]))
    assert records == [Problem(1, "game", message)]  # nothing after a broken game event is read
