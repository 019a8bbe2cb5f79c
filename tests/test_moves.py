"""Legal moves: the generator (``bkref.game.moves``) and the referee agree both ways, and
``bkref moves`` lists them at positions of simulated and sample games."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from functools import cache
from math import prod
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bkref import Problem, Record, read
from bkref import check as check_log
from bkref.bots.simulate import simulate, to_jsonl
from bkref.game import moves
from bkref.game.catalog import BASIC_RESOURCES, CARDS, COPY_CARDS, SQUARES
from bkref.game.engine import State, apply
from bkref.game.events import Build, End, Event, Harvest, Pick
from bkref.game.rules import RULES
from tests.conftest import REPLAYS, SAMPLES, needs_shared

BOUNDED = settings(
    derandomize=True, deadline=None, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@cache
def game(players: int, seed: int, policy: str) -> tuple[Event, ...]:
    return tuple(simulate(players, seed, policy))


def state_at(events: tuple[Event, ...] | list[Event], count: int) -> State:
    state = State()
    for event in events[:count]:
        assert state.play(event) == []
    return state


def refused(state: State, move: Event) -> list[str]:
    """The rule ids the referee names for ``move`` here (empty when it is legal)."""
    return [v.rule for v in apply(state, move)[1]]


positions = st.builds(
    lambda players, seed, policy, where: (players, seed, policy, where),
    st.sampled_from([2, 3, 4]),
    st.integers(0, 5),
    st.sampled_from(["random", "greedy"]),
    st.floats(0, 1),
)


@BOUNDED
@given(position=positions, data=st.data())
def test_generator_and_referee_agree_both_ways(position: tuple[int, int, str, float], data: st.DataObject) -> None:
    players, seed, policy, where = position
    events = game(players, seed, policy)
    state = state_at(events, 1 + int(where * (len(events) - 1)))
    legal = state.legal_moves()
    due = state.due()
    for move in legal:  # every generated move plays with no violation
        assert refused(state, move) == [], move
    if due.kind == "pick":
        assert_picks_agree(state, due.players, legal, data)
    elif due.kind == "build":
        assert_builds_agree(state, legal, data)
    elif due.kind == "end":
        assert_ends_agree(state, legal)


def assert_near_miss_refused(state: State, move: Event) -> None:
    rules = refused(state, move)
    assert rules, f"accepted: {move}"
    assert all(rule in RULES for rule in rules)


def assert_picks_agree(state: State, players: tuple[str, ...], legal: list[Event], data: st.DataObject) -> None:
    player = data.draw(st.sampled_from(players))
    mine = [m for m in legal if isinstance(m, Pick) and m.player == player]
    hand = state.hand_of(player) if state.seats > 2 else state.hand_now(player)
    keep = 1 if state.seats == 2 else 2
    # every choice of cards from the hand (as ids, sorted kept cards) is legal exactly when generated
    tried = set()
    for kept in itertools.permutations(range(len(hand)), keep + (state.seats == 2)):
        cards = [hand[i] for i in kept]
        pick = Pick(
            round=state.round,
            turn=state.turn,
            player=player,
            keep=sorted(cards[:keep]),
            discard=cards[keep:] or None,
        )
        key = msgspec.json.encode(pick)
        if key not in tried:
            tried.add(key)
            assert (pick in mine) == state.is_legal(pick), pick
    assert len(tried) == len(mine)
    # just outside the set: another card, a wrong count
    base = data.draw(st.sampled_from(mine))
    outside = sorted(set(CARDS) - set(hand))
    other = msgspec.structs.replace(base, keep=[*base.keep[:-1], data.draw(st.sampled_from(outside))])
    assert_near_miss_refused(state, other)
    assert_near_miss_refused(state, msgspec.structs.replace(base, keep=[*base.keep, base.keep[0]]))
    assert_near_miss_refused(state, msgspec.structs.replace(base, keep=base.keep[:-1]))


def assert_builds_agree(state: State, legal: list[Event], data: st.DataObject) -> None:
    builds = [m for m in legal if isinstance(m, Build)]
    for p in state.players:
        for card in sorted(c for c, n in state.supply[p].items() if n > 0):
            mine = [b for b in builds if b.player == p and b.card == card]
            if CARDS[card].kind == "sky_tower":
                pairs = list(itertools.combinations(SQUARES, 2))
                sample = data.draw(st.lists(st.sampled_from(pairs), min_size=40, max_size=40))
                tried = [list(pair) for pair in sample] + [b.at for b in mine]
            else:
                tried = [[sq] for sq in SQUARES]
            for at in tried:  # each square (a sample of the pairs): legal exactly when generated
                build = Build(round=state.round, player=p, card=card, at=at)
                assert (build in mine) == state.is_legal(build), build
            if mine:  # just outside the set: another square, a card not in supply, a wrong count
                base = data.draw(st.sampled_from(mine))
                elsewhere = [sq for sq in SQUARES if Build(round=state.round, player=p, card=card, at=[sq]) not in mine]
                if CARDS[card].kind != "sky_tower":
                    assert_near_miss_refused(
                        state, msgspec.structs.replace(base, at=[data.draw(st.sampled_from(elsewhere))])
                    )
                assert_near_miss_refused(state, msgspec.structs.replace(base, at=[*base.at, base.at[0]]))
                missing = sorted(c for c in CARDS if CARDS[c].is_building and not state.supply[p].get(c))
                assert_near_miss_refused(state, msgspec.structs.replace(base, card=data.draw(st.sampled_from(missing))))
    harvests = [m for m in legal if isinstance(m, Harvest)]
    posts = moves.trading_posts(state)
    assert len(harvests) == 3 ** sum(len(squares) for squares in posts.values())
    for p in posts:  # a player's posts left undeclared
        undeclared = {q: d for q, d in harvests[0].trading_posts.items() if q != p}
        assert set(refused(state, Harvest(round=state.round, trading_posts=undeclared))) == {"H1"}
    outsider = next(sq for sq in SQUARES if sq not in {s for squares in posts.values() for s in squares})
    wrong = Harvest(round=state.round, trading_posts={state.players[0]: {outsider: BASIC_RESOURCES[0]}})
    assert "H1" in refused(state, wrong)


def assert_ends_agree(state: State, legal: list[Event]) -> None:
    ends = [m for m in legal if isinstance(m, End)]
    assert len(ends) == independent_end_count(state)
    cards = [(p, c) for p in state.players for c in sorted(COPY_CARDS & set(state.parchments[p]))]
    for p, card in cards:  # a parchment the neighbour does not have
        copies = {q: dict(c) for q, c in ends[0].copies.items()}
        owned = set(state.parchments[state.right_of(p) if card == "liberal" else state.left_of(p)])
        copies[p][card] = next(c for c in sorted(CARDS) if CARDS[c].is_parchment and c not in owned)
        assert "E7" in refused(state, End(copies=copies))


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2), (4, 4)])
def test_copy_choices_agree_at_the_end(players: int, seed: int) -> None:
    events = game(players, seed, "random")
    state = state_at(events, len(events) - 1)
    assert state.due().kind == "end"
    legal = state.legal_moves()
    assert legal and all(refused(state, move) == [] for move in legal)
    assert_ends_agree(state, legal)


# -- independent counts ---------------------------------------------------------------


def independent_pick_count(state: State, player: str) -> int:
    """Distinct picks from the multiset of cards: 2 of them (3-4 players), or one kept and one other discarded."""
    counts = Counter(state.hand_now(player))
    distinct, doubled = len(counts), sum(1 for n in counts.values() if n >= 2)
    if state.seats == 2:
        return distinct * (distinct - 1) + doubled  # ordered (keep, discard), the same id twice if held twice
    return distinct * (distinct - 1) // 2 + doubled


def independent_build_count(state: State) -> int:
    """Every (card, squares) the referee accepts, found by trying each square and each pair of the builder's squares."""
    total = 0
    for p in state.players:
        mine = state.squares_of(p)
        for card in (c for c, n in state.supply[p].items() if n > 0):
            tried = itertools.combinations(mine, 2) if CARDS[card].kind == "sky_tower" else ([sq] for sq in SQUARES)
            total += sum(state.is_legal(Build(round=state.round, player=p, card=card, at=list(at))) for at in tried)
    return total


def independent_end_count(state: State) -> int:
    """Each copy card copies one distinct parchment of its neighbour, other than a copy card (R3 forbidden), or
    nothing when there is none."""
    counts = []
    for p in state.players:
        for card in COPY_CARDS & set(state.parchments[p]):
            neighbour = state.right_of(p) if card == "liberal" else state.left_of(p)
            counts.append(max(1, len(set(state.parchments[neighbour]) - COPY_CARDS)))
    return prod(counts)


def independent_count(state: State) -> int:
    due = state.due()
    if due.kind == "pick":
        return sum(independent_pick_count(state, p) for p in due.players)
    if due.kind == "build":
        return independent_build_count(state) + 3 ** len(
            [sq for sq in SQUARES if state.position.building.get(sq) == "trading_post"]
        )
    if due.kind == "end":
        return independent_end_count(state)
    if due.kind in ("deal", "draw"):
        return int(state.deck is not None)
    return 0


# -- bkref moves ------------------------------------------------------------------------


def cut(text: str, state_line: int) -> str:
    return "".join(text.splitlines(keepends=True)[:state_line])


def assert_moves_command_right(bkref, path: Path, event: int) -> None:
    """At the position after ``event``: the count is the independent one, and each JSON move,
    appended to the log cut there, validates with --partial."""
    text = path.read_text()
    records = [r for r in bkref_read(text) if isinstance(r, Record)]
    state = State()
    for record in records[:event]:
        state.play(record.event)
    result = bkref("moves", path, "--to", event, "--format", "json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == independent_count(state), (path, event)
    head = cut(text, records[event - 1].line)
    for line in lines:
        assert json.loads(line)["type"] in ("pick", "build", "harvest", "end", "deal", "draw")
        report = check_log(head + line + "\n", partial=True)
        assert report.diagnostics == [], (event, line, report.diagnostics)
    text_out = bkref("moves", path, "--to", event)
    assert text_out.stdout.splitlines()[0].endswith(f"{len(lines)} legal move{'s' if len(lines) != 1 else ''}") or (
        not lines
        and ("cannot be known" in text_out.stdout or text_out.stdout.endswith("): the game is over, no move is left\n"))
    )
    assert len(text_out.stdout.splitlines()) == 1 + len(lines)


def bkref_read(text: str) -> list[Record | Problem]:
    return list(read(text))


def positions_of(events: int) -> list[int]:
    """Positions spread over a game: the start, every 9th event, the end."""
    return sorted({2, 3, *range(5, events, 9), events - 1, events})


@pytest.mark.parametrize(("players", "seed", "policy"), [(2, 1, "greedy"), (3, 2, "random"), (4, 3, "greedy")])
def test_bkref_moves_at_positions_of_simulated_games(
    bkref, tmp_path: Path, players: int, seed: int, policy: str
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(to_jsonl(game(players, seed, policy)))
    kinds = set()
    for event in positions_of(len(game(players, seed, policy))):
        assert_moves_command_right(bkref, path, event)
        kinds.add(state_at(game(players, seed, policy), event).due().kind)
    assert {"pick", "build", "end"} <= kinds


@needs_shared
@pytest.mark.parametrize("path", SAMPLES[::3], ids=lambda p: p.name)
def test_bkref_moves_at_positions_of_sample_games(bkref, path: Path) -> None:
    events = sum(isinstance(r, Record) for r in read(path))
    for event in positions_of(events)[::2]:
        assert_moves_command_right(bkref, path, event)


def test_bkref_moves_in_words(bkref) -> None:
    result = bkref("moves", REPLAYS / "3p-ann-bob-cid.jsonl", "--to", 4)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == (
        f"{REPLAYS / '3p-ann-bob-cid.jsonl'}: after event 4 (line 4), in round 1, turn 1: picks (cid); 66 legal moves"
    )
    assert lines[1] == "   1  cid keeps A5 and A7"


def test_bkref_moves_reads_stdin(bkref) -> None:
    path = REPLAYS / "2p-ann-bob.jsonl"
    from_file = bkref("moves", path, "--to", 30, "--format", "json")
    assert bkref("moves", "-", "--to", 30, "--format", "json", input=path.read_text()).stdout == from_file.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--to", "0"], "--to 0: give an event number, from 1"),
        (["--to", "x"], "--to x: give an event number, from 1"),
        (["--to", "999"], "--to 999: give an event number; this log has events 1 to 113"),
    ],
)
def test_bkref_moves_bad_position_is_one_line(bkref, args: list[str], words: str) -> None:
    result = bkref("moves", REPLAYS / "2p-ann-bob.jsonl", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"bkref: error: {words}\n"


def test_bkref_moves_of_a_missing_log(bkref, tmp_path: Path) -> None:
    result = bkref("moves", tmp_path / "none.jsonl")
    assert result.exit_code == 2
    assert result.stderr == f"bkref: error: {tmp_path / 'none.jsonl'}: no such file\n"


def test_bkref_moves_at_the_last_event_leaves_out_the_lines_after_it(bkref, tmp_path: Path) -> None:
    """The position after event N is the log cut there: a line that is not an event after the
    last one is a problem of the whole log (status 2), not of the log up to event N."""
    text = (REPLAYS / "worked-example.jsonl").read_text() + "not an event\n"
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    events = sum(isinstance(r, Record) for r in read(text))
    at_last = bkref("moves", path, "--to", events, "--format", "json")
    assert (at_last.exit_code, at_last.stderr) == (0, "")
    whole = bkref("moves", path, "--format", "json")
    last = len(text.splitlines())
    assert (whole.exit_code, whole.stderr) == (
        2,
        f"{path}:{last}: F1 line {last} is not JSON: invalid character at column 2\n",
    )
    assert whole.stdout == at_last.stdout


def test_bkref_moves_as_a_player_lists_their_moves_and_not_who_else_has_to_pick(bkref) -> None:
    # 3p after event 3: ann has picked turn 1, bob and cid have not.
    log = REPLAYS / "3p-ann-bob-cid.jsonl"
    everyone = bkref("moves", log, "--to", 3, "--format", "json").stdout.splitlines()
    bob = bkref("moves", log, "--to", 3, "--format", "json", "--as", "bob").stdout.splitlines()
    assert bob and bob == [line for line in everyone if json.loads(line)["player"] == "bob"]
    heading = bkref("moves", log, "--to", 3, "--as", "bob").stdout.splitlines()[0]
    assert heading.endswith(f"in round 1, turn 1: picks (bob); {len(bob)} legal moves")
    ann = bkref("moves", log, "--to", 3, "--as", "ann")
    assert ann.stdout == f"{log}: after event 3 (line 3), in round 1, turn 1: picks (ann has picked); 0 legal moves\n"
    zed = bkref("moves", log, "--as", "zed")
    assert (zed.exit_code, zed.stdout) == (2, "")
    assert zed.stderr == "bkref: error: --as zed: this game's players are ann, bob, cid\n"


def test_bkref_moves_as_a_player_hides_the_words_of_another_players_illegal_pick(bkref) -> None:
    log = Path("replays") / "illegal" / "D2-keep-not-in-hand.jsonl"  # line 74: cid keeps a card not in cid's hand
    as_ann = bkref("moves", log, "--to", 74, "--as", "ann")
    assert as_ann.stderr == f"{log}:74: D2 not shown with --as ann: it may name cards ann does not see\n"
    assert "J10" in bkref("moves", log, "--to", 74, "--as", "cid").stderr


def test_bkref_moves_headings_say_each_thing_once(bkref) -> None:
    path = REPLAYS / "3p-ann-bob-cid.jsonl"
    building = bkref("moves", path, "--to", 48).stdout.splitlines()[0]
    assert building == (
        f"{path}: after event 48 (line 48), in the construction of round 2: "
        "builds, or the harvest that closes it (ann, bob, cid); 70 legal moves"
    )
    assert bkref("moves", path).stdout == f"{path}: after event 118 (line 118): the game is over, no move is left\n"


def test_bkref_moves_of_one_player(bkref) -> None:
    path = REPLAYS / "3p-ann-bob-cid.jsonl"
    every = bkref("moves", path, "--to", 48, "--format", "json").stdout.splitlines()
    bobs = bkref("moves", path, "--to", 48, "--player", "bob", "--format", "json")
    assert bobs.exit_code == 0
    mine = bobs.stdout.splitlines()
    assert mine and all(json.loads(line).get("player", "bob") == "bob" for line in mine)
    assert all(json.loads(line)["type"] != "build" or line in every for line in mine)
    assert len([line for line in every if json.loads(line).get("player") == "bob"]) == sum(
        json.loads(line)["type"] == "build" for line in mine
    )
    text = bkref("moves", path, "--to", 48, "--player", "bob").stdout.splitlines()
    assert text[0].endswith(f"(ann, bob, cid); {len(mine)} legal moves of bob") and len(text) == 1 + len(mine)
    waiting = bkref("moves", path, "--to", 4, "--player", "bob")  # cid's pick is due
    assert waiting.stdout.splitlines()[0].endswith("picks (cid); 0 legal moves of bob")
    unknown = bkref("moves", path, "--player", "zed")
    assert (unknown.exit_code, unknown.stdout) == (2, "")
    assert unknown.stderr == "bkref: error: --player zed: this game's players are ann, bob, cid\n"


def test_bkref_moves_as_one_player_and_of_another_is_one_line(bkref) -> None:
    log = REPLAYS / "3p-ann-bob-cid.jsonl"
    both = bkref("moves", log, "--to", 3, "--as", "bob", "--player", "cid")
    assert (both.exit_code, both.stdout) == (2, "")
    assert both.stderr == "bkref: error: --as bob lists only bob's moves; --player cid asks for another player's\n"
    same = bkref("moves", log, "--to", 3, "--as", "bob", "--player", "bob")
    assert same.stdout == bkref("moves", log, "--to", 3, "--as", "bob").stdout


def test_the_worked_example_says_it_is_partial_and_what_accepts_it(bkref) -> None:
    path = REPLAYS / "worked-example.jsonl"
    said = path.read_text().split("\n", 2)[:2]
    assert "a partial log" in said[0] and "`bkref validate --partial` accepts" in said[0] and "`bkref moves`" in said[1]
    assert bkref("validate", path).exit_code == 1  # T1: it ends before round 2
    accepted = bkref("validate", "--partial", path)
    assert accepted.exit_code == 0 and "legal (23 events, stops before the deal of round 2)" in accepted.stderr
    assert bkref("moves", path).exit_code == 0
