"""The examples of the README and of every page of the manual (docs/) run as written, from the
project's folder: Python blocks as doctests, ``$ command`` transcripts in a shell."""

from __future__ import annotations

import doctest
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, manual_pages, manual_text

MANUAL = manual_text()
BLOCKS = re.findall(r"```python\n(.*?)```", MANUAL, re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 4


def test_the_readme_python_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks share one namespace, as in one interpreter session, in the manual's order."""
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    for number, block in enumerate(BLOCKS, start=1):
        test = parser.get_doctest(block, globs, f"manual python block {number}", "docs", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 20
    assert failed == 0


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced block of ``text``: its language (may be empty) and its content."""
    blocks, language, lines = [], None, []
    for line in text.splitlines():
        if line.startswith("```"):
            if language is None:
                language, lines = line[3:], []
            else:
                blocks.append((language, "\n".join(lines) + "\n"))
                language = None
        elif language is not None:
            lines.append(line)
    return blocks


TRANSCRIPTS = [
    block
    for language, block in fenced_blocks(MANUAL)
    if not language and block.startswith("$ ") and "--games" not in block  # a hundred games: too slow here
]


def test_the_set_up_leaves_bkref_on_the_path_for_the_examples() -> None:
    """The examples say ``bkref``: the first set-up command activates the virtual environment."""
    set_up = re.search(r"## Set up\n(.*?)\n## ", (ROOT / "README.md").read_text(), re.DOTALL)
    assert set_up
    first = next(block for language, block in fenced_blocks(set_up[1]) if language == "sh")
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert "fresh shell" not in first and "bkref validate" in first


@pytest.mark.parametrize("block", TRANSCRIPTS, ids=lambda block: block.split("\n", 1)[0][2:40])
def test_the_readme_transcripts_print_what_they_show(tmp_path, block: str) -> None:
    """Each ``$ command`` example, run in a fresh shell whose virtual environment is active
    (as the set-up leaves it), in a folder beside the bundled replays, prints what follows it
    (a line "..." or "…" stands for lines left out)."""
    commands, shown, heredoc = [], [], None
    for line in block.splitlines():
        if heredoc is not None:
            commands.append(line)
            heredoc = None if line == heredoc else heredoc
        elif line.startswith("$ "):
            commands.append(line[2:])
            found = re.search(r"<<'(\w+)'", line)
            heredoc = found[1] if found else None
        else:
            shown.append(line)
    (tmp_path / "replays").symlink_to(ROOT / "replays")
    activate = Path(sys.executable).parent / "activate"
    script = "\n".join(["exec 2>&1", f". {shlex.quote(str(activate))}", *commands])
    run = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, check=False
    )
    printed = run.stdout.splitlines()
    cut = next((i for i, line in enumerate(shown) if line.strip() in ("...", "…")), None)
    if cut is None:
        assert printed == shown
    else:
        after = shown[cut + 1 :]
        assert printed[:cut] == shown[:cut]
        assert printed[len(printed) - len(after) :] == after


def test_every_page_of_the_manual_is_in_its_navigation() -> None:
    """A page left out of mkdocs.yml would be neither built into the site's menu nor tested here."""
    pages = {path.name for path in manual_pages()[1:]}
    assert pages == {path.name for path in (ROOT / "docs").glob("*.md")}
    assert len(pages) >= 18


def test_nothing_in_the_manual_points_outside_the_project() -> None:
    assert not re.search(r"\.\./shared", MANUAL)  # the specs beside the project are not part of it


def test_the_moves_of_the_bot_page_are_those_bkref_moves_lists(bkref) -> None:
    """Each example of docs/bots.md's table of moves is a line of ``bkref moves LOG --to N
    --format json`` at the position it names (the log ``replays/2p-ann-bob.jsonl`` unless named)."""
    page = (ROOT / "docs" / "bots.md").read_text()
    table = page[page.index("### The moves") : page.index("The examples without a log")]
    examples = re.findall(r"`(\{[^`]*\})` \(`(?:(replays/\S+) )?--to (\d+)`\)", table)
    assert {json.loads(move)["type"] for move, _, _ in examples} == {"pick", "build", "harvest", "end"}
    for move, log, to in examples:
        listed = bkref("moves", ROOT / (log or "replays/2p-ann-bob.jsonl"), "--to", to, "--format", "json")
        assert move in listed.stdout.splitlines(), (move, log, to)
