"""Shared test helpers: where things are, and running the CLI in-process."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from typer.testing import CliRunner

import bkref
from bkref.cli import app
from bkref.io.referee import Report, check

# Hypothesis mixes into its examples the constants of the project's modules loaded when a
# property runs, so which tests ran before (and what they imported) would change the examples
# of a derandomized property. Every module of bkref is loaded here, before any test, so each
# property draws the same examples alone, in the whole suite, in any order.
for _module in pkgutil.walk_packages(bkref.__path__, "bkref."):
    if _module.name != "bkref.__main__":  # running it runs the command line
        importlib.import_module(_module.name)

# dask_held.py is a Dask worker's preload that replaces bkref's batch function when imported:
# --doctest-modules would import it into this process, and its in-process cluster would hold.
collect_ignore = ["dask_held.py"]

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
SHARED = ROOT.parent / "shared"


def manual_pages() -> list[Path]:
    """The README and the manual's pages, in the order of the site's navigation (mkdocs.yml)."""
    nav = re.findall(r": ([\w-]+\.md)$", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)
    return [ROOT / "README.md", *(ROOT / "docs" / page for page in nav)]


def manual_text() -> str:
    """The README and every page of the manual, one after the other."""
    return "\n".join(page.read_text(encoding="utf-8") for page in manual_pages())


SAMPLES = sorted((SHARED / "samples").glob("*/*.jsonl"))

BKREF_COMMAND = [sys.executable, "-P", "-m", "bkref"]
"""``bkref`` in a new process. ``-P`` leaves the checkout off the module path, so the bkref
installed in this venv runs: the compiled core in ``.venv-compiled`` (CI, step 4)."""

needs_shared = pytest.mark.skipif(not SAMPLES, reason="the shared samples folder is not beside the project")


class Result:
    """What one run of ``bkref`` printed and returned."""

    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


@pytest.fixture
def ctrl_c_as_in_a_terminal() -> Iterator[None]:
    """Ctrl-C as a terminal gives it: ``KeyboardInterrupt`` in this process, and the default
    action in every process it starts. A test run started with SIGINT ignored (a background
    job of a shell without job control, ``nohup``) passes that on to every process, and a
    Python started so never sees a Ctrl-C: the tests of Ctrl-C use this."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


@pytest.fixture
def bkref():
    """Run ``bkref ARGS...`` in-process; fails the test on any uncaught exception."""

    def run(*args: str | Path, input: str | None = None) -> Result:
        result = CliRunner().invoke(app, [str(a) for a in args], input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Result(result.exit_code, result.stdout, result.stderr)

    return run


def replay(name: str) -> list[dict[str, Any]]:
    """The events of a bundled replay (``replays/NAME.jsonl``) as JSON objects, one a line."""
    return [json.loads(line) for line in (REPLAYS / f"{name}.jsonl").read_text().splitlines() if line.startswith("{")]


def referee(tmp_path: Path, events: list[dict[str, Any]]) -> Report:
    """``events`` written one a line (line N is ``events[N - 1]``) and checked as a log."""
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in events))
    return check(path)


def found(report: Report) -> list[tuple[str, int, str]]:
    """Each diagnostic of ``report`` as (rule, line, message)."""
    return [(d.rule, d.line, d.message) for d in report.diagnostics]


class TextSnapshot(SingleFileSnapshotExtension):
    """One plain-text file per snapshot, readable as the terminal shows it."""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def text_snapshot(snapshot):
    return snapshot.use_extension(TextSnapshot)


@pytest.fixture
def sealing() -> None:
    """For a test of sealed bots: skipped where bots cannot be sealed, failed there with
    ``BKREF_REQUIRE_SEALED=1`` (as CI sets it: a skip there would hide a missing bubblewrap)."""
    from bkref.bots.sealing import unsealed_why

    why = unsealed_why()
    if why is not None and os.environ.get("BKREF_REQUIRE_SEALED") == "1":
        pytest.fail(f"BKREF_REQUIRE_SEALED=1, and bots cannot be sealed here: {why}")
    if why is not None:
        pytest.skip(f"bots cannot be sealed here: {why}")
