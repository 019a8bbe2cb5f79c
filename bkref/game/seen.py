"""What one player sees (RULES.md I1-I6, docs/bot-protocol.md), as msgspec types: seen events and the view.

A *seen event* is a ``bkref/1`` event in which every card that player may not know is
``null`` (``None``), the nulls last in their list. Builds, harvests and the end are
seen as they are in the log, so their types are the log's own (``bkref.game.events``);
the game, deal, pick and draw events hold cards that may be hidden, so they have types
of their own here, with ``str | None`` where the log has ``str``. ``SeenView`` is the
view of one player (``bkref.game.knowledge.View.struct``) as one JSON object. The JSON
Schemas in ``schemas/`` are generated from these types, as the log's is from its events.

The rules that fill them are in ``bkref.game.knowledge``; these are only the types, kept
apart so that the rules modules can be compiled (mypyc drops msgspec's class options).

>>> import msgspec
>>> msgspec.json.encode(SeenPick(round=1, turn=2, player="bob", keep=["F8", None]))
b'{"type":"pick","round":1,"turn":2,"player":"bob","keep":["F8",null]}'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from bkref.game.events import Build, CardId, CopyCard, End, Harvest, PlayerId, Resource, Round, Rulings, SquareId, Turn

VIEW_FORMAT = "bkref-view/1"
SEEN_FORMAT = "bkref-seen/1"

if TYPE_CHECKING:
    Phase = str
else:
    Phase = Literal["setup", "dealing", "exploring", "building", "ending", "over"]


def _d(description: str) -> msgspec.Meta:
    return msgspec.Meta(description=description)


class _Seen(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """The base of the seen events that differ from the log's: the same tags and fields."""


class SeenGame(_Seen, tag="game"):
    """The game event: the seats and rulings; the deck a list of null of its size (I1); no meta."""

    format: str
    players: list[PlayerId]
    deck: list[None] | None = None
    rulings: Rulings = msgspec.field(default_factory=Rulings)


class SeenDeal(_Seen, tag="deal"):
    """A deal: the player's own hand; every other hand, and every reserve (their own too, I5), null."""

    round: Round
    hands: dict[PlayerId, list[CardId | None]]
    reserves: dict[PlayerId, list[None]] | None = None


class SeenPick(_Seen, tag="pick"):
    """A pick, seen once the turn's last pick is made (I3): the player's own as made; another
    player's kept parchment null (I4), their 2-player discard [null] (D3)."""

    round: Round
    turn: Turn
    player: PlayerId
    keep: list[CardId | None]
    discard: list[CardId | None] | None = None


class SeenDraw(_Seen, tag="draw"):
    """A provisions draw (P3): both cards, a parchment drawn by another player null (I1, I4)."""

    round: Round
    turn: Turn
    player: PlayerId
    cards: list[CardId | None]


SeenEvent = SeenGame | SeenDeal | SeenPick | SeenDraw | Build | Harvest | End
"""One event of the game as one player sees it."""


class SeatView(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """What every player knows of one player (I6)."""

    squares: Annotated[list[SquareId], _d("The squares they control, in board order.")]
    supply: Annotated[dict[CardId, int], _d("Their buildings not yet placed (P2): card to count, sorted.")]
    parchments: Annotated[int, _d("How many parchments they have (P4).")]
    hand: Annotated[
        int, _d("How many cards their hand holds (at the start of this turn, until the turn's picks are revealed).")
    ]
    reserve: Annotated[
        int, _d("How many cards their 2-player reserve holds (the turn's card is in the hand); 0 with 3 or 4 players.")
    ]
    carrots: Annotated[
        int, _d("Their golden carrots so far: the harvests, then the final total once the end is scored.")
    ]


class BoardView(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """The board, public as it stands (I6); squares in board order."""

    owner: Annotated[dict[SquareId, PlayerId], _d("Who controls each controlled square (a rabbit, or a camp's).")]
    buildings: Annotated[
        dict[SquareId, CardId],
        _d("The building card on each square that holds one (camps and both squares of a sky tower included)."),
    ]
    cities: Annotated[dict[SquareId, int], _d("The strength of every city: the printed ones (1) and those built.")]
    towers: Annotated[
        list[tuple[SquareId, SquareId]], _d("The two squares of each sky tower, in the order they were built.")
    ]
    declared: Annotated[dict[SquareId, Resource], _d("Each trading post's latest declaration (H1).")]


class SeenView(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """The position as one player sees it (docs/bot-protocol.md "A view is ..."), as one object."""

    player: Annotated[PlayerId, _d("The player who sees it.")]
    players: Annotated[list[PlayerId], _d("Every player, in seat order (S1).")]
    rulings: Rulings
    round: Annotated[int, _d("The round, 1 to 4; 0 before the first deal.")]
    turn: Annotated[int, _d("The turn of the round's exploration, from 1; 0 before the first deal.")]
    phase: Annotated[
        Phase,
        _d("setup, dealing (the next deal is due), exploring, building, ending (after the 4th harvest), over."),
    ]
    hand: Annotated[
        list[CardId],
        _d("The player's own hand, with 2 players the turn's reserve card in it (D3); once picked, what they pass on."),
    ]
    parchments: Annotated[list[CardId], _d("The player's own parchments, in the order they came.")]
    reserve: Annotated[int, _d("How many cards the player's own 2-player reserve holds, unknown to them too (I5).")]
    deck: Annotated[int, _d("How many cards are left in the deck (I1).")]
    seats: Annotated[dict[PlayerId, SeatView], _d("What every player knows of each player, by player in seat order.")]
    board: BoardView
    picks: Annotated[
        dict[PlayerId, SeenPick],
        _d(
            "This turn's picks as the player sees them: their own once made, every one after the turn's last pick (I3)."
        ),
    ]
    revealed: Annotated[
        dict[PlayerId, list[CardId]] | None,
        _d("Every player's parchments, once revealed after the 4th harvest (E1); null before."),
    ]
    copies: Annotated[
        dict[PlayerId, dict[CopyCard, CardId | None]] | None,
        _d("The copy choices of the end (E7), once made; null before."),
    ]
