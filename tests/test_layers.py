"""The package's imports: no cycle among bkref's modules, and no import up the layers.

The layers, bottom up (docs/architecture.md): ``bkref.data``, then ``bkref.game`` (the
rules, no I/O), ``bkref.io``, then ``bkref.views`` and ``bkref.bots`` (neither imports
the other), then ``bkref.cli``; ``bkref`` itself (its lazy names) reads game and io, and
``bkref.__main__`` runs the cli. Every import counts: at the top of a module, inside a
function (a lazy import), or for the type checker only (``if TYPE_CHECKING:``), since
each is a dependency a reader follows.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "bkref"

MAY_IMPORT: dict[str, set[str]] = {
    "bkref.data": {"bkref.data"},
    "bkref.game": {"bkref.data", "bkref.game"},
    "bkref.io": {"bkref.data", "bkref.game", "bkref.io"},
    "bkref.views": {"bkref.data", "bkref.game", "bkref.io", "bkref.views"},
    "bkref.bots": {"bkref.data", "bkref.game", "bkref.io", "bkref.bots"},
    "bkref.cli": {"bkref", "bkref.data", "bkref.game", "bkref.io", "bkref.views", "bkref.bots", "bkref.cli"},
    "bkref": {"bkref.game", "bkref.io"},
    "bkref.__main__": {"bkref.cli"},
}
"""The layers each part of the package may import (a part: a subpackage, or a top module)."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module at ``path``, in the checkout ``root``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package by name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The modules of ``known`` that the module at ``path`` (in the checkout ``root``) imports, anywhere in it."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import: from the package, or one of its parents
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:  # from a package import a module, or a name of a module
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {module for module in found if module in known}


def graph() -> dict[str, set[str]]:
    """Each module of the package to the modules of the package it imports."""
    found = modules()
    known = set(found)
    return {name: imports(path, known) - {name} for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The import cycles of ``edges``: each set of modules that import one another, in turn
    (Tarjan's strongly connected components of two or more modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def part(module: str) -> str:
    """The layer part of ``module``: its subpackage (``bkref.game``), or the top module itself."""
    parts = module.split(".")
    if len(parts) == 1 or module == "bkref.__main__":
        return module
    return ".".join(parts[:2])


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import that breaks the layer order, as ``importer -> imported``."""
    return [
        f"{name} -> {other}"
        for name, imported in sorted(edges.items())
        for other in sorted(imported)
        if part(other) not in MAY_IMPORT[part(name)]
    ]


def test_no_import_cycle_in_the_package() -> None:
    assert [sorted(c) for c in cycles(graph())] == []


def test_no_import_breaks_the_layers() -> None:
    assert upward(graph()) == []


def test_every_part_of_the_package_has_its_layer() -> None:
    assert {part(name) for name in modules()} <= MAY_IMPORT.keys()


def test_the_rules_import_nothing_above_them() -> None:
    """``bkref.game`` alone, read directly: the layer every other one builds on."""
    edges = graph()
    assert {other for name in edges if name.startswith("bkref.game") for other in edges[name]} <= {
        name for name in edges if name.startswith(("bkref.game", "bkref.data"))
    }


def test_only_the_flow_moves_a_game_from_phase_to_phase() -> None:
    """Every assignment to a ``phase`` is in ``bkref/game/flow.py``, but the field's own
    declaration in ``Table.__init__`` (the phase of a new game): no module fakes a phase."""
    assigning = set()
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            if any(isinstance(t, ast.Attribute) and t.attr == "phase" for target in targets for t in ast.walk(target)):
                assigning.add((name, type(node).__name__))
    assert assigning == {("bkref.game.flow", "Assign"), ("bkref.game.table", "AnnAssign")}


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [{"a", "b"}]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [{"a", "b", "c"}]),
    ],
)
def test_the_cycle_finder(edges: dict[str, set[str]], expected: list[set[str]]) -> None:
    assert cycles(edges) == expected


def test_an_import_up_the_layers_is_found() -> None:
    edges = {"bkref.game.engine": {"bkref.io.referee", "bkref.game.table"}, "bkref.bots.policies": {"bkref.views.svg"}}
    assert upward(edges) == ["bkref.bots.policies -> bkref.views.svg", "bkref.game.engine -> bkref.io.referee"]


def test_every_kind_of_import_is_read(tmp_path: Path) -> None:
    """Top-level, lazy (in a function) and type-checking imports, absolute and relative."""
    known = {"bkref.game", "bkref.game.flow", "bkref.game.table", "bkref.io.referee", "bkref.views.svg"}
    source = tmp_path / "bkref" / "game" / "example.py"
    source.parent.mkdir(parents=True)
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from bkref.game import flow\n"
        "from .table import Table\n"
        "if TYPE_CHECKING:\n"
        "    from bkref.io.referee import Step\n"
        "def f():\n"
        "    import bkref.views.svg\n"
    )
    assert imports(source, known, tmp_path) == known - {"bkref.game"}


_MUTATORS = frozenset(
    [
        "append",
        "add",
        "clear",
        "discard",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "reverse",
        "setdefault",
        "sort",
        "update",
    ]
)
"""The methods by which a list, dict or set changes in place."""


def module_state(path: Path) -> list[str]:
    """What in the module at ``path`` is state of the module's own, as ``line: what``: a name
    bound at its top to a list, dict or set (a display, a comprehension, or a call of ``list``,
    ``dict``, ``set``, ``defaultdict``...) not declared ``Final``; a ``global`` statement; and
    any change in place (an item or attribute set or deleted, an augmented assignment, a
    changing method called) of a name bound at its top. (``__all__`` is the module's
    declaration, not its state.)"""
    tree = ast.parse(path.read_text(), str(path))
    mutable = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
    makers = {"list", "dict", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
    found = []
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            top.update(names)
            value = node.value
            final = isinstance(node, ast.AnnAssign) and "Final" in ast.unparse(node.annotation)
            made = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in makers
            if (isinstance(value, mutable) or made) and not final and not all(n.startswith("__") for n in names):
                found.append(f"{node.lineno}: {', '.join(names)} = a {type(value).__name__}, not Final")
    for node in ast.walk(tree):
        changed: list[ast.expr] = []
        if isinstance(node, ast.Global):
            found.append(f"{node.lineno}: global {', '.join(node.names)}")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            changed = [t.value for t in targets if isinstance(t, (ast.Subscript, ast.Attribute))]
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node in tree.body:
                changed.append(node.target)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            changed = [node.func.value]
        found += [f"{node.lineno}: {c.id} changed" for c in changed if isinstance(c, ast.Name) and c.id in top]
    return found


def test_the_rules_hold_no_state_of_their_own() -> None:
    """No module of ``bkref.game`` keeps state between calls: its tables are ``Final`` and never
    changed; what a listing keeps for the next is the caller's (``bkref.game.moves.Lister``)."""
    rules = {name: path for name, path in modules().items() if name.startswith("bkref.game")}
    assert {name: found for name, path in rules.items() if (found := module_state(path))} == {}


def test_module_state_is_found(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        "from typing import Final\n"
        "KEPT: dict[int, str] = {}\n"
        "TABLE: Final = {1: 'a'}\n"
        "LAST: Final[list[int]] = [0]\n"
        "SEEN = set()\n"
        "__all__ = ['f']\n"
        "def f(x):\n"
        "    global COUNT\n"
        "    TABLE[x] = 'b'\n"
        "    LAST.clear()\n"
        "    local = {}\n"
        "    local[x] = 1\n"
    )
    assert module_state(source) == [
        "2: KEPT = a Dict, not Final",
        "5: SEEN = a Call, not Final",
        "8: global COUNT",
        "9: TABLE changed",
        "10: LAST changed",
    ]
