"""The event of a replay in words: what happened, where the game stands, what came before.

Names from the log are written with their control characters escaped (``printable``).
``seen_by`` (``--as PLAYER``) tells the event as that player saw it (``bkref.views.seenby``, over
``bkref.game.knowledge``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bkref.game.catalog import BOARD, CARDS
from bkref.game.engine import KEEP, State
from bkref.game.events import Build, Deal, Draw, Event, Game, Harvest, Pick
from bkref.game.fiefs import yield_of
from bkref.game.position import Position
from bkref.game.words import count, joined
from bkref.io.diagnostics import printable
from bkref.io.referee import Step
from bkref.views.navigation import Replay
from bkref.views.seenby import drawn_seen, kept_seen
from bkref.views.squares import building_code

_A_TERRAIN = {
    "forest": "a forest",
    "sea": "a sea",
    "field": "a field",
    "plains": "plains",
    "mountain": "a mountain",
    "city": "a printed city",
}


def stage(state: State, event: Event | None = None) -> str:
    """Where the game stands after ``event``, in a player's words: a pick or a provisions draw
    names its own turn, though the state after a turn's last one is already at the next.

    >>> from bkref.game.events import Draw
    >>> state = State()
    >>> state.phase, state.round, state.turn, state.turns_per_round = "exploring", 1, 2, 6
    >>> stage(state), stage(state, Draw(round=1, turn=1, player="bob", cards=["A1", "A2"]))
    ('round 1, turn 2 of 6: exploration', 'round 1, turn 1 of 6: exploration')
    """
    r, phase = state.round, state.phase
    if (
        isinstance(event, Pick | Draw)
        and phase in ("exploring", "building")
        and event.round == r
        and 1 <= event.turn <= state.turns_per_round
    ):
        return f"round {r}, turn {event.turn} of {state.turns_per_round}: exploration"
    if phase == "exploring":
        return f"round {r}, turn {state.turn} of {state.turns_per_round}: exploration"
    if phase == "building":
        return f"round {r}: construction"
    if phase == "dealing":
        return f"round {r} harvested" if r else "before round 1"
    return {"setup": "before the game", "ending": "4 rounds harvested: the end is next", "over": "game over"}[phase]


def _claims(position: Position, player: str, square: str) -> str:
    """What playing territory ``square`` does (P1), a camp on it included."""
    words = f"claims {_A_TERRAIN[BOARD[square].terrain]}"
    camp = position.building.get(square, "")
    if camp.startswith("camp"):
        holder = position.owner.get(square)
        if holder == player:
            words += f"; {player}'s own {camp} leaves, the square can take a building"
        else:
            words += f", and {holder}'s {camp} leaves"
    return words


def _plays(position: Position, player: str, card: str | None) -> str:
    """One line: ``player`` plays ``card`` and what it does (P1-P4); None is a parchment unseen (I4)."""
    if card is None:
        return f"{player} plays a parchment, kept face down"
    kind = CARDS[card].kind
    if kind == "territory":
        what = _claims(position, player, card)
    elif kind == "provisions":
        what = "draws 2 cards"
    elif CARDS[card].is_parchment:
        what = "a parchment, kept face down"
    else:
        what = "a building, into the supply"
    return f"{player} plays {card}: {what}"


def _claim(event: Event) -> str:
    """What a log line says happened, as written, for an event the referee skipped."""
    if isinstance(event, Game):
        return f"a game for {joined(event.players)}"
    if isinstance(event, Deal):
        return f"the deal of round {event.round}"
    if isinstance(event, Pick):
        keeps = joined(event.keep) if event.keep else "nothing"
        discard = f" and discards {joined(event.discard)}" if event.discard else ""
        return f"{event.player} picks for turn {event.turn}: keeps {keeps}{discard}"
    if isinstance(event, Draw):
        return f"{event.player}'s provisions draws {joined(event.cards) if event.cards else 'nothing'}"
    if isinstance(event, Build):
        return f"{event.player} builds {event.card} on {joined(event.at) if event.at else 'no square'}"
    if isinstance(event, Harvest):
        return f"the harvest of round {event.round}"
    return "the end of the game"


def _revealed(picks: dict[str, Pick | None], before: State, seen_by: str | None) -> list[str]:
    """The cards every player's pick plays, in seat order (D4); a missing or illegal pick plays none."""
    lines = []
    for p in before.players:
        pick = picks.get(p)
        if p not in picks:
            lines.append(f"  {p} has no pick: the hand passes on unplayed")
        elif pick is None:
            lines.append(f"  {p}'s pick breaks the rules: none of its cards is played")
        else:
            keep, discard = kept_seen(pick, seen_by)
            lines += ["  " + _plays(before.position, p, card) for card in keep]
            if discard:
                known = [card for card in discard if card is not None]
                lines.append(f"  {p} discards {joined(known) if known else count(len(discard), 'card')}")
    return lines


def _pick_lines(step: Step, before: State, seen_by: str | None) -> list[str]:
    """A pick stays face down, unless it is the turn's last: then every kept card is played (D4).

    A pick for a later turn first closes the turns the log left unfinished, as the referee does (T1).
    """
    event = step.event
    assert isinstance(event, Pick)
    # who picked, and so the order of the picks, is another's secret until the turn's last pick (I3)
    picker = event.player if seen_by in (None, event.player) else "another player"
    lines: list[str] = []
    picks = before.picks
    if event.turn > before.turn:
        if len(picks) < len(before.players):
            lines.append(f"turn {before.turn} ends without every pick; the picks made are played")
            lines += _revealed(picks, before, seen_by)
        else:
            lines.append(f"turn {before.turn} ends before its provisions are drawn; their cards are not played")
        if event.turn > before.turn + 1:
            lines.append(f"turns {before.turn + 1} to {event.turn - 1} have no pick: the hands pass on unplayed")
        picks = {}
    if len(picks) + 1 < len(before.players):
        hidden = "keeps 1 card and discards 1" if KEEP[len(before.players)] == 1 else "keeps 2 cards"
        if seen_by == event.player:  # a player knows their own pick
            hidden = f"keeps {joined(event.keep)}" + (f" and discards {joined(event.discard)}" if event.discard else "")
        face_down = f"{picker} picks for turn {event.turn}: {hidden}, face down until every player has picked"
        return [*lines, face_down]
    own_problem = any(d.line == step.line for d in step.diagnostics)
    revealed = _revealed({**picks, event.player: None if own_problem else event}, before, seen_by)
    return [*lines, f"{picker} picks last for turn {event.turn}: every pick is revealed and played", *revealed]


def describe(step: Step, before: State, seen_by: str | None = None) -> list[str]:
    """The event of ``step`` in words, given the state ``before`` it (first line, then details).

    With ``seen_by``, as that player saw it: the others' parchments and discards unnamed.
    Names from the log are written with their control characters escaped (``printable``).
    """
    return [printable(line) for line in _describe(step, before, seen_by)]


def _describe(step: Step, before: State, seen_by: str | None) -> list[str]:
    event, after = step.event, step.state
    if before.fields() == after.fields():  # the referee skipped the event: nothing of it happened
        return [f"{_claim(event)}: illegal, skipped (the position does not change)"]
    if isinstance(event, Game):
        return [f"a game for {joined(event.players)}, in seat order"]
    if isinstance(event, Deal):
        closed = (
            [f"round {before.round} ends without its harvest event: it is harvested with no trading post declared"]
            if after.harvests_done > before.harvests_done
            else []
        )
        if after.round != event.round:  # the round was closed, then the deal itself refused
            return [*closed, f"the deal of round {event.round}: illegal, skipped"]
        first = after.players[0]
        reserve = f", and {after.reserve_size(first)} to each reserve" if after.has_reserves else ""
        return [*closed, f"the deal of round {event.round}: {len(after.hand_of(first))} cards to each hand{reserve}"]
    if isinstance(event, Pick):
        return _pick_lines(step, before, seen_by)
    if isinstance(event, Draw):
        drawn = drawn_seen(event, seen_by)
        return [f"{event.player}'s provisions draws {joined([card or 'a parchment' for card in drawn])}"] + [
            "  " + _plays(before.position, event.player, card) for card in drawn
        ]
    if isinstance(event, Build):
        return [_build_words(event, after.position)]
    if isinstance(event, Harvest):
        carrots = ", ".join(f"{p} {yield_of(after.last_harvest(p))}" for p in after.players)
        lines = [f"the harvest of round {event.round}: {carrots} carrots"]
        declared = after.position.declared  # as the referee took them: a wrong declaration is ignored (H1)
        lines += [
            f"  {after.owner_of(sq)}'s trading post on {sq} makes {resource}" for sq, resource in declared.items()
        ]
        return lines
    lines = ["the end of the game: every parchment is revealed and scored"]
    for p, chosen in sorted(after.copies.items(), key=lambda item: after.players.index(item[0])):
        lines += [f"  {p}'s {card} copies {target or 'nothing'}" for card, target in chosen.items()]
    return lines


def _build_words(event: Build, position: Position) -> str:
    card, p, at = CARDS[event.card], event.player, event.at
    if card.kind == "sky_tower":
        return (
            f"{p} builds a sky tower on {at[0]} and {at[1]} ({building_code(position, at[0]).strip()}): "
            "the two squares now touch"
        )
    where = at[0]
    if card.kind == "camp":
        return f"{p} places {card.id} on {where}: claims {_A_TERRAIN[BOARD[where].terrain]}"
    if card.kind == "city":
        return f"{p} builds {card.id} on {where} (strength {card.strength})"
    makes = card.produces.replace("_", " ") if card.produces else "the resource declared at each harvest"
    return f"{p} builds {card.id} on {where} (produces {makes})"


LISTED: Final = 20
"""The most lines ``earlier_problems`` lists; it counts the rest."""


def earlier_problems(steps: Replay, index: int) -> str | None:
    """How many problems the log had before event ``index + 1``, and on which lines: the first
    ``LISTED`` of them, then how many more (a log with a problem on each of its thousands of
    lines would make a sentence longer than any screen, and slow every step).

    >>> from bkref.views.navigation import load
    >>> game = '{"type":"game","format":"bkref/1","players":["ann","bob"]}'
    >>> steps = load("\\n".join([game, "not json", game, *["not json"] * 24, game, game]))
    >>> earlier_problems(steps, 0), earlier_problems(steps, 2)
    (None, '2 earlier problems in this log, on lines 2 and 3')
    >>> listed = earlier_problems(steps, 3)
    >>> listed.startswith("27 earlier problems in this log, on lines 2, 3, 4, 5,"), listed[-21:]
    (True, '19, 20, 21 and 7 more')
    """
    problems, lines = steps.problems_before(index)
    if not problems:
        return None
    where = [str(n) for n in sorted(lines)[:LISTED]] + ([f"{len(lines) - LISTED} more"] if len(lines) > LISTED else [])
    on = "line" if len(lines) == 1 else "lines"
    return f"{count(problems, 'earlier problem')} in this log, on {on} {joined(where)}"


def stops_here(steps: Sequence[Step], index: int) -> str | None:
    """At the last event of a log that stops before the end of the game: where it stops."""
    state = steps[index].state
    return f"the log stops here, {state.where()}" if index == len(steps) - 1 and not state.complete else None
