"""The end of the game: Little Prince (E6) at its edges, and copy choices (E7) through a log."""

from __future__ import annotations

from pathlib import Path

from bkref.game.position import Position
from bkref.game.scoring import MISSIONS, Holdings
from tests.conftest import found, referee, replay


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


def test_a_copy_of_what_the_neighbour_lacks_copies_nothing(tmp_path: Path) -> None:
    # cid's liberal copies from bob (on cid's right), who has no fisher
    copies = {"cid": {"socialist": "harecingetorix", "liberal": "fisher"}}
    report = referee(tmp_path, [*THREE[:117], dict(END, copies=copies, expect=None)])
    assert found(report) == [
        (
            "E7",
            118,
            "cid's liberal copies fisher, which bob (on the right) does not have; it is scored as copying nothing",
        )
    ]
    state = report.state
    assert state.copies["cid"] == {"liberal": None, "socialist": "harecingetorix"}
    rows = {r.card: (r.copied, r.points) for r in state.final.players["cid"].parchments}
    assert rows["liberal"] == (None, 0)
