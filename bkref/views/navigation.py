"""A replay's positions and the moves between them, in the terminal and full screen alike.

``load`` plays the log through the referee once and keeps its events and a state every
``CHECKPOINT`` events (a ``Replay``): a position is made again from the kept state before
it, so the memory a replay needs grows with its events, not with a state per event.
``event_index`` and ``harvest_index`` find the position a number names. ``go`` moves to the
next or previous event, turn or round; ``move`` turns one typed line into the event to show
(``bkref.views.printout``), and ``bkref.views.viewer`` single keys, both through ``go``.

``stops`` are the events a move lands on with ``--by event``, ``turn`` or ``round``:
a turn stops once all its picks are revealed and its provisions drawn (a round's
construction is one stop too); a round stops at its harvest.

>>> from pathlib import Path
>>> steps = load(Path("replays/worked-example.jsonl"))
>>> len(steps), steps[0].line
(23, 4)
>>> move(steps, 0, ""), move(steps, 0, "b"), move(steps, 5, "12"), move(steps, 5, "q")
((1, ''), (0, 'this is the first event'), (11, ''), (None, ''))
>>> move(steps, 5, "r"), move(steps, 22, "R"), move(steps, 5, "t"), move(steps, 5, "T"), move(steps, 5, "G")
((22, ''), (0, ''), (7, ''), (4, ''), (22, ''))
>>> stops(steps, "turn")[:4], stops(steps, "round")
([0, 1, 4, 7], [0, 22])
>>> move(steps, 2, "", stops(steps, "turn")), move(steps, 2, "b", stops(steps, "turn"))
((4, ''), (1, ''))
>>> harvest_index(steps, 1), event_index(steps, 23)
(22, 22)
>>> harvest_index(steps, 2)
Traceback (most recent call last):
...
bkref.views.navigation.NoHarvest: round 2 (the log stops before the deal of round 2)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

from bkref.game.engine import History, State
from bkref.game.events import Build, Draw, Event, Pick
from bkref.io.diagnostics import Diagnostic, exit_status
from bkref.io.lazy import Made
from bkref.io.referee import NoEvent, Step, play
from bkref.io.sources import LogSource


class Replay(Made[Step]):
    """Every event of a log, each with the state after it (a ``Step``): the game's
    ``History`` (a state every ``CHECKPOINT`` events and the few asked for last, not a
    state per event), with each event's line and problems.

    ``replay[i]`` is the step of event ``i``, its state played from the nearest state the
    history keeps: going on or back one event plays at most one event or ``CHECKPOINT``.
    Each step's problems (``diagnostics``), and how many harvests the game has had after
    it (``harvests``), are kept, so that finding a round, a stop or the exit status plays
    nothing; and how many problems the events before each step had, and on how many lines,
    so that ``problems_before`` reads no problem again.
    """

    def __init__(self, played: Iterable[Step]) -> None:
        self.history = History()
        self.events = self.history.events
        self.lines: list[int] = []
        self.diagnostics: list[list[Diagnostic]] = []
        self.harvests: list[int] = []
        self._problems = array("q")  # the problems of the events before each event
        self._problem_lines: list[int] = []  # the lines with a problem, each once, as found
        self._lined = array("q")  # how many of those the events before each event had
        found: set[int] = set()
        for step in played:  # the live state of ``play``
            self._problems.append(self._problems[-1] + len(self.diagnostics[-1]) if self.events else 0)
            self._lined.append(len(self._problem_lines))
            for d in step.diagnostics:
                if d.line not in found:
                    found.add(d.line)
                    self._problem_lines.append(d.line)
            self.history.follow(step.event, step.state)
            self.lines.append(step.line)
            self.diagnostics.append(step.diagnostics)
            self.harvests.append(step.state.harvests_done)

    def __len__(self) -> int:
        return len(self.events)

    def make(self, index: int) -> Step:
        return Step(self.lines[index], self.events[index], self.history.state_after(index + 1), self.diagnostics[index])

    def problems_before(self, index: int) -> tuple[int, list[int]]:
        """How many problems the events before event ``index`` had, and their lines, each once,
        in the order they were found: what the replay's screen and printout say of them at each
        step, without reading thousands of problems again at each step of a log full of them.
        """
        return self._problems[index], self._problem_lines[: self._lined[index]]


def load(source: LogSource, label: str | None = None) -> Replay:
    """Every event of the log from ``source`` with the state after it; ``label`` names the log.

    A log that stops early replays as far as it goes. A line that is not an event (F1)
    is shown with the event after it (the last one if none follows). Raises ``NoEvent``
    for a log without any event, ``OSError`` for a source that cannot be read.
    """
    played = play(source, label, partial=True)
    steps = Replay(played)
    if not steps:
        raise NoEvent(played.name, played.after)
    if played.after:
        steps.diagnostics[-1] = steps.diagnostics[-1] + played.after
    return steps


def exit_status_of(steps: Replay) -> int:
    """The exit status of the whole log, as ``validate`` gives it (a log that stops early is not a problem)."""
    return exit_status([d for found in steps.diagnostics for d in found])


def state_before(steps: Sequence[Step], index: int) -> State:
    """The state before event ``index + 1`` of a replay: the one after the event before, or a new game."""
    return steps[index - 1].state if index else State()


class NoSuchEvent(LookupError):
    """An event number the log does not have: ``number``, and the log's count of ``events``."""

    def __init__(self, number: int, events: int) -> None:
        super().__init__(f"event {number} (the log has events 1 to {events})")
        self.number, self.events = number, events


class NoHarvest(LookupError):
    """A round the log has no harvest of: ``round``, and where the log ``stops``."""

    def __init__(self, round_: int, stops: str) -> None:
        super().__init__(f"round {round_} (the log stops {stops})")
        self.round, self.stops = round_, stops


def event_index(steps: Sequence[Step], number: int) -> int:
    """The index of event ``number`` (counted from 1); ``NoSuchEvent`` if the log has none."""
    if not 1 <= number <= len(steps):
        raise NoSuchEvent(number, len(steps))
    return number - 1


def harvest_index(steps: Replay, round_: int) -> int:
    """The index of the harvest of round ``round_`` (the event that closes it); ``NoHarvest`` if none."""
    for i, harvests in enumerate(steps.harvests):
        if harvests >= round_:
            return i
    raise NoHarvest(round_, steps[-1].state.where())


def _group(event: Event) -> tuple[object, ...] | None:
    """The turn or construction an event belongs to; None for an event that stands alone."""
    if isinstance(event, Pick | Draw):
        return ("turn", event.round, event.turn)
    if isinstance(event, Build):
        return ("build", event.round)
    return None


def stops(steps: Replay, by: str) -> list[int]:
    """The indices a move lands on, ``by`` event, turn or round (always the first and the last)."""
    last = len(steps) - 1
    if by == "event":
        return list(range(len(steps)))
    if by == "turn":
        groups = [_group(event) for event in steps.events]
        return [i for i, g in enumerate(groups) if i in (0, last) or g is None or g != groups[i + 1]]
    harvests = steps.harvests
    harvested = [i for i in range(1, last) if harvests[i] > harvests[i - 1]]
    return sorted({0, *harvested, last})


def after(stops: Sequence[int], index: int) -> int | None:
    """The first stop after ``index``, if any."""
    return next((i for i in stops if i > index), None)


def before(stops: Sequence[int], index: int) -> int | None:
    """The last stop before ``index``, if any."""
    return next((i for i in reversed(stops) if i < index), None)


LINES = {
    **{"": "next", "n": "next", "b": "back", "t": "next turn", "T": "previous turn"},
    **{"r": "next round", "R": "previous round", "g": "start", "G": "end"},
}
"""What a line typed or piped to ``replay --step`` off a terminal does (the viewer's letters)."""


def go(steps: Replay, index: int, action: str, by: Sequence[int] | None = None) -> tuple[int, str]:
    """Where ``action`` (a value of ``LINES``) leads from event ``index``: the index and a note.

    "next" and "back" go to the next or previous of the stops ``by`` (every event if None); a
    turn or a round to the next or previous turn's or round's stop: a round's is its harvest.
    """
    last = len(steps) - 1
    if action in ("start", "end"):
        return (0 if action == "start" else last), ""
    unit = action.split()[-1]
    landing = stops(steps, unit) if unit in ("turn", "round") else by if by is not None else range(len(steps))
    backward = action in ("back", "previous turn", "previous round")
    found = (before if backward else after)(landing, index)
    if found is None:  # every list of stops holds the first and the last event
        return index, "this is the first event" if backward else "this is the last event"
    return found, ""


def move(steps: Replay, index: int, key: str, by: Sequence[int] | None = None) -> tuple[int | None, str]:
    """Where one typed line leads from event ``index``: the next index (None to quit) and a note.

    Enter, ``n`` and ``b`` go to the next or previous of the stops ``by`` (every event if None);
    the other letters of ``LINES`` as their name says; a number to that event.
    """
    key = key.strip()
    action = LINES.get(key, LINES.get(key.lower()) if key.lower() in ("n", "b") else None)
    if action is not None:
        return go(steps, index, action, by)
    if key.lower() == "q":
        return None, ""
    if key.isdecimal():
        if 1 <= int(key) <= len(steps):
            return int(key) - 1, ""
        return index, f"no event {key}: this log has events 1 to {len(steps)}"
    return index, f"unknown key {key!r}: {HELP}"


HELP = "Enter or n next, b back, t/T turn, r/R round, g/G first/last, a number: that event, q quits"
