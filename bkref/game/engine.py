"""The referee's engine: a game state and the events applied to it.

``State`` is the one state object: a ``bkref.game.table.Table`` (its fields and the
questions asked of it) that plays events. ``state.play(event)`` applies an event in
place and returns the violations it found (empty when legal), and ``apply(state,
event)`` is the pure form, which leaves ``state`` untouched and returns the next state.
``History`` keeps a game's events, to step back and to go to any position. There is no
I/O here: reading logs is ``bkref.io.logfile``.

An illegal event is reported and skipped, so that one run lists every problem: its
effects are not applied. Some events are still applied after a report, because what
they record did happen at the table and skipping them would only bury the real problem
under consequences: a deal or draw whose cards are not the deck's next ones (D1, P3) or
exceed a card's copies (S4); a pick whose cards break D2/D3/D5, which still counts as
that player's pick of the turn (none of its cards is played); a harvest with a wrong
trading post declaration (H1: an undeclared post produces nothing); an end with a
wrong copy choice (E7: that card copies nothing). And when a log moves on to a later
turn or round while events of the current one are missing (a pick, a draw, a harvest),
the gap is reported once (T1) and closed, and the log is followed from there.

Each event goes through ``bkref.game.flow`` (its phase, turn and round, the gaps, what
follows), which leaves its checks and effect to its stage module (``dealing``,
``exploring``, ``building``, ``harvesting``, ``ending``), as boardgame.io keeps its flow
apart from its moves.

>>> from bkref.game.events import Game, Deal
>>> state = State()
>>> state.play(Game(format="bkref/1", players=["ann", "bob", "cid"]))
[]
>>> [v.rule for v in state.play(Deal(round=2, hands={}))]
['T1']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bkref.game import ending, exploring, flow, moves
from bkref.game.events import Build, Deal, Draw, End, Event, Game, Harvest, Pick
from bkref.game.flow import on_build, on_pick
from bkref.game.results import FinalScore
from bkref.game.table import HAND_SIZE, KEEP, ROUNDS, Due, Skip, Table, Violation

__all__ = ["CHECKPOINT", "HAND_SIZE", "KEEP", "ROUNDS", "Due", "History", "State", "Violation", "apply"]


class State(Table):
    """A game in progress, as the referee sees it: a ``Table`` that plays events.

    Phases (``bkref.game.table.Phase``): ``setup`` (no game event yet), ``dealing`` (the
    next round's deal is due), ``exploring``, ``building``, ``ending`` (after the 4th
    harvest), ``over``.
    """

    def due(self) -> Due:
        """The decision the game waits for now, and whose it is (``bkref.game.flow.due``)."""
        return flow.due(self)

    def is_legal(self, event: Event) -> bool:
        """True when ``event`` breaks no rule now (and leaves this state as it is)."""
        return not self.copy().play(event)

    def legal_moves(self, player: str | None = None, lister: moves.Lister | None = None) -> moves.LegalMoves:
        """The legal moves of ``player`` (default: every player it is due from) at the decision
        now due (``bkref.game.moves.LegalMoves``); ``lister`` keeps what they list for the next."""
        return moves.LegalMoves(self, player, lister)

    def final_explained(self) -> FinalScore | None:
        """``final`` with what each parchment counted; ``final`` itself holds the points only,
        unless an ``expect`` of the end event disagreed (X1)."""
        return ending.explained(self)

    def play_card(self, player: str, card: str) -> None:
        """Give ``card``'s effect to ``player`` as when it is played (P1-P4), without checking anything."""
        exploring.play_card(self, player, card)

    def play(self, event: Event) -> list[Violation]:
        """Apply ``event`` in place; return what it broke (empty when legal)."""
        found: list[Violation] = []
        try:
            # the two most frequent events by name, which the compiled build calls directly
            if type(event) is Pick:
                on_pick(self, event, found)
            elif type(event) is Build:
                on_build(self, event, found)
            else:
                _HANDLERS[type(event)](self, event, found)
        except Skip as skip:
            found.append(skip.violation)
        return found

    def finish(self) -> list[Violation]:
        """What the end of the log breaks: a game stops only after its end event (T1)."""
        return flow.finish(self)


_HANDLERS: Final[dict[type, Callable[[State, Event, list[Violation]], None]]] = {
    Game: flow.on_game,  # type: ignore[dict-item]
    Deal: flow.on_deal,  # type: ignore[dict-item]
    Draw: flow.on_draw,  # type: ignore[dict-item]
    Harvest: flow.on_harvest,  # type: ignore[dict-item]
    End: flow.on_end,  # type: ignore[dict-item]
}
"""The handler of each event type but the two most frequent, which ``State.play`` calls by name."""


def apply(state: State, event: Event) -> tuple[State, list[Violation]]:
    """The pure form of ``State.play``: the next state and the violations, ``state`` unchanged."""
    new = state.copy()
    return new, new.play(event)


CHECKPOINT: Final = 64
"""Events between two states a ``History`` keeps: any position is at most this many events away."""


class History:
    """A game played event by event that can step back, like a chess board's push and pop,
    and go to any position: the one history of a game, for the library and the viewer.

    It keeps the events, a state every ``CHECKPOINT`` events and the few states asked for
    last, not a state per event: a position is at most ``CHECKPOINT`` events of play from
    a kept one, and a game of thousands of events keeps a few dozen states. ``state`` is
    the state after every event, played in place by ``push``, as a chess board is.

    >>> from bkref.game.events import Game, Deal
    >>> game = History()
    >>> game.push(Game(format="bkref/1", players=["ann", "bob", "cid"]))
    []
    >>> game.state.due().kind, len(game.events)
    ('deal', 1)
    >>> game.pop().players, game.state.due().kind
    (['ann', 'bob', 'cid'], 'game')
    """

    RECENT: Final = 4
    """The states asked for last that are kept (a replay's screen shows two: before and after)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._now = State()
        self._kept = [State()]  # the states after 0, CHECKPOINT, 2 * CHECKPOINT... events
        self._recent: dict[int, State] = {}  # the states after so many events, asked for last

    @property
    def state(self) -> State:
        """The state after the events so far, played in place: the next ``push`` or ``pop``
        changes it (``copy()`` keeps one). Do not change it yourself: ``push`` the next event."""
        return self._now

    def push(self, event: Event) -> list[Violation]:
        """Play ``event``, keep it, and return what it broke."""
        found = self._now.play(event)
        self.follow(event, self._now)
        return found

    def follow(self, event: Event, after: State) -> None:
        """Keep ``event``, which another loop has played already (the referee's): ``after``
        is the state it left, which becomes this history's ``state``."""
        self.events.append(event)
        self._now = after
        if len(self.events) % CHECKPOINT == 0:
            self._kept.append(after.copy())

    def pop(self) -> Event:
        """Step back over the last event; return it. ``IndexError`` when there is none."""
        event = self.events.pop()
        played = len(self.events)
        del self._kept[played // CHECKPOINT + 1 :]
        self._now = self._made(played).copy()  # (a recent state is of fewer events than were played: none is later)
        return event

    def state_after(self, played: int) -> State:
        """The state after the first ``played`` events (do not change it). It is played from
        the nearest state kept before it, on a copy, and kept among the last few asked for;
        after every event it is ``state`` itself, which the next ``push`` changes.

        >>> from bkref.game.events import Game
        >>> game = History()
        >>> game.push(Game(format="bkref/1", players=["ann", "bob"]))
        []
        >>> game.state_after(0).due().kind, game.state_after(1).due().kind
        ('game', 'deal')
        """
        if played == len(self.events):
            return self._now
        if not 0 <= played < len(self.events):
            raise IndexError(f"a state after {played} events, of {len(self.events)}")
        state = self._made(played)
        self._recent[played] = state  # the last made or asked for is the last to go
        if len(self._recent) > self.RECENT:
            del self._recent[next(iter(self._recent))]
        return state

    def _made(self, played: int) -> State:
        """The state after ``played`` events, from the recent ones or the nearest kept one."""
        state = self._recent.pop(played, None)
        if state is None:
            start = played - played % CHECKPOINT
            start = max((n for n in self._recent if start <= n < played), default=start)
            state = (self._recent[start] if start in self._recent else self._kept[start // CHECKPOINT]).copy()
            for event in self.events[start:played]:
                state.play(event)
        return state
