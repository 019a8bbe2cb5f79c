"""The flow of a game: its phases, the turns and rounds, what is due next, and the gaps a
log leaves (T1).

A game goes::

    setup --game--> dealing --deal--> exploring --(every turn's picks and draws)--> building
          --harvest--> dealing (rounds 1-3) or ending (after the 4th) --end--> over

In each round's exploration, a turn waits for every player's pick; once they are all in,
the kept cards are played in seat order and the hands pass on (``exploring.reveal``);
the turn then waits for each provisions card's draw, oldest first, and the next turn
begins (``next_turn``). After the last turn comes the construction, where any player
may build, until the harvest closes the round.

``bkref.game.engine`` plays each event through its function here (``on_game``,
``on_deal``, ``on_pick``, ``on_draw``, ``on_build``, ``on_harvest``, ``on_end``), which
says whether it comes at its moment (T1: its phase, round and turn; F1: its player),
leaves its checks and effect to its stage module (``dealing``, ``exploring``,
``building``, ``harvesting``, ``ending``), then moves the game on. When a log moves on
to a later turn or round with events of the current one missing (a pick, a draw, a
harvest), the gap is reported once (T1) and closed (``close_turn``, ``close_round``),
and the log is followed from there.

>>> from bkref.game.table import Table
>>> table = Table()
>>> due(table)
Due(kind='game', players=())
>>> from bkref.game.events import Game
>>> on_game(table, Game(format="bkref/1", players=["ann", "bob", "cid"]), [])
>>> table.phase, due(table).kind
('dealing', 'deal')
"""

from __future__ import annotations

from typing import Final

from bkref.game import building, dealing, ending, exploring, harvesting
from bkref.game.catalog import COPY_CARDS
from bkref.game.events import Build, Deal, Draw, End, Event, Game, Harvest, Pick
from bkref.game.table import HAND_SIZE, ROUNDS, Due, Phase, Skip, Table, Violation

_NOBODY: Final = {"setup": "game", "dealing": "deal"}
"""The decisions that are nobody's: the game event, then each deal."""


def due(table: Table) -> Due:
    """The decision the game waits for now, and whose it is (see ``Due``)."""
    phase = table.phase
    if phase == "exploring":
        if table.pending:
            return Due("draw", (table.pending[0][0],))
        players = table._players  # (the property's field: the decision due is asked before every move)
        if table.picks:  # those yet to pick
            players = tuple([p for p in players if p not in table.picks])
        return Due("pick", players)
    if phase == "building":
        return Due("build", table.players)
    if phase == "ending":
        return Due("end", tuple(p for p in table.players if COPY_CARDS.intersection(table.parchments[p])))
    return Due(_NOBODY.get(phase, "over"), ())


# -- each event through the flow ------------------------------------------------------
# Whether it comes at its moment (T1: its phase, round and turn; F1: its player), its
# checks and effect (its stage module), then where the game goes.


def stand_at(table: Table, phase: Phase, rnd: int, turn: int) -> None:
    """Put ``table`` at ``phase``, round ``rnd``, turn ``turn`` at once, without the events that
    lead there: for a table rebuilt from what one player sees (``bkref.bots.serve.state_of``),
    whose every other field is set to match."""
    table.phase, table.round, table.turn = phase, rnd, turn


def on_game(table: Table, event: Game, found: list[Violation]) -> None:
    """The game event, the first and only one (T1): seats and deck (``dealing.seat``); the first deal is due."""
    if table.phase != "setup":
        raise Skip("T1", "a second game event: a log holds one game")
    dealing.seat(table, event, found)
    table.phase = "dealing"


def on_deal(table: Table, event: Deal, found: list[Violation]) -> None:
    """The deal of the next round (T1; the next round's deal during this round's exploration
    or construction closes this round first, ``close_round``): the hands (``dealing.deal``);
    the round's exploration begins at turn 1, nobody has picked or passed."""
    rnd = event.round
    if rnd == table.round + 1 and table.phase in ("exploring", "building"):
        close_round(table, found)
    if table.phase != "dealing":
        raise Skip("T1", f"the deal of round {rnd} comes {table.where()}")
    if rnd != table.round + 1:
        raise Skip("T1", f"the deal is marked round {rnd}; round {table.round + 1} is due")
    dealing.deal(table, event, found)
    start_round(table, rnd)


def start_round(table: Table, rnd: int) -> None:
    """Round ``rnd`` is dealt: its exploration begins at turn 1, nobody has picked or passed."""
    table.round = rnd
    table.turn = 1
    table.phase = "exploring"
    table.picks = {}
    table.passed = {}


def on_pick(table: Table, event: Pick, found: list[Violation]) -> None:
    """A pick, in its round's exploration, at its turn (a later turn of the round closes the
    turns before it first, ``close_turn``), its player's first of the turn (T1, F1): its
    cards (``exploring.pick``). The last pick of a turn plays the kept cards and passes the
    hands (``exploring.reveal``), and the turn moves on unless a provisions card waits.
    A pick of the next round before its deal deals that round from the deck (``close_deal``)."""
    if table.phase == "dealing" and event.round == table.round + 1:
        close_deal(table, found)
    expect(
        table, "exploring", event.round, event.player, "the pick", "a pick for round {0.round}, turn {0.turn}", event
    )
    if event.turn != table.turn:
        if table.turn < event.turn <= table.turns_per_round:
            while table.turn < event.turn:
                close_turn(table, found)
        if event.turn != table.turn:
            raise _wrong_turn(table, event, "the pick")
    if event.player in table.picks:
        raise Skip("T1", f"{event.player} picks a second time in turn {table.turn}")
    table.picks[event.player] = exploring.pick(table, event, found)  # an illegal pick counts, as None
    if len(table.picks) == table.seats:
        exploring.reveal(table, found)
        next_turn(table)


def on_draw(table: Table, event: Draw, found: list[Violation]) -> None:
    """A provisions draw, in its round's exploration, at its turn (T1, F1): its cards
    (``exploring.draw``); the turn moves on once nothing waits."""
    if table.phase == "dealing" and event.round == table.round + 1:
        close_deal(table, found)
    expect(
        table, "exploring", event.round, event.player, "the draw", "a draw for round {0.round}, turn {0.turn}", event
    )
    if event.turn != table.turn:
        raise _wrong_turn(table, event, "the draw")
    exploring.draw(table, event, found)
    next_turn(table)


def on_build(table: Table, event: Build, found: list[Violation]) -> None:
    """A build, in its round's construction (T1, F1): the building (``building.build``). A
    build while the round's turns lack picks or draws closes them first (``close_exploration``)."""
    if table.phase == "exploring" and event.round == table.round:
        close_exploration(table, found)
    expect(table, "building", event.round, event.player, "the build", "{0.player}'s {0.card} build", event)
    building.build(table, event)


def on_harvest(table: Table, event: Harvest, found: list[Violation]) -> None:
    """The harvest, in its round's construction (T1): the fiefs' carrots
    (``harvesting.declare_and_harvest``); the next round's deal is due, or the end. A
    harvest while the round's turns lack picks or draws closes them first (``close_exploration``)."""
    if table.phase == "exploring" and event.round == table.round:
        close_exploration(table, found)
    expect(table, "building", event.round, None, "the harvest", "the harvest of round {0.round}", event)
    harvesting.declare_and_harvest(table, event, found)
    end_round(table)


def on_end(table: Table, event: End, found: list[Violation]) -> None:
    """The end event, after the 4th harvest (T1): the final score (``ending.end``); the game is
    over. An end in the 4th round closes it first, harvested with no declarations (``close_round``)."""
    if table.round == ROUNDS and table.phase in ("exploring", "building"):
        close_round(table, found)
    expect(table, "ending", None, None, "the end event", "the end event", event)
    ending.end(table, event, found)
    table.phase = "over"


def expect(table: Table, phase: Phase, rnd: int | None, player: str | None, noun: str, what: str, event: Event) -> None:
    """T1 unless the game is in ``phase`` and, if given, round ``rnd``; F1 unless ``player``
    (if given) is a player. ``noun`` names ``event`` ("the pick"), and so does ``what``, a
    template of ``str.format`` with its round and turn ("a pick for round {0.round}"),
    filled in only for a T1."""
    if table.phase != phase:
        raise Skip("T1", f"{what.format(event)} comes {table.where()}")
    if rnd is not None and rnd != table.round:
        raise Skip("T1", f"{noun} is marked round {rnd}, but the game is in round {table.round}")
    if player is not None and player not in table.left:
        raise Skip("F1", f"player {player!r} is not a player of this game ({', '.join(table.players)})")


def _wrong_turn(table: Table, event: Pick | Draw, noun: str) -> Skip:
    return Skip("T1", f"{noun} is marked turn {event.turn}, but the round is in turn {table.turn}")


# -- moving on -------------------------------------------------------------------------


def next_turn(table: Table) -> None:
    """Once a turn's draws are all in, move to the next turn or to construction. Its picks
    are all in by then: it is called after the turn's last pick (``on_pick``, ``close_turn``)
    or a draw, which waits for them (a provisions card is played at their reveal; D4)."""
    if table.pending:
        return
    if table.turn >= table.turns_per_round:
        start_construction(table)
    else:
        table.turn += 1
    table.picks = {}


def start_construction(table: Table) -> None:
    """The exploration is over: the construction begins, camps from the lowest priority (C7)."""
    table.phase = "building"
    table.camp_floor = 0


def end_round(table: Table) -> None:
    """The round is harvested: the next round's deal is due, or after the 4th, the end."""
    table.phase = "ending" if table.round == ROUNDS else "dealing"


# -- the gaps a log leaves (T1) --------------------------------------------------------


def close_turn(table: Table, found: list[Violation]) -> None:
    """The log moves past the current turn: report what it lacks (T1), then close the turn."""
    where = f"turn {table.turn} of round {table.round}"
    missing = [p for p in table.players if p not in table.picks]
    if missing:
        found.append(Violation("T1", f"{where} has no pick by {', '.join(missing)}; that hand passes on unplayed"))
        for p in missing:
            table.picks[p] = None
            table.hands[p] = table.hand_now(p)
        exploring.reveal(table, found)
        next_turn(table)
    if table.pending:
        never = ", ".join(f"{who}'s (turn {turn})" for who, turn in table.pending)
        found.append(
            Violation("T1", f"the draw of a provisions card of {where} is late: {never}; its cards are not played")
        )
        table.deck_pos += 2 * len(table.pending)  # the cards left the deck all the same (P3)
        table.pending.clear()
        next_turn(table)


def close_exploration(table: Table, found: list[Violation]) -> None:
    """The log moves on to the construction: close the turns left (T1)."""
    while table.phase == "exploring":
        close_turn(table, found)


def close_round(table: Table, found: list[Violation]) -> None:
    """The log moves on to the next round: close this one (T1), harvesting with no declarations."""
    close_exploration(table, found)
    found.append(
        Violation("T1", f"round {table.round} has no harvest event; it is harvested with no trading post declared")
    )
    harvesting.harvest_fiefs(table, {})
    end_round(table)


def close_deal(table: Table, found: list[Violation]) -> None:
    """The log moves on to the next round's exploration with no deal: with a deck, deal it
    from the deck (T1); without one, the hands cannot be known, and the pick stays out of turn."""
    if table.deck is None:
        return
    rnd = table.round + 1
    size, players = HAND_SIZE[table.seats], table.players
    cards = table.from_deck(size * table.seats * (2 if table.seats == 2 else 1))
    assert cards is not None
    found.append(Violation("T1", f"round {rnd} has no deal event; its hands are dealt from the deck"))
    hands = {p: cards[i * size : (i + 1) * size] for i, p in enumerate(players)}
    reserves = {p: cards[(table.seats + i) * size : (table.seats + i + 1) * size] for i, p in enumerate(players)}
    dealing.deal(table, Deal(round=rnd, hands=hands, reserves=reserves if table.seats == 2 else None), found)
    start_round(table, rnd)


_GAPS: Final = (
    "; that hand passes on unplayed",
    " is late: ",
    " has no harvest event; ",
    " has no deal event; ",
    " picked in turn ",
)
"""What the message of each gap (T1) says: a turn's missing picks, draws, a round's harvest, its deal."""


def is_gap(message: str) -> bool:
    """Whether a T1's (or a D4's) ``message`` reports a gap in the log (``close_turn``,
    ``close_round``, ``close_deal``; a draw before the turn's picks, ``exploring.draw``).

    >>> is_gap("round 2 has no deal event; its hands are dealt from the deck")
    True
    """
    return any(words in message for words in _GAPS)


def gap_players(message: str) -> list[str]:
    """The players whose picks a gap's ``message`` reports missing.

    >>> gap_players("turn 3 of round 1 has no pick by bob, cid; that hand passes on unplayed")
    ['bob', 'cid']
    >>> gap_players("cid draws before ann, bob picked in turn 3; kept cards are played only once …")
    ['ann', 'bob']
    """
    if message.endswith(_GAPS[0]):
        return message[message.index(" has no pick by ") + 16 : -len(_GAPS[0])].split(", ")
    if " is late: " in message:
        return [owner.split("'s (")[0] for owner in message.split(" is late: ")[1].split("; ")[0].split(", ")]
    if " draws before " in message:
        return message[message.index(" draws before ") + 14 : message.index(_GAPS[4])].split(", ")
    return []


def finish(table: Table) -> list[Violation]:
    """What the end of the log breaks: a game stops only after its end event (T1)."""
    if table.phase in ("setup", "over"):
        return []
    return [Violation("T1", f"the log ends {table.where()}; a game has 4 rounds and an end event")]
