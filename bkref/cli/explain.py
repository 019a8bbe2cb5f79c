"""``bkref explain``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from bkref.cli.app import app, fail


@app.command("explain", short_help="Print a rule's text and a log line that breaks it.", epilog="Manual: docs/rules.md")
def explain(
    rule: Annotated[
        str | None,
        typer.Argument(help="A rule id (C5, D2, X1, ...); none lists them all.", metavar="RULE", show_default=False),
    ] = None,
) -> None:
    """Print a rule's text and a log line that breaks it, or list every rule."""
    from bkref.views.explain import explain as text_of
    from bkref.views.explain import listing

    if rule is None:
        sys.stdout.write(listing())
        return
    try:
        sys.stdout.write(text_of(rule))
    except KeyError:
        raise fail(f"no rule {rule}; `bkref explain` lists them") from None
