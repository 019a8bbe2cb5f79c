"""The ``bkref`` command line: a thin layer over the referee, the scorer and the renderer."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="bkref",
    help="Referee and replay tool for Bunny Kingdom game logs (bkref/1).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class ValidateFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def _fail(message: str) -> typer.Exit:
    """Report bad usage in one line on stderr; exit status 2."""
    print(f"bkref: error: {message}", file=sys.stderr)
    return typer.Exit(2)


def _write(text: str, output: str, *, make_folders: bool = False) -> bool:
    """Write ``text`` to the file ``output``, or to standard output for ``-``; True for a file.

    A file that cannot be written is a one-line error (exit status 2).
    """
    if output == "-":
        sys.stdout.write(text)
        return False
    target = Path(output)
    try:
        if make_folders:
            target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot write {output}: {error.strerror or error}") from None
    return True


@app.command()
def validate(
    paths: Annotated[
        list[Path], typer.Argument(help="Game logs (.jsonl), or folders: every *.jsonl below them.",
                                   metavar="LOG|DIR...", show_default=False)
    ],
    output: Annotated[
        ValidateFormat, typer.Option("--format", help="text for people; json, github (annotations) or sarif.")
    ] = ValidateFormat.text,
    partial: Annotated[
        bool, typer.Option("--partial", help="Accept a log that stops before the game's end (a game in progress).")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Check the logs in this many processes; same output.")
    ] = 1,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No summary line for legal logs (text format).")
    ] = False,
) -> None:
    """Check game logs against the rules; print one line per problem.

    Exit status: 0 every log legal, 1 an illegal move or a mismatched expect,
    2 an unreadable log (F1) or bad usage.
    """
    from bkref.referee import check_paths
    from bkref.report import OUTPUTS, Totals

    printer = OUTPUTS[output.value](sys.stdout, sys.stderr, quiet=quiet)
    totals = Totals()
    for report in check_paths(paths, partial=partial, jobs=jobs):
        printer.file(report)
        totals.add(report)
    printer.finish(totals)
    raise typer.Exit(totals.status)


@app.command()
def explain(
    rule: Annotated[str | None, typer.Argument(help="A rule id (C5, D2, X1, ...); none lists them all.",
                                               show_default=False)] = None,
) -> None:
    """Print a rule's text and a log line that breaks it, or list every rule."""
    from bkref.explain import explain as text_of, listing

    if rule is None:
        sys.stdout.write(listing())
        return
    try:
        sys.stdout.write(text_of(rule))
    except KeyError:
        raise _fail(f"no rule {rule}; `bkref explain` lists them") from None


@app.command()
def schema(
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Where to write the schema; - for standard output.",
                                 show_default="schemas/bkref-1.schema.json, or schemas/bkref-score-1.schema.json")
    ] = None,
    score: Annotated[bool, typer.Option("--score", help="The schema of bkref score --format json instead.")] = False,
) -> None:
    """Write the JSON Schema of the bkref/1 log format (or of score breakdowns), generated from the types."""
    from bkref.schema import log_schema, score_schema

    text = score_schema() if score else log_schema()
    output = output or ("schemas/bkref-score-1.schema.json" if score else "schemas/bkref-1.schema.json")
    if _write(text, output, make_folders=True):
        print(f"wrote {output}")


@app.command()
def score(
    log: Annotated[Path, typer.Argument(help="A game log (.jsonl), finished or stopped after any round.",
                                        metavar="LOG", show_default=False)],
    output: Annotated[OutputFormat, typer.Option("--format", help="text for people, json for machines.")] = OutputFormat.text,
    player: Annotated[str | None, typer.Option("--player", help="Show only this player.", show_default=False)] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text, even on a terminal.")] = False,
) -> None:
    """Show where every golden carrot came from: each harvest's fiefs, each parchment, the winners.

    Exit status: 0 a legal log, 1 illegal moves or mismatched expects (listed;
    the score skips the illegal events), 2 an unreadable log (no score) or bad usage.
    """
    from bkref.scoreview import ScoreError, run

    try:
        status = run(log, as_json=output is OutputFormat.json, player=player, no_color=no_color,
                     out=sys.stdout, err=sys.stderr)
    except ScoreError as error:
        raise _fail(str(error)) from None
    raise typer.Exit(status)


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="The game log (.jsonl) to replay.", metavar="LOG", show_default=False)],
    step: Annotated[
        bool, typer.Option("--step", help="Step through the events: Enter or n next, b back, r next round, "
                           "a number goes to that event, q quits.")
    ] = False,
    to: Annotated[
        str | None, typer.Option("--to", metavar="N", help="The position after event N (events count from 1).")
    ] = None,
    round_: Annotated[
        str | None, typer.Option("--round", metavar="R", help="The position at the end of round R (its harvest).")
    ] = None,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="Plain text (always so when the output is not a terminal).")
    ] = False,
) -> None:
    """Show a game on the board, position by position.

    With no option, the final position and scores; with --to or --round, that position;
    with --step, walk through the game from there (or from the first event). An illegal
    event is shown at its step with validate's diagnostic, and the replay goes on.

    Exit status, for the whole log as validate gives it: 0 legal (a log that stops early
    included), 1 illegal events or mismatched expects, 2 lines that are not events, a log
    that cannot be read, or bad usage.
    """
    from bkref.stepper import ReplayError
    from bkref.stepper import replay as show_replay

    try:
        status = show_replay(log, step=step, to=to, round_=round_, color=not no_color)
    except ReplayError as error:
        raise _fail(str(error)) from None
    raise typer.Exit(status)


@app.command()
def simulate(
    players: Annotated[str | None, typer.Option("--players", metavar="N", help="2, 3 or 4 players.")] = None,
    seed: Annotated[str | None, typer.Option("--seed", metavar="S", help="The seed, a whole number from 0.")] = None,
    policy: Annotated[str, typer.Option("--policy", metavar="POLICY", help="random or greedy.")] = "random",
    output: Annotated[
        str, typer.Option("--output", "-o", metavar="FILE", help="Where to write the log; - for standard output.")
    ] = "-",
) -> None:
    """Play a complete legal game from a seed and write its bkref/1 log.

    The same players, seed and policy give the same log, byte for byte.
    """
    from bkref.simulate import parse_options, simulate as play, to_jsonl

    try:
        text = to_jsonl(play(*parse_options(players, seed, policy)))
    except ValueError as error:
        raise _fail(str(error)) from None
    _write(text, output)


def main() -> None:
    app()
