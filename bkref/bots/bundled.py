"""The bundled policies by name, and a policy from the name a command line gives it.

``load(spec)`` finds a policy: ``random``, ``greedy`` (``bkref.bots.policies``) or ``mcts``
(``bkref.bots.mcts``), bundled; ``PKG.MODULE:FUNC`` (an importable module) or
``path/to/file.py:FUNC``.

>>> sorted(BUNDLED)
['greedy', 'mcts', 'random']
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from pathlib import Path

from bkref.bots.errors import OptionError, PolicyError, traceback_of
from bkref.bots.mcts import mcts_policy, mcts_within
from bkref.bots.policies import Policy, greedy_policy, random_policy
from bkref.io.diagnostics import printable

BUNDLED: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy, "mcts": mcts_policy}
TIMED: dict[str, Callable[[float], Policy]] = {"mcts": mcts_within}
"""The bundled policies that a bot program gives a deadline (``bkref.bots.serve``): a deadline to the policy."""


def load(spec: str) -> Policy:
    """The policy ``spec`` names (see the module).

    Raises ``OptionError`` when ``spec`` is not written as a policy is named, and
    ``PolicyError`` with a one-line reason when it names none.

    >>> load("smart")
    Traceback (most recent call last):
    ...
    bkref.bots.errors.OptionError: policy must be random, greedy, mcts, PKG.MODULE:FUNC or path/to/file.py:FUNC, ...
    """
    if spec in BUNDLED:
        return BUNDLED[spec]
    where, colon, name = spec.rpartition(":")
    if not colon or not where or not name:
        raise OptionError("policy", spec, "random, greedy, mcts, PKG.MODULE:FUNC or path/to/file.py:FUNC")
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise PolicyError(f"policy {spec}: no such file {where}", spec=spec)
            module_spec = importlib.util.spec_from_file_location(f"bkref_policy_{path.stem}", path)
            if module_spec is None or module_spec.loader is None:
                raise PolicyError(f"policy {spec}: {where} cannot be loaded as a Python module", spec=spec)
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except PolicyError:
        raise
    except Exception as error:  # whatever the user's module raises on import
        raise PolicyError(
            f"policy {spec} cannot be imported: {type(error).__name__}: {printable(str(error))}",
            spec=spec,
            traceback=traceback_of(error),
        ) from None
    function = getattr(module, name, None)
    if not callable(function):
        raise PolicyError(f"policy {spec}: {where} has no function {name}", spec=spec)
    return function  # type: ignore[no-any-return]
