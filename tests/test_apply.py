"""The pure ``apply``: it leaves the state it is given exactly as it was, for every event.

Stepping back in ``bkref replay`` and the simulator's trial moves keep states and apply
events to them; a copy that shares a field the next event changes in place (``used``,
``pending``, a camp count, a hand) would change the kept state too.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import msgspec
import pytest

from bkref.game.engine import State, apply
from bkref.game.events import EVENT_TYPES, Event, event_type
from tests.conftest import REPLAYS, replay

_DECODE = msgspec.json.Decoder(Event).decode


def snapshot(state: State) -> bytes:
    """Every field of ``state``, all the way down (pickled: much faster than a deep copy)."""
    return pickle.dumps(state.fields())


def without_deck(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same game in conservation mode (no deck): every card dealt or drawn is counted (``used``)."""
    return [{k: v for k, v in events[0].items() if k != "deck"}, *events[1:]]


GAMES = {
    "2p": replay("2p-ann-bob"),
    "3p": replay("3p-ann-bob-cid"),
    "4p": replay("4p-ann-bob-cid-dee"),
    "3p-no-deck": without_deck(replay("3p-ann-bob-cid")),
    # illegal events too: a refused event may have changed the state before it was refused
    **{
        path.stem: [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]
        for path in sorted((REPLAYS / "illegal").glob("*.jsonl"))
        if not path.stem.startswith("F1")
    },
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_apply_changes_nothing_of_the_state_it_is_given(name: str) -> None:
    state = State()
    for i, raw in enumerate(GAMES[name], start=1):
        event = _DECODE(json.dumps(raw))
        before = snapshot(state)
        after, found = apply(state, event)
        assert snapshot(state) == before, f"event {i} ({event_type(event)}) changed the state it was applied to"
        assert state.play(event) == found
        assert after.fields() == state.fields(), f"event {i}: apply and play disagree"
        if state.phase == "setup":
            break


def test_every_event_type_and_every_changing_field_is_covered() -> None:
    """The games above apply each event type, and change each field a copy must not share."""
    seen: set[str] = set()
    changed: set[str] = set()
    for events in GAMES.values():
        state = State()
        for raw in events:
            event = _DECODE(json.dumps(raw))
            seen.add(event_type(event))
            before = copy.deepcopy(state.fields())
            state.play(event)
            changed |= {k for k, v in state.fields().items() if before.get(k) != v}
    assert seen == set(EVENT_TYPES)
    in_place = {"used", "hands", "reserves", "picks", "pending", "position", "supply", "parchments"}
    assert in_place | {"camps_played", "camps_placed", "harvests", "copies", "deck_pos", "final"} <= changed


def test_a_kept_state_steps_back() -> None:
    """States kept along a game (as ``replay`` keeps them) still show each moment afterwards."""
    kept = [State()]
    for raw in GAMES["3p-no-deck"]:
        state, _ = apply(kept[-1], _DECODE(json.dumps(raw)))
        kept.append(state)
    first_deal, last = kept[2], kept[-1]
    assert (first_deal.round, first_deal.turn, first_deal.position.owner, first_deal.camps_placed["bob"]) == (
        1,
        1,
        {},
        0,
    )
    assert sum(first_deal.used.values()) == 36 and first_deal.pending == [] and first_deal.harvests == []
    assert (last.phase, last.camps_placed["bob"], len(last.harvests)) == ("over", 3, 4)


def test_the_walk_reads_each_game_to_its_end_or_refusal() -> None:
    assert {len(events) for name, events in GAMES.items() if name[0].isdigit()} == {113, 118, 124}


@pytest.mark.skipif(not hasattr(State(), "__dict__"), reason="the compiled build's states have no __dict__")
def test_fields_are_every_field_of_a_state() -> None:
    """``State.fields`` stands for ``vars``, which the compiled build cannot give."""
    state = State()
    for raw in GAMES["4p"]:
        state.play(_DECODE(json.dumps(raw)))
    assert list(state.fields()) == list(vars(state))
    assert state.fields() == vars(state)
