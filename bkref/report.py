"""Printing validation reports: text lines for people, JSON for machines."""

from __future__ import annotations

from collections import Counter
from typing import TextIO

import msgspec

from bkref.referee import Report


def summary(report: Report) -> str:
    """One line on a checked log: legal, illegal (with counts by rule) or unreadable."""
    if not report.diagnostics:
        unfinished = "" if report.state.complete else f", stops {report.state.where()}"
        return f"{report.path}: legal ({report.events} events{unfinished})"
    rules = Counter(d.rule for d in report.diagnostics)
    by_rule = ", ".join(f"{rule} x{count}" if count > 1 else rule for rule, count in sorted(rules.items()))
    verdict = "unreadable" if report.status == 2 else "illegal"
    n = len(report.diagnostics)
    return f"{report.path}: {verdict}, {n} problem{'s' if n > 1 else ''} ({by_rule})"


def print_text(reports: list[Report], out: TextIO, err: TextIO) -> None:
    """One line per problem on ``out``, like a compiler; each file's summary line on ``err``."""
    for report in reports:
        for d in report.diagnostics:
            out.write(d.text() + "\n")
        out.flush()
        err.write(summary(report) + "\n")


def print_json(reports: list[Report], out: TextIO, err: TextIO) -> None:
    """A JSON array of every diagnostic: file, line, event, rule, message."""
    diagnostics = [d for r in reports for d in r.diagnostics]
    out.write(msgspec.json.format(msgspec.json.encode(diagnostics).decode(), indent=2) + "\n")
