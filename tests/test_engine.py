"""The engine's rules, one mechanism at a time, on small hand-made games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bkref.game.engine import State, apply
from bkref.game.events import Build, Deal, Draw, End, Game, Harvest, Pick, Rulings
from tests.conftest import referee, replay


def rules(found) -> list[str]:
    return [v.rule for v in found]


def started(players=("ann", "bob", "cid"), deck=None, **rulings) -> State:
    state = State()
    assert state.play(Game(format="bkref/1", players=list(players), deck=deck, rulings=Rulings(**rulings))) == []
    return state


def hand(*cards: str, size: int) -> list[str]:
    """``cards`` padded to ``size`` with plains squares nobody uses in these tests."""
    filler = [
        sq
        for sq in (
            "E2",
            "E4",
            "E5",
            "E7",
            "E9",
            "F6",
            "F10",
            "G3",
            "G4",
            "G6",
            "G8",
            "G10",
            "H1",
            "H5",
            "H6",
            "H8",
            "H9",
            "I2",
            "I3",
            "I6",
            "C10",
            "D1",
            "D8",
            "A9",
            "B8",
            "C3",
        )
        if sq not in cards
    ]
    return list(cards) + filler[: size - len(cards)]


def building(state: State, player: str, *cards: str, squares=()) -> State:
    """Jump ``state`` to round 1's construction, ``player`` holding ``cards`` and ``squares``."""
    state.phase, state.round = "building", 1
    for card in cards:
        state.supply[player][card] = state.supply[player].get(card, 0) + 1
    for sq in squares:
        state.position.claim(sq, player)
    return state


# -- setup and deal ---------------------------------------------------------------------


def test_seats_and_neighbours() -> None:
    state = started(("ann", "bob", "cid", "dee"))
    assert (state.left_of("ann"), state.right_of("ann")) == ("bob", "dee")
    two = started(("ann", "bob"))
    assert two.left_of("ann") == two.right_of("ann") == "bob"


def test_players_are_seated_only_by_seat() -> None:
    """Assigning the players would leave their neighbours and turns behind: only ``seat`` sets them."""
    state = started(("ann", "bob", "cid", "dee"))
    with pytest.raises(AttributeError):
        state.players = ("ann", "bob")  # type: ignore[misc]
    state.seat(("ann", "bob"))
    assert (state.players, state.seats, state.left, state.turns_per_round) == (
        ("ann", "bob"),
        2,
        {"ann": "bob", "bob": "ann"},
        10,
    )


@pytest.mark.parametrize("players", [["ann"], ["a", "b", "c", "d", "e"], ["ann", "ann"]])
def test_seats_two_to_four_distinct_players(players) -> None:
    assert rules(State().play(Game(format="bkref/1", players=players))) == ["S1"]


def test_deal_sizes_per_player_count() -> None:
    three = started()
    bad = {"ann": hand(size=12), "bob": hand(size=12), "cid": hand(size=11)}
    assert rules(three.play(Deal(round=1, hands=bad))) == ["D1"]
    two = started(("ann", "bob"))
    hands = {"ann": hand(size=10), "bob": hand(size=10)}
    assert rules(two.play(Deal(round=1, hands=hands))) == ["D1"]  # no reserves


def test_deck_mode_deal_must_be_the_decks_next_cards_in_seat_order() -> None:
    from bkref.game.catalog import CARDS

    deck = [c for c, card in CARDS.items() for _ in range(card.copies)]
    state = started(("ann", "bob", "cid", "dee"), deck=deck)
    hands = {p: deck[10 * i : 10 * i + 10] for i, p in enumerate(("ann", "bob", "cid", "dee"))}
    assert state.copy().play(Deal(round=1, hands=hands)) == []
    swapped = dict(hands, ann=hands["bob"], bob=hands["ann"])
    found = state.play(Deal(round=1, hands=swapped))
    assert rules(found) == ["D1"]
    assert found[0].message == (
        "the deal does not follow the deck: card 1 of ann's hand is B1, but card 1 of the deck is A1"
    )
    assert state.deck_pos == 40 and state.phase == "exploring"  # reported, and dealt as written


def test_conservation_mode_counts_every_card_dealt_or_drawn() -> None:
    state = started(("ann", "bob", "cid", "dee"))
    hands = {p: hand(size=10) for p in ("ann", "bob", "cid", "dee")}
    found = state.play(Deal(round=1, hands=hands))
    assert set(rules(found)) == {"S4"}
    assert "E2 is used 4 times, the game has 1 copy" in found[0].message


# -- picks, passing, provisions -------------------------------------------------------


def test_three_players_keep_two_and_pass_left_in_round_one() -> None:
    state = started()
    hands = {p: hand(*own, size=12) for p, own in (("ann", ("A1", "A2")), ("bob", ("B1", "B2")), ("cid", ("C1", "C2")))}
    state.play(Deal(round=1, hands=hands))
    assert rules(state.play(Pick(round=1, turn=1, player="ann", keep=["A1"]))) == ["D2"]
    state = started()
    state.play(Deal(round=1, hands=hands))
    for p, own in (("ann", ["A1", "A2"]), ("bob", ["B1", "B2"]), ("cid", ["C1", "C2"])):
        assert state.play(Pick(round=1, turn=1, player=p, keep=own)) == []
    assert state.position.owner["A1"] == "ann" and state.turn == 2
    # ann's rest went to bob, on her left; ann now holds cid's rest
    assert state.hands["bob"] == [c for c in hands["ann"] if c not in ("A1", "A2")]
    assert state.hands["ann"] == [c for c in hands["cid"] if c not in ("C1", "C2")]


def test_a_card_picked_more_often_than_the_hand_holds_it() -> None:
    state = started()
    state.play(Deal(round=1, hands={p: hand("city1", size=12) for p in ("ann", "bob", "cid")}))
    found = state.play(Pick(round=1, turn=1, player="ann", keep=["city1", "city1"]))
    assert rules(found) == ["D2"]
    assert found[0].message.startswith("ann picks city1 2 times, but ann's hand holds only 1: city1, ")


def test_round_two_passes_right_and_a_wrong_way_pick_is_d5() -> None:
    state = started()
    state.phase, state.round, state.turn = "exploring", 2, 1
    state.hands = {
        p: hand(*own, size=12)
        for p, own in (("ann", ("A1", "A2", "A3")), ("bob", ("B1", "B2", "B3")), ("cid", ("C1", "C2", "C3")))
    }
    for p, own in (("ann", ["A1", "A2"]), ("bob", ["B1", "B2"]), ("cid", ["C1", "C2"])):
        state.play(Pick(round=2, turn=1, player=p, keep=own))
    assert "B3" in state.hands["ann"]  # bob's rest went right, to ann
    found = state.play(Pick(round=2, turn=2, player="ann", keep=["C3", "B3"]))
    assert rules(found) == ["D5"]
    assert "in round 2 hands pass to the right" in found[0].message


def test_two_players_add_the_reserve_card_keep_one_and_discard_one() -> None:
    state = started(("ann", "bob"))
    hands = {"ann": hand("A1", size=10), "bob": hand("B1", size=10)}
    reserves = {"ann": ["A2", "A3"] + ["J1"] * 8, "bob": ["B2", "B3"] + ["J2"] * 8}
    state.play(Deal(round=1, hands=hands, reserves=reserves))
    # the second reserve card is not in the hand yet
    assert rules(state.copy().play(Pick(round=1, turn=1, player="ann", keep=["A3"], discard=["A1"]))) == ["D3"]
    assert rules(state.copy().play(Pick(round=1, turn=1, player="ann", keep=["A2"]))) == ["D3"]
    assert state.play(Pick(round=1, turn=1, player="ann", keep=["A2"], discard=["A1"])) == []
    assert state.play(Pick(round=1, turn=1, player="bob", keep=["B1"], discard=["B2"])) == []
    # the discards left the game: bob now holds ann's rest, without A1
    assert "A1" not in state.hands["bob"] and len(state.hands["bob"]) == 9
    assert rules(state.play(Pick(round=1, turn=2, player="bob", keep=["A1"], discard=["B3"]))) == ["D3"]


def test_provisions_draws_resolve_oldest_first_and_chain() -> None:
    state = started()
    hands = {
        "ann": hand("provisions", "A1", size=12),
        "bob": hand("provisions", "B1", size=12),
        "cid": hand("C1", "C2", size=12),
    }
    state.play(Deal(round=1, hands=hands))
    assert rules(state.play(Pick(round=1, turn=1, player="ann", keep=["provisions", "A1"]))) == []
    assert rules(state.play(Draw(round=1, turn=1, player="ann", cards=["J1", "J2"]))) == ["D4"]
    state.play(Pick(round=1, turn=1, player="bob", keep=["B1", "provisions"]))
    state.play(Pick(round=1, turn=1, player="cid", keep=["C1", "C2"]))
    assert state.pending == [("ann", 1), ("bob", 1)]
    assert rules(state.copy().play(Draw(round=1, turn=1, player="bob", cards=["J1", "J2"]))) == ["P3"]
    assert state.play(Draw(round=1, turn=1, player="ann", cards=["provisions", "J1"])) == []
    assert state.pending == [("bob", 1), ("ann", 1)]  # the drawn provisions queues behind bob's
    assert state.play(Draw(round=1, turn=1, player="bob", cards=["J2", "royal_ring"])) == []
    assert state.turn == 1  # ann's chained draw is still due
    assert state.play(Draw(round=1, turn=1, player="ann", cards=["J3", "J4"])) == []
    assert state.turn == 2
    assert [state.position.owner[sq] for sq in ("J1", "J2", "J3")] == ["ann", "bob", "ann"]
    assert state.parchments["bob"] == ["royal_ring"]


def test_a_next_turn_pick_before_the_draw_reports_it_once_and_goes_on() -> None:
    state = started()
    hands = {
        "ann": hand("provisions", "A1", size=12),
        "bob": hand("B1", "B2", size=12),
        "cid": hand("C1", "C2", size=12),
    }
    state.play(Deal(round=1, hands=hands))
    for p, keep in (("ann", ["provisions", "A1"]), ("bob", ["B1", "B2"]), ("cid", ["C1", "C2"])):
        state.play(Pick(round=1, turn=1, player=p, keep=keep))
    nxt = state.hands["ann"][:2]
    found = state.play(Pick(round=1, turn=2, player="ann", keep=nxt))
    assert rules(found) == ["T1"] and " is late: " in found[0].message
    assert state.turn == 2 and state.picks["ann"] is not None


def test_picks_end_after_the_last_turn_then_construction() -> None:
    state = started()
    state.phase, state.round, state.turn = "exploring", 1, 6
    state.hands = {"ann": ["A1", "A2"], "bob": ["B1", "B2"], "cid": ["C1", "C2"]}
    assert rules(state.play(Build(round=2, player="ann", card="city1", at=["A1"]))) == ["T1"]  # not its round
    for p, cards in state.hands.copy().items():
        state.play(Pick(round=1, turn=6, player=p, keep=cards))
    assert state.phase == "building"
    assert rules(state.play(Pick(round=1, turn=7, player="ann", keep=["A3", "A4"]))) == ["T1"]


# -- territory cards and camps (P1, C6, C7) -------------------------------------------


def test_a_territory_card_takes_an_opponents_camp_square() -> None:
    state = building(started(), "bob", "camp2")
    assert state.play(Build(round=1, player="bob", card="camp2", at=["E4"])) == []
    assert state.position.owner["E4"] == "bob" and state.position.building["E4"] == "camp2"
    state.play_card("ann", "E4")
    assert state.position.owner["E4"] == "ann" and "E4" not in state.position.building


def test_own_camp_leaves_when_its_card_is_played_and_the_square_can_be_built() -> None:
    state = building(started(), "ann", "camp1", "city1")
    state.play(Build(round=1, player="ann", card="camp1", at=["E4"]))
    assert rules(state.copy().play(Build(round=1, player="ann", card="city1", at=["E4"]))) == ["C3"]
    state.play_card("ann", "E4")
    assert state.position.owner["E4"] == "ann" and not state.position.occupied("E4")
    assert state.play(Build(round=1, player="ann", card="city1", at=["E4"])) == []


def test_camps_only_on_empty_squares() -> None:
    state = building(started(), "ann", "camp1", "camp2", "camp3")
    state.position.claim("E5", "bob")
    assert rules(state.play(Build(round=1, player="ann", card="camp1", at=["E5"]))) == ["C6"]  # a rabbit
    assert rules(state.play(Build(round=1, player="ann", card="camp2", at=["A4"]))) == ["C6"]  # printed city
    assert state.play(Build(round=1, player="ann", card="camp3", at=["E4"])) == []


def test_camps_in_ascending_priority_within_a_construction_phase() -> None:
    state = building(started(), "ann", "camp2", "camp4")
    state.supply["bob"]["camp3"] = 1
    assert state.play(Build(round=1, player="ann", card="camp4", at=["E4"])) == []
    assert rules(state.play(Build(round=1, player="bob", card="camp3", at=["E5"]))) == ["C7"]
    assert state.supply["bob"]["camp3"] == 1  # it stays in supply
    state.play(Harvest(round=1))
    state.phase, state.round, state.turn = "exploring", 2, 6
    state.hands = {p: [] for p in state.players}
    state.picks = {"ann": None, "bob": None}
    state.play(Pick(round=2, turn=6, player="cid", keep=[]))  # the last pick opens construction
    assert state.phase == "building" and state.camp_floor == 0
    assert state.play(Build(round=2, player="bob", card="camp3", at=["E5"])) == []


# -- construction (C1-C5) -------------------------------------------------------------


def test_buildings_only_on_controlled_squares_and_only_from_supply() -> None:
    state = building(started(), "ann", "city2", squares=["E4"])
    assert rules(state.play(Build(round=1, player="ann", card="city2", at=["E5"]))) == ["C2"]
    assert rules(state.play(Build(round=1, player="ann", card="city1", at=["E4"]))) == ["P2"]
    assert state.play(Build(round=1, player="ann", card="city2", at=["E4"])) == []
    assert rules(state.play(Build(round=1, player="ann", card="city2", at=["E4"]))) == ["P2"]


def test_one_building_per_square_printed_cities_included() -> None:
    state = building(started(), "ann", "farm_wood", "city1", squares=["A4", "E4"])
    assert rules(state.play(Build(round=1, player="ann", card="farm_wood", at=["A4"]))) == ["C3"]
    state.play(Build(round=1, player="ann", card="city1", at=["E4"]))
    assert rules(state.play(Build(round=1, player="ann", card="farm_wood", at=["E4"]))) == ["C3"]


@pytest.mark.parametrize(
    ("card", "good", "bad"),
    [
        ("city3", "B1", "A1"),
        ("farm_mushroom", "A1", "B1"),
        ("farm_pearl", "A5", "A1"),
        ("farm_carrot_powder", "C7", "A1"),
        ("farm_gold", "B1", "A5"),
    ],
)
def test_terrain_requirements(card: str, good: str, bad: str) -> None:
    state = building(started(), "ann", card, card, squares=[good, bad])
    assert rules(state.play(Build(round=1, player="ann", card=card, at=[bad]))) == ["C4"]
    assert state.play(Build(round=1, player="ann", card=card, at=[good])) == []


def test_sky_tower_joins_two_different_fiefs() -> None:
    state = building(started(), "ann", "sky_tower", "sky_tower", squares=["A1", "A2", "J9", "E7"])
    assert rules(state.play(Build(round=1, player="ann", card="sky_tower", at=["A1", "A2"]))) == ["C5"]
    assert rules(state.play(Build(round=1, player="ann", card="sky_tower", at=["A1"]))) == ["C5"]
    assert rules(state.play(Build(round=1, player="ann", card="sky_tower", at=["A1", "J10"]))) == ["C2"]
    assert state.play(Build(round=1, player="ann", card="sky_tower", at=["A1", "J9"])) == []
    state.play(Harvest(round=1))
    squares = [f.squares for f in state.harvests[0]["ann"]]
    assert squares == [("A1", "A2", "J9"), ("E7",)]


# -- harvest (H1) ---------------------------------------------------------------------


def test_every_trading_post_is_declared_and_produces_what_is_declared() -> None:
    state = building(started(), "ann", "trading_post", "city2", squares=["E4", "E5"])
    state.play(Build(round=1, player="ann", card="trading_post", at=["E4"]))
    state.play(Build(round=1, player="ann", card="city2", at=["E5"]))
    undeclared = state.copy()
    assert rules(undeclared.play(Harvest(round=1, expect={"ann": 0}))) == ["H1"]
    wrong = state.copy()
    found = wrong.play(Harvest(round=1, trading_posts={"ann": {"E4": "fish", "E5": "wood"}}))
    assert rules(found) == ["H1"] and "E5" in found[0].message
    assert state.play(Harvest(round=1, trading_posts={"ann": {"E4": "fish"}}, expect={"ann": 2})) == []
    assert state.harvests[0]["ann"][0].resources == ("fish",)


def test_expect_mismatch_is_x1_with_the_fiefs() -> None:
    state = building(started(), "ann", "city2", squares=["A1", "A2"])
    state.play(Build(round=1, player="ann", card="city2", at=["A1"]))
    found = state.play(Harvest(round=1, expect={"ann": 3}))
    assert rules(found) == ["X1"]
    assert found[0].message == ("ann harvests 2 carrots in round 1 (fief of A1 (2 squares) 2x1), the log expects 3")


def test_an_unknown_player_is_a_format_problem() -> None:
    state = building(started(), "ann", "city1", squares=["A1"])
    assert rules(state.play(Build(round=1, player="zed", card="city1", at=["A1"]))) == ["F1"]


# -- end (E7) -------------------------------------------------------------------------


def ended(**rulings) -> State:
    state = started(**rulings)
    state.phase, state.round = "ending", 4
    state.harvests = [{p: [] for p in state.players}] * 4
    return state


def test_copy_cards_copy_the_right_neighbours() -> None:
    state = ended()
    # ann's liberal copies from cid (her right), her socialist from bob (her left);
    # cid's socialist copies from ann, who holds only copy cards: it copies nothing.
    state.parchments.update(ann=["liberal", "socialist"], bob=["fisher"], cid=["royal_crown", "socialist"])
    wrong = state.copy().play(
        End(copies={"ann": {"liberal": "fisher", "socialist": "royal_crown"}, "cid": {"socialist": "fisher"}})
    )
    assert rules(wrong) == ["E7", "E7", "E7"]
    assert rules(state.copy().play(End(copies={"ann": {"liberal": "royal_crown"}}))) == ["E7", "E7"]  # missing
    assert (
        state.play(End(copies={"ann": {"liberal": "royal_crown", "socialist": "fisher"}, "cid": {"socialist": None}}))
        == []
    )
    rows = {r.card: (r.copied, r.points) for r in state.final.players["ann"].parchments}
    assert rows == {"liberal": ("royal_crown", 5), "socialist": ("fisher", 0)}


def test_null_copy_is_wrong_when_the_neighbour_has_a_parchment() -> None:
    state = ended()
    state.parchments.update(ann=["liberal"], cid=["fisher"])
    found = state.play(End(copies={"ann": {"liberal": None}}))
    assert rules(found) == ["E7"] and "cid (on the right) has fisher" in found[0].message


@pytest.mark.parametrize(("ruling", "expected", "crown"), [("forbidden", ["E7"], 0), ("follow", [], 5)])
def test_copy_of_a_copy_r3(ruling: str, expected: list[str], crown: int) -> None:
    state = ended(copy_of_copy=ruling)
    # cid's liberal copies bob's liberal (cid's right), which copies ann's royal_crown (bob's right)
    state.parchments.update(ann=["royal_crown"], bob=["liberal"], cid=["liberal"])
    found = state.play(End(copies={"bob": {"liberal": "royal_crown"}, "cid": {"liberal": "liberal"}}))
    assert rules(found) == expected
    assert state.final.players["cid"].total == crown


def test_a_cycle_of_copies_is_an_error_under_r3_follow() -> None:
    state = ended(copy_of_copy="follow")
    state.parchments.update(ann=["socialist"], bob=["liberal"], cid=["fisher"])
    found = state.play(End(copies={"ann": {"socialist": "liberal"}, "bob": {"liberal": "socialist"}}))
    assert rules(found) == ["E7"] and "leads back to itself" in found[0].message
    for player in ("ann", "bob"):  # one cycle, one problem: both copy cards copy nothing
        assert [(r.copied, r.points) for r in state.final.players[player].parchments] == [(None, 0)]


def test_pure_apply_leaves_the_state_as_it_was() -> None:
    state = building(started(), "ann", "city2", squares=["A1"])
    before = (dict(state.position.building), Counter(state.supply["ann"]))
    after, found = apply(state, Build(round=1, player="ann", card="city2", at=["A1"]))
    assert found == [] and after.position.building == {"A1": "city2"}
    assert (dict(state.position.building), Counter(state.supply["ann"])) == before


def test_an_x1_on_a_harvest_names_every_fief_that_yields_or_says_none_does() -> None:
    state = building(started(), "ann", "city1", "city2", squares=["A1", "J10"])
    nothing = state.copy()
    assert [tuple(v) for v in nothing.play(Harvest(round=1, expect={"ann": 1}))] == [
        ("X1", "ann harvests 0 carrots in round 1 (no fief yields carrots), the log expects 1")
    ]
    assert state.play(Build(round=1, player="ann", card="city1", at=["A1"])) == []
    assert state.play(Build(round=1, player="ann", card="city2", at=["J10"])) == []
    assert [tuple(v) for v in state.play(Harvest(round=1, expect={"ann": 1}))] == [
        (
            "X1",
            "ann harvests 3 carrots in round 1 (fief of A1 (1 square) 1x1; fief of J10 (1 square) 2x1), "
            "the log expects 1",
        )
    ]


def test_the_state_before_the_game_event_has_nothing_to_finish_and_says_where_it_stands() -> None:
    assert State().finish() == []
    assert State().where() == "before the game event"


def test_an_x1_on_the_end_keeps_the_score_with_what_each_parchment_counted(tmp_path: Path) -> None:
    events = replay("3p-ann-bob-cid")
    end = dict(events[-1], expect={**events[-1]["expect"], "ann": 0})
    report = referee(tmp_path, [*events[:-1], end])
    assert [d.rule for d in report.diagnostics] == ["X1"]
    final = report.state.final
    assert final is not None and all(r.counted for s in final.players.values() for r in s.parchments)


def test_an_x1_on_a_harvest_counts_a_fiefs_squares_in_words() -> None:
    state = building(started(), "ann", "city1", squares=["A1"])
    assert state.play(Build(round=1, player="ann", card="city1", at=["A1"])) == []
    found = state.play(Harvest(round=1, expect={"ann": 5}))
    assert [tuple(v) for v in found] == [
        ("X1", "ann harvests 1 carrot in round 1 (fief of A1 (1 square) 1x1), the log expects 5")
    ]


def test_the_engine_exports_its_names_and_the_tables() -> None:
    """``from bkref.game.engine import *`` gives the engine's names and the table's constants it
    re-exports, and nothing else (its imports stay its own)."""
    names: dict[str, object] = {}
    exec("from bkref.game.engine import *", names)
    assert sorted(n for n in names if n != "__builtins__") == [
        "CHECKPOINT", "Due", "HAND_SIZE", "History", "KEEP", "ROUNDS", "State", "Violation", "apply"
    ]  # fmt: skip


def test_a_history_goes_back_and_to_any_position_as_playing_did() -> None:
    """``History`` keeps a state every CHECKPOINT events, not one an event: every position it
    makes again, and the state ``pop`` leaves, is the state playing the events made."""
    import pickle
    import random

    from bkref.game.engine import CHECKPOINT, History
    from bkref.io.logfile import Record
    from bkref.io.sources import read

    def value(state: State) -> dict[str, bytes]:
        return {name: pickle.dumps(held) for name, held in state.fields().items()}

    events = [r.event for r in read("replays/4p-ann-bob-cid-dee.jsonl") if isinstance(r, Record)]
    assert len(events) > CHECKPOINT + 5
    game, seen = History(), [value(State())]
    for event in events:
        assert game.push(event) == []
        seen.append(value(game.state))
    for played in random.Random(3).sample(range(len(events) + 1), len(events) + 1):
        assert value(game.state_after(played)) == seen[played], played
    for played in reversed(range(len(events) - CHECKPOINT - 5, len(events))):  # back over a kept state
        assert game.pop() == events[played]
        assert value(game.state) == seen[played]
        assert value(game.state_after(played - 1)) == seen[played - 1]
    for event in events[len(game.events) :]:  # and on again, the same
        game.push(event)
    assert value(game.state) == seen[-1] and game.events == events
    assert all(value(game.state_after(n)) == seen[n] for n in range(0, len(events) + 1, 5))
    assert len(game._kept) == len(events) // CHECKPOINT + 1  # a state a CHECKPOINT, once each
    with pytest.raises(IndexError):
        game.state_after(len(events) + 1)


def _history_value(state: State) -> dict[str, bytes]:
    import pickle

    return {name: pickle.dumps(held) for name, held in state.fields().items()}


def test_a_history_stepped_back_and_played_on_otherwise_forgets_the_states_it_left() -> None:
    """A state asked for after n events is kept; stepped back below n, then played on with
    other events, the history gives the state of those events, not the one it kept."""
    from bkref.bots.simulate import simulate
    from bkref.game.engine import History

    one, other = simulate(3, 1), simulate(3, 2)  # the same players, other deals
    game = History()
    for event in one[:12]:
        game.push(event)
    kept = [_history_value(game.state_after(n)) for n in (9, 10)]
    for _ in range(11):  # back to the game event alone
        game.pop()
    for event in other[1:12]:
        game.push(event)
    fresh = History()
    for event in [one[0], *other[1:12]]:
        fresh.push(event)
    for n, before in zip((9, 10), kept, strict=True):
        assert _history_value(game.state_after(n)) == _history_value(fresh.state_after(n)) != before


def test_a_history_keeps_the_last_states_asked_for() -> None:
    """The last ``RECENT`` states asked for are kept (asked again, the same object: not played
    again); the one asked for longest ago goes first."""
    from bkref.bots.simulate import simulate
    from bkref.game.engine import History

    game = History()
    for event in simulate(3, 1)[:20]:
        game.push(event)
    asked = [game.state_after(n) for n in range(1, History.RECENT + 1)]
    assert all(game.state_after(n) is state for n, state in zip(range(1, History.RECENT + 1), asked, strict=True))
    game.state_after(History.RECENT + 1)  # one more: the first asked for goes
    assert game.state_after(1) is not asked[0]
    assert _history_value(game.state_after(1)) == _history_value(asked[0])


def test_a_history_follows_the_state_another_loop_played() -> None:
    """``follow``: the referee plays each event on its own state, which becomes the history's."""
    from bkref.bots.simulate import simulate
    from bkref.game.engine import History

    game, played = History(), State()
    for event in simulate(2, 1)[:3]:
        played = played.copy()
        played.play(event)
        game.follow(event, played)
        assert game.state is played
