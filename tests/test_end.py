"""The end of the game: Little Prince (E6) at its edges, and copy choices (E7) through a log."""

from __future__ import annotations

from pathlib import Path

import pytest

from bkref.game.position import Position
from bkref.game.scoring import MISSIONS, Holdings, final_score
from bkref.io.referee import check
from tests.conftest import REPLAYS, SAMPLES, found, referee, replay


def little_prince(owner: dict[str, str], building: dict[str, str]) -> tuple[int, str]:
    return MISSIONS["little_prince"](Holdings.of(Position(owner=owner, building=building), "ann"))


def test_little_prince_with_one_fief_scores_nothing() -> None:
    # A1-A2 with a city2: strength 2 x (wood) = 2 carrots, the best fief, and the only one
    assert little_prince({"A1": "ann", "A2": "ann"}, {"A1": "city2"}) == (
        0,
        "0 of 1 fief harvested again, the best (2 carrots) left out",
    )


def test_little_prince_with_no_fief() -> None:
    assert little_prince({"A1": "bob"}, {}) == (0, "no fief")


def test_little_prince_leaves_out_only_the_best_fief() -> None:
    # A1 city2 (2 carrots), A4 printed city beside forest A3 (1), B10 alone (0)
    owner = dict.fromkeys(("A1", "A3", "A4", "B10"), "ann")
    assert little_prince(owner, {"A1": "city2"}) == (1, "2 of 3 fiefs harvested again, the best (2 carrots) left out")


THREE = replay("3p-ann-bob-cid")
END = THREE[117]
assert END["copies"] == {"cid": {"socialist": "harecingetorix", "liberal": "master_carpenter"}}


def test_a_copy_named_for_a_card_not_owned_is_reported_and_copies_nothing(tmp_path: Path) -> None:
    copies = {**END["copies"], "ann": {"liberal": "carpenter"}}  # ann owns no liberal
    report = referee(tmp_path, [*THREE[:117], dict(END, copies=copies)])
    assert found(report) == [("E7", 118, "ann names a copy for liberal, but does not own liberal")]
    state = report.state
    assert state.phase == "over" and "ann" not in state.copies
    assert state.copies["cid"] == {"liberal": "master_carpenter", "socialist": "harecingetorix"}
    assert [r.card for r in state.final.players["ann"].parchments] == state.parchments["ann"]  # no liberal row
    assert state.final.players["ann"].total == END["expect"]["ann"]


@pytest.mark.parametrize(
    ("card", "other", "message"),
    [  # cid's liberal copies from bob (on cid's right), the socialist from ann (the left): neither has fisher
        ("liberal", "socialist", "cid's liberal copies fisher, which bob (on the right) does not have"),
        ("socialist", "liberal", "cid's socialist copies fisher, which ann (on the left) does not have"),
    ],
)
def test_a_copy_of_what_the_neighbour_lacks_copies_nothing(tmp_path: Path, card: str, other: str, message: str) -> None:
    kept = {"socialist": "harecingetorix", "liberal": "master_carpenter"}[other]  # what the other copy card copies
    copies = {"cid": {card: "fisher", other: kept}}
    report = referee(tmp_path, [*THREE[:117], dict(END, copies=copies, expect=None)])
    assert found(report) == [("E7", 118, f"{message}; it is scored as copying nothing")]
    state = report.state
    assert state.copies["cid"] == {card: None, other: kept}
    rows = {r.card: (r.copied, r.points) for r in state.final.players["cid"].parchments}
    assert rows[card] == (None, 0)


GAMES = [REPLAYS / f"{name}.jsonl" for name in ("2p-ann-bob", "3p-ann-bob-cid", "4p-ann-bob-cid-dee")] + SAMPLES


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_points_only_score_is_the_explained_score_without_words(path: Path) -> None:
    """The referee scores with ``explain=False``: the same points and rulings, every ``counted`` empty."""
    state = check(path).state
    explained = final_score(state)
    bare = final_score(state, explain=False)
    assert final_score(state, state.board_fiefs.board) == explained  # the board read at the 4th harvest changes nothing
    assert (bare.ranking, bare.winners, bare.rulings) == (explained.ranking, explained.winners, explained.rulings)
    for p, row in explained.players.items():
        plain = bare.players[p]
        assert (plain.harvests, plain.harvest, plain.parchment_total, plain.total) == (
            row.harvests,
            row.harvest,
            row.parchment_total,
            row.total,
        )
        assert [(r.card, r.copied, r.points, r.rulings) for r in plain.parchments] == [
            (r.card, r.copied, r.points, r.rulings) for r in row.parchments
        ]
        assert all(r.counted == "" for r in plain.parchments) and all(r.counted for r in row.parchments)
    assert state.final is not None and state.final.players.keys() == explained.players.keys()
    assert [state.final.players[p].total for p in state.players] == [explained.players[p].total for p in state.players]


CITIES = ["A4", "B3", "B7", "B9", "C1", "D3", "D9", "E6", "E10"]  # printed cities
SINGLES = ["A1", "A3", "A5", "A7", "A9", "C1", "C3", "C5", "C7", "C9"]  # ten squares, no two adjacent


@pytest.mark.parametrize(
    ("mission", "owned", "building", "score"),
    [
        ("merchant", ["A1"], {"A1": "farm_mushroom"}, (3, "1 luxury resource produced (mushroom)")),
        (
            "merchant",
            ["A1", "A2"],
            {"A1": "farm_mushroom", "A2": "farm_pearl"},
            (6, "2 luxury resources produced (mushroom, pearl)"),
        ),
        ("merchant", ["A1"], {}, (0, "0 luxury resources produced")),
        ("bun_shee", ["A4"], {}, (2, "1 city in fiefs producing nothing")),
        ("panpan_the_barbarian", ["E5"], {}, (2, "1 territory with no city and no production")),
        ("diplomat", ["A1", "A2", "E5"], {}, (2, "2 territories on the edge")),
        ("diplomat", ["A1", "E5"], {}, (1, "1 territory on the edge")),
        ("master_of_the_mountains", ["B1"], {}, (2, "1 mountain")),
        ("carrotistador", ["A1", "A2", "A3", "J1", "J2", "J3"], {}, (8, "2 fiefs of 3+ territories")),
        ("harecingetorix", SINGLES[:1], {}, (1, "1 fief")),
        ("hun_ny_king", SINGLES, {}, (12, "10 fiefs, needs 10")),
        ("hun_ny_king", SINGLES[:9], {}, (0, "9 fiefs, needs 10")),
        ("hun_ny_king", SINGLES[:1], {}, (0, "1 fief, needs 10")),
        ("king_of_thieves", CITIES, {}, (12, "9 cities, needs 9")),
        ("king_of_thieves", CITIES[:8], {}, (0, "8 cities, needs 9")),
        ("king_of_thieves", CITIES[:1], {}, (0, "1 city, needs 9")),
        ("burgomaster", ["A4"], {}, (1, "1 city")),
    ],
)
def test_a_mission_scores_and_says_what_it_counted(
    mission: str, owned: list[str], building: dict[str, str], score: tuple[int, str]
) -> None:
    position = Position(owner=dict.fromkeys(owned, "ann"), building=building)
    assert MISSIONS[mission](Holdings.of(position, "ann")) == score


def test_a_game_is_complete_only_once_its_end_event_is_played(tmp_path: Path) -> None:
    game = replay("3p-ann-bob-cid")
    assert [referee(tmp_path, events).state.complete for events in (game[:1], game[:-1], game)] == [
        False,
        False,
        True,
    ]
