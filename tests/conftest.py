"""Shared test helpers: where things are, and running the CLI in-process."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bkref.cli import app

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
SHARED = ROOT.parent / "shared"
SAMPLES = sorted((SHARED / "samples").glob("*/*.jsonl"))

needs_shared = pytest.mark.skipif(not SAMPLES, reason="../shared/samples is not beside the project")


class Result:
    """What one run of ``bkref`` printed and returned."""

    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


@pytest.fixture
def bkref():
    """Run ``bkref ARGS...`` in-process; fails the test on any uncaught exception."""

    def run(*args: str | Path, input: str | None = None) -> Result:
        result = CliRunner().invoke(app, [str(a) for a in args], input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Result(result.exit_code, result.stdout, result.stderr)

    return run
