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

Not run in CI: it takes minutes (each mutant is a pytest run).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.abc
import importlib.machinery
import os
import signal
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, ModuleType
from typing import cast

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
    "tests/test_parchments.py",
    "tests/test_illegal.py",
    "tests/test_samples.py",
    "tests/test_score.py",
]
MODULES: dict[str, list[str]] = {
    "engine": ENGINE_TESTS,
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

    @property
    def key(self) -> str:
        return f"{self.where} | {self.source} | {self.change}"


Apply = Callable[[], None]


def _is_docstring(node: ast.AST) -> bool:
    """A string on its own: a docstring, or the note after a module constant."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str, Apply]]:
    """Every mutation of ``tree``, in a fixed order: (node, where, change, apply it in place)."""

    def walk(node: ast.AST, where: str) -> Iterator[tuple[ast.AST, str, str, Apply]]:
        for field, value in ast.iter_fields(node):
            if field in ("annotation", "returns", "decorator_list", "type_comment"):
                continue  # annotations are never evaluated (from __future__ import annotations)
            if isinstance(node, ast.ClassDef) and field == "keywords":
                continue  # frozen=True, gc=False: how instances are kept, not a rule
            children = value if isinstance(value, list) else [value]
            for i, child in enumerate(children):
                if not isinstance(child, ast.AST):
                    continue
                if _is_docstring(child) or _is_type_checking(child):
                    continue
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    continue
                inner = where
                if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                    inner = f"{where}.{child.name}" if where != "<module>" else child.name
                yield from mutations_of(child, node, field, i if isinstance(value, list) else None, inner)
                if isinstance(child, ast.JoinedStr):
                    continue  # the text of a message: its expressions only
                yield from walk(child, inner)

    def mutations_of(
        node: ast.AST, parent: ast.AST, field: str, index: int | None, where: str
    ) -> Iterator[tuple[ast.AST, str, str, Apply]]:
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
            yield node, where, "delete the statement", replace(ast.Pass())
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                new_op = _SWAP_OPS[type(op)]

                def swap(j: int = j, new_op: type[ast.AST] = new_op) -> None:
                    node.ops[j] = cast(ast.cmpop, new_op())

                yield node, where, f"{_SYMBOL[type(op)]} -> {_SYMBOL[new_op]}", swap
        elif isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)) and type(node.op) in _SWAP_OPS:
            new_op = _SWAP_OPS[type(node.op)]

            def swap_op(new_op: type[ast.AST] = new_op) -> None:
                node.op = new_op()  # type: ignore[assignment]

            yield node, where, f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[new_op]}", swap_op
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            yield node, where, f"drop {'not' if isinstance(node.op, ast.Not) else '-'}", replace(node.operand)
        elif isinstance(node, ast.Constant) and not isinstance(parent, ast.JoinedStr):
            value = node.value
            if isinstance(value, bool):
                yield node, where, f"{value} -> {not value}", replace(ast.Constant(not value))
            elif isinstance(value, int):
                yield node, where, f"{value} -> {value + 1}", replace(ast.Constant(value + 1))
            elif isinstance(value, str):
                yield node, where, f"{value!r} -> {'XX' + value + 'XX'!r}", replace(ast.Constant("XX" + value + "XX"))

    yield from walk(tree, "<module>")


def module_path(name: str) -> Path:
    return ROOT / "bkref" / "game" / f"{name}.py"


def mutants(name: str) -> list[Mutant]:
    source = module_path(name).read_text()
    lines = source.splitlines()
    found = []
    for i, (node, where, change, _) in enumerate(_sites(ast.parse(source))):
        line = getattr(node, "lineno", 0)
        found.append(Mutant(name, i, line, where, lines[line - 1].strip(), change))
    return found


def mutated_code(name: str, index: int) -> CodeType:
    path = module_path(name)
    tree = ast.parse(path.read_text())
    for i, (_, _, _, apply) in enumerate(_sites(tree)):
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


def _start(name: str, index: int | None) -> int:
    """Fork a child that runs ``name``'s tests (against mutant ``index``, if given); its pid."""
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: never returns
        os.setpgid(0, 0)  # its own process group, so a timeout kills what it started too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        if index is not None:
            sys.meta_path.insert(0, _MutantFinder(f"bkref.game.{name}", mutated_code(name, index)))
        import pytest

        tests = [t for t in MODULES[name] if (ROOT / t).exists()]  # an older checkout may lack some
        args = [*tests, str(module_path(name)), "-x", "-q", "-p", "no:cacheprovider"]
        code = pytest.main(args)
        os._exit(int(code))
    except BaseException:
        os._exit(99)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def run(
    jobs: list[tuple[str, int | None]], parallel: int, limit: dict[str, float]
) -> dict[tuple[str, int | None], str]:
    """Run every (module, mutant) job; each outcome is ``killed``, ``timeout`` or ``survived``."""
    outcome: dict[tuple[str, int | None], str] = {}
    running: dict[int, tuple[tuple[str, int | None], float]] = {}
    queue = list(jobs)
    done = 0
    try:
        while queue or running:
            while queue and len(running) < parallel:
                job = queue.pop(0)
                running[_start(*job)] = (job, time.monotonic())
            time.sleep(0.02)
            for pid, (job, started) in list(running.items()):
                finished, status = os.waitpid(pid, os.WNOHANG)
                if finished:
                    outcome[job] = "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
                elif time.monotonic() - started > limit[job[0]]:
                    _kill(pid)
                    outcome[job] = "timeout"
                else:
                    continue
                del running[pid]
                done += 1
                if sys.stderr.isatty():
                    print(f"\r{done}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    finally:
        for pid in running:
            _kill(pid)
    if sys.stderr.isatty():
        print(file=sys.stderr)
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
    args = parser.parse_args(argv)
    names: list[str] = args.modules or list(MODULES)
    unknown = sorted(set(names) - set(MODULES))
    if unknown:
        parser.error(f"no mutation tests for {', '.join(unknown)}; the modules are {', '.join(MODULES)}")
    every = {name: mutants(name) for name in names}
    if args.list:
        for name, found in every.items():
            for m in found:
                print(f"{name}.py:{m.line}: {m.key}")
        return 0
    for mod in ("msgspec", "rich", "typer", "pytest", "syrupy", "hypothesis", "jsonschema"):
        __import__(mod)  # once here, not in every child
    started = time.monotonic()
    baseline = run([(name, None) for name in names], args.jobs, dict.fromkeys(names, 600.0))
    broken = [name for name in names if baseline[(name, None)] != "survived"]
    if broken:
        print(f"the tests fail without any mutant: {', '.join(broken)}", file=sys.stderr)
        return 2
    took = (time.monotonic() - started) / max(1, -(-len(names) // args.jobs))
    limit = dict.fromkeys(names, max(20.0, 4 * took))
    known = equivalents()
    jobs: list[tuple[str, int | None]] = [(name, m.index) for name in names for m in every[name]]
    outcome = run(jobs, args.jobs, limit)
    failed = False
    rows = []
    for name in names:
        total = len(every[name])
        equivalent = [m for m in every[name] if (name, m.key) in known]
        survived = [m for m in every[name] if outcome[(name, m.index)] == "survived" and (name, m.key) not in known]
        killed_equivalent = [m for m in equivalent if outcome[(name, m.index)] != "survived"]
        timeouts = sum(outcome[(name, m.index)] == "timeout" for m in every[name])
        counted = total - len(equivalent)
        killed = counted - len(survived)
        score = 100 * killed / counted if counted else 100.0
        rows.append(
            f"{name + '.py':12} {total:5} mutants  {len(equivalent):4} equivalent  {killed:5} killed "
            f"({timeouts} by timeout)  {len(survived):4} survived  {score:5.1f} %"
        )
        for m in survived:
            print(f"survived  {name}.py:{m.line}: {m.key}")
        for m in killed_equivalent:
            print(f"killed, but listed as equivalent  {name}.py:{m.line}: {m.key}")
        failed |= score < 95
    listed = {key for key in known if key[0] in names}
    for module, key in sorted(listed - {(m.module, m.key) for name in names for m in every[name]}):
        print(f"listed as equivalent, but no such mutant  {module}: {key}")
    print()
    print("\n".join(rows))
    print(f"{time.monotonic() - started:.0f} s, time limit {max(limit.values()):.0f} s a mutant")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
