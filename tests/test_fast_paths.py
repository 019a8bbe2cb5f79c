"""The referee's fast paths give exactly the figures of the explaining code (hypothesis).

- Harvests: fiefs found on bitmasks (``fiefs.harvest``) against a plain flood fill over
  the board's squares, with each square's city strength and production read plainly
  from the rules (``city_strength``, ``produces`` below): random positions, and every
  harvest of simulated games.
- What the missions count (``scoring.Holdings``, on bitmasks) against the same plain
  reading of the squares: random positions.
- Final scores: the referee's points-only scoring against the explaining one (every
  parchment's sentence), on simulated games under random rulings.
- Legal moves (``bkref.game.moves``): picks, placements, builds and copy choices against
  plain versions (every combination of cards kept, every pair of squares, every set of copy
  choices put to the end's own check), at every decision of seeded games and on random
  positions and parchments; the count, the n-th and the builds of each player and card of
  ``moves.LegalMoves`` (``len``, ``moves[i]``, ``counts``, ``build``) against the lists, builds
  kept by a ``moves.Lister`` against builds listed afresh, and ``random``'s choices made from
  them (``policies.random_build``, ``random_pick``) against the policy choosing from the
  lists, with the same seeded generator.
- What a move adds to ``greedy``'s outlook, from the fiefs it changes alone
  (``bkref.bots.lookahead``; a pair of claims from each one alone where they are apart,
  ``policies.Claims``), against the outlook of a copy of the board with the move made:
  every build and claim on random positions and at the decisions of seeded games.
- ``greedy``'s weighing of copy choices, each player's scored once, against every set of
  choices scored whole, at the end of seeded games.
- Reading: the events and problems of a log whose lines are decoded in runs, against the
  line reader's, and a log read in blocks against the same log read as a stream, a line
  at a time, on simulated games damaged at random; and the blocks themselves, read in
  pieces of random sizes.

Every property runs a bounded, derandomized number of examples.
"""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bkref.bots.lookahead import Lookahead
from bkref.bots.policies import (
    Claims,
    Outlook,
    built_gain,
    claimed_gain,
    copiers_total,
    random_build,
    random_pick,
    random_policy,
)
from bkref.bots.simulate import simulate, to_jsonl
from bkref.game import moves
from bkref.game.catalog import ADJACENT, BASIC_RESOURCES, BOARD, CARDS, COPY_CARDS, CORNERS, LUXURY_RESOURCES, SQUARES
from bkref.game.ending import copy_choices
from bkref.game.engine import State
from bkref.game.events import Build, End, Harvest, Pick, Rulings
from bkref.game.fiefs import RESOURCES, BitBoard, fief_squares, fiefs_of, harvest
from bkref.game.knowledge import view
from bkref.game.position import Position
from bkref.game.results import FinalScore
from bkref.game.scoring import MISSIONS, Holdings, final_score
from bkref.game.table import KEEP, Table, Violation
from bkref.io.diagnostics import Diagnostic
from bkref.io.logfile import Problem, Record, read_lines
from bkref.io.referee import Report, check, play
from bkref.io.sources import blocks

BOUNDED = settings(derandomize=True, deadline=None)
PLAYERS = ("ann", "bob", "cid", "dee")
BUILDINGS = sorted(card.id for card in CARDS.values() if card.kind in ("city", "farm"))
EMPTY = [sq for sq in SQUARES if not BOARD[sq].printed_city]
ORDER = {name: i for i, name in enumerate(BASIC_RESOURCES + LUXURY_RESOURCES)}


def city_strength(position: Position, square: str) -> int:
    """The strength of the city on ``square`` (a printed city counts 1), 0 if none (H3)."""
    if BOARD[square].printed_city:
        return 1
    building = position.building.get(square, "")
    return CARDS[building].strength if building in CARDS and CARDS[building].kind == "city" else 0


def produces(position: Position, square: str) -> list[str]:
    """What ``square`` produces: its terrain's resource, then its farm's or its declared post's (E2, H1)."""
    out = [BOARD[square].resource] if BOARD[square].resource else []
    building = position.building.get(square)
    made = position.declared.get(square) if building == "trading_post" else building and CARDS[building].produces
    return out + ([made] if made else [])


def plain_fiefs(position: Position, player: str) -> list[tuple[tuple[str, ...], int, tuple[str, ...], int]]:
    """Each fief of ``player``: squares in board order, strength, resources, carrots (H2-H4)."""
    mine = {sq for sq, who in position.owner.items() if who == player}
    links: dict[str, set[str]] = {sq: set(ADJACENT[sq]) for sq in mine}
    for a, b in position.towers:
        if a in mine and b in mine:
            links[a].add(b)
            links[b].add(a)
    out = []
    seen: set[str] = set()
    for start in SQUARES:
        if start not in mine or start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in links[todo.pop()]:
                if other in mine and other not in group:
                    group.add(other)
                    todo.append(other)
        seen |= group
        squares = tuple(sq for sq in SQUARES if sq in group)
        strength = sum(city_strength(position, sq) for sq in squares)
        resources = tuple(sorted({r for sq in squares for r in produces(position, sq)}, key=ORDER.__getitem__))
        out.append((squares, strength, resources, strength * len(resources)))
    return out


def assert_harvest_as_explained(position: Position, players: tuple[str, ...]) -> None:
    harvested = harvest(position, players)
    for p in players:
        expected = plain_fiefs(position, p)
        assert [(f.squares, f.strength, f.resources, f.carrots) for f in harvested[p]] == expected
        assert harvested.carrots[p] == sum(carrots for *_, carrots in expected)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, tuple[str, ...]]:
    """A random position: squares owned by 2-4 players, buildings, declarations, sky towers."""
    players = PLAYERS[: draw(st.integers(2, 4))]
    owned = draw(st.lists(st.sampled_from(SQUARES), unique=True, max_size=100))
    position = Position()
    for sq in owned:
        position.claim(sq, draw(st.sampled_from(players)))
    for sq in draw(st.lists(st.sampled_from(EMPTY), unique=True, max_size=30)):
        position.building[sq] = building = draw(st.sampled_from(BUILDINGS))
        if building == "trading_post" and draw(st.booleans()):
            position.declared[sq] = draw(st.sampled_from(BASIC_RESOURCES))
    for _ in range(draw(st.integers(0, 3))):
        a, b = draw(st.sampled_from(owned)) if owned else "A1", draw(st.sampled_from(SQUARES))
        position.towers.append((a, b))
    return position, players


@settings(BOUNDED, max_examples=300)
@given(positions())
def test_harvest_on_bitmasks_gives_the_fiefs_of_a_plain_flood_fill(drawn: tuple[Position, tuple[str, ...]]) -> None:
    assert_harvest_as_explained(*drawn)


@settings(BOUNDED, max_examples=200)
@given(positions())
def test_the_missions_count_on_bitmasks_what_a_plain_reading_counts(drawn: tuple[Position, tuple[str, ...]]) -> None:
    position, players = drawn
    board = BitBoard.of(position, players)
    for p in players:
        h = Holdings(p, board, explain=False)
        squares = [sq for sq in SQUARES if position.owner.get(sq) == p]
        made = Counter(r for sq in squares for r in produces(position, sq))
        fiefs = plain_fiefs(position, p)
        assert [h.produced(r) for r in RESOURCES] == [made[r] for r in RESOURCES]
        assert h.cities == sum(1 for sq in squares if city_strength(position, sq))
        plain = {
            "explorer": 3 * sum(sq in CORNERS for sq in squares),
            "diplomat": sum(BOARD[sq].on_edge for sq in squares),
            "master_of_the_mountains": 2 * sum(BOARD[sq].terrain == "mountain" for sq in squares),
            "merchant": 3 * sum(made[r] for r in LUXURY_RESOURCES),
            "carrotistador": 4 * sum(len(f[0]) >= 3 for f in fiefs),
            "harecingetorix": len(fiefs),
            "bun_shee": 2 * sum(1 for f in fiefs if not f[2] for sq in f[0] if city_strength(position, sq)),
            "panpan_the_barbarian": 2
            * sum(1 for sq in squares if not city_strength(position, sq) and not produces(position, sq)),
            "little_prince": sum(sorted(f[3] for f in fiefs)[:-1]),
        }
        assert {mission: MISSIONS[mission](h)[0] for mission in plain} == plain


def points(final: FinalScore) -> dict[str, object]:
    """Everything of a final score but the sentences."""
    return {
        p: (s.harvests, s.harvest, [(r.card, r.copied, r.points, r.rulings) for r in s.parchments], s.total)
        for p, s in final.players.items()
    } | {"ranking": final.ranking, "winners": final.winners, "rulings": final.rulings}


RULINGS = st.builds(
    Rulings,
    matriarch_tie=st.sampled_from(["shared", "none"]),
    opportunist_tie=st.sampled_from(["shared", "none"]),
    copy_of_copy=st.sampled_from(["forbidden", "follow"]),
    treasure_hunter_stacking=st.sampled_from(["multiply", "once"]),
    colonist_counts=st.sampled_from(["played", "placed"]),
)


@settings(BOUNDED, max_examples=6)
@given(st.integers(2, 4), st.integers(0, 10_000), st.just("random"), RULINGS)
def test_simulated_games_score_the_same_fast_and_explained(
    players: int, seed: int, policy: str, rulings: Rulings
) -> None:
    state = State()
    for event in simulate(players, seed, policy):
        assert state.play(event) == []
        if type(event) is Harvest:
            assert_harvest_as_explained(state.position, state.players)
    assert state.final is not None
    explained = final_score(state)
    assert all(r.counted for s in explained.players.values() for r in s.parchments)
    assert points(state.final) == points(explained)
    state.rulings = rulings  # the same end under other rulings
    assert points(final_score(state, explain=False)) == points(final_score(state))


# -- legal moves ------------------------------------------------------------------------


def plain_picks(state: Table, player: str) -> list[Pick]:
    """Every combination of cards kept (and, 2 players, of one other discarded), once each, sorted."""
    if state.phase != "exploring" or state.pending or player not in state.left or player in state.picks:
        return []
    hand = state.hand_now(player)
    found: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for kept in itertools.combinations(range(len(hand)), KEEP[state.seats]):
        keep = tuple(sorted(hand[i] for i in kept))
        if state.seats == 2:
            found |= {(keep, (hand[i],)) for i in range(len(hand)) if i not in kept}
        else:
            found.add((keep, ()))
    return [
        Pick(round=state.round, turn=state.turn, player=player, keep=list(keep), discard=list(discard) or None)
        for keep, discard in sorted(found)
    ]


def plain_placements(position: Position, player: str, card: str) -> list[list[str]]:
    """Each square (each pair of squares, sky towers) in board order, as the rules read (C2-C6)."""
    kind = CARDS[card].kind
    if kind == "camp":
        return [[sq] for sq in SQUARES if sq not in position.owner and not position.occupied(sq)]
    mine = [sq for sq in SQUARES if position.owner.get(sq) == player and not position.occupied(sq)]
    if kind == "sky_tower":
        fief = {sq: i for i, group in enumerate(fief_squares(position, player)) for sq in group}
        return [[a, b] for a, b in itertools.combinations(mine, 2) if fief[a] != fief[b]]
    need = CARDS[card].requires_terrain
    return [[sq] for sq in mine if need is None or BOARD[sq].terrain == need]


def plain_builds(state: Table) -> list[Build]:
    found: list[Build] = []
    for p in state.players if state.phase == "building" else ():
        for c in sorted(c for c, n in state.supply[p].items() if n > 0):
            if CARDS[c].kind == "camp" and CARDS[c].priority < state.camp_floor:
                continue
            at = plain_placements(state.position, p, c)
            found += [Build(round=state.round, player=p, card=c, at=squares) for squares in at]
    return found


def plain_ends(state: Table) -> list[End]:
    """Every combination of each copy card's neighbour's parchments or nothing, kept when the
    end's own check finds no problem in it."""
    if state.phase != "ending":
        return []
    cards = [(p, card) for p in state.players for card in sorted(COPY_CARDS & set(state.parchments[p]))]
    choices = [[*sorted(set(state.parchments[state.copies_from(p, card)])), None] for p, card in cards]
    found = []
    for combination in itertools.product(*choices):
        copies: dict[str, dict[str, str | None]] = {}
        for (p, card), target in zip(cards, combination):
            copies.setdefault(p, {})[card] = target
        problems: list[Violation] = []
        copy_choices(state, copies, problems)
        if not problems:
            found.append(End(copies=copies))
    return found


PLACED = sorted(card.id for card in CARDS.values() if card.is_building)


def assert_moves_as_plain(state: State) -> None:
    for p in state.players:
        assert moves.picks(state, p) == plain_picks(state, p)
    assert moves.builds(state) == plain_builds(state)
    assert moves.ends(state) == plain_ends(state)


@settings(BOUNDED, max_examples=12)
@given(st.integers(2, 4), st.integers(0, 10_000), st.sampled_from(["random", "greedy"]))
def test_the_legal_moves_of_every_decision_are_those_of_the_plain_listing(players: int, seed: int, policy: str) -> None:
    state = State()
    for event in simulate(players, seed, policy):
        assert_moves_as_plain(state)
        state.play(event)
    assert_moves_as_plain(state)


@settings(BOUNDED, max_examples=10)
@given(st.integers(2, 4), st.integers(0, 10_000), st.randoms(use_true_random=False))
def test_builds_kept_from_earlier_listings_are_those_of_the_plain_listing(
    players: int, seed: int, order: random.Random
) -> None:
    """``builds`` keeps each player's last list of each card and takes out the squares taken
    since: asked for the constructions of two games in any order, for every player or one,
    and for one card, it lists what the plain listing does."""
    constructions = []
    for game in (seed, seed + 1):
        state = State()
        for event in simulate(players, game, "random"):
            state.play(event)
            if state.phase == "building":
                constructions.append(state.copy())
    order.shuffle(constructions)
    lister = moves.Lister()
    for state in constructions:
        plain = plain_builds(state)
        assert moves.builds(state, lister=lister) == plain
        for p in state.players:
            assert moves.builds(state, p, lister=lister) == [b for b in plain if b.player == p]
            for c in order.sample(sorted(state.supply[p]), len(state.supply[p])):
                listed = moves.LegalMoves(state, p, lister).builds(c)
                assert listed == [b for b in plain if b.player == p and b.card == c]


@settings(BOUNDED, max_examples=10)
@given(st.integers(2, 4), st.integers(0, 10_000), st.sampled_from(["random", "greedy"]))
def test_random_chooses_from_the_counts_as_from_the_list(players: int, seed: int, policy: str) -> None:
    state = State()
    for event in simulate(players, seed, policy):
        every = state.legal_moves()
        listed_all = list(every)
        assert len(every) == len(listed_all)
        assert [every[i] for i in range(-len(every), len(every))] == listed_all * 2  # from the end, as a list
        if listed_all:  # the n-th chosen from their number, one pass
            assert every.choose(lambda n: n - 1) == listed_all[-1]
        for beyond in (len(every), -len(every) - 1):
            with pytest.raises(IndexError, match=f"^no legal move {beyond} of {len(every)}"):
                every[beyond]
        for p in state.players:
            listed = moves.picks(state, p)
            if state.phase == "exploring" and not state.pending:
                theirs = state.legal_moves(p)
                assert len(theirs) == len(listed)
                assert [theirs[i] for i in range(len(listed))] == listed
                assert [theirs.choose(lambda n, i=i: n - 1 - i) for i in range(len(listed))] == listed[::-1]
                assert all(pick in theirs for pick in listed)
            for draw in range(3 if listed else 0):
                chose, chosen = random.Random(draw), random.Random(draw)
                assert random_pick(state.legal_moves(p), chosen) == random_policy(view(state, p), listed, chose)
                assert chose.random() == chosen.random()
        if state.phase == "building":
            listed = moves.builds(state)
            counts = [
                (p, c, sum(1 for b in listed if (b.player, b.card) == (p, c)))
                for p, c in dict.fromkeys((b.player, b.card) for b in listed)
            ]
            assert every.counts() == counts
            first = state.legal_moves(state.players[0])
            assert first.counts() == [c for c in counts if c[0] == state.players[0]]
            assert [every.build(p, c, i) for p, c, n in counts for i in range(n)] == listed
            for p, c, n in counts:  # from the end, as a list's index; beyond either end, none
                assert [every.build(p, c, i) for i in range(-n, 0)] == moves.builds(state, p, c)
                for beyond in (n, -n - 1):
                    with pytest.raises(IndexError, match=f"^{p} has no placement {beyond} of {c}$"):
                        every.build(p, c, beyond)
            for group, camps in (([state.players[0]], True), (list(state.players), True), ([state.players[0]], False)):
                options = [b for p in group for b in moves.builds(state, p) if camps or CARDS[b.card].kind != "camp"]
                for draw in range(5):
                    chose, chosen = random.Random(draw), random.Random(draw)
                    expected = random_policy(view(state, group[0]), [*options, None], chose) if options else None
                    assert random_build(every, chosen, group, camps) == expected
                    assert chose.random() == chosen.random()  # the same numbers drawn
        state.play(event)


@settings(BOUNDED, max_examples=200)
@given(positions())
def test_placements_on_bitmasks_are_those_of_a_plain_reading(drawn: tuple[Position, tuple[str, ...]]) -> None:
    position, players = drawn
    for p in players:
        for card in PLACED:
            assert moves.placements(position, p, card) == plain_placements(position, p, card)


PARCHMENTS = sorted(card.id for card in CARDS.values() if card.is_parchment)


@settings(BOUNDED, max_examples=300)
@given(
    st.integers(2, 4),
    st.lists(st.lists(st.sampled_from([*PARCHMENTS, *COPY_CARDS]), max_size=5), min_size=4, max_size=4),
    st.sampled_from(["forbidden", "follow"]),
)
def test_the_copy_choices_are_those_the_end_accepts(players: int, held: list[list[str]], copy_of_copy: str) -> None:
    state = State()
    state.seat(PLAYERS[:players])
    state.rulings = Rulings(copy_of_copy=copy_of_copy)  # type: ignore[arg-type]
    state.parchments = dict(zip(PLAYERS, held))
    state.phase = "ending"
    assert moves.ends(state) == plain_ends(state)


# -- greedy's look ahead ----------------------------------------------------------------


def plain_outlook(position: Position, player: str) -> Outlook:
    fiefs = fiefs_of(position, player)
    return sum(f.carrots for f in fiefs), sum(f.strength + f.wealth for f in fiefs)


def plain_gain(position: Position, build: Build) -> Outlook:
    """The outlook of a copy of the board with ``build`` placed, less the outlook now; a
    trading post at its best declaration."""
    after = position.copy()
    for sq in build.at:
        after.building[sq] = build.card
    if CARDS[build.card].kind == "sky_tower":
        after.towers.append((build.at[0], build.at[1]))
    elif CARDS[build.card].kind == "camp":
        after.claim(build.at[0], build.player)
    declared = [None] if build.card != "trading_post" else BASIC_RESOURCES
    outlooks = []
    for resource in declared:
        if resource is not None:
            after.declared[build.at[0]] = resource
        outlooks.append(plain_outlook(after, build.player))
    best, before = max(outlooks), plain_outlook(position, build.player)
    return best[0] - before[0], best[1] - before[1]


def plain_claim(position: Position, player: str, squares: list[str]) -> Outlook:
    after = position.copy()
    for sq in squares:
        if after.building.get(sq, "").startswith("camp"):
            del after.building[sq]
        after.claim(sq, player)
    (a, b), (c, d) = plain_outlook(after, player), plain_outlook(position, player)
    return a - c, b - d


def assert_gains_as_plain(position: Position, players: tuple[str, ...]) -> None:
    for p in players:
        ahead = Lookahead(position, p)
        for card in PLACED:
            for at in moves.placements(position, p, card):
                build = Build(round=1, player=p, card=card, at=at)
                assert built_gain(ahead, card, at) == plain_gain(position, build), build
        for squares in (["A1"], ["E5", "E6"], ["B3", "J10"], list(SQUARES[::7])):
            assert claimed_gain(ahead, squares) == plain_claim(position, p, squares)
        claims = Claims(ahead)  # pairs from singles where they are apart
        for a, b in itertools.combinations(SQUARES[3::8], 2):
            assert claims((a, b)) == plain_claim(position, p, [a, b]), (a, b)


@settings(BOUNDED, max_examples=60)
@given(positions())
def test_greedy_gains_from_the_fiefs_a_move_changes_are_those_of_the_board_after_it(
    drawn: tuple[Position, tuple[str, ...]],
) -> None:
    assert_gains_as_plain(*drawn)


@settings(BOUNDED, max_examples=6)
@given(st.integers(2, 4), st.integers(0, 10_000))
def test_greedy_gains_at_every_construction_of_seeded_games(players: int, seed: int) -> None:
    state = State()
    for event in simulate(players, seed, "greedy"):
        if type(event) is Harvest:  # the construction as it ends: the most buildings on the board
            assert_gains_as_plain(state.position, state.players)
        state.play(event)


def test_two_claims_apart_add_up_and_the_others_are_found_whole() -> None:
    position = Position()
    for sq in ("B2", "B3"):
        position.claim(sq, "ann")
    position.building["B2"] = "city2"
    claims = Claims(Lookahead(position, "ann"))
    assert claims.apart("A1", "J10")  # far from each other and from ann's fief
    assert not claims.apart("A2", "C2")  # both join ann's fief
    assert not claims.apart("E5", "E6")  # next to each other
    for pair in (("A1", "J10"), ("A2", "C2"), ("E5", "E6")):
        assert claims(pair) == plain_claim(position, "ann", list(pair))


def test_greedy_weighs_copy_choices_player_by_player_as_whole() -> None:
    """At the end of 60 seeded games, under the default rulings, under R2 none, and under R2
    none and R3 follow; among them, an Opportunist nowhere, held by a player who copies nothing (the
    copiers still weighed alone), held by a copier, and one a copier may copy."""
    seen = set()
    for players, seed in itertools.product((2, 3, 4), range(20)):
        state = State()
        for event in simulate(players, seed)[:-1]:
            state.play(event)
        holders = {p for p in state.players if "opportunist" in state.parchments[p]}
        copiers = {p for end in moves.ends(state) for p in end.copies}
        copied = any("opportunist" in chosen.values() for end in moves.ends(state) for chosen in end.copies.values())
        if copiers:
            seen.add((bool(holders - copiers), bool(holders & copiers), copied))
        for rulings in (
            Rulings(),
            Rulings(opportunist_tie="none"),
            Rulings(opportunist_tie="none", copy_of_copy="follow"),
        ):
            state.rulings = rulings
            ends = moves.ends(state)
            copier = next((p for p in state.players if any(p in end.copies for end in ends)), None)
            if copier is not None:
                fast, whole = copiers_total(view(state, copier)), copiers_total(view(state, copier), whole=True)
                assert [fast(end) for end in ends] == [whole(end) for end in ends]
    assert {(False, False, False), (True, False, False), (False, True, False)} <= seen
    assert any(copied for _, _, copied in seen)


LINES = [b"", b"  ", b"\r", b"# a comment", b'{"type":"end"}', b"x" * 70, b"{"]


@settings(BOUNDED, max_examples=300)
@given(st.lists(st.sampled_from(LINES), max_size=30), st.booleans(), st.lists(st.integers(1, 90), min_size=1))
def test_blocks_hold_the_lines_whole_as_they_are_read(lines: list[bytes], end: bool, sizes: list[int]) -> None:
    text = b"\n".join(lines) + (b"\n" if end and lines else b"")
    stream = io.BytesIO(text)
    pieces = iter(sizes)
    read = list(blocks(lambda size: stream.read(min(size, next(pieces, 64)))))
    parts = text.split(b"\n")  # the lines, each with its LF; a CR alone does not end one
    expected = [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    assert [line for block in read for line in block] == expected
    assert all(block for block in read)


def outcome(report: Report) -> tuple[object, ...]:
    return [d.text() for d in report.diagnostics], report.events, report.complete, report.where, report.scores


@st.composite
def damaged_logs(draw: st.DrawFn) -> bytes:
    """A simulated game with lines left out, doubled, joined, split, blank or commented, padded
    past a block, or a CRLF line end."""
    lines = to_jsonl(simulate(draw(st.integers(2, 4)), draw(st.integers(0, 10_000)), "random")).encode().split(b"\n")
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(lines) - 2))
        change = draw(st.sampled_from(["drop", "double", "join", "split", "blank", "comment", "pad", "crlf"]))
        if change == "drop":
            del lines[i]
        elif change == "double":
            lines.insert(i, lines[i])
        elif change == "join":
            lines[i : i + 2] = [lines[i] + b" " + lines[i + 1]]
        elif change == "split":
            lines[i : i + 1] = [lines[i][:9], lines[i][9:]]
        elif change == "blank":
            lines.insert(i, b"")
        elif change == "comment":
            lines.insert(i, b"# a comment")
        elif change == "pad":
            lines[i] += b" " * 70_000  # a line longer than a block
        else:
            lines[i] += b"\r"
    return b"\n".join(lines)


@settings(BOUNDED, max_examples=25)
@given(damaged_logs())
def test_a_log_read_in_blocks_is_checked_as_one_read_line_by_line(text: bytes) -> None:
    assert outcome(check(text, "log")) == outcome(check(io.BytesIO(text), "log"))  # bytes in blocks, a stream by lines


@settings(BOUNDED, max_examples=25)
@given(damaged_logs())
def test_the_referee_plays_what_the_line_reader_reads(text: bytes) -> None:
    """The events decoded in runs, and the F1 problems, are those the line reader gives
    reading one line at a time, on the same lines."""
    playing = play(text, "log", partial=True)
    steps = list(playing)
    played = [(step.line, step.event) for step in steps]
    found = [d for step in steps for d in step.diagnostics] + playing.after
    problems = [(d.line, d.message) for d in found if d.rule == "F1"]
    read = list(read_lines(io.BytesIO(text)))
    assert played == [(r.line, r.event) for r in read if isinstance(r, Record)]
    assert problems == [(p.line, p.message) for p in read if isinstance(p, Problem)]


@settings(BOUNDED, max_examples=25)
@given(damaged_logs(), st.booleans())
def test_the_steps_of_a_play_carry_every_problem_of_the_check_once(text: bytes, partial: bool) -> None:
    """``play`` gives the problems ``check`` finds, in the same order: each on the step of its
    line, or of the next event for a line that is not one, and the rest in ``after``."""
    playing = play(text, "log", partial=partial)
    steps = list(playing)
    assert [d for s in steps for d in s.diagnostics] + playing.after == check(text, "log", partial=partial).diagnostics
    for before, step in zip([0] + [s.line for s in steps], steps):
        assert all(before < d.line <= step.line for d in step.diagnostics)
    if steps:  # after the last event: the lines after it, and the end of the log (T1) on its line
        assert all(d.line > steps[-1].line or d.rule == "T1" for d in playing.after)


def test_a_check_stopped_at_a_diagnostic_counts_only_the_events_played_by_then() -> None:
    """Events decoded in a run are counted as they are played: when ``on_diagnostic`` stops
    the check (a closed pipe) at line 4, the three events before it are all it read."""
    lines = to_jsonl(simulate(2, 1, "random")).encode().splitlines(keepends=True)
    text = b"".join([*lines[:3], lines[2], *lines[3:]])  # line 4 repeats line 3's pick: T1

    handed = []

    def closed(diagnostic: Diagnostic) -> None:
        handed.append(diagnostic)
        raise BrokenPipeError(32, "Broken pipe")

    report = check(text, "log", on_diagnostic=closed)
    assert handed[0].text().startswith("log:4: T1 ") and report.handed == {"T1": 1}
    assert (report.events, report.where) == (3, "in round 1, turn 1")
