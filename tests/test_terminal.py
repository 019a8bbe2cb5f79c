"""Text tables never cut a number, a header or a name short, and ``COLUMNS`` widens them off a terminal."""

from __future__ import annotations

import io

import pytest

from bkref.views.terminal import WIDTH, console, emit, table

POLICY = "cmd:python3 /home/author/bunny/bots/peer_bot.py --strategy greedy --depth 3 alpha"
HEADERS = ("Bot", "Policy", "Games", "Win share", "95 % interval", "Mean score")


def _printed() -> str:
    made = table(*HEADERS, numbers=frozenset(HEADERS[2:]), prose=HEADERS[:2])
    made.add_row("peer_alpha", POLICY, "12", "29.2%", "67.6% to 100.0%", "101.3")
    made.add_row("random", "random", "120", "70.8%", "0.0% to 32.4%", "98.0")
    out = io.StringIO()
    emit(console(out), made)
    return out.getvalue()


@pytest.mark.parametrize("columns", ["80", "100", "200"])
def test_numbers_headers_and_names_are_whole_at_every_width(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    printed = _printed()
    assert max(len(line) for line in printed.splitlines()) <= int(columns)
    for whole in (*HEADERS, "peer_alpha", "67.6% to 100.0%", "101.3", "0.0% to 32.4%", " 120 ", " 12 "):
        assert whole in printed
    squeezed = "".join(printed.split())
    assert all(word in squeezed for word in POLICY.split())


def test_columns_widens_the_text_and_its_absence_keeps_the_fixed_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert POLICY in _printed()
    monkeypatch.delenv("COLUMNS")
    assert POLICY not in _printed()
    assert max(len(line) for line in _printed().splitlines()) <= WIDTH
