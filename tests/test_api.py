"""The public API: ``import bkref`` gives the documented names, typed, with its version."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import metadata, resources

import pytest

import bkref
from tests.conftest import ROOT


def test_every_documented_name_is_there_and_listed() -> None:
    assert dir(bkref) == sorted(bkref.__all__)
    for name in bkref.__all__:
        assert getattr(bkref, name) is not None, name
    assert bkref.check.__module__ == "bkref.io.referee"
    assert bkref.State.__module__ == "bkref.game.engine"


def test_the_version_is_the_package_metadata() -> None:
    assert bkref.__version__ == metadata.version("bkref")
    assert bkref.__version__ == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_package_is_marked_typed() -> None:
    assert (resources.files("bkref") / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["bkref"]


def test_importing_bkref_loads_no_engine_until_asked() -> None:
    """The command line imports ``bkref`` first: the names load when used."""
    loaded = "print('bkref.game.engine' in sys.modules)"
    code = f"import sys, bkref; {loaded}; bkref.State; {loaded}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.split() == ["False", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'bkref' has no attribute 'no_such_name'"):
        bkref.no_such_name  # noqa: B018


def test_the_state_answers_what_a_player_has() -> None:
    """Each answer against the log itself (the deal's hands and reserves, the harvests' expects), the
    state's own fields, and the final score's rows."""
    records = [r for r in bkref.read("replays/2p-ann-bob.jsonl") if isinstance(r, bkref.Record)]
    game = bkref.History()
    expected: dict[str, int] = {"ann": 0, "bob": 0}
    for record in records:
        event = record.event
        if isinstance(event, bkref.Pick) and event.turn == 1:
            reserve = game.state.reserve_of(event.player)
            assert len(reserve) == 10 - (event.player in game.state.picks)
        assert game.push(event) == []
        state = game.state
        if isinstance(event, bkref.Deal):
            assert [state.reserve_of(p) for p in ("ann", "bob")] == [event.reserves["ann"], event.reserves["bob"]]
            assert [state.hand_of(p) for p in ("ann", "bob")] == [event.hands["ann"], event.hands["bob"]]
        if isinstance(event, bkref.Harvest):
            for p, carrots in event.expect.items():
                expected[p] += carrots
            assert {p: state.carrots_of(p) for p in expected} == expected
            assert all(sum(f.carrots for f in state.fiefs_of(p)) == c for p, c in event.expect.items())
        for p in ("ann", "bob"):
            assert set(state.squares_of(p)) == {sq for sq, who in state.position.owner.items() if who == p}
            assert state.supply_of(p) == {c: n for c, n in state.supply[p].items() if n}
    final = game.state.final
    assert {p: game.state.carrots_of(p) for p in expected} == {p: final.players[p].total for p in expected}
    assert all(
        sorted(game.state.parchments_of(p)) == sorted(row.card for row in final.players[p].parchments) for p in expected
    )
