"""Names and paths that hold terminal controls: no output of any command lets one act (issue 31.3, 31.4).

A log's player names and meta, its file's name and its folder's name hold ESC, BEL, a CSI
that clears the screen, an OSC 52 that sets the clipboard, a C1 CSI (U+009B), carriage
returns, line ends, U+2028 and a right-to-left override. Every command, in every output
format, on that log: stdout and stderr hold no character outside printable text but their
own line ends. Text shows each such character escaped as validate prints it (``\\x1b``);
JSON keeps the real strings, with every one of them written as a ``\\u`` escape.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from bkref.io.diagnostics import printable
from tests.conftest import ROOT, Result
from tests.test_replay import TWO
from tests.test_viewer import viewer  # noqa: F401 (the fixture)

OSC52 = "\x1b]52;c;aGVsbG8=\x07"
ANN = f"{OSC52}ann\x1b[2J"
BOB = "bob\x9b31m\r\n\u2028\u202eevil"
FILE = "ill\x1b]52;c;aGk=\x07\n\u202e\r\x9b2J.jsonl"
FOLDER = "logs\x1b[2J"
MISSING = "gone\x1b[2J\x07\n.jsonl"


def renamed(event: object) -> object:
    """``event`` with ann and bob renamed ANN and BOB wherever a name is (keys and values)."""
    names = {"ann": ANN, "bob": BOB}
    if isinstance(event, dict):
        return {names.get(k, k): renamed(v) for k, v in event.items()}
    if isinstance(event, list):
        return [renamed(v) for v in event]
    return names.get(event, event) if isinstance(event, str) else event


def hostile_log(folder: Path, *, illegal: bool) -> Path:
    """The 2-player replay with hostile names and meta, written to FOLDER/FILE in ``folder``;
    ``illegal``: ann's first pick keeps a card not in her hand (D2), whose message names her."""
    events = [json.loads(line) for line in (ROOT / TWO).read_text().splitlines() if line.startswith("{")]
    events = [renamed(e) for e in events]
    events[0]["meta"] = {"note": f"{OSC52}\x1b[2J\x9b\u202e"}
    if illegal:
        first = next(e for e in events if e["type"] == "pick")
        first["keep"] = [next(c for c in events[1]["hands"][BOB] if c not in events[1]["hands"][ANN])]
    path = folder / FOLDER / FILE
    path.parent.mkdir()
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


@pytest.fixture(params=[False, True], ids=["legal", "illegal"])
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return hostile_log(tmp_path, illegal=request.param)


def unsafe(text: str) -> list[str]:
    """The characters of ``text`` outside printable text, its line ends apart."""
    return sorted({c for c in text if not c.isprintable() and c != "\n"})


def assert_safe(result: Result) -> None:
    assert unsafe(result.stdout) == [], result.stdout
    assert unsafe(result.stderr) == [], result.stderr


# Each command and output format; LOG is the hostile log, FOLDER its folder, NAME a player.
RUNS = {
    "validate": ["validate", "-v", "LOG"],
    "validate folder": ["validate", "-v", "FOLDER"],
    "validate json": ["validate", "--format", "json", "LOG"],
    "validate github": ["validate", "--format", "github", "LOG"],
    "validate sarif": ["validate", "--format", "sarif", "LOG"],
    "validate stdin": ["validate", "-v", "--stdin-name", FILE, "-"],
    "validate stdin json": ["validate", "--format", "json", "--stdin-name", FILE, "-"],
    "validate missing": ["validate", MISSING],
    "score": ["score", "LOG"],
    "score player": ["score", "--player", "NAME", "LOG"],
    "score json": ["score", "--format", "json", "LOG"],
    "score unknown player": ["score", "--player", "cid\x1b[2J", "LOG"],
    "standings": ["standings", "LOG"],
    "standings folder": ["standings", "FOLDER"],
    "standings csv": ["standings", "--format", "csv", "LOG"],
    "standings json": ["standings", "--format", "json", "LOG"],
    "standings missing": ["standings", "LOG", MISSING],
    "replay": ["replay", "LOG"],
    "replay to": ["replay", "--to", "5", "LOG"],
    "replay round": ["replay", "--round", "1", "LOG"],
    "replay as": ["replay", "--as", "NAME", "LOG"],
    "replay as unknown": ["replay", "--as", "cid\x1b[2J", "LOG"],
    "replay to unknown": ["replay", "--to", "x\x1b[2J", "LOG"],
    "replay step": ["replay", "--step", "LOG"],
    "replay step as": ["replay", "--step", "--as", "NAME", "LOG"],
    "replay seen": ["replay", "--format", "seen", "--as", "NAME", "LOG"],
    "replay svg": ["replay", "--svg", "-", "LOG"],
    "replay svg as": ["replay", "--svg", "-", "--as", "NAME", "LOG"],
    "replay html": ["replay", "--html", "FOLDER/page\x1b[2J.html", "LOG"],
    "replay html nowhere": ["replay", "--html", "FOLDER/none\x1b[2J/page.html", "LOG"],
    "replay stdin": ["replay", "-"],
    "moves": ["moves", "--to", "3", "LOG"],
    "moves end": ["moves", "LOG"],
    "moves player": ["moves", "--to", "3", "--player", "NAME", "LOG"],
    "moves as": ["moves", "--to", "3", "--as", "NAME", "LOG"],
    "moves json": ["moves", "--to", "3", "--format", "json", "LOG"],
    "moves unknown player": ["moves", "--player", "cid\x1b[2J", "LOG"],
    "moves stdin": ["moves", "--to", "3", "-"],
    "simulate nowhere": ["simulate", "--players", "2", "--seed", "1", "-o", "FOLDER/none\x1b[2J/g.jsonl"],
    "simulate no policy": ["simulate", "--players", "2", "--seed", "1", "--policy", "FOLDER/bot\x1b[2J.py:play"],
    "simulate games": ["simulate", "--players", "2", "--seed", "1", "--games", "1", "-o", "FOLDER/sim\x1b[2J"],
    "explain unknown rule": ["explain", "X\x1b[2J"],
    "schema nowhere": ["schema", "-o", "FOLDER/none\x1b[2J/s.json"],
    "unknown format": ["validate", "--format", "j\x1b[2J", "LOG"],
    "no command": ["\x1b[2Jvalidate"],
}
KEYS = "n\nt\nr\nR\nb\nG\ng\n5\nq\n"


CASES = [
    pytest.param(run, name, id=f"{run}, {who}" if "NAME" in args else run)
    for run, args in RUNS.items()
    for name, who in ((ANN, "ann"), (BOB, "bob"))
    if "NAME" in args or name == ANN
]


@pytest.mark.parametrize(("run", "name"), CASES)
def test_no_control_character_from_a_log_or_a_path_reaches_the_output(bkref, log: Path, run: str, name: str) -> None:
    given = {"LOG": str(log), "FOLDER": str(log.parent), "NAME": name}
    args = [given.get(a, a.replace("FOLDER/", f"{log.parent}/")) for a in RUNS[run]]
    stdin = log.read_text() if args[-1] == "-" else KEYS
    result = bkref(*args, input=stdin)
    assert_safe(result)
    out = result.stdout + result.stderr
    if "svg" in run:  # its title lines are wrapped, an escape split across two at times
        out = re.sub(r"</text>\n<text[^>]*>", "", out)
    for core in ("aGVsbG8=", "aGk="):  # ann's and the file's OSC 52, each time shown escaped
        assert "" not in re.findall(rf"(\\+(?:x1b|u001b)]52;c;)?{core}", out), out


def strings(value: object) -> set[str]:
    """Every string in a parsed JSON value, keys included."""
    if isinstance(value, dict):
        return set(value).union(*(strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value))
    return {value} if isinstance(value, str) else set()


@pytest.mark.parametrize("run", ["validate json", "score json", "standings json", "replay seen", "moves json"])
def test_json_keeps_the_real_names_behind_its_escapes(bkref, tmp_path: Path, run: str) -> None:
    log = hostile_log(tmp_path, illegal=True)
    given = {"LOG": str(log), "NAME": ANN}
    result = bkref(*(given.get(a, a) for a in RUNS[run]))
    assert_safe(result)
    lines = run in ("replay seen", "moves json")
    parsed = [json.loads(line) for line in result.stdout.splitlines()] if lines else json.loads(result.stdout)
    assert {s for s in strings(parsed) if ANN in s or BOB in s or FILE in s}, result.stdout


# -- 31.4: a picture and a page stay well-formed XML whatever a name holds -------------

XML_BREAKERS = {"ESC": "\x1b", "BEL": "\x07", "NUL": "\x00", "U+0001": "\x01", "U+FFFE": "\ufffe"}


def named(tmp_path: Path, character: str) -> tuple[Path, str]:
    """The 2-player replay with bob renamed to hold ``character``, and that name."""
    name = f"b{character}ob"
    events = [renamed(json.loads(line)) for line in (ROOT / TWO).read_text().splitlines() if line.startswith("{")]
    text = "".join(json.dumps(e) + "\n" for e in events).replace(json.dumps(BOB), json.dumps(name))
    path = tmp_path / "named.jsonl"
    path.write_text(text)
    return path, name


@pytest.mark.parametrize("seen_by", [None, "bob"], ids=["all", "as bob"])
@pytest.mark.parametrize("character", list(XML_BREAKERS.values()), ids=list(XML_BREAKERS))
def test_the_svg_parses_and_shows_a_control_character_escaped(bkref, tmp_path: Path, character: str, seen_by) -> None:
    log, name = named(tmp_path, character)
    for to in ("5", "40"):
        result = bkref("replay", "--svg", "-", "--to", to, *(("--as", name) if seen_by else ()), log)
        svg = ElementTree.fromstring(result.stdout.encode())
        texts = "".join(svg.itertext()) + "".join(e.get("data-owner", "") for e in svg.iter())
        assert printable(name) in texts
        assert character not in result.stdout


@pytest.mark.parametrize("character", list(XML_BREAKERS.values()), ids=list(XML_BREAKERS))
def test_the_page_and_its_embedded_data_stay_well_formed(bkref, tmp_path: Path, character: str) -> None:
    log, name = named(tmp_path, character)
    for seen_by in ((), ("--as", name)):
        result = bkref("replay", "--html", tmp_path / "page.html", *seen_by, log)
        assert result.exit_code == 0, result.stderr
        text = (tmp_path / "page.html").read_text()
        assert character not in text
        page = ElementTree.fromstring(text.encode())
        assert printable(name) in "".join(page.itertext())
        script = next(e for e in page.iter() if e.get("id") == "data")
        data = json.loads(script.text or "")
        pieces = [*data["squares"], *data["marks"], *data["panels"], *data["harvests"], data["final"]]
        pieces += [step["ev"] for step in data["steps"]]
        for piece in pieces:  # each piece is put in the page as markup: each is well-formed too
            ElementTree.fromstring(f'<div xmlns="http://www.w3.org/1999/xhtml">{piece}</div>'.encode())
        assert any(printable(name) in piece for piece in pieces)


# -- the full-screen viewer: only its own sequences reach the terminal ------------------

OWN_SEQUENCES = re.compile(r"\x1b\[(?:\?(?:1049|25|2026)[hl]|\d+;1H|2K|[0-9;]*m)")
"""What the viewer writes itself: the alternate screen, the cursor hidden and shown, the
synchronized update, each row's place and clearing (``viewer.draw``), and rich's styles."""


@pytest.mark.parametrize("seen_by", [None, ANN, BOB], ids=["all", "as ann", "as bob"])
def test_the_viewer_writes_no_control_character_but_its_own(viewer, tmp_path: Path, seen_by) -> None:  # noqa: F811
    log = hostile_log(tmp_path, illegal=True)
    pty = viewer(log, *(("--as", seen_by) if seen_by else ()), columns=120, lines=50)
    for key, then in [(b"h", "^hands"), (b"l", "^F forest"), (b"e", r"\(line 3\)|event 1 of"), (b"q", r"^\?:keys")]:
        pty.press(key, then)
    for key, then in [(b"G", "^event 113 of"), (b"s", "^final scores"), (b"q", r"^\?:keys"), (b"f", "fief")]:
        pty.press(key, then)
    assert r"\x1b]52;c;aGVsbG8=\x07ann" in pty.text()
    os.write(pty.master, b"qq")
    assert pty.exit() == 1
    written = OWN_SEQUENCES.sub("", pty.raw.decode()).replace("\r\n", "\n")
    assert unsafe(written) == []


def test_a_raising_policy_s_traceback_and_error_line_are_escaped(bkref, tmp_path: Path) -> None:
    bot = tmp_path / "bot\x1b[2J.py"
    bot.write_text(f"def play(*given):\n    raise ValueError({ANN!r})\n")
    result = bkref("simulate", "--players", "2", "--seed", "1", "--policy", f"{bot}:play", "--debug")
    assert result.exit_code == 2
    assert_safe(result)
    assert "Traceback" in result.stderr and r"ValueError: \x1b]52;c;aGVsbG8=\x07ann" in result.stderr
