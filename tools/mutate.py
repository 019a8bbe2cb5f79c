"""Mutation testing of the rule modules: would the tests notice a rule going wrong?

Each mutant changes one thing in one module of ``bkref/game``: an operator (``==`` to
``!=``, ``<`` to ``<=``, ``+`` to ``-``, ``and`` to ``or``, a ``not`` dropped), a constant
(a number plus one, ``True`` to ``False``, a string changed), or a statement deleted (a
check, an assignment, a call, a ``raise``, a whole ``if``). For each mutant, the tests that
exercise the module run with ``-x`` in a forked child whose import of that module gives the
mutated code (no file is written, so mutants run side by side); a failing test or a crash
kills the mutant, and so does running past the time limit.

The survivors judged equivalent (they change nothing a test could see) are listed, each with
its reason, in ``tools/mutation-equivalents.toml`` and left out of the score.

    python -m tools.mutate                      # every module, 2 at a time
    python -m tools.mutate engine fiefs -j 1    # some modules
    python -m tools.mutate engine --list        # the mutants, with their keys, without running
    python -m tools.mutate table --meaning      # only the changes of meaning
    python -m tools.mutate flow --line 86 --line 133  # only the mutants of those lines

Not run in CI: it takes minutes (each mutant is a pytest run).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.abc
import importlib.machinery
import json
import os
import signal
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import TypeVar, cast

import pytest

J = TypeVar("J")
ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "tools" / "mutation-equivalents.toml"

# For each module, the fast tests that exercise it, quickest killers first (-x stops at the
# first failure). The slow property, picture and simulation tests are left out.
ENGINE_TESTS = [
    "tests/test_engine.py",
    "tests/test_order_of_events.py",
    "tests/test_provisions.py",
    "tests/test_construction.py",
    "tests/test_deal.py",
    "tests/test_end.py",
    "tests/test_names_and_values.py",
    "tests/test_apply.py",
    "tests/test_queries.py",
    "tests/test_rabbit_limit.py",
    "tests/test_parchments.py",
    "tests/test_illegal.py",
    "tests/test_samples.py",
    "tests/test_score.py",
    "tests/test_policies.py",
    "tests/test_moves.py",
]
MODULES: dict[str, list[str]] = {
    "engine": ENGINE_TESTS,
    "flow": ENGINE_TESTS,
    "table": ENGINE_TESTS,
    "dealing": ENGINE_TESTS,
    "exploring": ENGINE_TESTS,
    "building": ENGINE_TESTS,
    "harvesting": ENGINE_TESTS,
    "ending": ENGINE_TESTS,
    "fiefs": [
        "tests/test_fiefs.py",
        "tests/test_engine.py",
        "tests/test_parchments.py",
        "tests/test_end.py",
        "tests/test_construction.py",
        "tests/test_samples.py",
        "tests/test_score.py",
    ],
    "scoring": [
        "tests/test_parchments.py",
        "tests/test_end.py",
        "tests/test_engine.py",
        "tests/test_construction.py",
        "tests/test_samples.py",
        "tests/test_score.py",
    ],
    "position": [
        "tests/test_fiefs.py",
        "tests/test_engine.py",
        "tests/test_apply.py",
        "tests/test_construction.py",
        "tests/test_parchments.py",
        "tests/test_samples.py",
    ],
    "catalog": [
        "tests/test_catalog.py",
        "tests/test_engine.py",
        "tests/test_parchments.py",
        "tests/test_events.py",
        "tests/test_samples.py",
    ],
}

# -- making mutants ----------------------------------------------------------------------

_SWAP_OPS: dict[type[ast.AST], type[ast.AST]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.And: ast.Or,
    ast.Or: ast.And,
}
_SYMBOL = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.And: "and",
    ast.Or: "or",
}
_DELETABLE = (
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Return,
    ast.Raise,
    ast.If,
    ast.For,
    ast.While,
    ast.Delete,
    ast.Continue,
    ast.Break,
)


@dataclass(frozen=True)
class Mutant:
    """One change: ``key`` names it in words that survive edits elsewhere in the module."""

    module: str
    index: int
    line: int
    where: str  # the function or class it is in
    source: str  # the source line, stripped
    change: str
    function: tuple[str, int] | None = None  # (qualname, first line) when only that function's code changes
    meaning: bool = False  # a change of meaning (_changes_of_meaning), not an operator, constant or deletion

    @property
    def key(self) -> str:
        return f"{self.where} | {self.source} | {self.change}"


Apply = Callable[[], None]


def _is_docstring(node: ast.AST) -> bool:
    """A string on its own: a docstring, or the note after a module constant."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


Site = tuple[ast.AST, str, str, Apply, tuple[str, int] | None, bool]
_SKIPPED_FIELDS = ("annotation", "returns", "decorator_list", "type_comment")  # never evaluated, or not rules


def _sites(tree: ast.Module) -> Iterator[Site]:
    """Every mutation of ``tree``, in a fixed order: (node, where, change, apply it in place,
    function, meaning). ``function`` is (qualname, first line) of the module function or
    method whose code alone the mutation changes, or None when it changes code run at import
    (module and class bodies, default values, a function or lambda nested in another, which
    may be made once at import). ``meaning`` is whether it is a change of meaning."""

    def walk(
        node: ast.AST, where: str, fn: tuple[str, int] | None, top: bool, own: tuple[str, int] | None
    ) -> Iterator[Site]:
        for field, value in ast.iter_fields(node):
            if field in _SKIPPED_FIELDS or (isinstance(node, ast.ClassDef) and field == "keywords"):
                continue  # frozen=True, gc=False: how instances are kept, not a rule
            inner_fn, inner_top = fn, False
            if field == "body" and isinstance(node, (ast.FunctionDef, ast.Lambda)):
                inner_fn = own
            elif field == "body" and isinstance(node, (ast.Module, ast.ClassDef)):
                inner_top = top
            children = value if isinstance(value, list) else [value]
            for i, child in enumerate(children):
                if not isinstance(child, ast.AST) or _is_docstring(child) or _is_type_checking(child):
                    continue
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    continue
                inner = where
                if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                    inner = f"{where}.{child.name}" if where != "<module>" else child.name
                for node_, where_, change, apply, meaning in mutations_of(
                    child, node, field, i if isinstance(value, list) else None, inner
                ):
                    yield node_, where_, change, apply, inner_fn, meaning
                if isinstance(child, ast.JoinedStr):
                    continue  # the text of a message: its expressions only
                child_own = None
                if isinstance(child, ast.FunctionDef) and inner_top and child.name not in at_import:
                    child_own = (inner, min([d.lineno for d in child.decorator_list] + [child.lineno]))
                yield from walk(child, inner, inner_fn, inner_top and isinstance(child, ast.ClassDef), child_own)

    def mutations_of(
        node: ast.AST, parent: ast.AST, field: str, index: int | None, where: str
    ) -> Iterator[tuple[ast.AST, str, str, Apply, bool]]:
        def replace(new: ast.AST) -> Apply:
            def apply() -> None:
                ast.copy_location(new, node)
                if index is None:
                    setattr(parent, field, new)
                else:
                    getattr(parent, field)[index] = new

            return apply

        bare = isinstance(node, ast.AnnAssign) and node.value is None  # a field declaration
        if isinstance(node, _DELETABLE) and index is not None and not bare:
            yield node, where, "delete the statement", replace(ast.Pass()), False
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                new_op = _SWAP_OPS[type(op)]

                def swap(j: int = j, new_op: type[ast.AST] = new_op) -> None:
                    node.ops[j] = cast(ast.cmpop, new_op())

                yield node, where, f"{_SYMBOL[type(op)]} -> {_SYMBOL[new_op]}", swap, False
        elif isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)) and type(node.op) in _SWAP_OPS:
            new_op = _SWAP_OPS[type(node.op)]

            def swap_op(new_op: type[ast.AST] = new_op) -> None:
                node.op = new_op()  # type: ignore[assignment]

            yield node, where, f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[new_op]}", swap_op, False
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            yield node, where, f"drop {'not' if isinstance(node.op, ast.Not) else '-'}", replace(node.operand), False
        elif isinstance(node, ast.Constant) and not isinstance(parent, ast.JoinedStr):
            value = node.value
            if isinstance(value, bool):
                yield node, where, f"{value} -> {not value}", replace(ast.Constant(not value)), False
            elif isinstance(value, int):
                yield node, where, f"{value} -> {value + 1}", replace(ast.Constant(value + 1)), False
            elif isinstance(value, str):
                yield (
                    node,
                    where,
                    f"{value!r} -> {'XX' + value + 'XX'!r}",
                    replace(ast.Constant("XX" + value + "XX")),
                    False,
                )
        for change, new in _changes_of_meaning(node):
            yield node, where, change, replace(new), True

    at_import = _called_at_import(tree)
    yield from walk(tree, "<module>", None, True, None)


_BOUNDARY: dict[type[ast.AST], type[ast.operator]] = {
    ast.Lt: ast.Sub,
    ast.LtE: ast.Add,
    ast.Gt: ast.Add,
    ast.GtE: ast.Sub,
}
"""The other way to move each comparison's boundary by one (the swap of ``<`` for ``<=``
moves it one way): ``a < b`` to ``a < b - 1``, ``a <= b`` to ``a <= b + 1``, and so on."""


def _changes_of_meaning(node: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """Changes of meaning no operator swap makes, each as (change, the node put in ``node``'s
    place): an equality for a test of None (``posts.get(sq) != p`` to ``posts.get(sq) is None``:
    "not p's" read as "nobody's"), a test of None for a truth test, ``any`` for ``all`` and back,
    a boundary moved by one the other way, a condition dropped from an ``and`` or an ``or``."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, left, right = node.ops[0], node.left, node.comparators[0]
        none = isinstance(right, ast.Constant) and right.value is None
        if isinstance(op, (ast.Eq, ast.NotEq)) and not none:
            test = ast.IsNot() if isinstance(op, ast.Eq) else ast.Is()
            yield f"{_SYMBOL[type(op)]} -> {_SYMBOL[type(test)]} None", ast.Compare(left, [test], [ast.Constant(None)])
        elif isinstance(op, ast.Is) and none:
            yield "is None -> falsy", ast.UnaryOp(ast.Not(), left)
        elif isinstance(op, ast.IsNot) and none:
            yield "is not None -> truthy", left
        elif type(op) in _BOUNDARY:
            sign = _BOUNDARY[type(op)]
            moved = ast.BinOp(right, sign(), ast.Constant(1))
            symbol = f"{_SYMBOL[type(op)]} {ast.unparse(right)}"
            yield f"{symbol} -> {symbol} {_SYMBOL[sign]} 1", ast.Compare(left, [op], [moved])
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all"):
        other = "all" if node.func.id == "any" else "any"
        yield f"{node.func.id} -> {other}", ast.Call(ast.Name(other, ast.Load()), node.args, node.keywords)
    elif isinstance(node, ast.BoolOp):
        for i, value in enumerate(node.values):
            rest = node.values[:i] + node.values[i + 1 :]
            kept = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
            text = ast.unparse(value)
            named = text if len(text) <= 40 else f"operand {i + 1}"
            yield f"drop {named} from {_SYMBOL[type(node.op)]}", kept


def module_path(name: str) -> Path:
    return ROOT / "bkref" / "game" / f"{name}.py"


_SOURCES: dict[str, str] = {}


def source_of(name: str) -> str:
    """The module's source as first read: a run is not confused by the file changing under it."""
    if name not in _SOURCES:
        _SOURCES[name] = module_path(name).read_text()
    return _SOURCES[name]


def _called_at_import(tree: ast.Module) -> set[str]:
    """The names called by code that runs at import (outside function bodies): factories
    whose results live on, so swapping their code afterwards would change nothing."""
    called: set[str] = set()

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                for default in [*child.args.defaults, *child.args.kw_defaults, *child.decorator_list]:
                    if default is not None:
                        walk(default)
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name):
                called.add(child.func.id)
            walk(child)

    walk(tree)
    return called


def mutants(name: str) -> list[Mutant]:
    source = source_of(name)
    lines = source.splitlines()
    found = []
    for i, (node, where, change, _, function, meaning) in enumerate(_sites(ast.parse(source))):
        line = getattr(node, "lineno", 0)
        found.append(Mutant(name, i, line, where, lines[line - 1].strip(), change, function, meaning))
    return found


def mutated_code(name: str, index: int) -> CodeType:
    path = module_path(name)
    tree = ast.parse(source_of(name))
    for i, (_, _, _, apply, _, _) in enumerate(_sites(tree)):
        if i == index:
            apply()
            break
    else:
        raise IndexError(f"{name} has no mutant {index}")
    return compile(ast.fix_missing_locations(tree), str(path), "exec")


# -- running the tests against one mutant --------------------------------------------------


class _MutantFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``name`` from ``code`` (the mutant) instead of its file."""

    def __init__(self, name: str, code: CodeType) -> None:
        self.name, self.code = name, code

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None:
            spec.loader = self
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


NOT_SWAPPED = 97  # a child's exit status: the function's code could not be swapped in place


def _run_session(session: pytest.Session) -> int:
    """Run the collected tests in order; 1 at the first failure (like -x), else 0."""
    items = session.items
    for i, item in enumerate(items):
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=items[i + 1] if i + 1 < len(items) else None)
        if session.testsfailed:
            return 1
    return 0


def _live_functions(module: ModuleType) -> dict[tuple[str, int], FunctionType]:
    """The functions and methods of ``module``, by (qualname, first line) of their code."""
    found: dict[tuple[str, int], FunctionType] = {}

    def add(f: object) -> None:
        if isinstance(f, FunctionType):
            found[(f.__code__.co_qualname, f.__code__.co_firstlineno)] = f

    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        add(value)
        if isinstance(value, type):
            for attribute in vars(value).values():
                if isinstance(attribute, property):
                    add(attribute.fget)
                    add(attribute.fset)
                elif isinstance(attribute, (staticmethod, classmethod)):
                    add(attribute.__func__)
                else:
                    add(attribute)
    return found


def _code_of(code: CodeType, key: tuple[str, int]) -> CodeType | None:
    """The code object of the function ``key`` inside a module's ``code``."""
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if (const.co_qualname, const.co_firstlineno) == key:
                return const
            inner = _code_of(const, key)
            if inner is not None:
                return inner
    return None


class _Zygote:
    """A pytest plugin: once the tests are collected, run them against each mutant in a
    forked child that swaps the mutated function's code in place (no import, no collection)."""

    def __init__(self, name: str, functions: dict[int, tuple[str, int]], parallel: int, report: Path) -> None:
        self.name, self.functions, self.parallel, self.report = name, functions, parallel, report

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        factory = getattr(session.config, "_tmp_path_factory", None)
        if factory is not None:
            factory.getbasetemp()  # made once here, shared by the children
        live = _live_functions(sys.modules[f"bkref.game.{self.name}"])
        started = time.monotonic()
        baseline = _schedule([None], 1, 3600.0, lambda index: self._fork(session, live, index))
        took = time.monotonic() - started
        outcome: dict[int | None, str] = {}
        if baseline[None] == "survived":  # the tests pass without a mutant
            limit = max(10.0, 2 * took)
            outcome = _schedule(list(self.functions), self.parallel, limit, lambda i: self._fork(session, live, i))
        self.report.write_text(json.dumps({"baseline": baseline[None], "took": took, "outcome": outcome}))
        return True

    def _fork(self, session: pytest.Session, live: dict[tuple[str, int], FunctionType], index: int | None) -> int:
        pid = os.fork()
        if pid:
            return pid
        try:  # the child: never returns
            os.setpgid(0, 0)
            if index is not None:
                key = self.functions[index]
                code = _code_of(mutated_code(self.name, index), key)
                if code is None or key not in live:
                    os._exit(NOT_SWAPPED)
                try:
                    live[key].__code__ = code
                except ValueError:  # another number of closure cells
                    os._exit(NOT_SWAPPED)
            os._exit(_run_session(session))
        except BaseException:
            os._exit(99)


def _pytest_args(name: str) -> list[str]:
    tests = [t for t in MODULES[name] if (ROOT / t).exists()]  # an older checkout may lack some
    return [*tests, str(module_path(name)), "-q", "-p", "no:cacheprovider"]


def _quiet_child() -> None:
    os.setpgid(0, 0)  # its own process group, so a timeout kills what it started too
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _fast(name: str, functions: dict[int, tuple[str, int]], parallel: int) -> dict[int, str]:
    """The outcome of each mutant of one function's code, through a ``_Zygote``."""
    report = Path(tempfile.mkstemp(prefix="bkref-mutate-", suffix=".json")[1])
    pid = os.fork()
    if not pid:
        try:
            _quiet_child()
            pytest.main(_pytest_args(name), plugins=[_Zygote(name, functions, parallel, report)])
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    try:
        data = json.loads(report.read_text() or "{}")
    finally:
        report.unlink()
    if data.get("baseline") != "survived":
        raise SystemExit(f"the tests of {name} fail without any mutant")
    return {int(index): outcome for index, outcome in data["outcome"].items()}


def _start(name: str, index: int | None) -> int:
    """Fork a child that imports ``name`` (mutant ``index``, if given) and runs its tests; its pid."""
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: never returns
        _quiet_child()
        if index is not None:
            sys.meta_path.insert(0, _MutantFinder(f"bkref.game.{name}", mutated_code(name, index)))
        os._exit(int(pytest.main([*_pytest_args(name), "-x"])))
    except BaseException:
        os._exit(99)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _schedule(jobs: list[J], parallel: int, limit: float, start: Callable[[J], int]) -> dict[J, str]:
    """Run every job, ``parallel`` at once; each outcome is ``killed``, ``timeout``, ``survived``,
    or ``not swapped``."""
    outcome: dict[J, str] = {}
    running: dict[int, tuple[J, float]] = {}
    queue = list(jobs)
    try:
        while queue or running:
            while queue and len(running) < parallel:
                job = queue.pop(0)
                running[start(job)] = (job, time.monotonic())
            time.sleep(0.01)
            for pid, (job, started) in list(running.items()):
                finished, status = os.waitpid(pid, os.WNOHANG)
                if finished:
                    code = os.waitstatus_to_exitcode(status)
                    outcome[job] = {0: "survived", NOT_SWAPPED: "not swapped"}.get(code, "killed")
                elif time.monotonic() - started > limit:
                    _kill(pid)
                    outcome[job] = "timeout"
                else:
                    continue
                del running[pid]
    finally:
        for pid in running:
            _kill(pid)
    return outcome


def run(name: str, found: list[Mutant], parallel: int) -> dict[int, str]:
    """The outcome of every mutant of module ``name``."""
    outcome = _fast(name, {m.index: m.function for m in found if m.function is not None}, parallel)
    slow = [m.index for m in found if m.function is None or outcome[m.index] == "not swapped"]
    if not slow:
        return outcome
    started = time.monotonic()
    if _schedule([None], 1, 3600.0, lambda _: _start(name, None))[None] != "survived":
        raise SystemExit(f"the tests of {name} fail without any mutant")
    limit = max(20.0, 2 * (time.monotonic() - started))
    outcome.update(_schedule(slow, parallel, limit, lambda index: _start(name, index)))
    return outcome


# -- the report ----------------------------------------------------------------------------


def equivalents() -> dict[tuple[str, str], str]:
    """The survivors judged equivalent: (module, key) -> reason."""
    data = tomllib.loads(EQUIVALENTS.read_text())
    return {
        (e["module"], f"{e['where']} | {e['source']} | {e['change']}"): e["reason"] for e in data.get("equivalent", [])
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mutate", description=__doc__.splitlines()[0])
    parser.add_argument(
        "modules", nargs="*", metavar="MODULE", help=f"of bkref/game (default: all of {', '.join(MODULES)})"
    )
    parser.add_argument("-j", "--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--list", action="store_true", help="list the mutants and their keys, run nothing")
    parser.add_argument(
        "--meaning",
        action="store_true",
        help="only the changes of meaning (a test of None, any/all, a boundary by one, a condition dropped)",
    )
    parser.add_argument(
        "--line",
        type=int,
        action="append",
        metavar="N",
        help="only the mutants of line N of each module (repeatable): survivors tried again after a fix",
    )
    parser.add_argument("--save", type=Path, metavar="FILE", help="also write each mutant's outcome to FILE (JSON)")
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="report the outcomes saved in FILE again (after listing equivalents)",
    )
    args = parser.parse_args(argv)
    saved_names = list(json.loads(args.report.read_text())) if args.report else list(MODULES)
    names: list[str] = args.modules or saved_names  # --report: the modules its file holds
    unknown = sorted(set(names) - set(MODULES))
    if unknown:
        parser.error(f"no mutation tests for {', '.join(unknown)}; the modules are {', '.join(MODULES)}")
    every = {name: mutants(name) for name in names}
    chosen = {
        name: [m for m in found if (m.meaning or not args.meaning) and (not args.line or m.line in args.line)]
        for name, found in every.items()
    }
    if args.list:
        for name, found in chosen.items():
            for m in found:
                print(f"{name}.py:{m.line}: {m.key}")
        return 0
    for mod in ("msgspec", "rich", "typer", "syrupy", "hypothesis", "jsonschema"):
        __import__(mod)  # once here, not in every child
    started = time.monotonic()
    known = equivalents()
    failed = False
    rows = []
    saved: dict[str, dict[int, str]] = {}
    for name in names:
        if args.report:
            outcome = {int(i): result for i, result in json.loads(args.report.read_text())[name].items()}
            if any(m.index not in outcome for m in chosen[name]):
                parser.error(f"{args.report} has no outcome for some mutants of {name} (was it saved with --meaning?)")
        else:
            print(f"{name}.py: {len(chosen[name])} mutants ...", file=sys.stderr, flush=True)
            outcome = run(name, chosen[name], args.jobs)
            saved[name] = outcome
            if args.save:
                args.save.write_text(json.dumps(saved, indent=0))
        total = len(chosen[name])
        # Two mutants can share a key (the same change of two equal lines of one function): a
        # listing leaves out of the score those of its key that a test did not kill (an
        # equivalent one that ran past the time limit did so on a busy machine), and a killed one
        # counts as killed.
        listed = [m for m in chosen[name] if (name, m.key) in known]
        equivalent = [m for m in listed if outcome[m.index] != "killed"]
        survived = [m for m in chosen[name] if outcome[m.index] == "survived" and (name, m.key) not in known]
        unkilled = {m.key for m in equivalent}
        killed_equivalent = [m for m in listed if m.key not in unkilled]  # listed, yet every mutant of its key killed
        timeouts = sum(outcome[m.index] == "timeout" for m in chosen[name] if m not in equivalent)
        counted = total - len(equivalent)
        killed = counted - len(survived)
        score = 100 * killed / counted if counted else 100.0
        rows.append(
            f"{name + '.py':12} {total:5} mutants  {len(equivalent):4} equivalent  {killed:5} killed "
            f"({timeouts} by timeout)  {len(survived):4} survived  {score:5.1f} %"
        )
        for m in survived:
            print(f"survived  {name}.py:{m.line}: {m.key}", flush=True)
        for m in killed_equivalent:
            print(f"killed, but listed as equivalent  {name}.py:{m.line}: {m.key}", flush=True)
        print(rows[-1], file=sys.stderr, flush=True)
        failed |= score < 95
    listed = {key for key in known if key[0] in names}
    for module, key in sorted(listed - {(m.module, m.key) for name in names for m in every[name]}):
        print(f"listed as equivalent, but no such mutant  {module}: {key}")
    print()
    print("\n".join(rows))
    print(f"{time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
