"""The public API: ``import bkref`` gives the documented names, typed, with its version."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import metadata, resources

import pytest

import bkref
from tests.conftest import ROOT


def test_every_documented_name_is_there_and_listed() -> None:
    assert dir(bkref) == sorted(bkref.__all__)
    for name in bkref.__all__:
        assert getattr(bkref, name) is not None, name
    assert bkref.check.__module__ == "bkref.io.referee"
    assert bkref.State.__module__ == "bkref.game.engine"


def test_the_version_is_the_package_metadata() -> None:
    assert bkref.__version__ == metadata.version("bkref")
    assert bkref.__version__ == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_package_is_marked_typed() -> None:
    assert (resources.files("bkref") / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["bkref"]


def test_importing_bkref_loads_no_engine_until_asked() -> None:
    """The command line imports ``bkref`` first: the names load when used."""
    loaded = "print('bkref.game.engine' in sys.modules)"
    code = f"import sys, bkref; {loaded}; bkref.State; {loaded}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.split() == ["False", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'bkref' has no attribute 'no_such_name'"):
        bkref.no_such_name  # noqa: B018
