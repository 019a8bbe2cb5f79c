"""bkref's build backend: setuptools, and mypyc when ``BKREF_COMPILE=1`` asks for the compiled core.

``pip install .`` builds the pure-Python package. ``BKREF_COMPILE=1 pip install .``
also compiles the hot modules (``setup.py`` lists them) with mypyc, which comes with
mypy: this backend asks for mypy as a build requirement only then.
"""

from __future__ import annotations

import os
import tomllib

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517/660 interface)


def _compile() -> bool:
    return os.environ.get("BKREF_COMPILE") == "1"


def _mypyc() -> list[str]:
    """mypy (which ships mypyc), and the dependencies it type-checks the modules against."""
    with open("pyproject.toml", "rb") as file:
        return ["mypy>=1.10", *tomllib.load(file)["project"]["dependencies"]]


# setuptools' own answers run setup.py, which needs mypyc when compiling: ask for it first.
def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    return _mypyc() if _compile() else build_meta.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings: dict[str, object] | None = None) -> list[str]:
    return _mypyc() if _compile() else build_meta.get_requires_for_build_editable(config_settings)
