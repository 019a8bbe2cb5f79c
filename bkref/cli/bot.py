"""``bkref bot``: a bundled or loadable Python policy as a ``bkbot/1`` program (``bkref.bots.serve``)."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from bkref.cli.app import app, fail


class Views(StrEnum):
    whole = "whole"
    patch = "patch"


@app.command(
    "bot",
    short_help="Play a Python policy as a bot program (bkbot/1).",
    epilog="Manual: docs/bots.md",
)
def bot(
    policy: Annotated[
        str,
        typer.Argument(
            metavar="POLICY",
            help="random, greedy, mcts, PKG.MODULE:FUNC or path/to/file.py:FUNC (as simulate's --policy).",
            show_default=False,
        ),
    ],
    views: Annotated[
        Views,
        typer.Option(
            "--views",
            metavar="FORM",
            help="How it asks for the views of its decisions in its hello: whole (each whole), or patch "
            "(each after a game's first as a JSON merge patch of the last, which it applies; fewer bytes).",
        ),
    ] = Views.whole,
) -> None:
    """Play POLICY as a bot program: bkbot/1 on standard input and output, until quit.

    The policy sees the view each decide carries; its generator is seeded from each game's
    seed, so the same messages get the same replies. mcts stops searching at half of each
    decision's ms. Exit status: 0 after quit or the end of the input; 2 for a policy that
    cannot be loaded, a line that is not bkref's, or a move that is none of those offered.
    """
    import msgspec

    import bkref
    from bkref.bots.bundled import TIMED, load
    from bkref.bots.errors import OptionError, PolicyError
    from bkref.bots.protocol import PROTOCOL, BotHello
    from bkref.bots.serve import serve

    try:
        chosen = load(policy)
    except (OptionError, PolicyError) as error:
        raise fail(str(error)) from None
    try:
        serve(
            chosen,
            BotHello(PROTOCOL, policy, bkref.__version__, views.value),
            sys.stdin.buffer,
            sys.stdout.buffer,
            TIMED.get(policy),
        )
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise fail(f"{policy}: a line from bkref that is no bkbot/1 message: {error}") from None
    except ValueError as error:
        raise fail(f"{policy}: {error}") from None
