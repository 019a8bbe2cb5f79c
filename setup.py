"""The optional compiled core: ``BKREF_COMPILE=1 pip install .`` compiles these modules with mypyc.

Without ``BKREF_COMPILE=1`` this adds nothing: the package is pure Python (pyproject.toml
holds everything else).
"""

import os

from setuptools import setup

# The modules each validated event runs through, and those of self-play (the legal moves, the
# bundled policies). Not catalog.py: its tests swap its loaders.
COMPILED = [
    "bkref/bots/lookahead.py",
    "bkref/bots/policies.py",
    "bkref/game/building.py",
    "bkref/game/dealing.py",
    "bkref/game/ending.py",
    "bkref/game/engine.py",
    "bkref/game/exploring.py",
    "bkref/game/fiefs.py",
    "bkref/game/flow.py",
    "bkref/game/harvesting.py",
    "bkref/game/knowledge.py",
    "bkref/game/moves.py",
    "bkref/game/position.py",
    "bkref/game/scoring.py",
    "bkref/game/table.py",
    "bkref/io/logfile.py",
    "bkref/io/referee.py",
]

if os.environ.get("BKREF_COMPILE") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED, opt_level="3"))
else:
    setup()
