"""The README's Python examples run as written (doctest), from the project's folder."""

from __future__ import annotations

import doctest
import re

import pytest

from tests.conftest import ROOT

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 4


def test_the_readme_python_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks share one namespace, as in one interpreter session, in README order."""
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    for number, block in enumerate(BLOCKS, start=1):
        test = parser.get_doctest(block, globs, f"README.md python block {number}", "README.md", 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 20
    assert failed == 0
