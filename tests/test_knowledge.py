"""What each player may know (RULES.md I1-I6): the view, the seen events, their schemas.

The leak tests swap two cards a player may not know in a simulated game (the deck and
the events edited alike, and the game replayed) and check that the player's view and
seen events stay the same bytes; the completeness tests check that everything public is
in them. What a player knows is worked out here from the rules on their own (``Model``),
not from ``bkref.game.knowledge``, so that a leak there cannot hide itself.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import MappingProxyType

import jsonschema
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bkref
from bkref.bots.simulate import PLAYER_IDS, simulate
from bkref.game import knowledge
from bkref.game.catalog import CARDS
from bkref.game.engine import HAND_SIZE, State
from bkref.game.events import Build, Deal, Draw, End, Event, Game, Harvest, Pick
from bkref.game.knowledge import Seer, View, seen_events, view
from tests.conftest import REPLAYS, ROOT, SHARED
from tests.test_properties import BOUNDED

SCHEMAS = ROOT / "schemas"
VIEW_SCHEMA = SCHEMAS / "bkref-view-1.schema.json"
SEEN_SCHEMA = SCHEMAS / "bkref-seen-1.schema.json"
PARCHMENTS = frozenset(c for c, card in CARDS.items() if card.is_parchment)
BUNDLED = [REPLAYS / name for name in ("2p-ann-bob.jsonl", "3p-ann-bob-cid.jsonl", "4p-ann-bob-cid-dee.jsonl")]
CATEGORIES = ("deck", "hand", "parchment", "reserve", "discard")


def events_of(path: Path) -> list[Event]:
    return [record.event for record in bkref.read(path) if isinstance(record, bkref.Record)]


def encoded(state: State, player: str, events: list[Event]) -> tuple[bytes, bytes]:
    """What ``player`` is given at this point: the view's JSON and the seen events' JSON."""
    return msgspec.json.encode(view(state, player).struct()), msgspec.json.encode(seen_events(events, player))


# -- the rules shipped, and explain ----------------------------------------------------


@pytest.mark.skipif(not (SHARED / "spec" / "RULES.md").exists(), reason="the shared spec folder is missing")
def test_the_shipped_rules_are_the_spec() -> None:
    assert (ROOT / "bkref" / "data" / "RULES.md").read_text() == (SHARED / "spec" / "RULES.md").read_text()


def test_explain_i3_prints_the_rule(bkref) -> None:
    result = bkref("explain", "I3")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "I3 Picks"
    assert lines[1] == "  A pick is secret until the turn's last pick (D4); then every kept card is revealed as"
    assert "No log breaks it" in result.stdout


def test_explain_lists_the_information_rules_after_the_end(bkref) -> None:
    listed = [line.split()[0] for line in bkref("explain").stdout.splitlines()]
    assert listed[listed.index("E9") + 1 : listed.index("F1")] == ["I1", "I2", "I3", "I4", "I5", "I6"]


# -- the view ---------------------------------------------------------------------------


def state_after(events: list[Event], count: int) -> State:
    state = State()
    for event in events[:count]:
        assert state.play(event) == []
    return state


def test_a_2_player_view_before_and_after_the_players_pick() -> None:
    events = events_of(BUNDLED[0])  # game, deal, ann's pick, bob's pick, ...
    state = state_after(events, 2)
    ann, bob = view(state, "ann"), view(state, "bob")
    assert ann.hand == tuple(state.hand_now("ann")) and len(ann.hand) == 11  # the reserve card is in it (D3)
    assert (ann.reserve, ann.reserve_size("bob"), ann.hand_size("bob"), ann.deck) == (9, 9, 11, 142)
    state.play(events[2])  # ann's pick
    assert ann.hand == tuple(state.hands["ann"]) and len(ann.hand) == 9
    assert list(ann.picks) == ["ann"] and ann.picks["ann"].discard == events[2].discard
    assert bob.picks == {} and bob.hand_size("ann") == 11  # secret, and so is whether it is made (I3)
    state.play(events[3])  # bob's pick: the turn's last
    assert ann.turn == 2 and ann.picks == {} and len(ann.hand) == 10  # bob's rest and ann's 2nd reserve card


def test_the_picks_of_a_turn_are_seen_once_revealed_until_the_draws_are_done() -> None:
    events = events_of(BUNDLED[2])
    first_draw = next(i for i, e in enumerate(events) if isinstance(e, Draw))
    state = state_after(events, first_draw)
    drawer = events[first_draw].player
    other = next(p for p in state.players if p != drawer)
    picks = view(state, other).picks
    assert list(picks) == list(state.players)  # every pick of the turn, in seat order
    assert picks[drawer] == knowledge.seen_pick(state.picks[drawer], other)
    assert picks[other].keep == state.picks[other].keep


def test_a_view_is_read_only_and_gives_immutable_values() -> None:
    state = state_after(events_of(BUNDLED[1]), 30)
    seen = view(state, "bob")
    with pytest.raises(AttributeError):
        seen.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        seen.hand = ()  # type: ignore[misc]
    assert isinstance(seen.hand, tuple) and isinstance(seen.owner, MappingProxyType)
    with pytest.raises(TypeError):
        seen.supply("ann")["city1"] = 5  # type: ignore[index]
    position = seen.position()
    position.claim("A1", "bob")
    assert state.position.owner.get("A1") != "bob"  # a copy to look ahead on


def test_a_view_of_no_player_is_a_value_error() -> None:
    state = state_after(events_of(BUNDLED[0]), 1)
    with pytest.raises(ValueError, match="'zed' is not a player of this game \\(ann, bob\\)"):
        view(state, "zed")


def test_the_parchments_are_revealed_after_the_4th_harvest_and_the_copies_after_the_end() -> None:
    events = events_of(BUNDLED[2])
    state = state_after(events, len(events) - 1)
    seen = view(state, "ann")
    assert seen.phase == "ending" and seen.copies is None
    assert seen.revealed == {p: tuple(state.parchments[p]) for p in state.players}
    assert view(state_after(events, len(events) - 2), "ann").revealed is None
    state.play(events[-1])
    assert seen.copies == state.copies and seen.carrots("ann") == state.final.players["ann"].total  # type: ignore[union-attr]


def public_of(state: State, player: str) -> dict[str, object]:
    """What I6 calls public, and the player's own cards, read from the state on its own."""
    n, explored = state.seats, state.phase == "exploring"
    revealed = len(state.picks) == n
    start = (HAND_SIZE[n] + 2 - state.turn) if n == 2 else HAND_SIZE[n] - 2 * (state.turn - 1)

    def size(p: str) -> int:
        return (len(state.hands[p]) if revealed else start) if explored else 0

    own = (state.hands[player] if player in state.picks else state.hand_now(player)) if explored else []
    return {
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "hand": own,
        "parchments": state.parchments[player],
        "reserve": (10 - state.turn) if explored and n == 2 else 0,
        "deck": 182 - state.deck_pos,
        "seats": {
            p: {
                "squares": state.squares_of(p),
                "supply": state.supply_of(p),
                "parchments": len(state.parchments[p]),
                "hand": len(own) if p == player and explored else size(p),
                "reserve": (10 - state.turn) if explored and n == 2 else 0,
                "carrots": state.carrots_of(p),
            }
            for p in state.players
        },
        "owner": dict(state.position.owner),
        "buildings": dict(state.position.building),
        "towers": [list(pair) for pair in state.position.towers],
        "declared": dict(state.position.declared),
        "revealed": dict(state.parchments) if state.phase in ("ending", "over") else None,
        "copies": state.copies if state.phase == "over" else None,
    }


def view_fields(seen: View) -> dict[str, object]:
    data = json.loads(msgspec.json.encode(seen.struct()))
    board = data.pop("board")
    for name in ("player", "players", "rulings", "picks"):
        data.pop(name)
    return data | {name: board[name] for name in ("owner", "buildings", "towers", "declared")}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_everything_public_is_in_the_view_at_every_event(players: int) -> None:
    """Completeness (I6): each field of every player's view, at every position of a game."""
    validator = jsonschema.Draft202012Validator(json.loads(VIEW_SCHEMA.read_text()))
    state = State()
    for i, event in enumerate(simulate(players, seed=players, policy="greedy")):
        assert state.play(event) == []
        for p in state.players:
            seen = view(state, p)
            assert view_fields(seen) == public_of(state, p), (i, p)
            if i % 25 == 0:
                validator.validate(json.loads(msgspec.json.encode(seen.struct())))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_read_together_and_kept_are_each_players_view(players: int) -> None:
    """``structs`` (what a bot program is sent): the views of every player at once, with what one
    seat keeps of the board from its last call and what each kept of their own, are at every event
    each player's view read alone and anew, byte for byte, across two games (the board of the
    first kept into the second)."""
    together, alone = knowledge.Kept(), {p: knowledge.Kept() for p in PLAYER_IDS[:players]}
    kept_read = 0
    for seed in (players, players + 10):
        state = State()
        for event in simulate(players, seed=seed, policy="greedy", seat_streams=True):
            state.play(event)
            fresh = [msgspec.json.encode(view(state, p).struct()) for p in state.players]
            every = knowledge.structs(state, state.players, together)
            assert [msgspec.json.encode(seen) for seen in every] == fresh
            each = [knowledge.structs(state, [p], alone[p])[0] for p in state.players]
            assert [msgspec.json.encode(seen) for seen in each] == fresh
            kept_read += every[0].board.owner is knowledge.structs(state, state.players[:1], together)[0].board.owner
    assert kept_read > 100  # read once for both calls at the same position


@pytest.mark.parametrize("path", sorted((REPLAYS / "illegal").glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_view_of_an_illegal_log_is_made_whole(path: Path) -> None:
    """The view reads any state the engine leaves, refused picks and closed gaps included."""
    state = State()
    for event in events_of(path):
        state.play(event)
        for p in state.players:
            seen = view(state, p).struct()
            assert seen.player == p and set(seen.seats) == set(state.players)


# -- the seen events --------------------------------------------------------------------


def in_seat_order(events: list[Event]) -> list[Event]:
    """The log with each turn's picks in seat order, as the seen events give them."""
    seats = {p: i for i, p in enumerate(events[0].players)}  # type: ignore[union-attr]
    out: list[Event] = []
    run: list[Pick] = []
    for event in [*events, None]:
        if isinstance(event, Pick) and (not run or (run[0].round, run[0].turn) == (event.round, event.turn)):
            run.append(event)
            continue
        out += sorted(run, key=lambda pick: seats[pick.player])
        run = [event] if isinstance(event, Pick) else []
        if event is not None and not isinstance(event, Pick):
            out.append(event)
    return out


def hidden(cards: list[str], hide: Callable[[str], bool]) -> list[str | None]:
    """``cards`` with those ``hide`` says as None, last: what the seen list must be."""
    return [c for c in cards if not hide(c)] + [None] * sum(map(hide, cards))


def expected_seen(event: Event, player: str) -> object:
    """The seen event of ``event`` as docs/bot-protocol.md words it, as plain data."""
    data = msgspec.to_builtins(event)
    every, parchment = (lambda c: True), PARCHMENTS.__contains__
    if isinstance(event, Game):
        data.pop("meta", None)
        if event.deck is not None:
            data["deck"] = [None] * len(event.deck)
    elif isinstance(event, Deal):
        data["hands"] = {p: c if p == player else hidden(c, every) for p, c in data["hands"].items()}
        if event.reserves is not None:
            data["reserves"] = {p: hidden(c, every) for p, c in data["reserves"].items()}
    elif isinstance(event, Pick) and event.player != player:
        data["keep"] = hidden(event.keep, parchment)
        if event.discard is not None:
            data["discard"] = hidden(event.discard, every)
    elif isinstance(event, Draw) and event.player != player:
        data["cards"] = hidden(event.cards, parchment)
    return data


def fill(seen: object, full: object) -> object:
    """``seen`` with its Nones filled from ``full``: a seen list must be the full list with some
    cards taken out, in order, and as many Nones put last."""
    if isinstance(seen, dict) and isinstance(full, dict):
        assert seen.keys() <= full.keys()
        return {key: fill(seen[key], value) if key in seen else value for key, value in full.items()}
    if isinstance(seen, list) and isinstance(full, list) and None in seen:
        shown = seen[: seen.index(None)]
        assert len(seen) == len(full) and seen[len(shown) :] == [None] * (len(seen) - len(shown))
        rest = iter(full)
        assert all(card in rest for card in shown)  # a subsequence of the full list
        return full
    assert seen == full
    return seen


def check_seen_log(events: list[Event], player: str) -> None:
    seen = seen_events(events, player)
    full = in_seat_order(events)
    assert len(seen) == len(full)
    for mine, event in zip(seen, full):
        data = msgspec.to_builtins(mine)
        assert data == expected_seen(event, player)  # exactly the cards the player may not know are hidden
        assert fill(data, msgspec.to_builtins(event)) == msgspec.to_builtins(event)  # and nothing else changes
        if isinstance(event, Build | Harvest | End):
            assert mine is event


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_players_seen_log_filled_from_the_log_is_the_log(path: Path) -> None:
    events = events_of(path)
    for player in events[0].players:  # type: ignore[union-attr]
        check_seen_log(events, player)


@settings(BOUNDED, max_examples=6)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**16))
def test_seen_logs_of_simulated_games_hide_exactly_what_the_rules_hide(players: int, seed: int) -> None:
    events = simulate(players, seed)
    for player in events[0].players:  # type: ignore[union-attr]
        check_seen_log(events, player)


def test_picks_are_seen_in_seat_order_at_the_turns_last_pick_whatever_their_order() -> None:
    events = events_of(BUNDLED[1])
    ann, bob, cid = events[2:5]
    seer = Seer("bob")
    seer.see(events[0])
    seer.see(events[1])
    assert seer.see(cid) == [] and seer.see(ann) == [] and seer.held == 2
    seen = seer.see(bob)
    assert [e.player for e in seen] == ["ann", "bob", "cid"] and seer.held == 0  # type: ignore[union-attr]
    assert seen_events([*events[:2], cid, ann], "bob")[2:] == []  # the turn is not over: still secret


def test_a_log_that_skips_a_pick_reveals_the_turn_at_the_next_event() -> None:
    events = events_of(BUNDLED[1])
    seer = Seer("ann")
    for event in events[:3]:  # ann's pick only
        seer.see(event)
    later = Pick(round=1, turn=2, player="ann", keep=["A1", "A2"])
    assert [(e.turn, e.player) for e in seer.see(later)] == [(1, "ann")]  # type: ignore[union-attr]
    assert seer.held == 1


def test_a_log_out_of_order_keeps_the_turns_picks_held_until_the_engine_closes_the_turn() -> None:
    events = events_of(BUNDLED[1])
    game, deal, ann, bob, cid = events[:5]
    seer = Seer("cid")
    for event in (game, deal, ann):
        seer.see(event)
    stray = [
        Draw(round=1, turn=1, player="ann", cards=["A1", "A2"]),  # D4: before every pick is in
        Pick(round=1, turn=1, player="ann", keep=["A1", "A2"]),  # T1: a second pick
        Pick(round=1, turn=1, player="zed", keep=["A1", "A2"]),  # F1: no seat
        Pick(round=2, turn=3, player="bob", keep=["A1", "A2"]),  # T1: another round
        Build(round=1, player="ann", card="city1", at=["F8"]),  # T1: no construction yet
    ]
    assert [len(seer.see(event)) for event in stray] == [1, 0, 0, 0, 1]
    assert seer.held == 4 and seer.see(bob) == []
    assert [e.player for e in seer.see(cid)] == ["ann", "ann", "bob", "bob", "cid", "zed"]  # type: ignore[union-attr]


@pytest.mark.parametrize("path", sorted((REPLAYS / "illegal").glob("*.jsonl")), ids=lambda p: p.stem)
def test_no_pick_of_an_illegal_log_is_seen_before_the_engine_plays_its_turn(path: Path) -> None:
    events = events_of(path)
    if not events or not isinstance(events[0], Game) or not 2 <= len(events[0].players) <= 4:
        return
    for player in events[0].players:
        state, seer = State(), Seer(player)
        for k, event in enumerate(events):
            state.play(event)
            for seen in seer.see(event):
                if isinstance(seen, bkref.Pick | knowledge.SeenPick) and seen.player != player:
                    turn_over = (
                        state.phase != "exploring"
                        or (seen.round, seen.turn) < (state.round, state.turn)
                        or len(state.picks) == state.seats
                    )
                    assert turn_over, (k, player, seen)


def test_bkref_seen_reads_any_source() -> None:
    text = BUNDLED[0].read_text()
    assert bkref.seen(text, "bob") == bkref.seen(BUNDLED[0], "bob") == seen_events(events_of(BUNDLED[0]), "bob")


# -- leaks: swapping two cards a player may not know changes nothing they are given -----


class Model:
    """What each player knows as a game goes, worked out from RULES.md I1-I6 on their own:
    the cards of every hand they held (D3's reserve card with it), every card played face
    up, their own picks and parchments, every parchment after the 4th harvest."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.known: dict[str, set[str]] = {p: set() for p in players}
        self.discards: dict[str, list[str]] = {p: [] for p in players}
        self.turn: list[Pick] = []

    def after(self, state: State, event: Event) -> None:
        known = self.known
        if isinstance(event, Pick):
            self.turn.append(event)
            self.discards[event.player] += event.discard or []
            if len(state.picks) in (0, state.seats):  # the turn's last pick: every kept card is played
                for pick in self.turn:
                    for p, cards in known.items():
                        cards.update(c for c in pick.keep if p == pick.player or c not in PARCHMENTS)
                self.turn = []
        elif isinstance(event, Draw):
            for p, cards in known.items():
                cards.update(c for c in event.cards if p == event.player or c not in PARCHMENTS)
        if state.phase == "exploring":
            for p, cards in known.items():
                cards.update(state.hands[p] if p in state.picks else state.hand_now(p))
        elif state.phase in ("ending", "over"):
            for cards in known.values():
                cards.update(c for held in state.parchments.values() for c in held)

    def unknown(self, state: State, player: str) -> dict[str, str]:
        """Where each single-copy card ``player`` does not know is: deck, hand, parchment, reserve, discard."""
        places: dict[str, str] = {}
        if state.deck is not None:
            places.update((c, "deck") for c in state.deck[state.deck_pos :])
        others = [p for p in state.players if p != player]
        if state.phase == "exploring":
            secret = len(state.picks) < state.seats
            for p in others:
                pick = state.picks.get(p)
                held = state.hands[p] if p in state.picks else state.hand_now(p)
                in_pick = pick.keep + (pick.discard or []) if pick is not None and secret else []
                places.update((c, "hand") for c in [*held, *in_pick])
            for reserve in state.reserves.values():
                places.update((c, "reserve") for c in reserve[state.turn :])
        if state.phase not in ("ending", "over"):
            places.update((c, "parchment") for p in others for c in state.parchments[p])
        places.update((c, "discard") for p in others for c in self.discards[p])
        return {c: where for c, where in places.items() if c not in self.known[player] and CARDS[c].copies == 1}


def decisions(events: list[Event]) -> Iterator[tuple[int, str, State, dict[str, str]]]:
    """Each decision of the log (a pick, a build, a harvest, the end), once for each player who
    makes it: its index, the player, the state before it, where each card they do not know is."""
    state = State()
    model = Model(tuple(events[0].players))  # type: ignore[union-attr]
    for k, event in enumerate(events):
        if isinstance(event, Pick | Build):
            yield k, event.player, state, model.unknown(state, event.player)
        elif isinstance(event, Harvest | End):
            for p in state.players:
                yield k, p, state, model.unknown(state, p)
        assert state.play(event) == []
        model.after(state, event)


def swap_in(events: list[Event], a: str, b: str) -> list[Event]:
    """The events with cards ``a`` and ``b`` swapped wherever the log names cards, the deck included."""

    def swap(cards: list[str]) -> list[str]:
        return [b if c == a else a if c == b else c for c in cards]

    replace = msgspec.structs.replace
    out: list[Event] = []
    for e in events:
        if isinstance(e, Game) and e.deck is not None:
            e = replace(e, deck=swap(e.deck))
        elif isinstance(e, Deal):
            reserves = None if e.reserves is None else {p: swap(c) for p, c in e.reserves.items()}
            e = replace(e, hands={p: swap(c) for p, c in e.hands.items()}, reserves=reserves)
        elif isinstance(e, Pick):
            e = replace(e, keep=swap(e.keep), discard=None if e.discard is None else swap(e.discard))
        elif isinstance(e, Draw):
            e = replace(e, cards=swap(e.cards))
        out.append(e)
    return out


def pair(places: dict[str, str], rng: random.Random, prefer: str) -> tuple[str, str] | None:
    """Two cards to swap: the first from ``prefer``'s place if any holds it; a parchment already
    played (face down) only with another parchment, so that what is public stays the same."""
    if not places:
        return None
    cards = sorted(places)
    first = [c for c in cards if places[c] == prefer] or cards
    a = rng.choice(first)

    def fits(c: str) -> bool:
        played = "parchment" in (places[a], places[c])
        return c != a and (not played or (a in PARCHMENTS and c in PARCHMENTS))

    fitting = [c for c in cards if fits(c)]
    same = [c for c in fitting if places[c] == places[a]]
    if not fitting:
        return None
    return a, rng.choice(same if same and rng.random() < 0.5 else fitting)


def leaks(events: list[Event], rng: random.Random) -> tuple[list[tuple[int, str, str, str]], Counter[str]]:
    """At every decision, swap two cards its player may not know and replay: each decision whose
    view or seen events changed (index, player, the two cards), and how often each place was swapped."""
    changed = []
    swapped: Counter[str] = Counter()
    for i, (k, player, state, places) in enumerate(decisions(events)):
        chosen = pair(places, rng, CATEGORIES[i % len(CATEGORIES)])
        if chosen is None:
            continue
        a, b = chosen
        swapped.update({places[a], places[b]})
        other = swap_in(events[:k], a, b)
        assert other != events[:k]
        if encoded(state_after(other, k), player, other) != encoded(state, player, events[:k]):
            changed.append((k, player, a, b))
    return changed, swapped


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(BOUNDED, max_examples=2)
@given(seed=st.integers(0, 2**16), rng=st.randoms(use_true_random=False))
def test_swapping_two_cards_a_player_may_not_know_changes_nothing_they_are_given(
    players: int, seed: int, rng: random.Random
) -> None:
    changed, swapped = leaks(simulate(players, seed), rng)
    assert changed == []
    assert set(swapped) >= {"deck", "hand", "parchment"} | ({"reserve", "discard"} if players == 2 else set())


@pytest.mark.parametrize(
    "leak",
    [
        pytest.param(lambda mp: mp.setattr(knowledge, "_unseen", list), id="others-parchments-in-picks"),
        pytest.param(
            lambda mp: mp.setattr(View, "hand", property(lambda v: tuple(v._state.reserves[v.player][v.turn :]))),
            id="own-reserve",
        ),
    ],
)
@pytest.mark.skipif(not knowledge.__file__.endswith(".py"), reason="a compiled module cannot be patched")
def test_the_swaps_catch_a_leak(monkeypatch: pytest.MonkeyPatch, leak: Callable[[pytest.MonkeyPatch], None]) -> None:
    """The leak tests are not blind: a view or seen log that shows a hidden card fails them."""
    leak(monkeypatch)
    changed, _ = leaks(simulate(2, 5), random.Random(1))
    assert changed


def test_the_manual_documents_every_field_of_the_view() -> None:
    page = (ROOT / "docs" / "python-api.md").read_text()
    section = page[page.index("## What one player knows") :]
    fields = [name for name in dir(View) if not name.startswith("_")]
    assert fields and [name for name in fields if f"`{name}" not in section] == []


# -- the schemas ------------------------------------------------------------------------


def test_every_seen_event_of_a_replay_is_valid_by_the_schema() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SEEN_SCHEMA.read_text()))
    events = events_of(BUNDLED[0])
    for player in ("ann", "bob"):
        for seen in seen_events(events, player):
            validator.validate(msgspec.to_builtins(seen))
    assert not validator.is_valid({"type": "pick", "round": 1, "turn": 1, "player": "ann", "keep": ["nope"]})
