"""The causes of problems (issue 45, ``bkref.game.causes``): one rule pair at a time, a
problem names an earlier one only when its check reads something the earlier one left
unwritten."""

from __future__ import annotations

from bkref.game.causes import Broken, Causes

PLAYERS = ("ann", "bob", "cid")


def build(causes: Causes, line: int, player: str, rule: str, card: str, at: list[str], message: str = "") -> str | None:
    """The cause of a build's problem, then the build recorded as not placed."""
    problem = Broken(line, "build", player, rule, message, 2)
    cause = causes.cause_of(problem, [card], at, PLAYERS)
    causes.found(problem, {player: []}, cause, at)
    return cause


def picked_badly(causes: Causes, line: int, player: str, hand: list[str], rule: str = "D2", rnd: int = 1) -> None:
    causes.found(Broken(line, "pick", player, rule, f"{player} keeps X", rnd), {player: hand})


def test_a_c2_follows_from_a_failed_pick_of_that_square_only() -> None:
    causes = Causes()
    picked_badly(causes, 3, "ann", ["E8", "city2"])
    assert build(causes, 20, "ann", "C2", "city2", ["E8"]) == "the D2 at line 3"
    assert build(causes, 21, "ann", "C2", "city1", ["E9"]) is None


def test_a_p2_follows_from_a_failed_pick_of_that_card() -> None:
    causes = Causes()
    picked_badly(causes, 3, "ann", ["E8", "city2"])
    assert build(causes, 20, "ann", "P2", "city2", ["E9"]) == "the D2 at line 3"
    assert build(causes, 21, "bob", "P2", "city2", ["E9"]) is None  # bob's supply: not the pick's


def test_the_builds_of_the_issue_are_four_roots() -> None:
    # camp1 on a printed city (C6), camp2 on ann's own rabbit (C6), city1 on ann's camp3 (C3),
    # a farm where nobody controls (C2): no build reads what another failed build would have written
    causes = Causes()
    assert build(causes, 23, "ann", "C6", "camp1", ["G5"]) is None
    assert build(causes, 24, "ann", "C6", "camp2", ["B3"]) is None
    assert build(causes, 25, "ann", "C3", "city1", ["C4"]) is None
    assert build(causes, 26, "ann", "C2", "farm_gold", ["D4"]) is None


def test_a_c6_follows_from_a_failed_build_on_that_square() -> None:
    causes = Causes()
    build(causes, 23, "ann", "C2", "city1", ["D4"])
    assert build(causes, 30, "bob", "C6", "camp1", ["D4"]) == "the C2 at line 23"


def test_a_c3_on_a_printed_city_and_a_c4_are_always_roots() -> None:
    causes = Causes()
    picked_badly(causes, 3, "ann", ["G5", "D4", "city3"])
    assert build(causes, 20, "ann", "C3", "city3", ["G5"]) is None  # G5 holds a printed city
    assert build(causes, 21, "ann", "C3", "city3", ["D4"]) == "the D2 at line 3"
    assert build(causes, 22, "ann", "C4", "city3", ["D5"]) is None


def test_a_deal_not_the_decks_marks_the_deck_and_the_hands_of_its_round() -> None:
    causes = Causes()
    causes.found(Broken(2, "deal", None, "D1", "the deal does not follow the deck", 1), {})
    assert causes.cause_of(Broken(3, "pick", "ann", "D5", "ann keeps A1", 1), [], [], PLAYERS) == "the D1 at line 2"
    assert causes.cause_of(Broken(40, "pick", "ann", "D2", "ann keeps A1", 2), [], [], PLAYERS) is None  # a new hand
    assert (
        causes.cause_of(Broken(50, "draw", "ann", "P3", "ann draws A1, A2", 2), [], [], PLAYERS) == "the D1 at line 2"
    )


def test_a_wrong_draw_marks_the_squares_of_its_cards_and_the_drawers_carrots() -> None:
    causes = Causes()
    causes.found(
        Broken(6, "draw", "bob", "P3", "bob draws E8, city1, but …", 1), {"bob": ["E8", "city1", "E9", "camp1"]}
    )
    assert build(causes, 20, "ann", "C6", "camp2", ["E8"]) == "the P3 at line 6"
    assert build(causes, 21, "bob", "P2", "camp1", ["E1"]) == "the P3 at line 6"
    x1 = "bob harvests 3 carrots in round 1 (…), the log expects 4"
    assert causes.cause_of(Broken(30, "harvest", None, "X1", x1, 1), [], [], PLAYERS) == "the P3 at line 6"


def test_without_a_deck_a_card_used_too_often_in_a_deal_leads_its_picks_builds_and_carrots() -> None:
    causes = Causes()
    causes.found(Broken(2, "deal", None, "S4", "I2 is used 2 times, the game has 1 copy", 1), {})
    cause = causes.cause_of(Broken(5, "pick", "bob", "D3", "bob keeps city1", 1), [], [], PLAYERS)
    assert cause == "the S4 at line 2"
    causes.found(Broken(5, "pick", "bob", "D3", "bob keeps city1", 1), {"bob": ["city1", "A1"]}, cause)
    assert build(causes, 20, "bob", "P2", "city1", ["A2"]) == "the S4 at line 2"


def test_an_x1_names_its_players_holdings_else_the_first_problem_else_its_first_x1() -> None:
    causes = Causes()
    x1 = "cid harvests 3 carrots in round 1 (…), the log expects 4"
    assert causes.cause_of(Broken(10, "harvest", None, "X1", x1, 1), [], [], PLAYERS) is None
    causes.found(Broken(10, "harvest", None, "X1", x1, 1), {})
    assert causes.cause_of(Broken(20, "harvest", None, "X1", x1, 2), [], [], PLAYERS) == "the X1 at line 10"
    build(causes, 21, "ann", "C4", "city3", ["D5"])
    build(causes, 22, "cid", "C2", "city1", ["D6"])
    assert causes.cause_of(Broken(30, "harvest", None, "X1", x1, 3), [], [], PLAYERS) == "the C2 at line 22"


def test_an_event_not_read_names_the_gap_after_it_and_the_problems_of_its_player() -> None:
    causes = Causes()
    causes.unreadable(7, "pick", "ann")
    gap = "turn 2 of round 1 has no pick by ann; that hand passes on unplayed"
    cause = causes.cause_of(Broken(8, "pick", "bob", "T1", gap, 1), [], [], PLAYERS)
    assert cause == "the F1 at line 7"
    causes.found(Broken(8, "pick", "bob", "T1", gap, 1), {"ann": ["A1"]}, cause)
    assert build(causes, 20, "ann", "P2", "city1", ["A2"]) == "the F1 at line 7"  # what the pick held is not known
    assert build(causes, 21, "bob", "P2", "city1", ["A2"]) is None


def test_a_log_that_ends_early_names_the_deal_not_played() -> None:
    causes = Causes()
    assert causes.at_end() is None
    causes.found(Broken(54, "deal", None, "T1", "the deal is marked round 4; round 3 is due", 2), {})
    assert causes.at_end() == "the T1 at line 54"


def test_a_post_left_undeclared_follows_from_its_owners_declaration_elsewhere_in_the_same_harvest() -> None:
    causes = Causes()
    elsewhere = Broken(96, "harvest", None, "H1", "dee declares carrot for G8, where dee has no trading post; …", 3)
    assert causes.cause_of(elsewhere, [], [], ("ann", "dee")) is None
    causes.found(elsewhere, {})
    undeclared = "dee's trading post on E1 is not declared, so it produces nothing this harvest; …"
    assert (
        causes.cause_of(Broken(96, "harvest", None, "H1", undeclared, 3), [], [], ("ann", "dee")) == "the H1 at line 96"
    )
    assert causes.cause_of(Broken(129, "harvest", None, "H1", undeclared, 4), [], [], ("ann", "dee")) is None
    again = Broken(129, "harvest", None, "H1", "dee declares wood for G8, where dee has no trading post; …", 4)
    assert causes.cause_of(again, [], [], ("ann", "dee")) == "the H1 at line 96"  # missed again at the next
