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


def at_harvest(
    causes: Causes, line: int, rule: str, message: str, rnd: int, buildings: dict[str, str] | None = None
) -> None:
    """A harvest's problem, with its cause, recorded (with the buildings of its player)."""
    problem = Broken(line, "harvest", None, rule, message, rnd)
    causes.found(problem, {}, causes.cause_of(problem, [], [], PLAYERS), players=PLAYERS, buildings=buildings)


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
    """An X1 reads its players' carrots: what marked their holdings, else the first problem
    of their own events (or of nobody's: a deal, a line not read), else their first X1; never
    another player's problem, which changed nothing of theirs (a false lead is worse than none)."""
    causes = Causes()
    x1 = "cid harvests 3 carrots in round 1 (…), the log expects 4"
    assert causes.cause_of(Broken(10, "harvest", None, "X1", x1, 1), [], [], PLAYERS) is None
    causes.found(Broken(10, "harvest", None, "X1", x1, 1), {}, players=PLAYERS)
    assert causes.cause_of(Broken(20, "harvest", None, "X1", x1, 2), [], [], PLAYERS) == "the X1 at line 10"
    build(causes, 21, "ann", "C4", "city3", ["D5"])
    bob = "bob harvests 3 carrots in round 3 (…), the log expects 4"
    assert causes.cause_of(Broken(30, "harvest", None, "X1", bob, 3), [], [], PLAYERS) is None  # not ann's C4
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


def test_a_build_after_its_rounds_harvest_names_the_harvests_problem_of_its_builder() -> None:
    # the harvest of round 3 finds cid's carrots short (X1), then cid's build of round 3 comes:
    # it is late, and the X1 is the same mistake, found first; bob's late build is not cid's
    causes = Causes()
    at_harvest(causes, 83, "X1", "cid harvests 3 carrots in round 3 (…), the log expects 5", 3)
    late = "cid's city2 build comes before the deal of round 4"
    assert causes.cause_of(Broken(84, "build", "cid", "T1", late, 3), ["city2"], ["B8"]) == "the X1 at line 83"
    late = "bob's city2 build comes before the deal of round 4"
    assert causes.cause_of(Broken(85, "build", "bob", "T1", late, 3), ["city2"], ["B9"]) is None
    late = "cid's city3 build comes in the exploration of round 4"  # a round later: not that harvest's
    assert causes.cause_of(Broken(90, "build", "cid", "T1", late, 4), ["city3"], ["B7"]) is None


def test_a_trading_post_built_after_the_harvest_that_declared_it_names_the_h1() -> None:
    causes = Causes()
    at_harvest(causes, 112, "H1", "ann declares wood for J2, where ann has no trading post; …", 4)
    late = "ann's trading_post build comes after the 4th harvest, before the end event"
    assert causes.cause_of(Broken(113, "build", "ann", "T1", late, 4), ["trading_post"], ["J2"]) == "the H1 at line 112"


def test_a_draw_before_the_oldest_provisions_card_follows_from_a_pick_that_never_played_the_drawers() -> None:
    # ann's pick keeps camp4, not in her hand (D2): her provisions card is never played, so
    # her draw comes while bob's is the oldest (P3); bob's own draw is no problem of ann's
    causes = Causes()
    picked_badly(causes, 10, "ann", ["farm_copper", "provisions", "G6"])
    out_of_order = "ann draws, but the oldest provisions card to resolve is bob's"
    assert causes.cause_of(Broken(13, "draw", "ann", "P3", out_of_order, 1), [], []) == "the D2 at line 10"
    out_of_order = "cid draws, but the oldest provisions card to resolve is bob's"
    assert causes.cause_of(Broken(14, "draw", "cid", "P3", out_of_order, 1), [], []) is None


def test_a_late_draw_follows_from_the_p3_that_drew_out_of_its_order() -> None:
    # cid's draw is logged before bob's (P3, not played); after bob's, cid's draw is late (T1)
    causes = Causes()
    out_of_order = Broken(23, "draw", "cid", "P3", "cid draws, but the oldest provisions card to resolve is bob's", 1)
    causes.found(out_of_order, {"cid": ["A4", "C10", "provisions"]})
    late = "the draw of a provisions card of turn 5 of round 1 is late: cid's (turn 5); its cards are not played"
    assert causes.cause_of(Broken(25, "pick", "ann", "T1", late, 1), [], [], PLAYERS) == "the P3 at line 23"
    late = "the draw of a provisions card of turn 6 of round 1 is late: ann's (turn 6); its cards are not played"
    assert causes.cause_of(Broken(30, "pick", "ann", "T1", late, 1), [], [], PLAYERS) is None


def test_a_pick_from_a_hand_passed_by_a_player_whose_draw_was_late_names_the_late_draw() -> None:
    # bob kept provisions where the log has him keep A8 (his draw is then late, T1): the hand
    # he passed holds A8, and the player who picks from it later keeps provisions (D2)
    causes = Causes()
    late = "the draw of a provisions card of turn 2 of round 3 is late: bob's (turn 2); its cards are not played"
    causes.found(Broken(73, "pick", "cid", "T1", late, 3), {})
    d2 = Broken(81, "pick", "ann", "D2", "ann keeps provisions, which is not in ann's hand: A8, E9", 3)
    assert causes.cause_of(d2, [], [], PLAYERS, holders=["dee", "bob"]) == "the T1 at line 73"
    assert causes.cause_of(d2, [], [], PLAYERS, holders=["dee"]) is None  # bob never held it
    assert causes.cause_of(d2, [], [], PLAYERS) is None  # the round's first turn: the deal's hand


def test_a_p2_follows_from_an_illegal_pick_of_a_hand_its_builder_held_earlier() -> None:
    # ann kept I4 where the log has her keep farm_pearl: cid, holding that hand two turns on,
    # keeps I4 (D2), and ann's farm_pearl build lacks its card (P2); bob never held the hand
    causes = Causes()
    d2 = Broken(18, "pick", "cid", "D2", "cid keeps I4, which is not in cid's hand: G8, farm_pearl", 1)
    causes.found(d2, {"cid": ["I4", "G8", "farm_pearl"]}, holders=["bob", "ann"])
    assert build(causes, 27, "ann", "P2", "farm_pearl", ["A1"]) == "the D2 at line 18"
    assert build(causes, 28, "dee", "P2", "farm_pearl", ["A2"]) is None
    x1 = "ann harvests 4 carrots in round 1 (…), the log expects 6"  # ann's holdings: her P2's, not the D2's
    assert causes.cause_of(Broken(40, "harvest", None, "X1", x1, 1), [], [], PLAYERS) == "the D2 at line 18"


def test_without_a_deck_a_card_used_too_often_names_an_illegal_pick_whose_hand_held_it() -> None:
    causes = Causes()
    picked_badly(causes, 20, "bob", ["A9", "royal_coat", "C9"], rule="D3")
    s4 = "C9 is used 2 times, the game has 1 copy"
    assert causes.cause_of(Broken(59, "deal", None, "S4", s4, 2), [], [], PLAYERS) == "the D3 at line 20"
    s4 = "C8 is used 2 times, the game has 1 copy"
    assert causes.cause_of(Broken(60, "deal", None, "S4", s4, 2), [], [], PLAYERS) is None


def test_a_c3_on_a_building_of_a_player_whose_harvest_was_short_names_the_x1() -> None:
    # ann's city1 stands on C6 where the log has it on H2 (a legal build): her harvest is short
    # (X1), and a later build on C6 finds it there (C3); a build on another of her squares does not
    causes = Causes()
    at_harvest(causes, 78, "X1", "ann harvests 2 carrots in round 3 (…), the log expects 3", 3, {"C6": "city1"})
    assert build(causes, 102, "ann", "C3", "farm_copper", ["C6"]) == "the X1 at line 78"
    assert build(causes, 103, "ann", "C3", "farm_copper", ["D6"]) is None
    assert build(causes, 104, "bob", "C6", "camp2", ["C6"]) == "the X1 at line 78"


def test_a_p2_of_a_card_a_player_has_built_names_their_short_harvest() -> None:
    # cid built city1 where the log has city2 (both hers): her harvest is short (X1), and her
    # later city1 lacks its card (P2); a card she has not built, or bob's city1, does not
    causes = Causes()
    at_harvest(causes, 56, "X1", "cid harvests 1 carrot in round 2 (…), the log expects 2", 2, {"D6": "city1"})
    assert build(causes, 120, "cid", "P2", "city1", ["E6"]) == "the X1 at line 56"
    assert build(causes, 121, "cid", "P2", "city3", ["E7"]) is None
    assert build(causes, 122, "bob", "P2", "city1", ["E8"]) is None


def test_a_c3_on_a_trading_post_whose_declaration_was_missed_names_the_h1() -> None:
    causes = Causes()
    h1 = "bob declares carrot for E5, where bob has no trading post; …"
    at_harvest(causes, 57, "H1", h1, 2, {"J9": "trading_post"})
    assert build(causes, 106, "bob", "C3", "city2", ["J9"]) == "the H1 at line 57"


def test_a_sky_tower_on_two_squares_of_one_fief_names_what_changed_its_builders_fiefs() -> None:
    causes = Causes()
    p3 = Broken(18, "draw", "bob", "P3", "bob draws J5, D5, but the top of the deck is J5, city2", 1)
    causes.found(p3, {"bob": ["D5"]})
    assert build(causes, 76, "bob", "C5", "sky_tower", ["C5", "D4"]) == "the P3 at line 18"
    assert build(causes, 77, "ann", "C5", "sky_tower", ["E5", "E6"]) is None


def test_a_camp_on_a_printed_city_is_a_root_whatever_came_before() -> None:
    causes = Causes()
    picked_badly(causes, 58, "bob", ["B7", "camp4"])
    build(causes, 60, "bob", "C2", "city1", ["B7"])
    assert build(causes, 101, "bob", "C6", "camp4", ["B7"]) is None  # B7 holds a printed city
    assert build(causes, 102, "bob", "C6", "camp4", ["E8"]) is None


def test_an_opportunists_total_names_the_totals_and_carrots_it_counts_found_before_it() -> None:
    # a changed declaration changes bob's total; cid's Opportunist counts it, so cid's too
    causes = Causes()
    bob = Broken(109, "end", None, "X1", "bob ends with 86 carrots (…), the log expects 68", 4)
    assert causes.cause_of(bob, [], [], PLAYERS, others=False) is None
    causes.found(bob, {}, None, players=PLAYERS)
    cid = Broken(109, "end", None, "X1", "cid ends with 78 carrots (…), the log expects 68", 4)
    assert causes.cause_of(cid, [], [], PLAYERS, others=True) == "the X1 at line 109"
    assert causes.cause_of(cid, [], [], PLAYERS, others=False) is None  # no Opportunist: only cid's own
    # ann's camp build is missing: her harvest is short (X1); cid's Opportunist counts her total too
    earlier = Causes()
    at_harvest(earlier, 28, "X1", "ann harvests 1 carrot in round 1 (…), the log expects 2", 1)
    assert earlier.cause_of(cid, [], [], PLAYERS, others=True) == "the X1 at line 28"
    assert earlier.cause_of(cid, [], [], PLAYERS, others=False) is None


def test_a_copy_of_a_card_its_player_does_not_own_names_the_illegal_pick_of_that_card() -> None:
    # ann kept B9 where the log has her keep liberal; bob, passed that hand, keeps B9 (D3)
    causes = Causes()
    d3 = Broken(10, "pick", "bob", "D3", "bob discards B9, which is not in bob's hand …", 1)
    causes.found(d3, {"bob": ["B9", "liberal", "H2"]}, holders=["ann"])
    e7 = Broken(103, "end", None, "E7", "ann names a copy for liberal, but does not own liberal", 4)
    assert causes.cause_of(e7, [], [], PLAYERS) == "the D3 at line 10"
    e7 = Broken(103, "end", None, "E7", "ann names a copy for socialist, but does not own socialist", 4)
    assert causes.cause_of(e7, [], [], PLAYERS) is None  # not a card of the hand ann held
    e7 = Broken(103, "end", None, "E7", "cid names a copy for liberal, but does not own liberal", 4)
    assert causes.cause_of(e7, [], [], PLAYERS) is None


def x1(causes: Causes, line: int, player: str, rnd: int, camps: list[str], lost: tuple[str, ...] = ()) -> str | None:
    """The cause of ``player``'s carrots at a harvest, who has camps on ``camps`` and lost ``lost``."""
    message = f"{player} harvests 3 carrots in round {rnd} (…), the log expects 4"
    return causes.cause_of(Broken(line, "harvest", None, "X1", message, rnd), [], camps, PLAYERS, lost=lost)


def test_an_x1_reads_the_claim_of_a_camp_whose_territory_card_a_failed_pick_did_not_play() -> None:
    # ann's pick is illegal: E8, in her hand, is never played, so bob's camp there stays (P1)
    causes = Causes()
    picked_badly(causes, 10, "ann", ["E8", "city2"])
    assert x1(causes, 30, "bob", 1, ["E8"]) == "the D2 at line 10"
    assert x1(causes, 30, "bob", 1, ["E9"]) is None  # a camp on a square the hand did not hold
    assert x1(causes, 30, "bob", 1, [], lost=("E8",)) is None  # lost: a later pick played E8, as in the log


def test_an_x1_reads_the_draw_claim_of_a_square_its_player_lost() -> None:
    # bob draws A4 where the deck has farm_pearl: A4 is played, and ann's camp there leaves (P1)
    causes = Causes()
    p3 = Broken(60, "draw", "bob", "P3", "bob draws G4, A4, but the top of the deck is G4, farm_pearl", 3)
    causes.found(p3, {"bob": ["A4", "farm_pearl", "provisions"]})
    assert x1(causes, 103, "ann", 4, [], lost=("A4",)) == "the P3 at line 60"
    assert x1(causes, 103, "ann", 4, [], lost=("G4",)) is None  # the deck's card too: taken in the log's game
    assert x1(causes, 103, "cid", 4, ["A4"]) == "the P3 at line 60"  # a camp a draw claim reached stays, perhaps


def test_a_draw_out_of_turn_marks_the_claims_of_its_cards() -> None:
    # bob's draw comes before his pick (D4) and is not played: cid's camp on E3 stays
    causes = Causes()
    d4 = Broken(99, "draw", "bob", "D4", "bob draws before bob picked in turn 1; …", 4)
    causes.found(d4, {"bob": ["E3", "farmer"]})
    assert x1(causes, 122, "cid", 4, ["E3"]) == "the D4 at line 99"
    assert x1(causes, 122, "dee", 4, ["A7"]) is None


def test_a_draw_the_deck_put_out_of_step_is_played_as_the_log_has_it() -> None:
    # ann's pick never played her provisions card (D2), so her draw is not played, and bob's
    # draw is not the deck's next cards (P3, after the D2): his cards are the log's, played
    causes = Causes()
    picked_badly(causes, 10, "ann", ["camp4", "provisions"])
    late = Broken(13, "draw", "ann", "P3", "ann draws, but the oldest provisions card to resolve is cid's", 1)
    causes.found(late, {"ann": ["master_carpenter", "F1"]}, causes.cause_of(late, [], [], PLAYERS))
    p3 = Broken(14, "draw", "bob", "P3", "bob draws city1, J2, but the top of the deck is master_carpenter, F1", 1)
    cause = causes.cause_of(p3, [], [], PLAYERS)
    assert cause == "the D2 at line 10"
    causes.found(p3, {"bob": ["city1", "J2", "master_carpenter", "F1", "provisions"]}, cause)
    bob = Broken(76, "harvest", None, "X1", "bob harvests 4 carrots in round 1 (…), the log expects 5", 1)
    assert causes.cause_of(bob, [], [], PLAYERS) is None  # not bob's holdings, nor bob's first problem
    assert build(causes, 20, "bob", "P2", "city1", ["J3"]) is None


def test_a_deals_problem_of_one_hand_is_read_by_its_picks_not_by_every_players_carrots() -> None:
    causes = Causes()
    d1 = Broken(2, "deal", "bob", "D1", "the deal does not follow the deck: card 3 of bob's hand is A2, …", 1)
    causes.found(d1, {})
    d3 = Broken(8, "pick", "bob", "D3", "bob discards F9, …", 1)
    assert causes.cause_of(d3, [], [], PLAYERS) == "the D1 at line 2"
    assert x1(causes, 30, "ann", 1, []) is None
    assert x1(causes, 30, "bob", 1, []) is None  # bob's picks from it were legal: what he kept is the log's


def test_a_deal_the_deck_holds_further_on_is_nobodys_and_every_players_carrots_name_it() -> None:
    # an earlier draw left out: the deck holds the deal's cards 2 further on, and no hand is known to differ
    causes = Causes()
    causes.found(Broken(27, "deal", None, "D1", "the deal does not follow the deck: card 1 of ann's hand …", 2), {})
    assert x1(causes, 40, "bob", 2, []) == "the D1 at line 27"


def test_the_claim_of_a_card_a_root_pick_keeps_and_its_hand_lacks_is_not_marked() -> None:
    # bob keeps A7, not in his hand (D2, a root): A7 is his mistake, perhaps; ann's camp on A7
    # stood in the log's game too. A D2 that follows from a hand not the log's marks it.
    causes = Causes()
    d2 = Broken(71, "pick", "bob", "D2", "bob keeps A7, which is not in bob's hand: G10, liberal", 3)
    causes.found(d2, {"bob": ["A7", "G10", "liberal"]}, lacking=["A7"])
    assert x1(causes, 88, "ann", 3, ["A7"]) is None
    assert x1(causes, 88, "ann", 3, ["G10"]) == "the D2 at line 71"
    causes = Causes()
    causes.found(d2, {"bob": ["A7", "G10", "liberal"]}, "the D1 at line 50", lacking=["A7"])
    assert x1(causes, 88, "ann", 3, ["A7"]) == "the D1 at line 50"


def test_a_draw_line_not_read_leaves_the_camps_on_the_squares_it_names() -> None:
    # bob's draw has an unknown field (F1): its cards, A4 and city1, are not played; cid's camp on A4 stays
    causes = Causes()
    causes.unreadable(111, "draw", "bob", ["A4", "city1"])
    assert x1(causes, 120, "cid", 4, ["A4"]) == "the F1 at line 111"
    assert x1(causes, 120, "cid", 4, ["A5"]) is None
