"""The referee's engine: a game state and the events applied to it.

``State`` is the one state object: a ``bkref.game.table.Table`` (its fields and the
questions asked of it) that plays events. ``state.play(event)`` applies an event in
place and returns the violations it found (empty when legal), and ``apply(state,
event)`` is the pure form, which leaves ``state`` untouched and returns the next state.
Replay and stepping back keep the states. There is no I/O here: reading logs is ``bkref.io.logfile``.

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

__all__ = ["HAND_SIZE", "KEEP", "ROUNDS", "Due", "History", "State", "Violation", "apply"]


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


class History:
    """A game played event by event that can step back, like a chess board's push and pop.

    >>> from bkref.game.events import Game, Deal
    >>> game = History()
    >>> game.push(Game(format="bkref/1", players=["ann", "bob", "cid"]))
    []
    >>> game.state.due().kind, len(game.events)
    ('deal', 1)
    >>> game.pop().players, game.state.due().kind
    (['ann', 'bob', 'cid'], 'game')
    """

    def __init__(self) -> None:
        self.states = [State()]
        self.events: list[Event] = []

    @property
    def state(self) -> State:
        """The state after the events so far (do not change it: ``push`` the next event)."""
        return self.states[-1]

    def push(self, event: Event) -> list[Violation]:
        """Play ``event`` on a copy of the state, keep both, and return what it broke."""
        after, found = apply(self.state, event)
        self.states.append(after)
        self.events.append(event)
        return found

    def pop(self) -> Event:
        """Step back over the last event; return it. ``IndexError`` when there is none."""
        event = self.events.pop()
        self.states.pop()
        return event
