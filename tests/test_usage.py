"""Usage errors: one line, ``bkref: error: …``, that names the option and what it accepts; exit 2.

Click's own are four lines (usage, hint, a blank line, ``Error: …``); bkref words every
one of them as its own errors are worded, for every command and every option.
"""

from __future__ import annotations

import subprocess
from enum import Enum

import pytest
import typer.main
from typer._click import Command, Parameter
from typer._click.types import IntRange
from typer._types import TyperChoice

from bkref.cli import app
from tests.conftest import BKREF_COMMAND

GROUP = typer.main.get_command(app)
COMMANDS: dict[str, Command] = dict(GROUP.commands)  # type: ignore[attr-defined]


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


def names(param: Parameter) -> str:
    return "/".join(sorted([*param.opts, *param.secondary_opts], key=len))


def options(command: Command, *, flags: bool) -> list[Parameter]:
    return [p for p in command.params if p.param_type_name == "option" and getattr(p, "is_flag", False) == flags]


def needs_argument(command: Command) -> list[str]:
    """A log argument when the command requires one, so that the option's error is the one found."""
    return ["game.jsonl"] if any(p.param_type_name == "argument" and p.required for p in command.params) else []


VALUED = [(name, p) for name, command in COMMANDS.items() for p in options(command, flags=False)]
FLAGS = [(name, p) for name, command in COMMANDS.items() for p in options(command, flags=True)]


@pytest.mark.parametrize(("name", "option"), VALUED, ids=[f"{n} {p.opts[0]}" for n, p in VALUED])
def test_an_option_given_no_value_names_it_and_what_it_takes(bkref, name: str, option: Parameter) -> None:
    line = one_line(bkref(name, option.opts[0]))
    assert line.startswith(f"{names(option)} needs a value: ")
    kind = option.type
    if isinstance(kind, TyperChoice):
        assert all(str(c.value if isinstance(c, Enum) else c) in line for c in kind.choices)
    elif isinstance(kind, IntRange):
        assert line.endswith(f"a whole number from {kind.min} up")
    else:
        assert line.endswith(f": {option.metavar}")


TYPED = [(name, p) for name, p in VALUED if isinstance(p.type, TyperChoice | IntRange)]


@pytest.mark.parametrize(("name", "option"), TYPED, ids=[f"{n} {p.opts[0]}" for n, p in TYPED])
def test_an_option_given_a_value_it_refuses_names_it_and_what_it_takes(bkref, name: str, option: Parameter) -> None:
    line = one_line(bkref(name, option.opts[0], "nonsense", *needs_argument(COMMANDS[name])))
    assert line.startswith(f"{names(option)} must be ")
    assert line.endswith(", not 'nonsense'")


@pytest.mark.parametrize(("name", "option"), FLAGS, ids=[f"{n} {p.opts[0]}" for n, p in FLAGS])
def test_a_flag_given_a_value_says_it_takes_none(bkref, name: str, option: Parameter) -> None:
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
