"""Printing validation results: text for people; JSON, GitHub annotations and SARIF for machines.

Each output takes the files' reports one at a time, in input order, and keeps only
their diagnostics, so checking many files uses memory for the problems found, not for
the games.

>>> from bkref.io.diagnostics import Diagnostic
>>> github_line(Diagnostic("logs/g1.jsonl", 41, "pick", "D2", "bob keeps A7, which is not in bob's hand: B4, C5"))
"::error file=logs/g1.jsonl,line=41,title=D2::bob keeps A7, which is not in bob's hand: B4, C5"
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TextIO
from urllib.parse import quote

import msgspec

from bkref.game.words import count
from bkref.io.diagnostics import EXIT_ILLEGAL, EXIT_LEGAL, Diagnostic, json_printable, printable
from bkref.io.referee import Report


def summary(report: Report) -> str:
    """One line on a checked log: legal, illegal (with counts by rule) or unreadable."""
    if not report.diagnostics:
        unfinished = "" if report.complete else f", stops {report.where}"
        return f"{printable(report.path)}: legal ({report.events} events{unfinished})"
    rules = Counter(d.rule for d in report.diagnostics)
    by_rule = ", ".join(f"{rule} x{count}" if count > 1 else rule for rule, count in sorted(rules.items()))
    verdict = "illegal" if report.status == EXIT_ILLEGAL else "unreadable"
    return f"{printable(report.path)}: {verdict}, {count(len(report.diagnostics), 'problem')} ({by_rule})"


@dataclass
class Totals:
    """What a run checked: files, games (logs whose game event was read), and verdicts."""

    files: int = 0
    games: int = 0
    verdicts: Counter[int] = field(default_factory=Counter)

    def add(self, report: Report) -> None:
        self.files += 1
        self.games += report.game_read
        self.verdicts[report.status] += 1

    @property
    def status(self) -> int:
        return max(self.verdicts, default=EXIT_LEGAL)

    def line(self) -> str:
        v = self.verdicts
        return (
            f"{count(self.files, 'file')}: {count(self.games, 'game')}, {v[0]} legal, {v[1]} illegal, {v[2]} unreadable"
        )


class Output:
    """Receives each diagnostic as it is found (``diagnostic``), each file's report in input
    order (``file``), then the totals (``finish``)."""

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self.out, self.err, self.quiet = out, err, quiet

    def diagnostic(self, d: Diagnostic) -> None:
        """One diagnostic of the file being checked, as soon as it is found; outputs that
        write whole documents ignore it."""

    def file(self, report: Report) -> None:
        raise NotImplementedError

    def finish(self, totals: Totals) -> None:
        """Called once after the last file."""


class _Streaming(Output):
    """Writes each diagnostic's line as soon as it is found, and those of a report that
    came whole (from another process, or refused before reading) when it comes."""

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        super().__init__(out, err, quiet=quiet)
        self.written = 0  # the lines of the current file written already

    def line(self, d: Diagnostic) -> str:
        raise NotImplementedError

    def diagnostic(self, d: Diagnostic) -> None:
        self.out.write(self.line(d) + "\n")
        self.out.flush()
        self.written += 1

    def file(self, report: Report) -> None:
        for d in report.diagnostics[self.written :]:
            self.out.write(self.line(d) + "\n")
        self.out.flush()
        self.written = 0


class TextOutput(_Streaming):
    """One line per problem on stdout, like a compiler; summaries on stderr (with ``quiet``,
    none for legal logs)."""

    def line(self, d: Diagnostic) -> str:
        return d.text()

    def file(self, report: Report) -> None:
        super().file(report)
        if report.diagnostics or not self.quiet:
            self.err.write(summary(report) + "\n")

    def finish(self, totals: Totals) -> None:
        if totals.files > 1:
            self.err.write(totals.line() + "\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the log's line with the problem."""
    where = f"file={printable(_escape_property(d.file))}" + (f",line={d.line}" if d.line else "")
    return f"::error {where},title={_escape_property(d.rule)}::{_escape_data(d.message)}"


class GithubOutput(_Streaming):
    """GitHub Actions annotations (``::error file=…,line=…,title=RULE::message``)."""

    def line(self, d: Diagnostic) -> str:
        return github_line(d)


class _Collecting(Output):
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        super().__init__(out, err, quiet=quiet)
        self.diagnostics: list[Diagnostic] = []

    def file(self, report: Report) -> None:
        self.diagnostics.extend(report.diagnostics)

    def write_json(self, document: object) -> None:
        self.out.write(json_printable(msgspec.json.format(msgspec.json.encode(document).decode(), indent=2)) + "\n")


class JsonOutput(_Collecting):
    """A JSON array of every diagnostic: file, line, event, rule, message."""

    def finish(self, totals: Totals) -> None:
        self.write_json(self.diagnostics)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bkref")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


def sarif(diagnostics: list[Diagnostic]) -> dict[str, object]:
    """A SARIF 2.1.0 log: one rule per rule id (its RULES.md text), one result per diagnostic."""
    from bkref.game.rules import RULES

    rule_ids = [rule_id for rule_id, rule in sorted(RULES.items()) if rule.checked_by in ("move", "expect")]
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    rules = [
        {
            "id": rule_id,
            "name": RULES[rule_id].title.title().replace(" ", ""),
            "shortDescription": {"text": f"{rule_id} {RULES[rule_id].title}"},
            "fullDescription": {"text": RULES[rule_id].text},
            "defaultConfiguration": {"level": "error"},
        }
        for rule_id in rule_ids
    ]
    results = []
    for d in diagnostics:
        location: dict[str, object] = {"artifactLocation": {"uri": quote(PurePath(d.file).as_posix())}}
        if d.line:
            location["region"] = {"startLine": d.line}
        results.append(
            {
                "ruleId": d.rule,
                "ruleIndex": index[d.rule],
                "level": "error",
                "message": {"text": d.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "bkref", "version": _version(), "rules": rules}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


class SarifOutput(_Collecting):
    """SARIF 2.1.0, for code-scanning tools."""

    def finish(self, totals: Totals) -> None:
        self.write_json(sarif(self.diagnostics))


OUTPUTS: dict[str, type[Output]] = {
    "text": TextOutput,
    "json": JsonOutput,
    "github": GithubOutput,
    "sarif": SarifOutput,
}
