"""`bkref replay --svg` and `--html`: the pictures of positions and the page of a whole game."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from bkref.game.catalog import CARDS
from bkref.game.knowledge import Seer, view
from bkref.views.navigation import load
from bkref.views.squares import seat_letters
from tests.conftest import REPLAYS, ROOT

SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"
LOGS = sorted(REPLAYS.rglob("*.jsonl"))


@pytest.fixture(autouse=True)
def in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


class SvgSnapshot(SingleFileSnapshotExtension):
    """One .svg file per snapshot: read as text, or opened as the picture it is."""

    _write_mode = WriteMode.TEXT
    file_extension = "svg"


# Read once against the log and looked at as pictures: the 2-player game mid-round 4 with
# bob's camp1 on A8 and ann's sky tower F5-I5 joined; the 4-player game's harvest of round 3
# (dee's trading post on A8 declared); a city built on a printed city (C3), refused and shown
# with validate's text; the worked example's first harvest.
PICTURES = {
    "2p-mid-round": ("replays/2p-ann-bob.jsonl", ["--to", "95"]),
    "4p-harvest": ("replays/4p-ann-bob-cid-dee.jsonl", ["--round", "3"]),
    "illegal-C3": ("replays/illegal/C3-city-on-printed-city.jsonl", ["--to", "24"]),
    "worked-example": ("replays/worked-example.jsonl", []),
    # cid's illegal pick (D2) as ann saw it: the rule and the line, not the words naming cid's hand.
    "illegal-D2-as-ann": ("replays/illegal/D2-keep-not-in-hand.jsonl", ["--to", "74", "--as", "ann"]),
}


@pytest.mark.parametrize("name", PICTURES)
def test_svg_matches_the_snapshot(bkref, snapshot, name: str) -> None:
    log, args = PICTURES[name]
    result = bkref("replay", log, *args, "--svg", "-")
    assert result.exit_code == (1 if "illegal" in log else 0), result.stderr
    assert result.stdout == snapshot.use_extension(SvgSnapshot)


def test_svg_shows_owners_buildings_and_the_last_move(bkref) -> None:
    """The 2-player picture after event 95 holds what the engine's position holds."""
    steps = load(Path("replays/2p-ann-bob.jsonl"))
    state, before = steps[94].state, steps[93].state
    root = ET.fromstring(bkref("replay", "replays/2p-ann-bob.jsonl", "--to", "95", "--svg", "-").stdout)
    drawn = {g.get("data-square"): g for g in root.iter(f"{SVG}g") if g.get("class") == "sq"}
    owners = {sq: g.get("data-owner") for sq, g in drawn.items() if g.get("data-owner")}
    assert owners == state.position.owner
    letters = seat_letters(state.players)
    for sq, g in drawn.items():
        shown = [t.text for t in g.iter(f"{SVG}text") if t.get("class") == "letter"]
        assert shown == ([letters[state.position.owner[sq]]] if sq in state.position.owner else [])
    assert {sq for sq in drawn if sq not in owners} <= set(state.position.building)
    frames = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "last"]
    moved = [
        sq
        for sq in set(state.position.owner) | set(before.position.owner) | set(state.position.building)
        if state.position.owner.get(sq) != before.position.owner.get(sq)
        or state.position.building.get(sq) != before.position.building.get(sq)
    ]
    assert len(frames) == len(moved) + 1  # and one in the legend
    joins = [line for line in root.iter(f"{SVG}line") if line.get("class") == "join"]
    assert len(joins) == len(state.position.towers) + 1  # and one in the legend


class _Balanced(HTMLParser):
    """Checks that every element of an HTML page is closed in order (void elements aside)."""

    VOID = frozenset({"meta", "input", "br", "img", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()


def _no_network(text: str) -> None:
    """Nothing in a page or picture is fetched: no src or href, no url() or @import in styles."""
    assert not re.search(r"\s(src|href|xlink:href)=", text)
    assert "url(" not in text and "@import" not in text
    assert re.findall(r"https?://[^\"'\s]*", text) in (
        ["http://www.w3.org/2000/svg"],
        ["http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg"],
    )


@pytest.mark.parametrize("log", LOGS, ids=[str(p.relative_to(REPLAYS)) for p in LOGS])
def test_every_svg_and_page_is_well_formed(bkref, tmp_path: Path, log: Path) -> None:
    """Each bundled log's final picture and page parse as XML (the page as XHTML and as HTML)."""
    picture, page = tmp_path / "final.svg", tmp_path / "game.html"
    result = bkref("replay", log, "--svg", picture, "--html", page)
    if result.exit_code == 2 and not picture.exists():  # no event to draw: one line, nothing written
        assert result.stderr.count("\n") == 1 and not page.exists()
        return
    assert result.stdout == f"wrote {picture}\nwrote {page}\n"
    svg_root = ET.parse(picture).getroot()
    assert svg_root.tag == f"{SVG}svg"
    html = page.read_text(encoding="utf-8")
    root = ET.fromstring(html)
    assert root.tag == f"{XHTML}html"
    checker = _Balanced()
    checker.feed(html)
    checker.close()
    assert checker.open == []
    _no_network(picture.read_text(encoding="utf-8"))
    _no_network(html)
    data = json.loads(next(s for s in root.iter(f"{XHTML}script") if s.get("id") == "data").text or "")
    steps = load(log)
    assert len(data["steps"]) == len(steps)
    assert [li.get("data-i") for li in root.iter(f"{XHTML}li")] == [str(i) for i in range(len(steps))]


def test_illegal_events_carry_validates_text(bkref, tmp_path: Path) -> None:
    """On the page, a refused event's log line and panel hold the lines validate prints."""
    log = "replays/illegal/C3-city-on-printed-city.jsonl"
    printed = bkref("validate", log).stdout.splitlines()
    problems = [line for line in printed if line.startswith(log)]
    assert problems
    bkref("replay", log, "--html", tmp_path / "g.html")
    root = ET.parse(tmp_path / "g.html").getroot()
    bad = [li for li in root.iter(f"{XHTML}li") if li.get("class") == "bad"]
    shown = [span.text for li in bad for span in li.iter(f"{XHTML}span")]
    assert shown == problems
    data = json.loads(next(s for s in root.iter(f"{XHTML}script") if s.get("id") == "data").text or "")
    step = data["steps"][int(bad[0].get("data-i") or "")]
    assert all(f'<p class="problem">{escape(line)}</p>' in step["ev"] for line in problems)


def test_outputs_are_the_same_bytes_every_time(bkref, tmp_path: Path) -> None:
    log = "replays/4p-ann-bob-cid-dee.jsonl"
    first = [bkref("replay", log, "--to", "50", "--svg", "-").stdout]
    bkref("replay", log, "--to", "50", "--html", tmp_path / "a.html")
    bkref("replay", log, "--to", "50", "--html", tmp_path / "b.html")
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    assert bkref("replay", log, "--to", "50", "--svg", "-").stdout == first[0]


def test_a_four_player_page_stays_small(bkref, tmp_path: Path) -> None:
    """The issue's budget: a 4-player game's page under 2 MB."""
    for log in sorted(REPLAYS.rglob("4p-*.jsonl")):
        bkref("replay", log, "--html", tmp_path / "g.html")
        assert (tmp_path / "g.html").stat().st_size < 2_000_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--step", "--svg", "-"], "bkref: error: --step walks through the game in the terminal"),
        (["--to", "999", "--svg", "-"], "bkref: error: --to 999: give an event number"),
        (["--html", "no-such-folder/g.html"], "bkref: error: cannot write no-such-folder/g.html: No such file"),
    ],
)
def test_bad_usage_is_one_line(bkref, args: list[str], message: str) -> None:
    result = bkref("replay", "replays/worked-example.jsonl", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_the_readme_picture_is_the_commands_output(bkref) -> None:
    """docs/4p-round-3.svg, shown in the README and the manual, is what their command writes."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    replays = (ROOT / "docs" / "replays.md").read_text(encoding="utf-8")
    command = "bkref replay replays/4p-ann-bob-cid-dee.jsonl --round 3 --svg docs/4p-round-3.svg"
    assert command in readme and "](docs/4p-round-3.svg)" in readme
    assert command in replays and "](4p-round-3.svg)" in replays
    shown = bkref(*command.split()[1:-1], "-").stdout
    assert (ROOT / "docs" / "4p-round-3.svg").read_text(encoding="utf-8") == shown


def test_the_terminal_the_pictures_and_the_pages_give_each_seat_one_colour(bkref, tmp_path: Path) -> None:
    """Seat i's colour is the same in the picture's style, the page's tokens and the terminal's board."""
    from rich.console import Console

    from bkref.views.boardtext import board_text

    log = REPLAYS / "4p-ann-bob-cid-dee.jsonl"
    svg = bkref("replay", log, "--svg", "-").stdout
    bkref("replay", log, "--html", tmp_path / "game.html")
    html = (tmp_path / "game.html").read_text()
    pictured = re.findall(r"\.s(\d)\{fill:(#[0-9A-Fa-f]{6})\}", svg)
    assert [int(seat) for seat, _ in pictured] == [0, 1, 2, 3]
    terminal = Console(color_system="truecolor", force_terminal=True, width=100)
    with terminal.capture() as captured:
        terminal.print(board_text(load(log)[-1].state))
    for seat, colour in pictured:
        assert f"span.s{seat}{{background:{colour}}}" in html
        red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        assert f"48;2;{red};{green};{blue}m" in captured.get(), (seat, colour)


def _cards_named(text: str) -> set[str]:
    """The card ids a piece of the page names (a territory card is named by its square)."""
    return {word for word in re.findall(r"[A-Za-z0-9_]+", text) if word in CARDS}


def _page_data(bkref, tmp_path: Path, log: str, *args: str) -> tuple[dict, list[str]]:
    """The page's data and its log lines' text."""
    bkref("replay", log, *args, "--html", tmp_path / "g.html")
    root = ET.parse(tmp_path / "g.html").getroot()
    data = json.loads(next(s for s in root.iter(f"{XHTML}script") if s.get("id") == "data").text or "")
    return data, ["".join(li.itertext()) for li in root.iter(f"{XHTML}li")]


def _leaks(data: dict, lines: list[str], log: str, player: str) -> dict[int, set[str]]:
    """By step, the cards the page's players table, event panel and log line name that ``player``
    could not know then: known are the cards of the seen events so far, and of their own hands
    and parchments (``knowledge``)."""
    steps = load(Path(log))
    seer = Seer(player)
    known: set[str] = set()
    leaks = {}
    for i, step in enumerate(steps):
        for seen in seer.see(step.event):
            known |= _cards_named(json.dumps(msgspec.to_builtins(seen)))
        seen_now = view(step.state, player)
        known |= {*seen_now.hand, *seen_now.parchments, *(c for p in (seen_now.revealed or {}).values() for c in p)}
        shown = data["steps"][i]
        named = _cards_named(data["panels"][shown["pl"]] + shown["ev"] + lines[i]) - known
        if named:
            leaks[i] = named
    return leaks


@pytest.mark.parametrize(
    ("log", "player"), [(str(REPLAYS / "2p-ann-bob.jsonl"), "bob"), (str(REPLAYS / "3p-ann-bob-cid.jsonl"), "cid")]
)
def test_a_players_own_page_names_no_card_they_could_not_know(bkref, tmp_path: Path, log: str, player: str) -> None:
    """Every step of ``--html --as P``: the players, the event and the log line name only cards of
    P's seen events, hands and parchments so far; the whole page names the others' hands."""
    data, lines = _page_data(bkref, tmp_path, log, "--as", player)
    assert _leaks(data, lines, log, player) == {}
    everything, all_lines = _page_data(bkref, tmp_path, log)
    assert 1 in _leaks(everything, all_lines, log, player)  # the deal: every hand, in the players table


def test_a_players_own_picture_and_page_say_whose_they_are(bkref, tmp_path: Path) -> None:
    log = "replays/2p-ann-bob.jsonl"
    picture = bkref("replay", log, "--to", "8", "--as", "bob", "--svg", "-").stdout
    assert "event 8 of 113 (line 8): round 1, turn 3 of 10: exploration, as bob saw it</text>" in picture
    bkref("replay", log, "--as", "bob", "--html", tmp_path / "g.html")
    assert "<h1>replays/2p-ann-bob.jsonl, as bob saw it</h1>" in (tmp_path / "g.html").read_text()
    result = bkref("replay", log, "--as", "zed", "--html", tmp_path / "z.html")
    assert result.exit_code == 2 and result.stderr == "bkref: error: --as zed: this game's players are ann, bob\n"
    assert not (tmp_path / "z.html").exists()


def test_the_page_says_who_won_at_the_top_of_the_last_position(bkref, tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    assert bkref("replay", REPLAYS / "4p-ann-bob-cid-dee.jsonl", "--html", page).exit_code == 0
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page.read_text()).group(1))
    last = data["steps"][-1]["ev"]
    assert last.startswith('<p class="won">dee wins with 115, cid 102, bob 98, ann 87 (the breakdown is below)</p>')
    assert all('class="won"' not in step["ev"] for step in data["steps"][:-1])
    html = page.read_text()
    assert html.index('<div id="event">') < html.index('<div id="finalbox"')  # the event panel is by the board


def test_no_picture_or_page_is_written_over_the_log(bkref, tmp_path: Path) -> None:
    """``--svg g.jsonl``, or an output that is a link to it, is refused before anything is
    written: the log is left byte for byte."""
    log = tmp_path / "g.jsonl"
    shutil.copy(ROOT / "replays" / "worked-example.jsonl", log)
    before = log.read_bytes()
    (tmp_path / "link.html").symlink_to(log)
    (tmp_path / "hard.svg").hardlink_to(log)
    for option, output in (("--svg", log), ("--html", tmp_path / "link.html"), ("--svg", tmp_path / "hard.svg")):
        result = bkref("replay", log, option, output)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (
            f"bkref: error: cannot write {output}: it is the input {log} (bkref writes no output over what it reads)\n"
        )
        assert log.read_bytes() == before
