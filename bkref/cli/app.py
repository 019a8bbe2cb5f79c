"""The Typer application and what its commands share: output formats, one-line errors, writing files."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bkref.io.writing import write_atomically

if TYPE_CHECKING:
    from bkref.bots.seats import BotOptions
    from bkref.io.batch import Runner

app = typer.Typer(
    name="bkref",
    help="Referee and replay tool for Bunny Kingdom game logs (bkref/1).",
    epilog="Manual: README.md and docs/ (docs/getting-started.md first).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        import bkref

        print(f"bkref {bkref.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_print_version, is_eager=True, help="Print bkref's version and exit."),
    ] = False,
) -> None:
    """Referee and replay tool for Bunny Kingdom game logs (bkref/1)."""


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class ValidateFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def fail(message: str) -> typer.Exit:
    """Report bad usage in one line on stderr, its names and paths escaped (``printable``); exit status 2."""
    from bkref.io.diagnostics import printable

    print(f"bkref: error: {printable(message)}", file=sys.stderr)
    return typer.Exit(2)


def warn(message: str) -> None:
    """Say ``message`` in one line on stderr, as a warning: the command goes on."""
    from bkref.io.diagnostics import printable

    print(f"bkref: warning: {printable(message)}", file=sys.stderr)


def fault_lines(path: object, meta: dict[str, Any] | None, max_faults: int | None = None) -> list[str]:
    """A note line (newline ended) for each bot program of a log's game ``meta`` that faulted
    (``bkref.bots.seats.fault_notes``), naming the log ``path``: its moves are legal, but some
    are the fallback's, not the bot's. None for a meta without bots, or with bots of another
    tool's making. Every command that reads a log says them on stderr (issue 44).

    >>> meta = {"bots": {"bob": {"command": "b", "faults": [{"kind": "exit", "event": 2}]}}}
    >>> print(*fault_lines("g.jsonl", meta), end="")
    g.jsonl: note: seat bob (cmd:b) made 1 fault (1 exit, first at event 2); random played the decisions it faulted
    >>> fault_lines("g.jsonl", {"bots": "mine"}), fault_lines("g.jsonl", {"bots": {"bob": {}}}), fault_lines("g", None)
    ([], [], [])
    """
    if not meta or not isinstance(meta.get("bots"), dict):
        return []
    from bkref.bots.seats import fault_notes  # here: only a log that bot programs played loads them
    from bkref.io.diagnostics import printable

    try:
        return [printable(f"{path}: {note}") + "\n" for note in fault_notes(meta["bots"], max_faults)]
    except (KeyError, TypeError, IndexError, AttributeError):  # a meta written by another tool: its own business
        return []


def write_output(text: str, output: str) -> bool:
    """Write ``text`` to the file ``output``, or to standard output for ``-``; True for a file.

    A file is written whole or not at all (``write_atomically``). One that cannot be
    written (its folder missing, say: no folder is made; a full disk) is a one-line
    error (exit status 2), and what was at its name is left as it was.
    """
    if output == "-":
        sys.stdout.write(text)
        return False
    try:
        write_atomically(Path(output), text.encode("utf-8"))
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None
    return True


def not_an_input(output: str, given: str) -> None:
    """``fail`` when the file ``output`` is the input ``given`` (the same file, by any name or
    link): writing it would destroy what the command reads. Nothing is written by then.

    >>> not_an_input("-", "g.jsonl"), not_an_input("missing.svg", "g.jsonl")
    (None, None)
    """
    try:
        same = output != "-" and os.path.samefile(output, given)
    except OSError:  # one of them is not there: no file is both
        return
    if same:
        raise fail(f"cannot write {output}: it is the input {given} (bkref writes no output over what it reads)")


DaskOption = Annotated[
    str | None,
    typer.Option(
        "--dask",
        metavar="ADDRESS",
        help="Run the per-game work on the Dask cluster whose scheduler is at ADDRESS (the dask extra).",
        show_default=False,
    ),
]

DaskTimeoutOption = Annotated[
    float,
    typer.Option(
        "--dask-timeout",
        metavar="SECONDS",
        min=0.1,
        help="With --dask, the longest wait for the scheduler, and for each batch of 64 logs, before a one-line error.",
    ),
]


MoveTimeOption = Annotated[
    int,
    typer.Option("--move-time", metavar="MS", min=1, help="The milliseconds a bot program has for each decision."),
]

MaxFaultsOption = Annotated[
    int,
    typer.Option(
        "--max-faults",
        metavar="N",
        min=1,
        help="After N faults of a bot program in one game, the bundled random plays its seat to the end.",
    ),
]

StartFallbackOption = Annotated[
    bool,
    typer.Option(
        "--start-fallback",
        help="Let the bundled random play the seats of a bot program that cannot start (recorded as exit"
        " faults) instead of refusing the run.",
    ),
]


def a_name(value: str | list[str] | None) -> str | list[str] | None:
    """A file or folder option's value, refused when empty: ``''`` names nothing, and as a
    path it would be the current folder (a tournament would write its games there).

    >>> a_name("games"), a_name(None)
    ('games', None)
    """
    for name in [value] if isinstance(value, str) else value or []:
        if not name.strip():
            raise typer.BadParameter(f"{name!r} is not a name")
    return value


BotLogsOption = Annotated[
    str | None,
    typer.Option(
        "--bot-logs",
        callback=a_name,
        metavar="DIR",
        help="Keep each bot program's standard error: a file per seat, bot and process (see docs/bots.md).",
    ),
]

BotTraceOption = Annotated[
    bool,
    typer.Option(
        "--bot-trace",
        help="With --bot-logs: each log also holds every line bkref sent the bot and the bot answered,"
        " with its time (see docs/bots.md).",
    ),
]

UnsealedOption = Annotated[
    bool,
    typer.Option(
        "--unsealed",
        help="Run bot programs unsealed: they see the machine as bkref does (trusted bots only; see docs/bots.md).",
    ),
]

BotNetworkOption = Annotated[
    bool, typer.Option("--bot-network", help="Let sealed bot programs reach the network (they have none otherwise).")
]

BotLimitOption = Annotated[
    list[str] | None,
    typer.Option(
        "--bot-limit",
        metavar="KIND=N",
        help="A limit of each bot program: memory=MiB (4096), processes=N (64), file=MiB (64), cpu=SECONDS "
        "(3600); repeat for several.",
        show_default=False,
    ),
]


def bot_options(
    ms: int,
    max_faults: int,
    logs: str | None,
    seal: tuple[bool, bool, list[str] | None],
    hidden: list[str],
    policies: list[str],
    trace: bool = False,
) -> BotOptions:
    """The bot programs' options of ``simulate`` and ``tournament``: ``seal`` is ``--unsealed``,
    ``--bot-network`` and ``--bot-limit``; ``hidden``, the paths no bot may see (the run's
    output, its logs, its decks); each bot program of ``policies`` does not see the others'
    files. With bot programs that cannot be sealed here, one warning line says so (bkref
    runs them unsealed); ``fail`` on a bot that lies in a path no bot may see (it would see
    it), on a limit it cannot read, or a ``trace`` (``--bot-trace``)
    without the logs it is written to."""
    from bkref.bots.sealing import Limits, Seal, parse_limit, unsealed_why
    from bkref.bots.seats import BotOptions, command_of, is_program

    if trace and logs is None:
        raise fail("--bot-trace writes into each bot's log: give --bot-logs DIR too")
    programs = tuple(tuple(command_of(spec)) for spec in dict.fromkeys(policies) if is_program(spec))
    unsealed, network, limits = seal
    within = Limits()
    for text in limits or []:
        try:
            within = parse_limit(within, text)
        except ValueError as error:
            raise fail(f"--bot-limit must be {error}, not {text!r}") from None
    if programs and not unsealed and (why := unsealed_why()) is not None:
        warn(f"bot programs run unsealed: {why}; --unsealed runs trusted bots so")
    paths = tuple(os.path.abspath(path) for path in [*hidden, *([logs] if logs else [])])
    sealing = Seal(not unsealed, network, paths, within, programs)
    for command in programs if sealing.sealed else ():
        for path in sealing.exposed(command):
            raise fail(
                f"bot {' '.join(command)} lies in {path}, which bots may not see: keep it elsewhere"
                " (or run trusted bots with --unsealed)"
            )
    return BotOptions(ms, max_faults, logs, sealing, trace)


DebugOption = Annotated[
    bool, typer.Option("--debug", help="When a policy raises, print its traceback before the error line.")
]


ToOption = Annotated[
    str | None, typer.Option("--to", metavar="N", help="The position after event N (events count from 1).")
]


@contextmanager
def on_runner(jobs: int, dask: str | None, dask_timeout: float = 30) -> Iterator[Runner]:
    """Where the per-game work runs: ``jobs`` local processes (at most ``MAX_JOBS``), or the
    Dask cluster at ``dask``, each wait on it at most ``dask_timeout`` seconds.

    A cluster that cannot be used is a one-line error (exit status 2).
    """
    from bkref.io.batch import ClusterError, runner

    if dask is not None and jobs > 1:
        raise fail("-j and --dask cannot be used together: the cluster decides how many workers run")
    try:
        with runner(jobs, dask, dask_timeout) as run:
            yield run
    except ClusterError as error:
        raise fail(str(error)) from None
