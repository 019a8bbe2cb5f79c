"""The game event and the deal (S1, D1) and picks (D2) with 3 and 4 players, through a log."""

from __future__ import annotations

from pathlib import Path

import pytest

from bkref.game.engine import State
from bkref.game.events import Deal, Game
from tests.conftest import found, referee, replay

THREE = replay("3p-ann-bob-cid")
FOUR = replay("4p-ann-bob-cid-dee")


def test_a_format_other_than_bkref_1_stops_the_check(tmp_path: Path) -> None:
    report = referee(tmp_path, [dict(FOUR[0], format="bkref/2"), *FOUR[1:3]])
    assert found(report) == [("F1", 1, "format is 'bkref/2'; this referee reads 'bkref/1'")]
    assert (report.status, report.events, report.state.phase, report.state.players) == (2, 1, "setup", ())


@pytest.mark.parametrize("events", [THREE, FOUR], ids=["3p", "4p"])
def test_reserves_are_dealt_only_with_two_players(tmp_path: Path, events: list[dict]) -> None:
    deal = events[1]
    reserves = {p: hand[:1] for p, hand in deal["hands"].items()}
    report = referee(tmp_path, [events[0], dict(deal, reserves=reserves)])
    n = len(events[0]["players"])
    assert found(report)[0] == ("D1", 2, f"reserves are dealt only with 2 players, this game has {n}")
    state = report.state
    assert (state.phase, state.round, state.deck_pos, state.hands, state.reserves) == ("dealing", 0, 0, {}, {})


@pytest.mark.parametrize("events", [THREE, FOUR], ids=["3p", "4p"])
def test_every_player_is_dealt_a_hand(tmp_path: Path, events: list[dict]) -> None:
    deal = events[1]
    hands = {p: hand for p, hand in deal["hands"].items() if p != "bob"}
    report = referee(tmp_path, [events[0], dict(deal, hands=hands)])
    size = len(deal["hands"]["ann"])
    assert found(report)[0] == ("D1", 2, f"no hand is dealt to bob; every player gets {size} cards")
    assert (report.state.phase, report.state.hands) == ("dealing", {})


def test_a_hand_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    deal = FOUR[1]
    hands = dict(deal["hands"], cid=deal["hands"]["cid"][:9])
    report = referee(tmp_path, [FOUR[0], dict(deal, hands=hands)])
    assert found(report)[0] == ("D1", 2, "cid is dealt 9 cards; with 4 players each gets 10")
    assert (report.state.phase, report.state.deck_pos) == ("dealing", 0)


@pytest.mark.parametrize(
    ("pick", "message"),
    [
        ({"discard": ["B5"]}, "ann discards B5; only 2-player games discard"),
        ({"discard": []}, "ann discards nothing; only 2-player games discard"),
        ({"keep": ["liberal", "I1", "B5"]}, "ann keeps 3 cards; with 4 players each turn keeps exactly 2"),
        ({"keep": ["liberal"]}, "ann keeps 1 card; with 4 players each turn keeps exactly 2"),
    ],
)
def test_a_four_player_pick_keeps_two_and_discards_nothing(tmp_path: Path, pick: dict, message: str) -> None:
    report = referee(tmp_path, [*FOUR[:2], dict(FOUR[2], **pick), *FOUR[3:6]])
    assert found(report)[0] == ("D2", 3, message)
    state = report.state
    # the pick still counts as ann's pick of the turn; her whole hand passes on, nothing of it played
    assert state.turn == 2 and "I1" not in state.position.owner and "liberal" not in state.parchments["ann"]
    assert state.hands["bob"] == FOUR[1]["hands"]["ann"]
    assert state.position.owner["A4"] == "cid"  # the legal picks were played


TWO = replay("2p-ann-bob")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["ann"], "1 player; Bunny Kingdom is for 2 to 4"),
        (["a", "b", "c", "d", "e"], "5 players; Bunny Kingdom is for 2 to 4"),
        (["ann", "bob", "ann", "bob"], "player 'ann' has two seats; players must be distinct"),
    ],
)
def test_two_to_four_distinct_seats(tmp_path: Path, players: list[str], message: str) -> None:
    report = referee(tmp_path, [dict(FOUR[0], players=players), FOUR[1]])
    assert found(report) == [("S1", 1, message)]
    assert (report.status, report.events, report.state.phase, report.state.players) == (1, 1, "setup", ())


def test_a_deck_that_is_not_the_games_is_named_and_set_aside(tmp_path: Path) -> None:
    deck = [c for c in FOUR[0]["deck"] if c not in ("A1", "A2", "A3", "A4", "A5")]
    report = referee(tmp_path, [dict(FOUR[0], deck=deck), *FOUR[1:3]])
    assert found(report)[0] == (
        "S4",
        1,
        "the deck is not the game's 182 cards: it has A1 x0 (the game has 1); A2 x0 (the game has 1); "
        "A3 x0 (the game has 1); and 2 more; checking without it",
    )
    state = report.state
    assert (state.deck, state.phase, state.round) == (None, "exploring", 1)  # the deal is checked by counting
    assert sum(state.used.values()) == 40


def test_a_deck_made_in_python_is_checked_as_a_decoded_one() -> None:
    """The decoder knows every card id; a ``Game`` made in Python may hold anything: the deck
    is then judged by its counts, never with an exception."""
    game = FOUR[0]
    made = [card[:1] + card[1:] for card in game["deck"]]  # equal strings, not the catalogue's own
    state = State()
    assert state.play(Game(format=game["format"], players=game["players"], deck=made)) == []
    assert state.deck == made
    wrong = ["K1" if card == "A1" else card for card in made]  # K1 is no card
    state = State()
    [s4] = state.play(Game(format=game["format"], players=game["players"], deck=wrong))
    assert s4 == ("S4", "the deck is not the game's 182 cards: it has A1 x0 (the game has 1); checking without it")
    assert (state.deck, state.phase) == (None, "dealing")


class _Unordered:
    """Equal to a card id (and hashed as it), but not ordered: a deck of these cannot be sorted."""

    def __init__(self, card: str) -> None:
        self.card = card

    def __eq__(self, other: object) -> bool:
        return other == self.card

    def __hash__(self) -> int:
        return hash(self.card)


def test_a_deck_that_cannot_be_sorted_is_judged_by_its_counts() -> None:
    game = FOUR[0]
    unordered = [_Unordered(card) for card in game["deck"]]
    state = State()
    assert state.play(Game(format=game["format"], players=game["players"], deck=unordered)) == []
    assert state.deck == game["deck"]
    state = State()
    [s4] = state.play(Game(format=game["format"], players=game["players"], deck=[*game["deck"], "K1", None]))
    assert s4 == ("S4", "the deck is not the game's 182 cards: it has 2 items that are no card; checking without it")
    state = State()
    [s4] = state.play(Game(format=game["format"], players=game["players"], deck=[*game["deck"], "K1"]))
    assert s4.message == "the deck is not the game's 182 cards: it has 1 item that is no card; checking without it"


@pytest.mark.parametrize(
    ("left_out", "more"),
    [(("A1", "A2", "A3"), ""), (("A1", "A2", "A3", "A4"), "; and 1 more")],
    ids=["three", "four"],
)
def test_a_deck_names_three_wrong_counts_and_how_many_more(
    tmp_path: Path, left_out: tuple[str, ...], more: str
) -> None:
    deck = [c for c in FOUR[0]["deck"] if c not in left_out]
    (s4, *_) = found(referee(tmp_path, [dict(FOUR[0], deck=deck)]))
    named = "; ".join(f"{sq} x0 (the game has 1)" for sq in left_out[:3])
    assert s4 == ("S4", 1, f"the deck is not the game's 182 cards: it has {named}{more}; checking without it")


def test_a_two_player_discard_not_in_hand_is_named_with_the_reserve_card(tmp_path: Path) -> None:
    pick = dict(TWO[2], discard=["J10"])  # ann's first pick: she holds 10 cards and the reserve's merchant
    report = referee(tmp_path, [*TWO[:2], pick])
    hand = "matriarch, C5, city2, J8, diplomat, I8, sky_tower, B3, A9, F2, merchant"
    assert found(report)[0] == (
        "D3",
        3,
        f"ann discards J10, which is not in ann's hand (with the reserve card): {hand}",
    )


def test_a_reserve_off_the_deck_is_named_by_its_place(tmp_path: Path) -> None:
    deal = TWO[1]
    reserves = dict(
        deal["reserves"], bob=[deal["reserves"]["bob"][1], deal["reserves"]["bob"][0], *deal["reserves"]["bob"][2:]]
    )
    report = referee(tmp_path, [TWO[0], dict(deal, reserves=reserves)])
    assert found(report)[0] == (
        "D1",
        2,
        "the deal does not follow the deck: card 1 of bob's reserve is J6, but card 31 of the deck is D1",
    )
    assert (report.state.deck_pos, report.state.reserves["bob"][:2]) == (40, ["J6", "D1"])  # dealt as written


def test_conservation_counts_each_card_against_its_copies(tmp_path: Path) -> None:
    game = {k: v for k, v in THREE[0].items() if k != "deck"}
    hands = {p: ["city1"] * 4 + hand[4:] for p, hand in THREE[1]["hands"].items()}
    report = referee(tmp_path, [game, dict(THREE[1], hands=hands)])
    assert found(report)[0] == (
        "S4",
        2,
        "city1 is used 13 times, the game has 9 copies",
    )  # 4 a hand, and 1 dealt already
    assert report.state.used["city1"] == 13 and report.state.phase == "exploring"


def test_an_empty_deck_is_not_the_games_and_is_set_aside(tmp_path: Path) -> None:
    report = referee(tmp_path, [dict(THREE[0], deck=[]), THREE[1]])
    rule, line, message = found(report)[0]
    assert (rule, line) == ("S4", 1) and message.startswith("the deck is not the game's 182 cards: it has A1 x0")
    assert (report.state.deck, report.state.phase) == (None, "exploring")  # the deal is checked by counting


def test_a_two_player_deal_without_reserves_is_refused(tmp_path: Path) -> None:
    report = referee(tmp_path, [TWO[0], {k: v for k, v in TWO[1].items() if k != "reserves"}])
    assert found(report)[0] == ("D1", 2, "ann's reserve has 0 cards; with 2 players each gets a reserve of 10")


def test_the_last_card_of_a_deal_off_the_deck_is_named_with_the_decks(tmp_path: Path) -> None:
    # cid's last card, the deal's 36th, is the deck's 37th: named in cid's hand, beside the deck's 36th
    deck, deal = THREE[0]["deck"], THREE[1]
    hands = dict(deal["hands"], cid=[*deal["hands"]["cid"][:-1], deck[36]])
    report = referee(tmp_path, [THREE[0], dict(deal, hands=hands)])
    assert found(report)[0] == (
        "D1",
        2,
        f"the deal does not follow the deck: card 12 of cid's hand is {deck[36]}, "
        f"but card 36 of the deck is {deck[35]}",
    )


def test_a_deal_from_a_used_up_deck_breaks_d1() -> None:
    # S4: the deck is never reshuffled; with every card of it dealt or drawn, there is none to deal
    state = State()
    deck = THREE[0]["deck"]
    assert state.play(Game(format="bkref/1", players=["ann", "bob", "cid"], deck=deck)) == []
    state.deck_pos = len(deck)
    found = state.play(Deal(round=1, hands=THREE[1]["hands"]))
    assert [v.rule for v in found] == ["D1"]
    assert found[0].message.endswith("but card 183 of the deck is nothing (the deck is empty)")
