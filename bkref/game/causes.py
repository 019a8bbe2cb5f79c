"""Which earlier problem a problem follows from (issue 45): causes from what a check reads.

A problem names an earlier one, "(after the D2 at line 3)", only when the earlier problem
changed, or failed to change, something its own check reads. An event that is not played
as the log has it (illegal, skipped, missing from a gap) leaves a *mark* on each thing it
would have written; a later check that reads a marked thing follows from the problem that
left the mark. Anything else is a root, even for the same player in the same round.

The things: a ``square`` (its owner and building), a player's ``supply`` of a card, the
``hand`` of a round, the hand a player ``passed`` in a round, the ``deck`` position, a
``card`` (how often it is used, without a deck), a player's ``holdings`` (what their fiefs
and parchments are made of: carrots, rabbits), a player's holdings as a harvest read them
(``harvested``), a ``building`` as it stands, a player's ``total`` at the end, the ``claim``
of a square by its territory card (P1: a camp on it leaves), and its claim by a draw
(``drawn``).

What each failed event marks (RULES.md):

- an illegal pick (D2, D3, D5), or a pick missing from its turn (T1): its hand's cards are
  never played (D4, P1-P4): the square of each territory and its claim (not the claim of
  a card the hand lacks, when the pick is a root: the pick's own mistake, perhaps, not a
  claim of the log's game), the player's supply of each building, the player's holdings;
  the hand it passes on (whole); an illegal pick also
  shows that the hand it was passed is not the log's: each of its cards (a card used too
  often without a deck, S4, may be one the log never dealt there), and the supply and
  squares of those cards for each player who held that hand at the earlier turns of the
  round (they kept other cards than the log has them keep, perhaps);
- a deal not the deck's (D1, S4 without a deck): the deck, the hands of its round;
- a provisions draw not the deck's (P3, S4 without a deck), not played, out of turn (D4),
  or late (T1): the deck, the squares, claims and draw claims of its cards and of the
  deck's that the two do not share, the drawer's supply and holdings; a P3 also the
  drawer's provisions card (the draw may be another's, logged out of place); a draw
  played with a card not the deck's (P3) or used too often (S4) that is a square another
  player holds takes it (P1): that player's holdings, square and claim;
  a late draw (T1) the hand its owner passed (the pick that played the provisions card
  is not the log's);
- a build not played (C2-C7, P2, S5, T1, F1): its squares and its builder's holdings;
- a harvest missing (T1): every player's holdings (carrots);
- a deal, harvest or end not played (T1, F1, D1): the flow, which the end of the log reads
  (a log that ends before its game does);
- an event line not read (F1), an event out of turn (T1, D4), a pick missing from a gap
  (T1), a draw of a card used too often without a deck (S4: the card it replaced is not
  known): what it would have written is not known, so it marks its player's ``unknown``,
  which every check of that player's squares, supply, hand or rabbits reads; its
  holdings, the deck if it is a draw (and the draw claims of the cards an unreadable
  draw line names);
- a harvest that finds a player's carrots or declarations not the log's (X1, H1): that
  player's holdings as the harvest read them, and the buildings they have on the board,
  one of which may stand where, or be what, the log does not have (each building's square,
  and the player's supply of its card);
- an end that finds a player's total not the log's (X1): that total;
- a deal or a draw not the deck's because an earlier problem put the deck out of step
  (its D1 or P3 names that problem): it is played as the log has it, so it marks only
  the deck, and is nobody's first problem (below).

What each check reads:

- C2 control: the squares built on; C5 sky tower, the squares built on, and the builder's
  holdings and the squares of the fief they lie in when they are in one fief already;
- C3 one building, C6 camp: the squares built on and the buildings on them, unless one
  holds a printed city, which nothing changes (a root);
- P2 supply: the builder's supply of the card;
- D1 deal, P3 draw: the deck; S4 a card used too often, the deck and that card;
- D2, D3, D5 picks: the hand of the round, and the hand passed by each player who held it
  at the earlier turns of the round;
- S5 rabbits, E problems: the holdings of the players they name; E7 also the copy card
  its player owns;
- H1 trading posts: the holdings of the players it names and the ``post`` of the squares
  it names, which a build not placed on them marks, and an H1 on them (a declaration
  missed at one harvest is missed at the next); a post left undeclared, a declaration of
  its owner in the same harvest where they have no post (the one meant for it);
- X1 carrots: the holdings of the players it names; the claim of each square where they
  have a camp (a territory card not played leaves it standing, P1: with 2 players only
  while its card is left in a hand, as discards leave the game unplayed), and the draw
  claim of each square they controlled at a harvest and no longer do (a draw not the
  deck's took it); at the end, for a player who scores Opportunist or Matriarch (their
  own or copied, E7), every player's holdings and the others' totals found at that end
  (those cards count them; its cause is sought once the others' are, whatever the order
  of the problems), and every player's first earlier X1; else the first problem, not an
  X1, of those players' own events or of nobody's (a deal whose cards the deck holds
  further on or back, a line not read), else their first earlier X1 (a carrot missed
  once is missed at every later harvest); never another
  player's problem, which changed nothing of theirs: linking it was a guess, and gave false
  leads (a pair of mistakes whose second is another player's expected carrots named the
  first). A deal's problem of one player's hand (a card the deck does not hold there, a
  card used too often) changed that hand only, which the picks from it read: it is no
  player's first problem (naming it at the carrots of a player whose picks from it were
  legal was a false lead);
- T1 order of play: the event just before it that was not played (a gap names it; an
  event out of turn after a gap, the gap); a draw out of turn or late, or a draw before
  the oldest provisions card's (P3), the provisions card of its drawer (and of that
  card's owner); a build after its round's harvest, that player's holdings as the
  harvest read them: the build is late, and the harvest's problem is the same mistake,
  found first.

C4 terrain, C7 camp order, P1/P3/P4 (a card that is not a building), F1 and S1 read
nothing a failed event changes: they are always roots.

Two roots that one unseen change makes, by this table: without a deck, a card changed
in a provisions draw breaks nothing at the draw (there is no deck to compare it with).
The card it replaced is missing where its drawer uses it (P2 for a building, C2 for a
territory), and the card put in its place is used once too often where it is really used
(S4), or stands in the way there (C6). The first reads the drawer's supply or squares,
the second how often a card is used or another square; neither reads anything the other
changed, and what ties them, the draw, is a legal event no check can see. Naming one
after the other would be a guess, so both stay roots.

One more, by this table, which a mark could follow only by a guess: a card two picks of
one round's hand keep (a holder of the hand kept it at an earlier turn, legally; a later
player keeps it too, D2 or D3). Either pick may be the one not as the log has it, and the
problem shows only at the second. The earlier holder's carrots (X1) name nothing: marking
their holdings as well gave one root to 10 more of the corpus's single mistakes (where the
holder's pick is the changed one) but named the D2 falsely in 8 of its pairs (where the
later pick is, and the holder's carrots are a second mistake), and a false lead is worse
than none.

>>> causes = Causes()
>>> causes.found(Broken(3, "pick", "ann", "D2", "ann keeps A1", 1), {"ann": ["A1", "city1"]})
>>> causes.cause_of(Broken(9, "build", "ann", "P2", "ann builds city1, but has none", 1), ["city1"], [])
'the D2 at line 3'
>>> causes.cause_of(Broken(9, "build", "ann", "C4", "ann builds farm_gold on A1", 1), ["farm_gold"], ["A1"]) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from bkref.game.catalog import BOARD, CARDS, COPY_CARDS
from bkref.game.flow import gap_players, is_gap

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
_LATE = " is late: "
"""What a T1 of a provisions draw missing from its turn says (``flow.close_turn``)."""
_NOT_OLDEST = " draws, but the oldest provisions card to resolve is "
"""What a P3 of a draw before the oldest provisions card's says (``exploring.draw``)."""
_DRAWN = "drawn"
"""The claim of a square by a draw not played as the log has it (P1, P3): ("drawn", sq)."""
TOP = ", but the top of the deck is "
"""What a P3 of cards that are not the deck's says before the deck's cards (``exploring.draw``)."""
OFF_DECK = "the deal does not follow the deck: "
"""What a D1 of a deal that is not the deck's next cards says (``dealing.deal``)."""
_HARVESTED = "harvested"
"""A player's holdings as a harvest read them: ("harvested", player, round)."""


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
        self.first: dict[str | None, tuple[int, str]] = {}  # each player's first problem that is not an X1
        self.first_x1: dict[str, tuple[int, str]] = {}  # each player's first X1: its line, "the X1 at line 9"
        self.gap: tuple[int, str, int] | None = None  # the last gap: its line, its cause, the round after it
        self.skipped: tuple[str, int] | None = None  # the cause of the last event not read or played, its line

    def mark(self, things: Iterable[Thing], cause: str) -> None:
        """Mark ``things`` as not written as the log has them, by ``cause`` (the first mark stays)."""
        marks = self.marks
        for thing in things:
            marks.setdefault(thing, cause)

    def _first_of(self, players: Iterable[str]) -> str | None:
        """The first problem, not an X1, of an event of one of ``players`` or of nobody's."""
        first = self.first
        found = [first[p] for p in (*players, None) if p in first]
        return min(found)[1] if found else None

    def _read(self, things: Iterable[Thing]) -> str | None:
        marks = self.marks
        return next((marks[t] for t in things if t in marks), None)

    def cause_of(
        self,
        problem: Broken,
        cards: list[str],
        squares: list[str],
        players: Iterable[str] = (),
        holders: Sequence[str] = (),
        others: bool = False,
        lost: Sequence[str] = (),
    ) -> str | None:
        """The problem ``problem`` follows from, from what its check reads: the ``cards`` and
        ``squares`` its event names; ``players`` are the game's (a harvest's or an end's
        problem reads those it names, and every player's if ``others``: the final score of
        a player with Opportunist or Matriarch); ``holders``, who held the hand a pick's
        player picks from at the earlier turns of its round (none at the first turn: the deal's).
        For an X1, ``squares`` are its player's camps that a territory card not played may
        have left standing, ``lost`` the squares they controlled at a harvest and no longer do."""
        line, kind, player, rule, message, rnd = problem
        if rule == "X1" or (player is None and rule in _HOLDINGS_READ):
            claims = [*(("claim", sq) for sq in squares), *((_DRAWN, sq) for sq in (*squares, *lost))]
            named = _named(message, players)
            posts: list[Thing] = [("post", sq) for sq in _SQUARE.findall(message)] if rule == "H1" else []
            if rule == "H1" and _UNDECLARED in message:  # the declaration its owner made elsewhere
                posts += [("declared", p, str(line)) for p in named]
            if rule == "E7":  # the copy card its player owns, or not
                posts += [("supply", p, card) for p in named for card in sorted(COPY_CARDS) if card in message]
            if others:  # their holdings, and their totals as the end found them
                posts += [thing for p in players for thing in (("holdings", p), ("total", p, str(line)))]
            cause = self._read([*(("holdings", p) for p in named), *posts, *claims])
            if rule == "X1":
                counted = players if others else named  # an Opportunist counts every player's carrots
                earlier = [x1 for p in counted if (x1 := self.first_x1.get(p)) is not None and x1[0] < line]
                return cause or self._first_of(named) or (min(earlier)[1] if earlier else None)
            return cause
        if rule in ("T1", "D4") and is_gap(message):
            gap = self.gap
            if gap is not None and gap[0] == line:  # a second gap the same event shows: one cause
                return gap[1]
            cause = self.skipped[0] if self.skipped else None
            self.skipped = None
            if cause is None and _LATE in message:  # a draw is due once its provisions card is played
                cause = self._read([thing for p in gap_players(message) for thing in _provisions(p)])
            return cause
        if rule == "T1" or _NOT_OLDEST in message:  # an event out of turn, or a draw out of its order
            if rule == "T1" and self.gap and self.gap[2] == rnd:  # out of turn after a gap
                return self.gap[1]
            if self.skipped and self.skipped[1] == line - 1:  # out of turn after an event not played
                return self.skipped[0]
            if _NOT_OLDEST in message:  # the drawer's provisions card, and the oldest's owner's
                owner = message.split(_NOT_OLDEST)[1].removesuffix("'s")
                return self._read([*_provisions(player or ""), *_provisions(owner)])
            if kind == "draw":
                return self._read(_provisions(player or ""))
            if kind == "build":  # after its round's harvest, which read its builder's holdings
                return self._read(((_HARVESTED, player or "", str(rnd)),))
            return None
        if rule in ("D1", "P3", "S4") and kind in ("deal", "draw"):
            used: list[Thing] = [("card", message.split(" is used ")[0])] if rule == "S4" else []
            return self._read([("deck",), *used])
        if rule in _PICKS:
            read: list[Thing] = [("hand", str(rnd))]
            read += [thing for h in holders for thing in (("passed", h, str(rnd)), ("unknown", h))]
        elif rule in _SQUARES_READ and kind == "build":
            if rule in ("C3", "C6") and any(BOARD[sq].printed_city for sq in squares):
                return None
            read = [("square", sq) for sq in squares]
            if rule in ("C3", "C6"):  # a building of a player whose harvest was not the log's
                read += [("building", sq) for sq in squares]
            elif rule == "C5":  # the builder's fiefs, which the sky tower must not find joined already
                read.append(("holdings", player or ""))
        elif rule == "P2":
            read = [("supply", player or "", c) for c in cards]
        elif rule == "S5":
            read = [("holdings", player or "")]
        else:
            return None
        return self._read([*read, ("unknown", player or "")])

    def found(
        self,
        problem: Broken,
        written: dict[str, list[str]],
        cause: str | None = None,
        squares: Sequence[str] = (),
        players: Iterable[str] = (),
        buildings: Mapping[str, str] | None = None,
        holders: Iterable[str] = (),
        lacking: Collection[str] = (),
    ) -> None:
        """Record ``problem`` (named after ``cause``) and the marks it leaves on what was not
        played: ``written``, each player's cards that were not played (a pick's hand, a
        draw's cards and the deck's, a gap's hands), and the ``squares`` of a build not placed;
        ``players``, the game's (a harvest's problem marks those it names); ``buildings``,
        the buildings (square: card) of the player of an X1 or H1 at a harvest (not where, or what, the log
        has them, perhaps); ``holders``, who held an illegal pick's hand at the earlier turns
        of its round: they did not keep from it what the log has them keep, perhaps;
        ``lacking``, the cards an illegal pick keeps or discards that its hand lacks: when
        the pick is a root, the log's own mistake, perhaps, so their claims are not marked."""
        line, kind, player, rule, message, rnd = problem
        here = f"the {rule} at line {line}"
        source = cause or here
        unclaimed = lacking if cause is None else ()  # a root pick's own cards: no claim of the log's game
        as_logged = cause is not None and (TOP in message or OFF_DECK in message)
        if as_logged:  # the deck was out of step: the draw or the deal is played as the log has it
            written = {}
        if kind == "harvest" and rule in ("X1", "H1"):  # what a build logged after it would have changed
            named = _named(message, players)
            self.mark(((_HARVESTED, p, str(rnd)) for p in named), source)
            for sq, card in (buildings or {}).items():  # one of them may not stand where, or be what, the log has
                self.mark((("building", sq), *(("supply", p, card) for p in named)), source)
        if rule == "X1":
            if kind != "harvest":  # an end's total, which an Opportunist reads
                self.mark((("total", p, str(line)) for p in _named(message, players)), source)
            for p in _named(message, players):
                self.first_x1.setdefault(p, (line, here))
            return
        if not as_logged and not (kind == "deal" and player is not None):  # a deal's: of a hand (see X1)
            self.first.setdefault(player, (line, here))
        if rule == "H1":  # a declaration missed at one harvest is missed at the next
            self.mark((("post", sq) for sq in _SQUARE.findall(message)), source)
            if _MISPLACED in message:
                self.mark((("declared", message.split(" declares ")[0], str(line)),), source)
        gap = rule in ("T1", "D4") and is_gap(message)
        if gap and (self.gap is None or self.gap[0] != line):
            self.gap = (line, source, rnd)
        if kind == "draw" or rule == "D4" or (kind == "deal" and rule in ("D1", "S4")) or _LATE in message:
            self.mark((("deck",),), source)
        if kind == "draw":  # its territories: claimed, or not, against the log's game
            drawn = (c for cards in written.values() for c in cards if CARDS[c].kind == "territory")
            self.mark(((_DRAWN, c) for c in drawn), source)
        if kind == "deal" and rule in ("D1", "S4"):
            self.mark((("hand", str(rnd)),), source)
        if player is not None and rule in _PICKS:  # the hand passed on whole; its cards not the log's
            hand = written.get(player, ())
            self.mark((("passed", player, str(rnd)), *(("card", c) for c in hand)), source)
            self.mark((thing for h in holders for thing in _played(h, hand, unclaimed)[1:]), source)
        if _LATE in message:  # the pick that played the provisions card is not the log's
            self.mark((("passed", p, str(rnd)) for p in gap_players(message)), source)
        if rule == "F1" or (rule == "T1" and not gap) or rule == "D4":  # the event is not played
            self.skipped = (source, line)
        if kind in _MOVING and rule in ("T1", "F1", "D1"):
            self.mark((("flow",),), source)
        for p, cards in written.items():
            self.mark(_played(p, cards, unclaimed), source)
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

    def unreadable(self, line: int, event: str | None, player: str | None, cards: Iterable[str] = ()) -> None:
        """An event line that could not be read (F1): the event it holds is missing; a
        draw's ``cards``, if the line names them, are not played (their claims, P1)."""
        here = f"the F1 at line {line}"
        self.first.setdefault(player, (line, here))
        self.skipped = (here, line)
        if event == "draw":
            self.mark((("deck",), *((_DRAWN, c) for c in cards if CARDS[c].kind == "territory")), here)
        if event in _MOVING:
            self.mark((("flow",),), here)
        if player is not None:
            self.mark((("holdings", player), ("unknown", player)), here)


def _named(message: str, players: Iterable[str]) -> list[str]:
    """The ``players`` a harvest's or an end's problem names in its ``message``."""
    return [p for p in players if p in message and re.search(rf"\b{re.escape(p)}\b", message)]


def _provisions(player: str) -> list[Thing]:
    """What a draw of ``player`` reads: it is due once their provisions card is played."""
    return [("supply", player, "provisions"), ("unknown", player)]


def _played(player: str, cards: Iterable[str], unclaimed: Collection[str] = ()) -> list[Thing]:
    """What playing ``cards`` for ``player`` writes (P1-P4): holdings (first), squares and
    their claims (but those of ``unclaimed``), supply."""
    things: list[Thing] = [("holdings", player)]
    for card in cards:
        if CARDS[card].kind == "territory":
            things += (("square", card), ("claim", card)) if card not in unclaimed else (("square", card),)
        else:
            things.append(("supply", player, card))
    return things
