"""The page of ``bkref replay --html`` in a real browser: Debian's Chromium, driven by Playwright.

Needs the ``browser`` extra (``pip install -e '.[browser]'``, Playwright for Python, which
drives the system's browser and downloads none) and ``/usr/bin/chromium`` (Debian's
``chromium`` package). Without them these tests are skipped with the reason shown in the
summary (pytest runs with ``-rs``); with ``BKREF_BROWSER=required`` (CI's browser step) a
missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bkref.views.narration import stage
from bkref.views.navigation import load
from bkref.views.page import page as make_page
from bkref.views.squares import seat_letters
from tests.conftest import REPLAYS

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the browser extra is not installed
    sync_playwright = None

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MISSING = (
    "Playwright for Python is not installed (pip install -e '.[browser]')"
    if sync_playwright is None
    else None
    if CHROMIUM.exists()
    else f"no browser at {CHROMIUM} (apt-get install chromium)"
)
needs_browser = pytest.mark.skipif(MISSING is not None, reason=f"browser tests skipped: {MISSING}")
FOUR = REPLAYS / "4p-ann-bob-cid-dee.jsonl"
ILLEGAL = REPLAYS / "illegal" / "C3-city-on-printed-city.jsonl"


def test_the_browser_is_there_when_required() -> None:
    """CI installs Chromium and the browser extra, then asks for the browser tests to run."""
    if os.environ.get("BKREF_BROWSER") != "required":
        pytest.skip("BKREF_BROWSER=required is not set: the browser tests run if a browser is there")
    assert MISSING is None, MISSING


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert sync_playwright is not None
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def open_page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """Open the page of a log at event ``index + 1``; the page records console errors in ``.errors``."""
    opened = []

    def open_(log: Path, index: int | None = None) -> Any:
        steps = load(log)
        target = tmp_path / f"{log.stem}.html"
        target.write_text(make_page(steps, len(steps) - 1 if index is None else index, str(log)), encoding="utf-8")
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        tab.on("pageerror", lambda error: errors.append(str(error)))
        uri = target.as_uri()
        tab.on("request", lambda request: errors.append(f"fetched {request.url}") if request.url != uri else None)
        tab.goto(uri)
        tab.errors = errors
        opened.append(tab)
        return tab

    yield open_
    for tab in opened:
        tab.close()


def shown(tab: Any) -> int:
    """The event the page shows, from its counter ``N / M``, counted from 1."""
    return int(tab.text_content("#count").split(" / ")[0])


def owners(tab: Any) -> dict[str, str]:
    """Each drawn square's owner letter, read back from the board the page drew."""
    pairs = tab.evaluate(
        """[...document.querySelectorAll('#squares g.sq')]
             .map(g => [g.dataset.square, g.querySelector('.letter')?.textContent])
             .filter(pair => pair[1])"""
    )
    return dict(pairs)


@needs_browser
@pytest.mark.parametrize("log", [FOUR, ILLEGAL], ids=["4p", "illegal"])
def test_the_page_loads_without_console_errors(open_page: Any, log: Path) -> None:
    steps = load(log)
    tab = open_page(log)
    assert shown(tab) == len(steps)
    last = steps[-1]
    assert tab.text_content("#at") == f"event {len(steps)} of {len(steps)} (line {last.line}): {stage(last.state)}"
    assert tab.is_visible("#final table") == (last.state.final is not None)
    assert tab.is_visible("#harvests table") == bool(last.state.harvests)
    tab.keyboard.press("Home")
    assert shown(tab) == 1
    assert not tab.is_visible("#harvestbox") and not tab.is_visible("#finalbox")
    assert tab.errors == []


@needs_browser
def test_the_keys_move_one_event(open_page: Any) -> None:
    steps = load(FOUR)
    tab = open_page(FOUR, 9)
    assert shown(tab) == 10
    tab.keyboard.press("ArrowRight")
    assert shown(tab) == 11
    assert tab.get_attribute("#e10", "class") == "cur"
    assert tab.text_content("#at").startswith(f"event 11 of {len(steps)} (line {steps[10].line})")
    tab.keyboard.press("ArrowLeft")
    tab.keyboard.press("ArrowLeft")
    assert shown(tab) == 9
    tab.keyboard.press("End")
    assert shown(tab) == len(steps)
    tab.keyboard.press("ArrowRight")  # stays on the last event
    assert shown(tab) == len(steps)
    tab.click("#first")
    assert shown(tab) == 1
    tab.click("#next")
    assert shown(tab) == 2
    assert tab.errors == []


@needs_browser
def test_the_slider_jumps(open_page: Any) -> None:
    tab = open_page(FOUR, 0)
    tab.fill("#slider", "77")
    assert shown(tab) == 77
    assert tab.get_attribute("#e76", "class") == "cur"
    assert tab.errors == []


@needs_browser
def test_a_click_on_a_log_line_goes_there(open_page: Any) -> None:
    steps = load(ILLEGAL)
    tab = open_page(ILLEGAL, 0)
    bad = next(i for i, s in enumerate(steps) if s.diagnostics)
    tab.click(f"#e{bad}")
    assert shown(tab) == bad + 1
    problems = tab.locator("#event .problem").all_text_contents()
    assert problems == [d.text() for d in steps[bad].diagnostics]
    tab.click("#e3")
    assert shown(tab) == 4
    assert tab.locator("#event .problem").count() == 0
    assert tab.errors == []


@needs_browser
def test_the_drawn_owners_match_every_position(open_page: Any) -> None:
    """Step through the whole 4-player game with the → key; at each event, the owners drawn
    on the board are the engine's, and so are the players' squares and carrots and the
    number of harvests shown."""
    steps = load(FOUR)
    letters = seat_letters(steps[0].state.players)
    tab = open_page(FOUR, 0)
    for i, step in enumerate(steps):
        assert shown(tab) == i + 1
        position = step.state.position
        assert owners(tab) == {sq: letters[p] for sq, p in position.owner.items()}, f"event {i + 1}"
        counted = tab.locator("#players td:nth-child(3)").all_text_contents()
        assert counted == [str(len(position.controlled(p))) for p in step.state.players]
        carrots = tab.locator("#players td:nth-child(7)").all_text_contents()
        assert carrots == [str(step.state.carrots_of(p)) for p in step.state.players]
        assert tab.locator("#harvests table").count() == len(step.state.harvests)
        tab.keyboard.press("ArrowRight")
    assert tab.errors == []
