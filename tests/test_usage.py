"""Usage errors: one line, ``bkref: error: …``, that names the option and what it accepts; exit 2.

Click's own are four lines (usage, hint, a blank line, ``Error: …``); bkref words every
one of them as its own errors are worded, for every command and every option.
"""

from __future__ import annotations

import ast
import subprocess
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import typer.main

from bkref.cli import app
from tests.conftest import BKREF_COMMAND

GROUP = typer.main.get_command(app)
COMMANDS: dict[str, Any] = dict(GROUP.commands)  # type: ignore[attr-defined]


def choices(option: Any) -> list[str] | None:
    """A choice option's choices (Click's ``Choice.choices``), else None."""
    kind = getattr(option.type, "choices", None)
    return None if kind is None else [str(c.value if isinstance(c, Enum) else c) for c in kind]


def least(option: Any) -> int | None:
    """An integer range's least value (Click's ``IntRange.min``), else None."""
    value = getattr(option.type, "min", None)
    return value if isinstance(value, int) else None


def one_line(result) -> str:
    """The one error line of a run that failed with bad usage."""
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("bkref: error: ")
    return result.stderr[len("bkref: error: ") : -1]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["validate", "-j", "0", "game.jsonl"], "-j/--jobs must be a whole number from 1 up, not 0"),
        (["standings", "-j", "abc", "game.jsonl"], "-j/--jobs must be a whole number from 1 up, not 'abc'"),
        (
            ["validate"],
            "bkref validate needs LOG|DIR|-...: game logs (.jsonl), folders (every *.jsonl below them), "
            "or - for standard input",
        ),
        (
            ["score"],
            "bkref score needs LOG: a game log (.jsonl), finished or stopped after any round; - for standard input",
        ),
        (["validate", "--format", "xml", "game.jsonl"], "--format must be text, json, github or sarif, not 'xml'"),
        (["replay", "--by", "move", "game.jsonl"], "--by must be event, turn or round, not 'move'"),
        (
            ["valdate", "game.jsonl"],
            "no command 'valdate' (did you mean validate?); "
            "the commands: validate, score, standings, replay, moves, simulate, tournament, explain, schema, bot",
        ),
        (["replay", "game.jsonl", "--to"], "--to needs a value: N"),
        (["tournament"], "bkref tournament needs --players N: 2, 3 or 4 players"),
        (["validate", "--partial=yes", "game.jsonl"], "--partial takes no value"),
        (
            ["standings", "--by", "player", "game.jsonl"],
            "bkref standings has no option --by; its options: --format, -j/--jobs, --include-illegal, --dask, "
            "--dask-timeout, -h/--help",
        ),
        (
            ["score", "a.jsonl", "b.jsonl"],
            "bkref score: got unexpected extra argument(s) (b.jsonl); usage: bkref score [OPTIONS] {LOG}",
        ),
        (
            ["--verbose"],
            "bkref has no option --verbose; its options: -V/--version, --install-completion, "
            "--show-completion, -h/--help",
        ),
    ],
)
def test_each_usage_error_is_one_line(bkref, args: list[str], line: str) -> None:
    assert one_line(bkref(*args)) == line


def test_the_command_gives_the_same_line_as_the_app() -> None:
    """``bkref`` itself (``main``, in a new process), as the app the tests run in-process."""
    run = subprocess.run([*BKREF_COMMAND, "validate", "-j", "0", "game.jsonl"], capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (
        2,
        "",
        "bkref: error: -j/--jobs must be a whole number from 1 up, not 0\n",
    )


def test_bkref_alone_still_prints_its_help(bkref) -> None:
    result = bkref()
    assert result.exit_code == 2
    assert "Commands:" in result.stderr + result.stdout


def names(param: Any) -> str:
    return "/".join(sorted([*param.opts, *param.secondary_opts], key=len))


def options(command: Any, *, flags: bool) -> list[Any]:
    return [p for p in command.params if p.param_type_name == "option" and getattr(p, "is_flag", False) == flags]


def needs_argument(command: Any) -> list[str]:
    """A log argument when the command requires one, so that the option's error is the one found."""
    return ["game.jsonl"] if any(p.param_type_name == "argument" and p.required for p in command.params) else []


VALUED = [(name, p) for name, command in COMMANDS.items() for p in options(command, flags=False)]
FLAGS = [(name, p) for name, command in COMMANDS.items() for p in options(command, flags=True)]


@pytest.mark.parametrize(("name", "option"), VALUED, ids=[f"{n} {p.opts[0]}" for n, p in VALUED])
def test_an_option_given_no_value_names_it_and_what_it_takes(bkref, name: str, option: Any) -> None:
    line = one_line(bkref(name, option.opts[0]))
    assert line.startswith(f"{names(option)} needs a value: ")
    listed = choices(option)
    if listed is not None:
        assert line.endswith(", ".join(listed[:-1]) + " or " + listed[-1])
    elif least(option) is not None:
        assert line.endswith(f"a whole number from {least(option)} up")
    else:
        assert line.endswith(f": {option.metavar}")


TYPED = [(name, p) for name, p in VALUED if choices(p) is not None or least(p) is not None]


def test_the_kinds_of_option_are_found() -> None:
    """The choices and ranges are known by Click's documented attributes: were they
    renamed, every option would read as a plain value, and the tests above see nothing."""
    assert {"validate --format", "validate --jobs", "replay --by"} <= {f"{n} {p.opts[0]}" for n, p in TYPED}


@pytest.mark.parametrize(("name", "option"), TYPED, ids=[f"{n} {p.opts[0]}" for n, p in TYPED])
def test_an_option_given_a_value_it_refuses_names_it_and_what_it_takes(bkref, name: str, option: Any) -> None:
    line = one_line(bkref(name, option.opts[0], "nonsense", *needs_argument(COMMANDS[name])))
    assert line.startswith(f"{names(option)} must be ")
    assert line.endswith(", not 'nonsense'")


@pytest.mark.parametrize(("name", "option"), FLAGS, ids=[f"{n} {p.opts[0]}" for n, p in FLAGS])
def test_a_flag_given_a_value_says_it_takes_none(bkref, name: str, option: Any) -> None:
    flag = next(o for o in option.opts if o.startswith("--"))
    assert one_line(bkref(name, f"{flag}=1", *needs_argument(COMMANDS[name]))) == f"{names(option)} takes no value"


@pytest.mark.parametrize("name", COMMANDS)
def test_an_unknown_option_lists_the_commands_options(bkref, name: str) -> None:
    line = one_line(bkref(name, "--nosuch", *needs_argument(COMMANDS[name])))
    listed = [names(p) for p in COMMANDS[name].params if p.param_type_name == "option"]
    assert line == f"bkref {name} has no option --nosuch; its options: {', '.join([*listed, '-h/--help'])}"


@pytest.mark.parametrize("name", [name for name, command in COMMANDS.items() if needs_argument(command)])
def test_a_missing_argument_is_named(bkref, name: str) -> None:
    (argument,) = [p for p in COMMANDS[name].params if p.param_type_name == "argument"]
    assert one_line(bkref(name)).startswith(f"bkref {name} needs {argument.metavar}: ")


def test_bkref_imports_no_private_module_of_another_package() -> None:
    """Typer's Click (``typer._click``) and its other private modules change without notice
    (Typer 0.29 removed ``typer._types``): bkref uses its public API only."""
    private = []
    for path in sorted(Path("bkref").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            private += [
                f"{path}: {m}"
                for m in modules
                if not m.startswith("bkref.") and any(p[:1] == "_" != p[1:2] for p in m.split("."))
            ]
    assert private == []


def test_every_command_is_named_where_it_is_registered() -> None:
    """``running`` finds the command to build by the name it was registered with."""
    assert [info.name for info in app.registered_commands] == list(COMMANDS)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["schema", "-o", ""], "-o/--output must be FILE, not ''"),
        (["replay", "game.jsonl", "--svg", ""], "--svg must be FILE|-, not ''"),
        (["replay", "game.jsonl", "--html", " "], "--html must be FILE, not ' '"),
        (["simulate", "--players", "2", "--seed", "1", "-o", ""], "-o/--output must be FILE|DIR, not ''"),
        (["simulate", "--players", "2", "--seed", "1", "--deck", ""], "--deck must be LOG, not ''"),
        (["tournament", "--players", "2", "--bot", "a=random", "-o", ""], "-o/--output must be DIR, not ''"),
        (
            ["tournament", "--players", "2", "--bot", "a=random", "-o", "t", "--deck", ""],
            "--deck must be LOG|DIR, not ''",
        ),
        (
            ["tournament", "--players", "2", "--bot", "a=random", "-o", "t", "--bot-logs", ""],
            "--bot-logs must be DIR, not ''",
        ),
    ],
)
def test_an_empty_file_or_folder_name_is_refused(
    bkref, tmp_path: Path, monkeypatch, args: list[str], line: str
) -> None:
    """``''`` as a path is the current folder: a tournament wrote its games there, a picture
    was a traceback. Nothing is written."""
    monkeypatch.chdir(tmp_path)
    assert one_line(bkref(*args)) == line
    assert list(tmp_path.iterdir()) == []
