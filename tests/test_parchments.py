"""Every parchment's scoring (E1-E9) and every ruling both ways (R1-R5), on small hand-made tables.

Each test builds the end of a game by hand (who controls which square, the buildings,
the parchments, the copy choices, the rulings), plays the ``end`` event on it and reads
the parchment rows. The figures are chosen so that a changed formula changes the result:
counts above 1 for every per-unit mission, both sides of every threshold, ties where a
ruling decides.
"""

from __future__ import annotations

import pytest

from bkref.game.catalog import CARDS
from bkref.game.engine import State
from bkref.game.events import End, Rulings
from bkref.game.results import Fief, FinalScore, ParchmentRow
from bkref.game.scoring import final_score, opportunist_second

SEATS = ("ann", "bob", "cid")  # clockwise: ann's left is bob, ann's right is cid (S1)


def table(
    parchments: dict[str, list[str]],
    land: dict[str, str] | None = None,
    building: dict[str, str] | None = None,
    *,
    towers: tuple[tuple[str, str], ...] = (),
    declared: dict[str, str] | None = None,
    carrots: dict[str, int] | None = None,
    camps_played: dict[str, int] | None = None,
    camps_placed: dict[str, int] | None = None,
    **rulings: str,
) -> State:
    """The end of a game: ``land`` maps a player to the squares they control ("A1 A2")."""
    state = State()
    state.seat(SEATS)
    state.rulings = Rulings(**rulings)  # type: ignore[arg-type]
    state.phase = "ending"
    state.parchments = {p: list(parchments.get(p, [])) for p in SEATS}
    for player, squares in (land or {}).items():
        for sq in squares.split():
            state.position.claim(sq, player)
    state.position.building.update(building or {})
    state.position.towers.extend(towers)
    state.position.declared.update(declared or {})
    state.camps_played = {p: (camps_played or {}).get(p, 0) for p in SEATS}
    state.camps_placed = {p: (camps_placed or {}).get(p, 0) for p in SEATS}
    # One harvest whose single fief yields the given carrots: the players' standings.
    state.harvests = [{p: [Fief(("A1",), n, ("wood",), n)] for p, n in (carrots or {}).items()}]
    for p in SEATS:
        state.harvests[0].setdefault(p, [])
    return state


def end(state: State, copies: dict[str, dict[str, str | None]] | None = None) -> FinalScore:
    """Play the end event on ``state``; the copy choices must be legal (E7)."""
    assert state.play(End(copies=copies or {})) == []  # type: ignore[arg-type]
    explained = state.final_explained()  # the engine's own final score holds the points only
    assert state.final is not None and explained is not None
    assert [[r.points for r in s.parchments] for s in explained.players.values()] == [
        [r.points for r in s.parchments] for s in state.final.players.values()
    ]
    assert all(r.counted for s in explained.players.values() for r in s.parchments)
    assert not any(r.counted for s in state.final.players.values() for r in s.parchments)  # points only: no words
    return explained


def rows(final: FinalScore, player: str = "ann") -> dict[str, ParchmentRow]:
    return {row.card: row for row in final.players[player].parchments}


def points(final: FinalScore, player: str = "ann") -> dict[str, int]:
    return {card: row.points for card, row in rows(final, player).items()}


# -- treasures (E5, E7, R4) -----------------------------------------------------------


@pytest.mark.parametrize(
    "card, value",
    [
        ("royal_ring", 1),
        ("royal_coat", 2),
        ("royal_scepter", 3),
        ("royal_chalice", 4),
        ("royal_crown", 5),
        ("royal_carrot", 6),
    ],
)
def test_a_treasure_is_worth_its_printed_value(card: str, value: int) -> None:
    row = rows(end(table({"ann": [card]})))[card]
    assert (row.points, row.counted) == (value, f"worth {value}")


@pytest.mark.parametrize("card", ["left_glove", "right_glove"])
def test_one_glove_is_worth_1(card: str) -> None:
    assert points(end(table({"ann": [card]}))) == {card: 1}


def test_both_gloves_are_worth_4_each() -> None:
    final = end(table({"ann": ["left_glove", "right_glove"]}))
    assert points(final) == {"left_glove": 4, "right_glove": 4}
    assert rows(final)["left_glove"].counted == "both gloves, worth 4 each (E5)"


def test_gloves_of_two_players_are_worth_1_each() -> None:
    final = end(table({"ann": ["left_glove"], "bob": ["right_glove"]}))
    assert points(final, "ann") == {"left_glove": 1}
    assert points(final, "bob") == {"right_glove": 1}


def test_a_copied_glove_makes_a_pair_for_the_copier_only() -> None:
    # ann's liberal copies the right glove of cid, on ann's right (E5, E7).
    final = end(table({"ann": ["left_glove", "liberal"], "cid": ["right_glove"]}), {"ann": {"liberal": "right_glove"}})
    assert points(final, "ann") == {"left_glove": 4, "liberal": 4}
    assert rows(final, "ann")["liberal"].copied == "right_glove"
    assert points(final, "cid") == {"right_glove": 1}


def test_treasure_hunter_doubles_the_treasures_and_scores_nothing_itself() -> None:
    final = end(table({"ann": ["royal_crown", "treasure_hunter", "left_glove", "right_glove"]}))
    assert points(final) == {"royal_crown": 10, "treasure_hunter": 0, "left_glove": 8, "right_glove": 8}
    assert rows(final)["treasure_hunter"].counted == "doubles 3 treasures, in their rows"
    assert rows(final)["royal_crown"].counted == "worth 5, x2 for 1 treasure hunter"


def test_a_copied_treasure_hunter_doubles_the_copiers_treasures() -> None:
    final = end(
        table({"ann": ["royal_crown", "liberal"], "cid": ["treasure_hunter", "royal_ring"]}),
        {"ann": {"liberal": "treasure_hunter"}},
    )
    assert points(final, "ann") == {"royal_crown": 10, "liberal": 0}
    assert points(final, "cid") == {"treasure_hunter": 0, "royal_ring": 2}


def test_a_copied_treasure_is_doubled_by_treasure_hunter() -> None:
    final = end(
        table({"ann": ["treasure_hunter", "socialist"], "bob": ["royal_carrot"]}),
        {"ann": {"socialist": "royal_carrot"}},
    )
    assert points(final) == {"treasure_hunter": 0, "socialist": 12}


@pytest.mark.parametrize("stacking, coat", [("multiply", 8), ("once", 4)])
def test_r4_two_treasure_hunters(stacking: str, coat: int) -> None:
    # ann owns one Treasure Hunter and copies cid's: x4 when they multiply, x2 once.
    final = end(
        table(
            {"ann": ["royal_coat", "treasure_hunter", "liberal"], "cid": ["treasure_hunter"]},
            treasure_hunter_stacking=stacking,
        ),
        {"ann": {"liberal": "treasure_hunter"}},
    )
    row = rows(final)["royal_coat"]
    assert row.points == coat
    assert row.rulings == ["R4"]
    assert row.counted.endswith(f"for 2 treasure hunters (R4 {stacking})")
    assert points(final, "cid") == {"treasure_hunter": 0}


def test_treasure_guardian_counts_own_and_copied_treasures() -> None:
    final = end(
        table(
            {
                "ann": ["treasure_guardian", "royal_ring", "left_glove", "liberal", "socialist"],
                "bob": ["fisher"],
                "cid": ["royal_crown"],
            }
        ),
        {"ann": {"liberal": "royal_crown", "socialist": "fisher"}},
    )
    row = rows(final)["treasure_guardian"]
    assert (row.points, row.counted) == (9, "3 treasures")


def test_treasure_guardian_without_treasures_scores_0() -> None:
    assert points(end(table({"ann": ["treasure_guardian", "fisher"]}))) == {"treasure_guardian": 0, "fisher": 0}


# -- missions counted on the player's own board (E2-E4) --------------------------------


def test_bureaucrat_counts_every_parchment_card_with_copy_cards_that_copy_nothing() -> None:
    # cid, on ann's right, has no parchment: ann's liberal copies nothing but is a card (E9).
    final = end(table({"ann": ["bureaucrat", "liberal", "fisher"]}), {"ann": {"liberal": None}})
    assert points(final) == {"bureaucrat": 3, "liberal": 0, "fisher": 0}
    assert rows(final)["liberal"].counted == "copies nothing"


def test_a_copied_bureaucrat_counts_the_copiers_cards_and_adds_none() -> None:
    final = end(
        table({"ann": ["liberal", "fisher", "royal_ring"], "cid": ["bureaucrat"]}), {"ann": {"liberal": "bureaucrat"}}
    )
    assert points(final, "ann")["liberal"] == 3
    assert points(final, "cid") == {"bureaucrat": 1}


def test_burgomaster_counts_cities_not_their_strength() -> None:
    # A4 and D3 are printed cities, B2 holds a city3; E1 is a forest (E3).
    final = end(table({"ann": ["burgomaster"]}, {"ann": "A4 B2 D3 E1"}, {"B2": "city3"}))
    assert rows(final)["burgomaster"].points == 3


def test_diplomat_counts_territories_on_the_edge() -> None:
    final = end(table({"ann": ["diplomat"]}, {"ann": "A2 B1 A10 J5 C5 E5"}))
    assert (rows(final)["diplomat"].points, rows(final)["diplomat"].counted) == (4, "4 territories on the edge")


def test_explorer_scores_3_per_corner() -> None:
    final = end(table({"ann": ["explorer"]}, {"ann": "A1 A2 J9 J10"}))
    assert (rows(final)["explorer"].points, rows(final)["explorer"].counted) == (6, "2 corners (A1, J10)")
    final = end(table({"ann": ["explorer"]}, {"ann": "A2 J9"}))
    assert (rows(final)["explorer"].points, rows(final)["explorer"].counted) == (0, "0 corners")  # none to name


# Wood: 3 forests in one fief (every unit counts, E2), a wood farm, a trading post
# declared wood on the sea (which also yields fish).
WOOD_5 = ("A1 A2 A3 C3 B4", {"C3": "farm_wood", "B4": "trading_post"}, {"B4": "wood"})


@pytest.mark.parametrize("extra, wood", [("", 5), ("J1", 6), ("J1 J2", 7)])
def test_wood_missions(extra: str, wood: int) -> None:
    squares, buildings, declared = WOOD_5
    final = end(
        table(
            {"ann": ["carpenter", "master_carpenter", "woodland_king"]},
            {"ann": f"{squares} {extra}"},
            buildings,
            declared=declared,
        )
    )
    assert points(final) == {"carpenter": wood, "master_carpenter": 2 * wood, "woodland_king": 20 if wood >= 7 else 0}
    assert rows(final)["woodland_king"].counted == f"{wood} wood produced, needs 7"


# Fish: 3 seas, a fish farm on plains, a trading post declared fish on plains.
@pytest.mark.parametrize("extra, fish", [("", 5), ("J9", 6), ("J9 J10", 7)])
def test_fish_missions(extra: str, fish: int) -> None:
    final = end(
        table(
            {"ann": ["fisher", "master_fisher", "fisher_king"]},
            {"ann": f"A5 A6 A7 C3 E2 {extra}"},
            {"C3": "farm_fish", "E2": "trading_post"},
            declared={"E2": "fish"},
        )
    )
    assert points(final) == {"fisher": fish, "master_fisher": 2 * fish, "fisher_king": 20 if fish >= 7 else 0}


# Carrots: 2 fields, a carrot farm on plains, a carrot powder farm on a field (its
# field yields a carrot; carrot powder is a different, luxury resource).
@pytest.mark.parametrize("extra, carrots", [("", 4), ("H2", 5)])
def test_carrot_missions(extra: str, carrots: int) -> None:
    final = end(
        table(
            {"ann": ["farmer", "master_farmer", "carrot_king"]},
            {"ann": f"C7 D7 C3 E3 {extra}"},
            {"C3": "farm_carrot", "E3": "farm_carrot_powder"},
        )
    )
    assert points(final) == {"farmer": carrots, "master_farmer": 2 * carrots, "carrot_king": 15 if carrots >= 5 else 0}
    assert rows(final)["carrot_king"].counted == f"{carrots} carrots produced, needs 5"


def test_merchant_scores_3_per_luxury_resource_produced() -> None:
    final = end(
        table(
            {"ann": ["merchant"]},
            {"ann": "A1 A5 B1 C7 C3"},
            {
                "A1": "farm_mushroom",
                "A5": "farm_pearl",
                "B1": "farm_diamond",
                "C7": "farm_carrot_powder",
                "C3": "farm_wood",
            },
        )
    )
    row = rows(final)["merchant"]
    assert (row.points, row.counted) == (12, "4 luxury resources produced (mushroom, pearl, carrot_powder, diamond)")


def test_master_of_the_mountains_counts_mountains_with_or_without_farms() -> None:
    final = end(table({"ann": ["master_of_the_mountains"]}, {"ann": "B1 B2 C2 C3"}, {"B1": "farm_gold"}))
    assert rows(final)["master_of_the_mountains"].points == 6


@pytest.mark.parametrize("towers, fiefs", [((), 1), ((("J2", "E5"),), 2)])
def test_carrotistador_counts_fiefs_of_3_with_camps_and_sky_towers(towers, fiefs: int) -> None:
    # A1 A2 + ann's camp on A3: 3 territories (E4). J1 J2 + E5 joined by a sky tower: 3.
    final = end(table({"ann": ["carrotistador"]}, {"ann": "A1 A2 A3 J1 J2 E5 G10"}, {"A3": "camp1"}, towers=towers))
    assert rows(final)["carrotistador"].points == 4 * fiefs


@pytest.mark.parametrize("towers, fiefs", [((), 3), ((("B1", "B2"),), 2)])
def test_harecingetorix_counts_fiefs_split_by_lava_and_joined_by_towers(towers, fiefs: int) -> None:
    # Lava lies between B1 and B2 (S3); a sky tower joins them (C5).
    final = end(table({"ann": ["harecingetorix"]}, {"ann": "B1 B2 J10"}, towers=towers))
    assert rows(final)["harecingetorix"].points == fiefs


@pytest.mark.parametrize("squares, award", [("A1 A3 A5 A7 A9 C1 C3 C5 C7 C9", 12), ("A1 A3 A5 A7 A9 C1 C3 C5 C7", 0)])
def test_hun_ny_king_needs_10_fiefs(squares: str, award: int) -> None:
    assert rows(end(table({"ann": ["hun_ny_king"]}, {"ann": squares})))["hun_ny_king"].points == award


def test_bun_shee_counts_cities_in_fiefs_that_produce_nothing() -> None:
    # A4: a printed city alone (1). B3 (printed) + C3 (plains, city2): 2 cities, no
    # resource. A8: a forest with a city, it produces wood, so it does not count.
    final = end(table({"ann": ["bun_shee"]}, {"ann": "A4 B3 C3 A8"}, {"C3": "city2", "A8": "city1"}))
    row = rows(final)["bun_shee"]
    assert (row.points, row.counted) == (6, "3 cities in fiefs producing nothing")


def test_panpan_counts_territories_with_no_city_and_no_production() -> None:
    # Barren: C3 (plains), B1 (mountain), D1 (plains with a camp). Not barren: E2 (a
    # city), A1 (forest), G3 (a trading post declared fish), A4 (a printed city).
    final = end(
        table(
            {"ann": ["panpan_the_barbarian"]},
            {"ann": "C3 B1 D1 E2 A1 G3 A4"},
            {"D1": "camp2", "E2": "city1", "G3": "trading_post"},
            declared={"G3": "fish"},
        )
    )
    assert rows(final)["panpan_the_barbarian"].points == 6


@pytest.mark.parametrize(
    "counts, points_, counted",
    [
        ("played", 9, "3 camp cards played (R5 played)"),
        ("placed", 3, "1 camp placed (R5 placed)"),
    ],
)
def test_r5_colonist(counts: str, points_: int, counted: str) -> None:
    final = end(table({"ann": ["colonist"]}, camps_played={"ann": 3}, camps_placed={"ann": 1}, colonist_counts=counts))
    row = rows(final)["colonist"]
    assert (row.points, row.counted, row.rulings) == (points_, counted, ["R5"])


@pytest.mark.parametrize("extra, award", [({"E5": "city1"}, 12), ({}, 0)])
def test_king_of_thieves_needs_9_cities(extra: dict[str, str], award: int) -> None:
    # 8 printed cities, and E5 with or without a city1.
    final = end(table({"ann": ["king_of_thieves"]}, {"ann": "A4 B3 B7 B9 C1 D3 D9 E6 E5"}, extra))
    assert rows(final)["king_of_thieves"].points == award


def test_matriarch_alone_with_most_territories() -> None:
    final = end(
        table({"ann": ["matriarch"], "bob": ["liberal"]}, {"ann": "A1 A2 A3", "bob": "J1 J2"}),
        {"bob": {"liberal": "matriarch"}},
    )
    assert rows(final, "ann")["matriarch"].counted == "most territories (3)"
    assert (points(final, "ann"), points(final, "bob")) == ({"matriarch": 12}, {"liberal": 0})
    assert rows(final, "bob")["liberal"].counted == "2 territories; most is 3 (ann)"


@pytest.mark.parametrize("tie, award", [("shared", 12), ("none", 0)])
def test_r1_matriarch_tie(tie: str, award: int) -> None:
    # ann and bob (bob's liberal copies ann's matriarch) tie with 3; cid has 1.
    final = end(
        table(
            {"ann": ["matriarch"], "bob": ["liberal"]},
            {"ann": "A1 A2 A3", "bob": "J1 J2 J3", "cid": "E5"},
            matriarch_tie=tie,
        ),
        {"bob": {"liberal": "matriarch"}},
    )
    ann, bob = rows(final, "ann")["matriarch"], rows(final, "bob")["liberal"]
    assert (ann.points, bob.points) == (award, award)
    assert ann.counted == f"tied for most territories (3) with bob (R1 {tie})"
    assert ann.rulings == bob.rulings == ["R1"]


@pytest.mark.parametrize("tie", ["shared", "none"])
def test_r1_decides_only_a_tie_for_most(tie: str) -> None:
    # R1 settles a tie for most territories: a sole leader scores 12 under either ruling,
    # and a player behind a tie scores 0 without R1 (they are not tied for most).
    alone = end(table({"ann": ["matriarch"]}, {"ann": "A1 A2 A3", "bob": "J1 J2"}, matriarch_tie=tie))
    assert (rows(alone, "ann")["matriarch"].points, rows(alone, "ann")["matriarch"].rulings) == (12, [])
    behind = end(
        table({"cid": ["matriarch"]}, {"ann": "A1 A2 A3", "bob": "J1 J2 J3", "cid": "E5"}, matriarch_tie=tie),
    )
    assert (rows(behind, "cid")["matriarch"].points, rows(behind, "cid")["matriarch"].rulings) == (0, [])


def test_r1_matriarch_tie_of_three_names_the_others() -> None:
    final = end(
        table(
            {"ann": ["matriarch"], "bob": [], "cid": []},
            {"ann": "A1 A2", "bob": "J1 J2", "cid": "E5 E6"},
        ),
    )
    assert rows(final, "ann")["matriarch"].counted == "tied for most territories (2) with bob, cid (R1 shared)"
    assert points(final, "ann") == {"matriarch": 12}


@pytest.mark.parametrize("tie_best, expected", [(False, 3), (True, 3)])
def test_little_prince_harvests_every_fief_again_but_one_best(tie_best: bool, expected: int) -> None:
    # A7 A8 with a city2: strength 2 x (fish, wood) = 4, or a city2 on A8 alone: 2.
    # J9 with a city2: 2 x fish = 2. A4 A5: a printed city x fish = 1.
    land = "A8 J9 A4 A5" if tie_best else "A7 A8 J9 A4 A5"
    final = end(table({"ann": ["little_prince"]}, {"ann": land}, {"A8": "city2", "J9": "city2"}))
    row = rows(final)["little_prince"]
    assert row.points == expected
    if tie_best:
        assert row.counted == "2 of 3 fiefs harvested again; 2 tie for best (2 carrots), one left out (E6)"
    else:
        assert row.counted == "2 of 3 fiefs harvested again, the best (4 carrots) left out"


def test_little_prince_with_no_fief_scores_0() -> None:
    assert rows(end(table({"ann": ["little_prince"]})))["little_prince"].points == 0


# -- copies (E7, R3) --------------------------------------------------------------------


def test_liberal_copies_the_right_and_socialist_the_left_scored_on_the_copiers_board() -> None:
    # ann's right is cid (carpenter), her left is bob (fisher); ann has 2 forests and a sea.
    final = end(
        table(
            {"ann": ["liberal", "socialist"], "bob": ["fisher"], "cid": ["carpenter"]},
            {"ann": "A1 A2 A5", "bob": "J9 J10", "cid": "E1"},
        ),
        {"ann": {"liberal": "carpenter", "socialist": "fisher"}},
    )
    assert rows(final)["liberal"].copied == "carpenter"
    assert points(final, "ann") == {"liberal": 2, "socialist": 1}
    assert (points(final, "bob"), points(final, "cid")) == ({"fisher": 2}, {"carpenter": 1})


def test_a_copy_whose_neighbour_has_no_parchment_scores_0() -> None:
    final = end(table({"ann": ["socialist"]}), {"ann": {"socialist": None}})
    assert rows(final)["socialist"] == ParchmentRow(card="socialist", counted="copies nothing", points=0)


@pytest.mark.parametrize("mine, other, theirs", [("socialist", "bob", "liberal"), ("liberal", "cid", "socialist")])
def test_r3_follow_resolves_a_copy_of_a_copy(mine: str, other: str, theirs: str) -> None:
    # ann's copy card copies her neighbour's copy card, which copies ann's fisher: both
    # score fisher, each on its owner's board (ann: 1 sea, the neighbour: 2 seas).
    state = table({"ann": [mine, "fisher"], other: [theirs]}, {"ann": "A5", other: "J9 J10"}, copy_of_copy="follow")
    final = end(state, {"ann": {mine: theirs}, other: {theirs: "fisher"}})
    row = rows(final)[mine]
    assert (row.copied, row.points, row.rulings) == ("fisher", 1, ["R3"])
    assert row.counted == f"through {other}'s {theirs} (R3 follow): 1 fish produced"
    assert points(final, other) == {theirs: 2}


def test_r3_follow_names_every_copy_a_chain_passes_through() -> None:
    # ann's socialist copies bob's (her left), which copies cid's, which copies ann's fisher.
    state = table(
        {"ann": ["socialist", "fisher"], "bob": ["socialist"], "cid": ["socialist"]},
        {"ann": "A5", "bob": "J9 J10"},
        copy_of_copy="follow",
    )
    final = end(state, {p: {"socialist": "socialist" if p != "cid" else "fisher"} for p in SEATS})
    row = rows(final)["socialist"]
    assert (row.copied, row.points, row.rulings) == ("fisher", 1, ["R3"])
    assert row.counted == "through bob's socialist, cid's socialist (R3 follow): 1 fish produced"


def test_a_chain_of_copies_that_comes_back_to_itself_copies_nothing() -> None:
    # The end event refuses such a chain (E7); scored as it stands, each copy copies nothing.
    state = table({p: ["socialist"] for p in SEATS}, copy_of_copy="follow")
    state.copies = {p: {"socialist": "socialist"} for p in SEATS}
    final = final_score(state)
    assert [r for s in final.players.values() for r in s.parchments] == [
        ParchmentRow(card="socialist", counted="copies nothing", points=0)
    ] * 3


def test_r3_forbidden_a_copy_of_a_copy_copies_nothing() -> None:
    state = table({"ann": ["socialist", "fisher"], "bob": ["liberal"]}, {"ann": "A5", "bob": "J9 J10"})
    found = state.play(End(copies={"ann": {"socialist": "liberal"}, "bob": {"liberal": "fisher"}}))
    assert [v.rule for v in found] == ["E7"]
    assert state.final is not None
    assert rows(state.final)["socialist"].points == 0
    assert points(state.final, "bob") == {"liberal": 2}


@pytest.mark.parametrize("stacking, ring", [("multiply", 8), ("once", 2)])
def test_r4_three_treasure_hunters_multiply_to_eight(stacking: str, ring: int) -> None:
    # Under R3 follow ann holds three: her own, her liberal (cid's socialist, which copies
    # ann's) and her socialist (bob's liberal, which copies ann's): x2x2x2, or x2 once.
    final = end(
        table(
            {
                "ann": ["royal_ring", "treasure_hunter", "liberal", "socialist"],
                "bob": ["liberal"],
                "cid": ["socialist"],
            },
            copy_of_copy="follow",
            treasure_hunter_stacking=stacking,
        ),
        {
            "ann": {"liberal": "socialist", "socialist": "liberal"},
            "bob": {"liberal": "treasure_hunter"},
            "cid": {"socialist": "treasure_hunter"},
        },
    )
    assert rows(final)["royal_ring"].points == ring
    assert rows(final)["royal_ring"].counted.endswith(f"for 3 treasure hunters (R4 {stacking})")


# -- opportunist (R2) -------------------------------------------------------------------


def test_opportunist_scores_10_in_second_place() -> None:
    final = end(
        table(
            {"ann": ["opportunist"], "bob": ["liberal"], "cid": ["socialist"]},
            carrots={"ann": 30, "bob": 20, "cid": 10},
        ),
        {"bob": {"liberal": "opportunist"}, "cid": {"socialist": "opportunist"}},
    )
    assert [points(final, p) for p in SEATS] == [{"opportunist": 0}, {"liberal": 10}, {"socialist": 0}]
    assert rows(final, "bob")["liberal"].counted == "second before opportunists: ann 30, bob 20, cid 10"


def test_opportunist_standings_count_parchments_but_not_opportunists() -> None:
    # Before any Opportunist: ann 30, bob 22, cid 20 + royal_crown 5 = 25: cid is second.
    final = end(
        table({"bob": ["opportunist"], "cid": ["liberal", "royal_crown"]}, carrots={"ann": 30, "bob": 22, "cid": 20}),
        {"cid": {"liberal": "opportunist"}},
    )
    assert points(final, "bob") == {"opportunist": 0}
    assert points(final, "cid") == {"liberal": 10, "royal_crown": 5}


def test_opportunist_with_a_tie_for_first_has_no_second() -> None:
    final = end(table({"bob": ["opportunist"]}, carrots={"ann": 20, "bob": 20, "cid": 20}))
    assert points(final, "bob") == {"opportunist": 0}


@pytest.mark.parametrize("tie, award", [("shared", 10), ("none", 0)])
def test_r2_opportunist_tie_for_second(tie: str, award: int) -> None:
    final = end(
        table(
            {"bob": ["opportunist"], "cid": ["liberal"]}, carrots={"ann": 30, "bob": 20, "cid": 20}, opportunist_tie=tie
        ),
        {"cid": {"liberal": "opportunist"}},
    )
    bob, cid = rows(final, "bob")["opportunist"], rows(final, "cid")["liberal"]
    assert (bob.points, cid.points) == (award, award)
    assert bob.rulings == cid.rulings == ["R2"]
    assert bob.counted.endswith(f"; tied with cid (R2 {tie})")


@pytest.mark.parametrize(
    ("before", "tie", "second"),
    [
        ({"ann": 41, "bob": 40, "cid": 30}, "none", (["bob"], True)),  # one carrot behind the first is second
        ({"ann": 50, "bob": 40, "cid": 30}, "none", (["bob"], True)),  # a sole second scores under either ruling
        ({"ann": 50, "bob": 40, "cid": 40}, "shared", (["bob", "cid"], True)),
        ({"ann": 50, "bob": 40, "cid": 40}, "none", (["bob", "cid"], False)),
        ({"ann": 50, "bob": 50, "cid": 30}, "shared", ([], False)),  # first place shared: nobody is second
    ],
)
def test_r2_who_is_second_and_whether_they_score(before: dict[str, int], tie: str, second: object) -> None:
    assert opportunist_second(SEATS, before, tie) == second


# -- the whole game (E8) ------------------------------------------------------------------


def test_totals_ranking_and_shared_victory() -> None:
    final = end(table({"ann": ["royal_crown"], "bob": ["royal_ring"]}, carrots={"ann": 10, "bob": 14, "cid": 15}))
    assert [final.players[p].total for p in SEATS] == [15, 15, 15]
    assert final.winners == ["ann", "bob", "cid"]
    final = end(table({"ann": ["royal_crown"]}, carrots={"ann": 10, "bob": 14, "cid": 15}))
    assert (final.ranking, final.winners) == (["ann", "cid", "bob"], ["ann", "cid"])  # ties in seat order


TESTED = {
    "royal_ring",
    "royal_coat",
    "royal_scepter",
    "royal_chalice",
    "royal_crown",
    "royal_carrot",
    "left_glove",
    "right_glove",
    "treasure_hunter",
    "treasure_guardian",
    "bureaucrat",
    "burgomaster",
    "diplomat",
    "explorer",
    "carpenter",
    "master_carpenter",
    "woodland_king",
    "fisher",
    "master_fisher",
    "fisher_king",
    "farmer",
    "master_farmer",
    "carrot_king",
    "merchant",
    "master_of_the_mountains",
    "carrotistador",
    "harecingetorix",
    "hun_ny_king",
    "bun_shee",
    "panpan_the_barbarian",
    "colonist",
    "king_of_thieves",
    "matriarch",
    "little_prince",
    "liberal",
    "socialist",
    "opportunist",
}


def test_every_parchment_of_the_catalogue_has_a_test_here() -> None:
    parchments = {card.id for card in CARDS.values() if card.is_parchment}
    assert len(parchments) == 37
    assert parchments == TESTED


def test_an_opportunist_reached_through_a_copy_of_a_copy_keeps_its_chain() -> None:
    # cid's socialist copies ann's socialist (cid's left), which copies bob's opportunist.
    final = end(
        table(
            {"ann": ["socialist"], "bob": ["opportunist"], "cid": ["socialist"]},
            carrots={"ann": 30, "bob": 10, "cid": 20},
            copy_of_copy="follow",
        ),
        {"ann": {"socialist": "opportunist"}, "cid": {"socialist": "socialist"}},
    )
    row = rows(final, "cid")["socialist"]
    assert (row.copied, row.points, row.rulings) == ("opportunist", 10, ["R3"])
    assert row.counted == "through ann's socialist (R3 follow): second before opportunists: ann 30, bob 10, cid 20"
