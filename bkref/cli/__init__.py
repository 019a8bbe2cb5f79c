"""The ``bkref`` command line: a thin layer over the referee, the scorer and the renderer.

Each command is a module of this package, registered on ``app`` when imported; they
are imported in the order ``bkref --help`` lists them. Every usage error is worded
here, in one line (``Commands``).
"""

from __future__ import annotations

import copy
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from importlib import import_module
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from bkref.cli.app import app, fail

COMMANDS = ("validate", "score", "standings", "replay", "moves", "simulate", "tournament", "explain", "schema", "bot")
for _command in COMMANDS:
    import_module(f"bkref.cli.{_command}")

__all__ = ["COMMANDS", "Commands", "app", "main", "running", "usage_error"]


class Commands(TyperGroup):
    """The ``bkref`` group of commands, whose usage errors are bkref's one line
    (``bkref: error: …``, exit status 2), as bkref's own errors are, in place of Click's
    four (usage, hint, blank line, error): see ``usage_error``.

    Typer builds the group from ``app`` (``app.info.cls``, set below) and each command
    as a ``Parsed`` command; Click raises the errors while it parses the group's or a
    command's options and arguments, or finds the command: the places worded here.

    Only Typer's public API is used: the classes of ``typer.core`` (subclassed as Typer's
    manual does), ``typer.Context`` and ``typer.BadParameter``. The Click that Typer parses
    with is its own (``typer._click`` since Typer 0.26), so its other usage errors are
    known by what Click documents of them (``is_usage_error``), not by their classes, and
    the contexts these methods are given are typed ``Any`` (Typer's ``Context`` is a
    subclass of that Click's).
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help:  # bkref alone: Click's help, as ever
            return super().parse_args(ctx, args)
        with _one_line(ctx):
            return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except Exception as error:
            if not is_usage_error(error):
                raise
            from difflib import get_close_matches  # here: it would slow every start

            close = get_close_matches(args[0], list(self.commands), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise fail(f"no command {args[0]!r}{hint}; the commands: {', '.join(self.commands)}") from None


class Parsed(TyperCommand):
    """A command of ``Commands``: its usage errors in one line."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        with _one_line(ctx):
            return super().parse_args(ctx, args)


app.info.cls = Commands
for _info in app.registered_commands:
    _info.cls = Parsed


@contextmanager
def _one_line(ctx: typer.Context) -> Iterator[None]:
    """Usage errors while parsing in ``ctx`` as bkref's one line."""
    try:
        yield
    except Exception as error:
        if not is_usage_error(error):
            raise
        raise fail(usage_error(error, ctx)) from None


def is_usage_error(error: BaseException) -> bool:
    """Whether ``error`` is Click's usage error: a Click exception (``format_message``)
    with the exit status 2 that Click's ``UsageError`` documents (its others exit 1)."""
    return getattr(error, "exit_code", None) == 2 and callable(getattr(error, "format_message", None))


def usage_error(error: Any, ctx: typer.Context) -> str:
    """A usage error while parsing in ``ctx`` in one line that names the option (or the
    argument) and what it takes; the parser raises some without their context.

    Click's usage errors are told apart by the attributes its API documents: an unknown
    option carries the ``possibilities`` it suggests, a misused one its ``option_name``; a
    refused value is Typer's ``BadParameter``, and so is a missing argument, which carries
    a ``param_type``.
    """
    ctx = error.ctx or ctx
    command = ctx.command
    option_name = getattr(error, "option_name", None)
    if option_name is not None and hasattr(error, "possibilities"):  # NoSuchOption
        options = ", ".join(_names(p) for p in command.get_params(ctx) if p.param_type_name == "option")
        return f"{ctx.command_path} has no option {option_name}; its options: {options}"
    if option_name is not None:  # BadOptionUsage
        option = next((p for p in command.get_params(ctx) if option_name in _opts(p)), None)
        if option is not None:
            if getattr(option, "is_flag", False):
                return f"{_names(option)} takes no value"
            return f"{_names(option)} needs a value: {_accepted(option, ctx)}"
    param = error.param if isinstance(error, typer.BadParameter) else None
    if param is not None and hasattr(error, "param_type") and param.param_type_name == "argument":  # MissingParameter
        what = _sentence(getattr(param, "help", ""))  # a missing argument: bkref's arguments all have their help
        return f"{ctx.command_path} needs {param.human_readable_name}: {what}"
    if param is not None:  # a value its type refused: "VALUE is not …"
        value, is_not, _ = error.message.partition(" is not ")
        given = f", not {value}" if is_not else ""
        return f"{_names(param)} must be {_accepted(param, ctx)}{given}"
    usage = " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])
    return f"{ctx.command_path}: {_sentence(error.format_message())}; usage: {usage}"


def _opts(param: Any) -> list[str]:
    return [*param.opts, *param.secondary_opts]


def _names(option: Any) -> str:
    """An option's names as its help gives them, short first: ``-j/--jobs``."""
    return "/".join(sorted(_opts(option), key=len))


def _accepted(param: Any, ctx: typer.Context) -> str:
    """What ``param`` accepts, in words, for the kinds of option bkref has: a choice (``text,
    json or sarif``), a whole number from a least (``a whole number from 1 up``), else its
    metavar (``N``). The kinds are known by the attributes Click documents: a choice's
    ``choices``, an integer range's ``min``."""
    kind = param.type
    choices = getattr(kind, "choices", None)
    if choices is not None:
        return _either([str(c.value if isinstance(c, Enum) else c) for c in choices])
    least = getattr(kind, "min", None)
    if isinstance(least, int):
        return f"a whole number from {least} up"
    return str(param.make_metavar(ctx))


def _either(choices: Sequence[str]) -> str:
    """``a, b or c`` (bkref's choices are two or more).

    >>> _either(["event", "turn", "round"])
    'event, turn or round'
    """
    return ", ".join(choices[:-1]) + " or " + choices[-1]


def _sentence(text: str) -> str:
    """``text`` as the middle of bkref's line: no capital to start, no full stop to end.

    >>> _sentence("Got unexpected extra argument (b).")
    'got unexpected extra argument (b)'
    """
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def main() -> None:
    """The ``bkref`` command, with the habits of command-line tools.

    A closed pipe (``bkref validate DIR | head -1``) ends bkref as SIGPIPE ends any tool
    (status 141 in the shell), never with a status that means something else (Click
    would exit 1, "illegal"). Ctrl-C ends a command with status 130 and no traceback
    (Typer's doing). Running out of memory ends it with one line and status 2, never a
    traceback. ``prog_name`` keeps completion the same for ``python -m bkref``.
    """
    if hasattr(signal, "SIGPIPE"):  # not on Windows
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        running(sys.argv[1:])(prog_name="bkref")
    except MemoryError:  # what the command held is freed by now: there is room for one line
        sys.stderr.write("bkref: error: out of memory: the input is too large for the memory this process may use\n")
        sys.exit(2)


def running(args: list[str]) -> typer.Typer:
    """The application that runs ``bkref ARGS``: when the first argument names a command, a
    copy of ``app`` with that command alone, else ``app``.

    Typer reads every command's signature and builds its options before it parses the
    arguments: building only the command that runs takes a tenth off ``bkref validate``'s
    start. What the command does, prints and exits with is the same, ``--help`` included.

    >>> [info.callback.__name__ for info in running(["score", "game.jsonl"]).registered_commands]
    ['score']
    >>> running(["--help"]) is app
    True
    """
    for info in app.registered_commands:
        if args[:1] == [info.name]:
            alone = copy.copy(app)
            alone.registered_commands = [info]
            return alone
    return app
