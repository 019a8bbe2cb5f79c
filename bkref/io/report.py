"""Printing validation results: text for people; JSON, GitHub annotations and SARIF for machines.

Each output writes each problem as it is found and keeps nothing of it, JSON and SARIF
too (their document is written piece by piece): checking many files, or one huge log,
uses memory for neither the games nor the problems.

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
    """One line on a checked log: legal, illegal (with counts by rule) or unreadable; an
    unreadable log whose other lines were read and judged says so, and what they gave."""
    rules = report.rules
    if not rules:
        unfinished = "" if report.complete else f", stops {report.where}"
        return f"{printable(report.path)}: legal ({report.events} events{unfinished})"
    judged = Counter({rule: n for rule, n in rules.items() if rule != "F1"})
    if report.status == EXIT_ILLEGAL or not judged:
        verdict = "illegal" if report.status == EXIT_ILLEGAL else "unreadable"
        return f"{printable(report.path)}: {verdict}, {_problems(rules)}"
    unread = _problems(Counter({"F1": rules["F1"]}))
    return f"{printable(report.path)}: unreadable, {unread} reading it; the rest read and judged: {_problems(judged)}"


def _problems(rules: Counter[str]) -> str:
    """``N problems (rules)``: how many, then how many of each rule."""
    by_rule = ", ".join(f"{rule} x{n}" if n > 1 else rule for rule, n in sorted(rules.items()))
    return f"{count(rules.total(), 'problem')} ({by_rule})"


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
    """Receives each diagnostic as it is found (``diagnostic``: ``check``'s ``on_diagnostic``),
    each file's report in input order (``file``), then the totals (``finish``).

    A report holds the diagnostics that were not handed over as found: those of a report
    that came whole (from another process, or refused before reading). Nothing is kept
    of a diagnostic once written, so the memory used does not grow with the problems.
    """

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self.out, self.err, self.quiet = out, err, quiet

    def diagnostic(self, d: Diagnostic) -> None:
        """One diagnostic, as soon as it is found, or as its report comes whole."""
        raise NotImplementedError

    def file(self, report: Report) -> None:
        for d in report.diagnostics:
            self.diagnostic(d)

    def finish(self, totals: Totals) -> None:
        """Called once after the last file."""


class _Streaming(Output):
    """Writes each diagnostic's line as soon as it is found."""

    def line(self, d: Diagnostic) -> str:
        raise NotImplementedError

    def diagnostic(self, d: Diagnostic) -> None:
        self.out.write(self.line(d) + "\n")
        self.out.flush()


class TextOutput(_Streaming):
    """One line per problem on stdout, like a compiler; summaries on stderr (with ``quiet``,
    none for legal logs)."""

    def line(self, d: Diagnostic) -> str:
        return d.text()

    def file(self, report: Report) -> None:
        super().file(report)
        if report.status or not self.quiet:
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


def _formatted(value: object) -> str:
    return msgspec.json.format(msgspec.json.encode(value).decode(), indent=2)


class _Document(Output):
    """A JSON document (indented by 2) whose last value is an array of one item per diagnostic,
    written item by item as found: the same bytes as the whole document formatted at once.

    The document with an empty array (``document``) gives the text before and after it,
    and the indent of its items (each one, formatted alone, indented by one level more).
    The text before is written with the first item, so that a run stopped before any
    problem writes nothing.
    """

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        super().__init__(out, err, quiet=quiet)
        self.head, _, self.tail = _formatted(self.document()).rpartition("[]")
        at = self.head[self.head.rfind("\n") + 1 :]
        self.indent = at[: len(at) - len(at.lstrip(" "))]
        self.items = 0

    def document(self) -> object:
        raise NotImplementedError

    def item(self, d: Diagnostic) -> object:
        raise NotImplementedError

    def diagnostic(self, d: Diagnostic) -> None:
        inside = self.indent + "  "
        text = inside + _formatted(self.item(d)).replace("\n", "\n" + inside)  # a JSON string holds no line end
        self.out.write(json_printable((",\n" if self.items else self.head + "[\n") + text))
        self.items += 1

    def finish(self, totals: Totals) -> None:
        self.out.write(json_printable((f"\n{self.indent}]" if self.items else self.head + "[]") + self.tail) + "\n")


class JsonOutput(_Document):
    """A JSON array of every diagnostic: file, line, event, rule, message.

    >>> import io
    >>> out = io.StringIO()
    >>> json_output = JsonOutput(out, out)
    >>> json_output.diagnostic(Diagnostic("g.jsonl", 4, "pick", "D2", "bob keeps A7"))
    >>> json_output.finish(Totals())
    >>> out.getvalue() == _formatted([Diagnostic("g.jsonl", 4, "pick", "D2", "bob keeps A7")]) + chr(10)
    True
    """

    def document(self) -> object:
        return []

    def item(self, d: Diagnostic) -> object:
        return d


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bkref")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


def _rule_index() -> dict[str, int]:
    """The rules of SARIF's rule list, each with its place in it."""
    from bkref.game.rules import RULES

    rule_ids = [rule_id for rule_id, rule in sorted(RULES.items()) if rule.checked_by in ("move", "expect")]
    return {rule_id: i for i, rule_id in enumerate(rule_ids)}


def sarif(diagnostics: list[Diagnostic]) -> dict[str, object]:
    """A SARIF 2.1.0 log: one rule per rule id (its RULES.md text), one result per diagnostic."""
    from bkref.game.rules import RULES

    index = _rule_index()
    rules = [
        {
            "id": rule_id,
            "name": RULES[rule_id].title.title().replace(" ", ""),
            "shortDescription": {"text": f"{rule_id} {RULES[rule_id].title}"},
            "fullDescription": {"text": RULES[rule_id].text},
            "defaultConfiguration": {"level": "error"},
        }
        for rule_id in index
    ]
    results = [sarif_result(d, index) for d in diagnostics]
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


def sarif_result(d: Diagnostic, index: dict[str, int]) -> dict[str, object]:
    """The SARIF result of one diagnostic; ``index`` gives each rule id's place in the rule list."""
    location: dict[str, object] = {"artifactLocation": {"uri": quote(PurePath(d.file).as_posix())}}
    if d.line:
        location["region"] = {"startLine": d.line}
    return {
        "ruleId": d.rule,
        "ruleIndex": index[d.rule],
        "level": "error",
        "message": {"text": d.message},
        "locations": [{"physicalLocation": location}],
    }


class SarifOutput(_Document):
    """SARIF 2.1.0, for code-scanning tools."""

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self.index = _rule_index()
        super().__init__(out, err, quiet=quiet)

    def document(self) -> object:
        return sarif([])

    def item(self, d: Diagnostic) -> object:
        return sarif_result(d, self.index)


OUTPUTS: dict[str, type[Output]] = {
    "text": TextOutput,
    "json": JsonOutput,
    "github": GithubOutput,
    "sarif": SarifOutput,
}
