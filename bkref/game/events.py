"""The events of a ``bkref/1`` game log, as msgspec types.

These types are the single source of the log format: the decoder is built from them
and so is the JSON Schema in ``schemas/`` (``bkref schema``). Decoding is strict:
unknown fields (outside ``meta``), wrong types, unknown card ids and unknown squares
are errors. Player ids depend on the ``game`` event, so the engine checks those.

>>> import msgspec
>>> msgspec.json.decode(b'{"type":"build","round":1,"player":"bob","card":"city2","at":["B4"]}', type=Event)
Build(round=1, player='bob', card='city2', at=['B4'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from bkref.game.catalog import BASIC_RESOURCES, CARDS, SQUARES

FORMAT = "bkref/1"

PlayerId = Annotated[str, msgspec.Meta(min_length=1, description="A player id of the game event.")]
Round = Annotated[int, msgspec.Meta(ge=1, le=4, description="The round, 1 to 4.")]
Turn = Annotated[int, msgspec.Meta(ge=1, le=10, description="The turn within the round, from 1.")]
if TYPE_CHECKING:
    # mypy reads the ids as the plain strings the engine handles (copy choices included);
    # the decoder checks them against the Literals below, built from the catalogue.
    CardId = str
    SquareId = str
    Resource = str
    CopyCard = str
else:
    CardId = Annotated[
        Literal[tuple(CARDS)],
        msgspec.Meta(description="A card id: a square for a territory card, else an id of cards.csv."),
    ]
    SquareId = Annotated[
        Literal[SQUARES],
        msgspec.Meta(description="A square of the board, A1 (top left) to J10 (bottom right)."),
    ]
    Resource = Literal[BASIC_RESOURCES]
    CopyCard = Literal["liberal", "socialist"]


class Rulings(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True, gc=False):
    """The rulings R1-R6 of RULES.md; each defaults to the value given there."""

    matriarch_tie: Literal["shared", "none"] = "shared"
    opportunist_tie: Literal["shared", "none"] = "shared"
    copy_of_copy: Literal["forbidden", "follow"] = "forbidden"
    treasure_hunter_stacking: Literal["multiply", "once"] = "multiply"
    colonist_counts: Literal["played", "placed"] = "played"
    rabbit_limit: Literal["none", "pieces"] = "none"


class _Event(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """The base of every event. Events hold only decoded JSON, which has no reference
    cycles, so the garbage collector need not track them (``gc=False``)."""


class Game(_Event, tag="game"):
    """The first event: the seats (S1), optionally the shuffled deck and the rulings."""

    format: str
    players: list[PlayerId]
    deck: list[CardId] | None = None
    rulings: Rulings = msgspec.field(default_factory=Rulings)
    meta: dict[str, Any] | None = None


class Deal(_Event, tag="deal"):
    """The deal that opens a round (D1); ``reserves`` in 2-player games."""

    round: Round
    hands: dict[PlayerId, list[CardId]]
    reserves: dict[PlayerId, list[CardId]] | None = None


class Pick(_Event, tag="pick"):
    """One player's pick of one turn: ``keep`` (D2), and ``discard`` with 2 players (D3)."""

    round: Round
    turn: Turn
    player: PlayerId
    keep: list[CardId]
    discard: list[CardId] | None = None


class Draw(_Event, tag="draw"):
    """The two cards a provisions card draws (P3)."""

    round: Round
    turn: Turn
    player: PlayerId
    cards: list[CardId]


class Build(_Event, tag="build"):
    """One building placed in construction; two squares for a sky tower (C1-C8)."""

    round: Round
    player: PlayerId
    card: CardId
    at: list[SquareId]


class Harvest(_Event, tag="harvest"):
    """The harvest that closes a round: trading post declarations (H1), expected carrots."""

    round: Round
    trading_posts: dict[PlayerId, dict[SquareId, Resource]] = msgspec.field(default_factory=dict)
    expect: dict[PlayerId, int] | None = None


class End(_Event, tag="end"):
    """The end of the game: what each copy card copies (E7), expected final totals."""

    copies: dict[PlayerId, dict[CopyCard, CardId | None]] = msgspec.field(default_factory=dict)
    expect: dict[PlayerId, int] | None = None


Event = Game | Deal | Pick | Draw | Build | Harvest | End
EVENT_TYPES = ("game", "deal", "pick", "draw", "build", "harvest", "end")


def event_type(event: Event) -> str:
    """The ``type`` tag of an event, as written in the log."""
    return type(event).__struct_config__.tag  # type: ignore[return-value]
