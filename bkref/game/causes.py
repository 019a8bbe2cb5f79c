"""Which earlier problem a problem follows from (issue 45): causes from what a check reads.

A problem names an earlier one, "(after the D2 at line 3)", only when the earlier problem
changed, or failed to change, something its own check reads. An event that is not played
as the log has it (illegal, skipped, missing from a gap) leaves a *mark* on each thing it
would have written; a later check that reads a marked thing follows from the problem that
left the mark. Anything else is a root, even for the same player in the same round.

The things: a ``square`` (its owner and building), a player's ``supply`` of a card, the
``hand`` of a round, the ``deck`` position, a player's ``holdings`` (what their fiefs and
parchments are made of: carrots, rabbits).

What each failed event marks (RULES.md):

- an illegal pick (D2, D3, D5), or a pick missing from its turn (T1): its hand's cards are
  never played (D4, P1-P4): the square of each territory, the player's supply of each
  building, the player's holdings;
- a deal not the deck's (D1, S4 without a deck): the deck, the hands of its round;
- a provisions draw not the deck's (P3, S4 without a deck), not played, or late (T1): the
  deck, the squares of its cards and of the deck's, the drawer's supply and holdings;
- a build not played (C2-C7, P2, S5, T1, F1): its squares and its builder's holdings;
- a harvest missing (T1): every player's holdings (carrots);
- a deal, harvest or end not played (T1, F1, D1): the flow, which the end of the log reads
  (a log that ends before its game does);
- an event line not read (F1), an event out of turn (T1, D4), a pick missing from a gap
  (T1), a draw of a card used too often without a deck (S4: the card it replaced is not
  known): what it would have written is not known, so it marks its player's ``unknown``,
  which every check of that player's squares, supply, hand or rabbits reads; its
  holdings, the deck if it is a draw.

What each check reads:

- C2 control, C3 one building (but a printed city), C5 sky tower, C6 camp: the squares built on;
- P2 supply: the builder's supply of the card;
- D1 deal, P3 draw: the deck (a card used too often, S4, too);
- D2, D3, D5 picks: the hand of the round;
- S5 rabbits, E problems: the holdings of the players they name;
- H1 trading posts: the holdings of the players it names and the ``post`` of the squares
  it names, which a build not placed on them marks, and an H1 on them (a declaration
  missed at one harvest is missed at the next); a post left undeclared, a declaration of
  its owner in the same harvest where they have no post (the one meant for it);
- X1 carrots: the holdings of the players it names, else the first problem that is not an
  X1, else the first earlier X1 (a carrot missed once is missed at every later harvest);
- T1 order of play: the event just before it that was not played (a gap names it; an
  event out of turn after a gap, the gap); a draw out of turn, the drawer's provisions card.

C4 terrain, C7 camp order, P1/P3/P4 (a card that is not a building), F1 and S1 read
nothing a failed event changes: they are always roots.

>>> causes = Causes()
>>> causes.found(Broken(3, "pick", "ann", "D2", "ann keeps A1", 1), {"ann": ["A1", "city1"]})
>>> causes.cause_of(Broken(9, "build", "ann", "P2", "ann builds city1, but has none", 1), ["city1"], [])
'the D2 at line 3'
>>> causes.cause_of(Broken(9, "build", "ann", "C4", "ann builds farm_gold on A1", 1), ["farm_gold"], ["A1"]) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from bkref.game.catalog import BOARD, CARDS
from bkref.game.flow import is_gap

Thing = tuple[str, ...]
"""A thing a check reads: ("square", sq), ("supply", player, card), ("hand", round), ("deck",),
("holdings", player), ("post", sq), ("flow",), ("unknown", player) (whatever an event of that player not
played would have written)."""

_SQUARES_READ = frozenset({"C2", "C3", "C5", "C6"})
_HOLDINGS_READ = frozenset({"S5", "H1", "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9"})
_PICKS = frozenset({"D2", "D3", "D5"})
_SQUARE = re.compile(r"\b[A-J](?:10|[1-9])\b")
"""A square named in a message."""
_MISPLACED = " has no trading post; "
"""What an H1 of a declaration where its player has no trading post says (``harvesting``)."""
_UNDECLARED = " is not declared, so it produces nothing "
"""What an H1 of a trading post left undeclared says."""
_MOVING = frozenset({"deal", "harvest", "end"})
"""The events that move the game on to its next round or its end."""


class Broken(NamedTuple):
    """A problem as its cause is sought: its event's line and kind ("pick"), its player (or
    None), its rule and message, and the round of the game."""

    line: int
    kind: str
    player: str | None
    rule: str
    message: str
    rnd: int


class Causes:
    """The marks of a log's problems so far, and the cause of each new one (see the module)."""

    def __init__(self) -> None:
        self.marks: dict[Thing, str] = {}  # a thing: the first problem that marked it
        self.first: str | None = None  # the first problem that is not an X1
        self.first_x1: tuple[int, str] | None = None  # the line of the first X1, and "the X1 at line 9"
        self.gap: tuple[int, str, int] | None = None  # the last gap: its line, its cause, the round after it
        self.skipped: tuple[str, int] | None = None  # the cause of the last event not read or played, its line

    def mark(self, things: Iterable[Thing], cause: str) -> None:
        """Mark ``things`` as not written as the log has them, by ``cause`` (the first mark stays)."""
        marks = self.marks
        for thing in things:
            marks.setdefault(thing, cause)

    def _read(self, things: Iterable[Thing]) -> str | None:
        marks = self.marks
        return next((marks[t] for t in things if t in marks), None)

    def cause_of(
        self, problem: Broken, cards: list[str], squares: list[str], players: Iterable[str] = ()
    ) -> str | None:
        """The problem ``problem`` follows from, from what its check reads: the ``cards`` and
        ``squares`` its event names; ``players`` are the game's (a harvest's or an end's
        problem reads those it names)."""
        line, kind, player, rule, message, rnd = problem
        if rule == "X1" or (player is None and rule in _HOLDINGS_READ):
            named = [p for p in players if re.search(rf"\b{re.escape(p)}\b", message)]
            posts: list[Thing] = [("post", sq) for sq in _SQUARE.findall(message)] if rule == "H1" else []
            if rule == "H1" and _UNDECLARED in message:  # the declaration its owner made elsewhere
                posts += [("declared", p, str(line)) for p in named]
            cause = self._read([*(("holdings", p) for p in named), *posts])
            if rule == "X1":
                first_x1 = self.first_x1
                return cause or self.first or (first_x1[1] if first_x1 and first_x1[0] < line else None)
            return cause
        if rule in ("T1", "D4") and is_gap(message):
            gap = self.gap
            if gap is not None and gap[0] == line:  # a second gap the same event shows: one cause
                return gap[1]
            cause = self.skipped[0] if self.skipped else None
            self.skipped = None
            return cause
        if rule == "T1":
            if self.gap and self.gap[2] == rnd:  # out of turn after a gap
                return self.gap[1]
            if self.skipped and self.skipped[1] == line - 1:  # out of turn after an event not played
                return self.skipped[0]
            if kind == "draw":  # a draw is due once its provisions card is played
                return self._read([("supply", player or "", "provisions"), ("unknown", player or "")])
            return None
        if rule in ("D1", "P3", "S4") and kind in ("deal", "draw"):
            return self._read((("deck",),))
        if rule in _PICKS:
            read: list[Thing] = [("hand", str(rnd))]
        elif rule in _SQUARES_READ and kind == "build":
            if rule == "C3" and any(BOARD[sq].printed_city for sq in squares):
                return None
            read = [("square", sq) for sq in squares]
        elif rule == "P2":
            read = [("supply", player or "", c) for c in cards]
        elif rule == "S5":
            read = [("holdings", player or "")]
        else:
            return None
        return self._read([*read, ("unknown", player or "")])

    def found(
        self, problem: Broken, written: dict[str, list[str]], cause: str | None = None, squares: Sequence[str] = ()
    ) -> None:
        """Record ``problem`` (named after ``cause``) and the marks it leaves on what was not
        played: ``written``, each player's cards that were not played (a pick's hand, a
        draw's cards and the deck's, a gap's hands), and the ``squares`` of a build not placed."""
        line, kind, player, rule, message, rnd = problem
        here = f"the {rule} at line {line}"
        source = cause or here
        if rule == "X1":
            if self.first_x1 is None:
                self.first_x1 = (line, here)
            return
        if self.first is None:
            self.first = here
        if rule == "H1":  # a declaration missed at one harvest is missed at the next
            self.mark((("post", sq) for sq in _SQUARE.findall(message)), source)
            if _MISPLACED in message:
                self.mark((("declared", message.split(" declares ")[0], str(line)),), source)
        gap = rule in ("T1", "D4") and is_gap(message)
        if gap and (self.gap is None or self.gap[0] != line):
            self.gap = (line, source, rnd)
        if kind == "draw" or rule == "D4" or (kind == "deal" and rule in ("D1", "S4")) or " is late: " in message:
            self.mark((("deck",),), source)
        if kind == "deal" and rule in ("D1", "S4"):
            self.mark((("hand", str(rnd)),), source)
        if rule == "F1" or (rule == "T1" and not gap) or rule == "D4":  # the event is not played
            self.skipped = (source, line)
        if kind in _MOVING and rule in ("T1", "F1", "D1"):
            self.mark((("flow",),), source)
        for p, cards in written.items():
            self.mark(_played(p, cards), source)
        if player is not None and (rule == "D4" or (rule == "T1" and not gap) or (kind == "draw" and rule == "S4")):
            self.mark((("unknown", player),), source)
        if gap and " has no harvest event; " not in message:
            self.mark([("unknown", p) for p in written], source)
        if squares:
            self.mark((thing for sq in squares for thing in (("square", sq), ("post", sq))), source)

    def at_end(self) -> str | None:
        """The cause of a log that ends before its game does (T1): the deal, harvest or end
        event not played that kept the game from moving on."""
        return self.marks.get(("flow",))

    def unreadable(self, line: int, event: str | None, player: str | None) -> None:
        """An event line that could not be read (F1): the event it holds is missing."""
        here = f"the F1 at line {line}"
        if self.first is None:
            self.first = here
        self.skipped = (here, line)
        if event == "draw":
            self.mark((("deck",),), here)
        if event in _MOVING:
            self.mark((("flow",),), here)
        if player is not None:
            self.mark((("holdings", player), ("unknown", player)), here)


def _played(player: str, cards: Iterable[str]) -> list[Thing]:
    """What playing ``cards`` for ``player`` writes (P1-P4): squares, supply, holdings."""
    things: list[Thing] = [("holdings", player)]
    for card in cards:
        things.append(("square", card) if CARDS[card].kind == "territory" else ("supply", player, card))
    return things
