"""Refereeing a log: read it (``bkref.io.sources``, ``bkref.io.logfile``) and play it (``bkref.game.engine``).

A log comes from any ``LogSource``: a path, its text or bytes, an open stream.

>>> report = check("replays/worked-example.jsonl", partial=True)
>>> report.status, report.diagnostics
(0, [])
>>> check('{"type":"game","format":"bkref/1","players":["ann"]}').diagnostics[0].text()
'<text>:1: S1 1 player; Bunny Kingdom is for 2 to 4'
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from bkref.game.catalog import CARDS, COPY_CARDS
from bkref.game.causes import OFF_DECK, TOP, Broken, Causes
from bkref.game.engine import State, Violation
from bkref.game.events import Build, Deal, Draw, Event, Game, Pick, event_type
from bkref.game.exploring import passing_to
from bkref.game.fiefs import Harvested, mask, names, square_groups
from bkref.game.flow import gap_players, is_gap
from bkref.game.position import SQUARE_BIT
from bkref.game.scoring import resolve_copy
from bkref.io.diagnostics import Diagnostic, exit_status, rules_status
from bkref.io.lazy import Made
from bkref.io.logfile import LineReader, Problem, decode_run
from bkref.io.sources import STDIN, LogSource, blocks_of, name_of, not_a_file, unreadable


class Step(NamedTuple):
    """One event played: its line, the event, the state after it, and its problems: what it
    broke, after the F1 problems of the lines before it that are not events (``Playing``)."""

    line: int
    event: Event
    state: State
    diagnostics: list[Diagnostic]


@dataclass
class Report:
    """The outcome of checking one log: its problems, in ``diagnostics`` but for those handed
    over as they were found (``check``'s ``on_diagnostic``), counted by rule in ``handed``;
    ``meta``, the game event's (what made the log: a tournament's game says its deal and bots)."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    state: State | None = field(default_factory=State)
    events: int = 0
    complete: bool = False
    where: str = "before the game event"
    handed: dict[str, int] = field(default_factory=dict)
    meta: dict[str, Any] | None = None

    @property
    def rules(self) -> Counter[str]:
        """How many problems the log has of each rule, those handed over included."""
        rules = Counter(self.handed)
        rules.update(d.rule for d in self.diagnostics)
        return rules

    @property
    def status(self) -> int:
        """The exit status ``bkref validate`` gives the log: 0 legal, 1 illegal, 2 unreadable."""
        return max(exit_status(self.diagnostics), rules_status(self.handed))

    @property
    def game_read(self) -> bool:
        """Whether a game event was read: the reader yields events only after one."""
        return self.events > 0

    @property
    def scores(self) -> dict[str, int]:
        """Each player's golden carrots: the final totals once the end is scored, else the harvests so far."""
        state = self.state
        return {p: state.carrots_of(p) for p in state.players} if state is not None else {}


class _Run:
    """One log played on ``state``: the core of ``play`` and ``check``.

    ``diagnostics`` yields the F1 problems, each event's violations and the end-of-log
    ones; with ``steps``, also ``(line, event, diagnostics)`` for every event played.
    ``events`` counts the events played (each once what it broke has been yielded).

    One mistake, one lead: a problem that follows from an earlier one says so, "(after
    the D2 at line 3)", so that a reader starts at the cause; which one it follows from
    is ``bkref.game.causes``'s, from what each check reads and each failed event left unwritten.
    """

    def __init__(self, name: str, state: State, partial: bool) -> None:
        self.name = name
        self.state = state
        self.partial = partial
        self.events = 0
        self.unreadable = False  # an F1 problem with the text was found
        self.causes = Causes()
        self.meta: dict[str, Any] | None = None  # the game event's meta
        self.held: list[str | None] = []
        """Who controlled the squares of the last draw's cards before it was played (a draw
        not the deck's may take a square another player holds: P1)."""

    def _found(self, line: int, event: Event, violations: list[Violation]) -> list[Diagnostic]:
        """The diagnostics of an event that broke rules, each pointing to the problem it
        follows from. At the end, the total of a player with Opportunist or Matriarch reads
        the others' (``_scores_others``): its cause is sought once theirs are found, whatever
        the order of the diagnostics."""
        kind = event_type(event)
        state = self.state
        reads_others = [False] * len(violations)
        if kind == "end":
            for i, (rule, message) in enumerate(violations):
                named = _player_of(state, kind, rule, message)
                reads_others[i] = named is not None and _scores_others(state, named)
        causes: list[str | None] = [None] * len(violations)
        for i in _in_turn(reads_others):
            causes[i] = self._cause(line, event, kind, *violations[i], reads_others[i])
        return [
            Diagnostic(self.name, line, kind, rule, f"{message} (after {cause})" if cause else message)
            for (rule, message), cause in zip(violations, causes)
        ]

    def _cause(self, line: int, event: Event, kind: str, rule: str, message: str, others: bool) -> str | None:
        """The cause of the problem ``rule`` (``message``) of ``event``, which is then recorded
        (``bkref.game.causes``); ``others``, whether it reads every player's total."""
        causes, state = self.causes, self.state
        players = state.players
        player = getattr(event, "player", None) if rule != "F1" else None
        if isinstance(event, Deal) and rule in ("D1", "S4"):
            player = _dealt_wrong(state, event, rule, message)
        cards = [event.card] if isinstance(event, Build) else []
        squares = event.at if isinstance(event, Build) else []
        broken = Broken(line, kind, player, rule, message, state.round)
        holders = _holders(state, event) if rule in ("D2", "D3", "D5") else []
        named = _player_of(state, kind, rule, message)
        read, lost = squares, []
        if rule == "C5" and _ONE_FIEF in message:
            read = _fief_of(state, event)
        elif rule == "X1" and named is not None:  # their camps, and the squares they lost (P1)
            read, lost = _camps(state, named), _lost(state, named)
        cause = causes.cause_of(broken, cards, read, players, holders, others, lost)
        buildings = _buildings(state, named) if named is not None and kind == "harvest" else {}
        written = _unplayed(state, event, rule, message, self.held)
        lacking = _lacking(state, event) if rule in ("D2", "D3", "D5") else []
        causes.found(broken, written, cause, squares, players, buildings, holders, lacking)
        return cause

    def _unreadable(self, problem: Problem, text: bytes) -> Diagnostic:
        """The diagnostic of an F1 problem with the log's text (``text``, its line); the log is
        then not checked to its end (T1). The event it holds is missing: what follows from
        that names it, a gap (T1), or a problem of its player if the line names one."""
        self.unreadable = True
        self.causes.unreadable(problem.line, problem.event, *_named_in(text))
        return Diagnostic(self.name, problem.line, problem.event, "F1", problem.message)

    def diagnostics(
        self, blocks: Iterable[list[bytes]], steps: bool
    ) -> Generator[tuple[int, Event, list[Diagnostic]] | Diagnostic, None, None]:
        name, state = self.name, self.state
        reader = LineReader()
        read = reader.read
        last = 0  # the line of the last event played: none before the game event is in
        line = 0  # the lines read
        for lines in blocks:
            at = 0  # the next line of the block
            while at < len(lines):
                # After the game event, a run of two or more event lines is decoded at once; the
                # lines to the game event, a line that is not an event, and an event line alone
                # (between comments, or the last of its block) go through the reader, one by one.
                run = last and lines[at][:1] == b"{" and at + 1 < len(lines) and lines[at + 1][:1] == b"{"
                events = decode_run(lines, at) if run else None
                if not events:
                    item = read(line + 1, lines[at])
                    if item is None or isinstance(item, Problem):  # a blank or comment line, or a problem
                        line += 1
                        at += 1
                        if item is not None:
                            yield self._unreadable(item, lines[at - 1])
                            if reader.over:
                                return
                        continue
                    events = [item]
                first, played = line + 1, 0
                try:
                    for line, event in enumerate(events, first):
                        if state.pending and type(event) is Draw:  # whose squares its cards were (``_taken``)
                            self.held = list(map(state.position.owner.get, event.cards))
                        violations = state.play(event)
                        if violations or steps:  # violations is a list only when a rule is broken
                            found = self._found(line, event, violations) if violations else []
                            if steps:
                                yield line, event, found
                            else:
                                yield from found
                        played += 1
                finally:  # also when the consumer stops at a yield
                    self.events += played
                at += len(events)
                if not last and isinstance(events[0], Game):  # the first event read is the game event
                    self.meta = events[0].meta
                if not last and state.phase == "setup":
                    return  # the game event is unusable (S1, F1): nothing after it can be checked
                last = line
        problem = reader.end()
        if problem is not None:
            yield self._unreadable(problem, b"")
        if not self.unreadable and not self.partial:
            cause = self.causes.at_end()
            for v in state.finish():
                yield Diagnostic(
                    name, max(last, 1), None, v.rule, f"{v.message} (after {cause})" if cause else v.message
                )


def _in_turn(reads_others: list[bool]) -> list[int]:
    """The order in which an event's problems have their causes sought: those that read every
    player's total last (``reads_others``), the rest in their order.

    >>> _in_turn([True, False, False])
    [1, 2, 0]
    """
    return sorted(range(len(reads_others)), key=reads_others.__getitem__)


def _player_of(state: State, kind: str, rule: str, message: str) -> str | None:
    """The player an X1 or H1 of a harvest, or an X1 of the end, is about: its message's first word."""
    starts: tuple[str, ...]
    if rule == "X1":
        starts = (" harvests " if kind == "harvest" else " ends with ",)
    elif rule == "H1":
        starts = (" declares ", "'s trading post on ")
    else:
        return None
    return next((p for p in state.players if message.startswith(tuple(p + words for words in starts))), None)


def _scores_others(state: State, player: str) -> bool:
    """Whether ``player``'s final score reads every player's: Opportunist (their totals) or
    Matriarch (their territories), their own or copied (E7)."""
    copies = state.copies
    return any(
        card in _READS_OTHERS or (card in COPY_CARDS and resolve_copy(state, copies, player, card) in _READS_OTHERS)
        for card in state.parchments.get(player, ())
    )


_READS_OTHERS = frozenset({"opportunist", "matriarch"})
"""The parchments whose points read every player's position or total."""


_ONE_FIEF = " are already in one fief of "
"""What a C5 of a sky tower's squares in one fief says (``building``)."""


def _fief_of(state: State, event: Event) -> list[str]:
    """The squares of the sky tower ``event``, and of the fief of its builder they lie in (C5 reads them)."""
    assert isinstance(event, Build)
    bit = SQUARE_BIT[event.at[0]]
    fief = next((group for group, _, _ in square_groups(state.position, event.player) if group & bit), 0)
    return [*event.at, *(sq for sq in names(fief) if sq not in event.at)]


def _camps(state: State, player: str) -> list[str]:
    """The squares of ``player``'s camps that a territory card not played may have left them
    (P1): every camp with 3 or 4 players, whose hands are played out by the end of a round;
    with 2, where discards leave the game unplayed, those whose card is left in a hand."""
    position = state.position
    owner = position.owner
    camps = [sq for sq, card in position.building.items() if owner.get(sq) == player and card.startswith("camp")]
    if state.seats > 2:
        return camps
    left = {card for hand in state.hands.values() for card in hand}
    return [sq for sq in camps if sq in left]


def _lost(state: State, player: str) -> list[str]:
    """The squares ``player`` controlled at a harvest and no longer does: a territory card
    played there took them (P1)."""
    had = 0
    for harvest in state.harvests:  # as bitmasks, without making the fiefs of each harvest
        if isinstance(harvest, Harvested):
            had |= harvest.board.owned.get(player, 0)
        else:
            had |= mask(sq for fief in harvest.get(player, ()) for sq in fief.squares)
    return list(names(had & ~state.position.owned.get(player, 0)))


def _dealt_wrong(state: State, event: Deal, rule: str, message: str) -> str | None:
    """The player whose hand the problem ``rule`` (``message``) of the deal ``event`` changed:
    the one dealt a card used too often (S4), or the one whose card the deck does not hold
    there (D1); None when the deal is not played (D1), or when the deck holds its cards further
    on or back (an earlier deal or draw left out or made twice: no hand differs from the deck)."""
    players = state.players
    parts = (event.hands, event.reserves or {})
    if rule == "S4":
        card = message.split(" is used ")[0]
        return next((p for part in parts for p in players if card in part.get(p, ())), None)
    deck = state.deck
    if deck is None or not message.startswith(OFF_DECK):
        return None
    dealt = [c for part in parts for p in players for c in part.get(p, ())]
    if deck[state.deck_pos - len(dealt) : state.deck_pos] == dealt:
        return None
    return next((p for p in players if f" of {p}'s " in message), None)


def _buildings(state: State, player: str) -> dict[str, str]:
    """``player``'s buildings: each square, and the card on it."""
    owner = state.position.owner
    return {sq: card for sq, card in state.position.building.items() if owner.get(sq) == player}


def _holders(state: State, event: Event) -> list[str]:
    """Who held the hand the player of the pick ``event`` picks from at the earlier turns of
    its round, the last first (none for another event, or at a round's first turn)."""
    if not isinstance(event, Pick):
        return []
    came_from = {to: p for p, to in passing_to(state).items()}
    holders, holder = [], event.player
    for _ in range(1, min(event.turn, state.turns_per_round)):
        if holder not in came_from:  # not a player (F1)
            break
        holder = came_from[holder]
        holders.append(holder)
    return list(dict.fromkeys(holders))


def _held(state: State, pick: Pick) -> list[str]:
    """The hand the player of an illegal ``pick`` picked from: the hand held, or once its
    turn is revealed, the hand passed."""
    p = pick.player
    revealed = p not in state.picks or len(state.picks) == state.seats
    return list((state.passed if revealed else state.hands).get(p, ()))


def _lacking(state: State, event: Event) -> list[str]:
    """The cards an illegal pick ``event`` keeps or discards that its hand lacks."""
    if not isinstance(event, Pick):
        return []
    hand = _held(state, event)
    return [c for c in (*event.keep, *(event.discard or ())) if c not in hand]


def _unplayed(state: State, event: Event, rule: str, message: str, held: list[str | None]) -> dict[str, list[str]]:
    """Each player's cards the problem ``rule`` (``message``) of ``event`` kept from being
    played as the log's game has them: an illegal pick's whole hand (the hand held, or once
    its turn is revealed, the hand passed), the hands a gap passes on unplayed, a draw's
    cards (those it and the deck do not share, if it is not the deck's) and its provisions
    card (a P3: the draw may be another's), and the squares such a draw took from their
    players (``_taken``; ``held``: who held each of its cards before it), every player's
    holdings at a harvest missing."""
    if rule in ("D2", "D3", "D5") and isinstance(event, Pick):
        return {event.player: [*event.keep, *_held(state, event)]}
    if isinstance(event, Draw):
        if rule == "P3" and TOP in message:  # the cards the log and the deck do not share
            deck = message.split(TOP)[1].split(", ")
            off = [c for c in event.cards if c not in deck]
            drawn = off + [c for c in deck if c not in event.cards]
        else:
            off = [message.split(" is used ")[0]] if rule == "S4" else []
            drawn = list(event.cards)
        provisions = ["provisions"] if rule == "P3" else []
        unplayed = {event.player: [*drawn, *provisions]}
        for player, square in _taken(state, event, off, held):
            unplayed.setdefault(player, []).append(square)
        return unplayed
    if rule in ("T1", "D4") and is_gap(message):
        if " has no harvest event; " in message:
            return {p: [] for p in state.players}
        return {p: list(state.passed.get(p, ())) for p in gap_players(message)}
    if isinstance(event, Build) and rule != "F1":
        return {event.player: []}
    return {}


def _taken(state: State, event: Draw, off: list[str], held: list[str | None]) -> list[tuple[str, str]]:
    """The squares the draw ``event``, played, took from the players who controlled them
    before (``held``, by card), as (player, square), where the log's game did not: of its
    cards ``off`` (not the deck's, P3, or the card used too often, S4), a territory another
    player holds is played all the same (P1), and their holdings are not the log's. A card
    the deck also has took the square in the log's game."""
    owner = state.position.owner
    return [
        (before, card)
        for card, before in zip(event.cards, held)
        if card in off and before is not None and before != event.player and owner.get(card) == event.player
    ]


def _named_in(text: bytes) -> tuple[str | None, list[str]]:
    """The ``player`` of an event line that is not a valid event, and the ``cards`` of a
    draw's, as far as they can be read."""
    try:
        value = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):  # not JSON, or nested too deep to read (F1)
        return None, []
    if not isinstance(value, dict):
        return None, []
    player, cards = value.get("player"), value.get("cards")
    drawn = [c for c in cards if isinstance(c, str) and c in CARDS] if isinstance(cards, list) else []
    return player if isinstance(player, str) else None, drawn


class Playing:
    """A log being played (``play``), one shape for every consumer: iterating it gives one
    ``Step`` per event, as the event is read, carrying the problems found on its line and
    on the lines before it that are not events (F1). Once the steps are done, ``after``
    holds the problems found after the last event: the F1 lines that follow it, and the
    end-of-log problems (T1) unless ``partial``; for a log without any event, every problem;
    and ``meta`` the game event's meta.

    >>> game = '{"type":"game","format":"bkref/1","players":["ann","bob"]}'
    >>> played = play(f"{game}\\nnot json\\n{game}")
    >>> [(step.line, [d.rule for d in step.diagnostics]) for step in played]
    [(1, []), (3, ['F1', 'T1'])]
    >>> played = play(f"{game}\\n{game}")
    >>> [(step.line, [d.rule for d in step.diagnostics]) for step in played]
    [(1, []), (2, ['T1'])]
    >>> print(played.after[0].text())
    <text>:2: T1 the log ends before the deal of round 1; a game has 4 rounds and an end event
    """

    def __init__(self, source: LogSource, name: str, keep: bool, partial: bool) -> None:
        self.name = name
        """The name of the log in its diagnostics."""
        self.after: list[Diagnostic] = []
        self.meta: dict[str, Any] | None = None
        """The game event's meta, once the steps are done."""
        self._steps = self._play(source, keep, partial)

    def __iter__(self) -> Playing:
        return self

    def __next__(self) -> Step:
        return next(self._steps)

    def _play(self, source: LogSource, keep: bool, partial: bool) -> Iterator[Step]:
        state = State()
        run = _Run(self.name, state, partial)
        unread: list[Diagnostic] = []  # the F1 problems since the last event
        with blocks_of(source) as blocks, closing(run.diagnostics(blocks, steps=True)) as items:
            for item in items:
                if isinstance(item, Diagnostic):
                    unread.append(item)
                    continue
                line, event, found = item
                yield Step(line, event, state.copy() if keep else state, unread + found if unread else found)
                unread = []
        self.after, self.meta = unread, run.meta


def play(source: LogSource, label: str | None = None, *, keep: bool = False, partial: bool = False) -> Playing:
    """Play the log from ``source`` (see ``bkref.io.sources``) event by event, as it is read.

    Iterating gives a ``Step`` per event read (with a copy of the state when ``keep``, else
    the live state), with the problems of its line and of the lines before it; ``after``
    then holds the rest (see ``Playing``). ``label`` names the log in diagnostics (default:
    its path). Raises ``OSError`` when the source cannot be read.
    """
    return Playing(source, label if label is not None else name_of(source), keep, partial)


class NoEvent(Exception):
    """A log with no event to play: its problems (``diagnostics``, perhaps none) say why."""

    def __init__(self, name: str, diagnostics: list[Diagnostic]) -> None:
        super().__init__(diagnostics[0].text() if diagnostics else f"{name}: the log holds no event")
        self.name = name
        self.diagnostics = diagnostics


def check(
    source: LogSource,
    label: str | None = None,
    *,
    partial: bool = False,
    keep_state: bool = True,
    on_diagnostic: Callable[[Diagnostic], object] | None = None,
) -> Report:
    """Check one log from ``source`` (see ``bkref.io.sources``); a source that cannot be read
    becomes an F1 diagnostic, never an exception.

    ``label`` names the log in diagnostics (default: its path, or ``-`` for standard
    input). ``on_diagnostic`` is called with each diagnostic as soon as its line is
    checked (to show problems of a game still being written, or to write every problem of
    a huge log in constant memory): those are counted in the report, not kept. The report
    keeps the final state unless ``keep_state`` is false (to send it cheaply between
    processes).

    >>> game = '{"type":"game","format":"bkref/1","players":["ann"]}'
    >>> report = check(game, on_diagnostic=lambda d: print(d.text()))
    <text>:1: S1 1 player; Bunny Kingdom is for 2 to 4
    >>> report.diagnostics, report.handed, report.status
    ([], {'S1': 1}, 1)
    """
    state = State()
    report = Report(label if label is not None else name_of(source), state=state)
    run = _Run(report.path, state, partial)
    diagnostics, handed = report.diagnostics, report.handed
    try:
        # closing: the run ends (and counts its events) before the report is made, also when
        # on_diagnostic stops it
        with blocks_of(source) as blocks, closing(run.diagnostics(blocks, steps=False)) as found_all:
            for found in found_all:
                if on_diagnostic is None:
                    diagnostics.append(found)  # type: ignore[arg-type]
                else:
                    rule = found.rule  # type: ignore[union-attr]
                    handed[rule] = handed.get(rule, 0) + 1
                    on_diagnostic(found)  # type: ignore[arg-type]
    except OSError as error:
        diagnostics.append(Diagnostic(report.path, 0, None, "F1", unreadable(error)))
    report.events, report.meta = run.events, run.meta
    report.complete, report.where = state.complete, state.where()
    if not keep_state:
        report.state = None
    return report


def log_paths(paths: list[Path]) -> LogPaths:
    """The logs named by ``paths`` (``LogPaths``): files as given, folders as every ``*.jsonl``
    below them (the suffix in any case: ``*.JSONL`` too), sorted.

    A path that cannot be a log (missing, or a folder with no log) comes out as a Report
    holding one F1 diagnostic. ``-`` (``STDIN``) comes out as it is.

    >>> logs = log_paths([Path("replays"), Path("no/such.jsonl")])
    >>> logs[:-1] == sorted(Path("replays").rglob("*.jsonl")), len(logs), logs[-1].diagnostics[0].message
    (True, 99, 'no such file')
    """
    return LogPaths(paths)


class LogPaths(Made[Path | Report]):
    """The logs named by paths (``log_paths``), in order, each made when asked for: a folder's
    are held as their names from it, packed (``_Found``), so a folder of a million logs costs
    their names' bytes, not a ``Path`` each."""

    def __init__(self, paths: list[Path]) -> None:
        self.parts: list[_Found | Path | Report] = []
        self.ends = array("q")  # the index after each part's last log
        for path in paths:
            part: _Found | Path | Report
            if path == STDIN:
                part = path
            elif path.is_dir():
                part = _Found(path)
                if not len(part):
                    part = _refused(path, "no *.jsonl log in this folder or below it")
            elif path.exists():
                part = path
            else:
                part = _refused(path, not_a_file(path) or "no such file")
            self.parts.append(part)
            self.ends.append(len(self) + (len(part) if isinstance(part, _Found) else 1))

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    def refused(self) -> list[Report]:
        """Those of the logs that cannot be read as one (in order), the others not made."""
        found: list[Report] = []
        for part in self.parts:
            if isinstance(part, Report):
                found.append(part)
            elif isinstance(part, _Found):
                found += [report for i in sorted(part.refused) if isinstance(report := part.make(i), Report)]
        return found

    def make(self, index: int) -> Path | Report:
        n = bisect_right(self.ends, index)
        part = self.parts[n]
        return part.make(index - (self.ends[n - 1] if n else 0)) if isinstance(part, _Found) else part


class _Found(Made[Path | Report]):
    """The ``*.jsonl`` below ``folder``, sorted as their ``Path``s sort (by their parts: a
    folder's logs before a log named as the folder and more), their paths from it packed in
    one ``bytes``. Each folder is listed once (``os.scandir``) and its entries sorted; a
    folder's link is not followed (as ``Path.rglob``), nor a folder that cannot be listed
    read. An entry that is no file (a link to nothing, a named pipe) comes out as a Report
    saying why (``not_a_file``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        names = bytearray()
        self.ends = array("q")
        self.refused: dict[int, str] = {}  # by index: the few entries that are no file
        for name, is_file in _walk(os.fspath(folder), ""):
            if not is_file and (why := not_a_file(folder / name)) is not None:
                self.refused[len(self.ends)] = why
            names += os.fsencode(name)
            self.ends.append(len(names))
        self.names = bytes(names)

    def __len__(self) -> int:
        return len(self.ends)

    def make(self, index: int) -> Path | Report:
        path = self.folder / os.fsdecode(self.names[self.ends[index - 1] if index else 0 : self.ends[index]])
        why = self.refused.get(index)
        return path if why is None else _refused(path, why)


def _walk(folder: str, under: str) -> Iterator[tuple[str, bool]]:
    """The ``*.jsonl`` below ``folder`` (their paths from it, after ``under``), sorted, each
    with whether it is a file."""
    logs: dict[str, bool] = {}
    folders: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.name)
                elif _is_log(entry.name) and not _followed(entry.is_dir):
                    logs[entry.name] = _followed(entry.is_file)
    except OSError:  # as Path.rglob: a folder that cannot be listed holds no log
        return
    below = set(folders)
    for name in sorted([*logs, *folders]):
        if name in below:
            yield from _walk(os.path.join(folder, name), f"{under}{name}{os.sep}")
        else:
            yield f"{under}{name}", logs[name]


def _is_log(name: str) -> bool:
    """Whether a file name's suffix (``Path.suffix``: from its last dot, not a leading one) is ``.jsonl``, any case."""
    dot = name.rfind(".")
    return dot > 0 and name[dot:].lower() == ".jsonl"


def _followed(ask: Callable[[], bool]) -> bool:
    """What an entry's ``is_dir`` or ``is_file`` says of what its link leads to: False when it
    cannot be known (a link to nothing, a link loop), as ``Path.is_dir``."""
    try:
        return ask()
    except OSError:
        return False


def _refused(path: Path, message: str) -> Report:
    report = Report(str(path))
    report.diagnostics.append(Diagnostic(str(path), 0, None, "F1", message))
    return report


def check_item(
    item: Path | Report,
    partial: bool = False,
    *,
    stdin: LogSource | None = None,
    stdin_name: str = "-",
    on_diagnostic: Callable[[Diagnostic], object] | None = None,
) -> Report:
    """The report of one item of ``log_paths``, without its final state (cheap to send
    between processes).

    ``-`` is the log ``stdin`` (if given), named ``stdin_name``; ``on_diagnostic`` gets
    each diagnostic as soon as it is found (see ``check``).
    """
    if isinstance(item, Report):
        return item
    if item == STDIN and stdin is not None:
        return check(stdin, stdin_name, partial=partial, keep_state=False, on_diagnostic=on_diagnostic)
    return check(item, partial=partial, keep_state=False, on_diagnostic=on_diagnostic)
