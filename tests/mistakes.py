"""A corpus of single mistakes: legal logs with one event changed (issue 25).

Each case is a legal log (a replay of ``replays/`` or a seeded game of ``bkref simulate``)
with one mistake made in it, of one ``KINDS``: an event deleted, duplicated or swapped
with the next, a player renamed in one event, a card, a square, a resource or a number
changed, an unknown field added. Which event and what change come from a generator
seeded by the case's name, so the same name gives the same log on every run.

``measure`` checks each case and counts its problems: a mistake should give exactly one
*root* problem (one that names no earlier problem, "(after …)"), every follow-on naming
its cause. A change the rules allow (two builds swapped, say) gives no problem and is
left out of the figures.

>>> case = next(cases(["replays/worked-example.jsonl"], per_kind=1))
>>> case.name, case.kind
('worked-example/delete/0', 'delete')
>>> case.text == next(cases(["replays/worked-example.jsonl"], per_kind=1)).text
True
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bkref.bots.simulate import simulate, to_jsonl
from bkref.game.catalog import BASIC_RESOURCES, BOARD, CARDS, SQUARES
from bkref.io.diagnostics import Diagnostic
from bkref.io.referee import check

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "replays").glob("*.jsonl"))
"""The legal replays the corpus starts from."""

Line = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One single-mistake log: its ``name`` (source/kind/index), its ``kind``, its ``text``."""

    name: str
    kind: str
    text: str

    @property
    def partial(self) -> bool:
        """Whether the case is checked as a partial game: the worked example is one round."""
        return self.name.split("/")[0] in ("worked-example", "worked-example-nodeck")


def _card(rng: random.Random, old: str) -> str:
    return rng.choice([c for c in sorted(CARDS) if c != old])


def _events(lines: list[str]) -> list[int]:
    """The indexes of the event lines of ``lines`` after the game event (not comments, not blank)."""
    return [i for i, line in enumerate(lines) if line.startswith("{")][1:]


def _delete(rng: random.Random, lines: list[str]) -> list[str] | None:
    i = rng.choice(_events(lines))
    return lines[:i] + lines[i + 1 :]


def _duplicate(rng: random.Random, lines: list[str]) -> list[str] | None:
    i = rng.choice(_events(lines))
    return lines[: i + 1] + lines[i:]


def _swap(rng: random.Random, lines: list[str]) -> list[str] | None:
    events = _events(lines)
    k = rng.randrange(len(events) - 1)
    i, j = events[k], events[k + 1]
    return [*lines[:i], lines[j], *lines[i + 1 : j], lines[i], *lines[j + 1 :]]


def _changed(rng: random.Random, lines: list[str], change: Callable[[Line], bool]) -> list[str] | None:
    """``lines`` with one event, chosen at random among those ``change`` can change, changed."""
    order = _events(lines)
    rng.shuffle(order)
    for i in order:
        event = json.loads(lines[i])
        if change(event):
            return [*lines[:i], json.dumps(event, separators=(",", ":")), *lines[i + 1 :]]
    return None


def _rename(rng: random.Random, lines: list[str]) -> list[str] | None:
    def change(event: Line) -> bool:
        if "player" not in event:
            return False
        event["player"] += "by"
        return True

    return _changed(rng, lines, change)


def _card_changed(rng: random.Random, lines: list[str]) -> list[str] | None:
    def change(event: Line) -> bool:
        kind = event["type"]
        if kind == "build":
            event["card"] = _card(rng, event["card"])
        elif kind in ("pick", "draw"):
            held = event["keep" if kind == "pick" else "cards"]
            j = rng.randrange(len(held))
            held[j] = _card(rng, held[j])
        elif kind == "deal":
            hand = event["hands"][rng.choice(sorted(event["hands"]))]
            j = rng.randrange(len(hand))
            hand[j] = _card(rng, hand[j])
        else:
            return False
        return True

    return _changed(rng, lines, change)


def _square(rng: random.Random, lines: list[str]) -> list[str] | None:
    def change(event: Line) -> bool:
        if event["type"] != "build":
            return False
        at = event["at"]
        j = rng.randrange(len(at))
        at[j] = rng.choice([sq for sq in SQUARES if sq != at[j]])
        return True

    return _changed(rng, lines, change)


def _resource(rng: random.Random, lines: list[str]) -> list[str] | None:
    def change(event: Line) -> bool:
        posts = [(p, sq) for p, declared in event.get("trading_posts", {}).items() for sq in declared]
        if event["type"] != "harvest" or not posts:
            return False
        p, sq = rng.choice(posts)
        old = event["trading_posts"][p][sq]
        event["trading_posts"][p][sq] = rng.choice([r for r in BASIC_RESOURCES if r != old])
        return True

    return _changed(rng, lines, change)


def _number(rng: random.Random, lines: list[str]) -> list[str] | None:
    def change(event: Line) -> bool:
        fields = [f for f in ("round", "turn") if f in event]
        fields += [("expect", p) for p in event.get("expect") or {}]
        if not fields:
            return False
        field = rng.choice(fields)
        step = rng.choice((-1, 1))
        if isinstance(field, tuple):
            event["expect"][field[1]] = max(0, event["expect"][field[1]] + step)
        elif event[field] + step >= 1:
            event[field] += step
        else:
            event[field] += 1
        return True

    return _changed(rng, lines, change)


def _unknown_field(rng: random.Random, lines: list[str]) -> list[str] | None:
    def change(event: Line) -> bool:
        if event["type"] == "game":
            return False
        event[rng.choice(("note", "comment", "time"))] = 1
        return True

    return _changed(rng, lines, change)


KINDS: dict[str, Callable[[random.Random, list[str]], list[str] | None]] = {
    "delete": _delete,
    "duplicate": _duplicate,
    "swap": _swap,
    "rename": _rename,
    "card": _card_changed,
    "square": _square,
    "resource": _resource,
    "number": _number,
    "unknown-field": _unknown_field,
}
"""Each kind of mistake: a function of a seeded generator and a log's lines that makes it."""


def sources(replays: Iterable[str], games: int) -> Iterator[tuple[str, str]]:
    """(name, text) of each legal log: the ``replays``, then ``games`` seeded games for 2, 3 and 4 players."""
    for path in replays:
        yield Path(path).stem, (ROOT / path).read_text()
    for seed in range(games):
        for players in (2, 3, 4):
            yield f"sim-{players}p-{seed}", _simulated(players, seed)


def _simulated(players: int, seed: int) -> str:
    """The seeded game of the corpus for ``players`` players: every fourth seed greedy."""
    return to_jsonl(simulate(players, seed=seed, policy="greedy" if seed % 4 == 3 else "random"))


def case_named(name: str) -> Case:
    """The case ``name`` of the corpus ("sim-4p-12/swap/3", "3p-ann-bob-cid-nodeck/card/2"), made alone."""
    source, kind, _ = name.split("/")
    log = source.removesuffix("-nodeck")
    if log.startswith("sim-"):
        _, players, seed = log.split("-")
        text = _simulated(int(players.removesuffix("p")), int(seed))
    else:
        text = (ROOT / "replays" / f"{log}.jsonl").read_text()
    lines = text.splitlines()
    case = _case(name, kind, lines if source == log else without_deck(lines))
    assert case is not None, f"{name} makes no mistake"
    return case


def without_deck(lines: list[str]) -> list[str]:
    """``lines`` with no deck in the game event: the log is checked in conservation mode (S4)."""
    i = next(i for i, line in enumerate(lines) if line.startswith("{"))
    game = json.loads(lines[i])
    game.pop("deck", None)
    return [*lines[:i], json.dumps(game, separators=(",", ":")), *lines[i + 1 :]]


def cases(replays: Iterable[str] = REPLAYS, games: int = 0, per_kind: int = 2, deck: bool = True) -> Iterator[Case]:
    """The corpus: ``per_kind`` mistakes of every kind in each log of ``sources`` (without
    its deck unless ``deck``: those cases are named ``source-nodeck/kind/k``)."""
    for source, text in sources(replays, games):
        lines = text.splitlines()
        if not deck:
            lines, source = without_deck(lines), f"{source}-nodeck"
        for kind in KINDS:
            for k in range(per_kind):
                case = _case(f"{source}/{kind}/{k}", kind, lines)
                if case is not None:
                    yield case


def _case(name: str, kind: str, lines: list[str]) -> Case | None:
    """The case ``name``: a mistake of ``kind`` in ``lines``, from a generator seeded by the
    name; None if the kind finds nothing to change."""
    made = KINDS[kind](random.Random(name), lines)
    return Case(name, kind, "\n".join(made) + "\n") if made is not None and made != lines else None


# -- pairs of independent mistakes (issue 45) ---------------------------------------------

FIRST_KINDS = ("square", "card")
"""The local kinds of the first mistake of a pair: a changed square or card."""


def _build_at(rng: random.Random, lines: list[str], after: int, avoid: set[str]) -> tuple[int, Line] | None:
    """A build event after the line index ``after`` on no square of ``avoid``: its index and the event."""
    builds = [i for i in _events(lines) if i > after and '"type":"build"' in lines[i]]
    rng.shuffle(builds)
    for i in builds:
        event = json.loads(lines[i])
        if not avoid.intersection(event["at"]):
            return i, event
    return None


def _on_printed_city(rng: random.Random, lines: list[str], after: int, avoid: set[str]) -> tuple[int, Line] | None:
    found = _build_at(rng, lines, after, avoid)
    if found is not None:
        found[1]["at"][0] = rng.choice([sq for sq in SQUARES if BOARD[sq].printed_city])
    return found


def _off_terrain(rng: random.Random, lines: list[str], after: int, avoid: set[str]) -> tuple[int, Line] | None:
    """A city or farm that needs a terrain, moved to a free square of its builder of another terrain."""
    builds = [i for i in _events(lines) if i > after and '"type":"build"' in lines[i]]
    rng.shuffle(builds)
    for i in builds:
        event = json.loads(lines[i])
        requires = CARDS[event["card"]].requires_terrain
        if requires is None or avoid.intersection(event["at"]):
            continue
        state = check("\n".join(lines[:i]) + "\n", partial=True).state
        assert state is not None
        position = state.position
        free = [
            sq
            for sq, owner in sorted(position.owner.items())
            if owner == event["player"] and not position.occupied(sq) and BOARD[sq].terrain != requires
        ]
        if free:
            event["at"] = [rng.choice(free)]
            return i, event
    return None


def _unknown_card(rng: random.Random, lines: list[str], after: int, avoid: set[str]) -> tuple[int, Line] | None:
    found = _build_at(rng, lines, after, avoid)
    if found is not None:
        found[1]["card"] = rng.choice(("city9", "farm_gold2", "castle"))
    return found


def _another_expects(rng: random.Random, lines: list[str], after: int, avoid: set[str]) -> tuple[int, Line] | None:
    """A later harvest where the log expects one carrot more for a player whose event is not
    the first mistake's, and whom no problem of the first mistake alone names (a pick of
    theirs it made illegal, a camp of theirs it left standing or took, their total: their
    holdings are not the log's, whether or not that harvest's carrots show it): their
    carrots read only their own holdings."""
    game = json.loads(next(line for line in lines if line.startswith("{")))
    found = check("\n".join(lines) + "\n").diagnostics
    named = {p for p in game["players"] for d in found if _names(d.message, p)}
    named.add(json.loads(lines[after]).get("player"))
    harvests = [i for i in _events(lines) if i > after and '"type":"harvest"' in lines[i]]
    rng.shuffle(harvests)
    for i in harvests:
        event = json.loads(lines[i])
        others = sorted(p for p in event.get("expect") or {} if p not in named)
        if others:
            event["expect"][rng.choice(others)] += 1
            return i, event
    return None


def _names(message: str, player: str) -> bool:
    """Whether ``message`` names ``player`` (as a word: "ann", "ann's")."""
    return re.search(rf"\b{re.escape(player)}\b", message) is not None


SECOND_KINDS: dict[str, Callable[[random.Random, list[str], int, set[str]], tuple[int, Line] | None]] = {
    "printed-city": _on_printed_city,
    "terrain": _off_terrain,
    "unknown-card": _unknown_card,
    "another-expects": _another_expects,
}
"""The kinds of the second mistake of a pair, which no earlier event can cause: a build on
a printed city (C3, C6), off its terrain (C4), of a card that does not exist (F1), and a
harvest's expected carrots of a player whom no problem of the first mistake names (X1)."""


@dataclass(frozen=True)
class Pair:
    """Two independent mistakes in one log: its ``name``, ``text``, and the ``lines`` of the two mistakes."""

    name: str
    text: str
    lines: tuple[int, int]


def pairs(replays: Iterable[str] = REPLAYS, games: int = 0, per_kind: int = 2) -> Iterator[Pair]:
    """Pairs of independent mistakes: a first one of ``FIRST_KINDS`` that alone gives one root,
    on its own line, and a later build on other squares, legal after the first mistake alone,
    changed by one of ``SECOND_KINDS``."""
    for source, text in sources(replays, games):
        lines = text.splitlines()
        for kind in FIRST_KINDS:
            for k in range(per_kind):
                name = f"{source}/{kind}/{k}"
                made = KINDS[kind](random.Random(name), lines)
                if made is None or made == lines:
                    continue
                first = next(i for i, (a, b) in enumerate(zip(made, lines)) if a != b)
                single = check("\n".join(made) + "\n", name).diagnostics
                if [d.line for d in single if is_root(d)] != [first + 1]:
                    continue
                avoid = set(json.loads(made[first]).get("at", ()))
                for second_kind, make in SECOND_KINDS.items():
                    pair = f"{name}+{second_kind}"
                    second = make(random.Random(pair), made, first, avoid)
                    if second is not None and second[0] + 1 not in {d.line for d in single}:
                        i, event = second
                        changed = [*made[:i], json.dumps(event, separators=(",", ":")), *made[i + 1 :]]
                        yield Pair(pair, "\n".join(changed) + "\n", (first + 1, i + 1))


def two_roots(pair: Pair) -> bool:
    """Whether bkref reports the pair as two mistakes: exactly two roots, on its two lines."""
    found = check(pair.text, pair.name).diagnostics
    return sorted(d.line for d in found if is_root(d)) == list(pair.lines)


def problems(case: Case) -> list[Diagnostic]:
    """What bkref reports on the case."""
    return check(case.text, case.name, partial=case.partial).diagnostics


def is_root(diagnostic: Diagnostic) -> bool:
    """A problem that names no earlier one as its cause."""
    return "(after " not in diagnostic.message


@dataclass
class Figures:
    """The corpus's figures: the mistakes found, those with one root, the problems in all."""

    mistakes: int = 0
    one_root: int = 0
    problems: int = 0
    by_kind: dict[str, tuple[int, int]] | None = None

    @property
    def share(self) -> float:
        return self.one_root / self.mistakes if self.mistakes else 1.0

    @property
    def mean(self) -> float:
        return self.problems / self.mistakes if self.mistakes else 0.0


def measure(corpus: Iterable[Case], missed: list[Case] | None = None) -> Figures:
    """Count, over the cases that give any problem, those with exactly one root problem;
    the others are added to ``missed`` if given."""
    figures = Figures(by_kind={})
    assert figures.by_kind is not None
    for case in corpus:
        found = problems(case)
        if not found:
            continue
        one = sum(map(is_root, found)) == 1
        if not one and missed is not None:
            missed.append(case)
        figures.mistakes += 1
        figures.one_root += one
        figures.problems += len(found)
        seen, good = figures.by_kind.get(case.kind, (0, 0))
        figures.by_kind[case.kind] = (seen + 1, good + one)
    return figures


def first_problem(case: Case) -> str:
    """The case's first problem as CI users grep for it: its line and rule ("27 D1"), or "" for none."""
    found = problems(case)
    return f"{found[0].line} {found[0].rule}" if found else ""


TEST_CORPUS = {"games": 3, "per_kind": 3}
"""The corpus of the test (tests/test_mistakes.py): the replays and 3 seeded games per player count."""

FIRST = Path(__file__).with_name("mistakes-first.json")
"""The first problem of each case of the test's corpus, recorded once from main before issue 25's changes."""


if __name__ == "__main__":  # record FIRST: run once, on the code whose first problems are the reference
    first = {case.name: first_problem(case) for case in cases(**TEST_CORPUS)}
    FIRST.write_text(json.dumps(first, indent=0, sort_keys=True) + "\n")
