"""The corpus of single mistakes (tests/mistakes.py, issue 25): what bkref reports on logs
with one event changed."""

from __future__ import annotations

import json

from tests.mistakes import FIRST, KINDS, TEST_CORPUS, cases, first_problem

CORPUS = list(cases(**TEST_CORPUS))
RECORDED: dict[str, str] = json.loads(FIRST.read_text())


def test_the_corpus_is_the_recorded_one() -> None:
    """The same cases on every run, every kind of mistake among them (else the comparison below means little)."""
    assert sorted(RECORDED) == sorted(case.name for case in CORPUS)
    assert {case.kind for case in CORPUS} == set(KINDS)
    assert [case.text for case in cases(**TEST_CORPUS)] == [case.text for case in CORPUS]


def test_the_first_problem_stays() -> None:
    """The first problem of each log (its line and rule) is what it was on main before
    issue 25: CI users grep for it."""
    assert {case.name: first_problem(case) for case in CORPUS} == RECORDED
