"""The messages of ``bkbot/1`` (docs/bot-protocol.md) as msgspec types, and their JSON Schema.

bkref writes ``ToBot`` messages to a bot program's standard input and reads ``FromBot``
messages from its standard output, one JSON object a line. ``schemas/bkbot-1.schema.json``
is ``protocol_schema()``, generated from these types as the log's is from its events.

>>> encode(Decide(id=1, kind="build", moves=[None], view=None, ms=200))
b'{"type":"decide","id":1,"kind":"build","moves":[null],"view":null,"ms":200}\\n'
>>> decode_reply(b'{"type":"move","id":1,"index":0}')
Move(id=1, index=0, info=None, order=None)
>>> print(in_order(Build(round=1, player="ann", card="sky_tower", at=["B4", "B3"]), ["B3", "B4"]).at)
['B3', 'B4']

A bot that asks for it in its ``hello`` (``views``: ``"patch"``) is sent each view after a game's
first as a JSON merge patch (RFC 7386) of the last one it was sent, which ``merged`` applies:

>>> before = {"turn": 1, "hand": ["A1", "B2"], "picks": {"ann": {"keep": ["A1"]}}, "deck": 142}
>>> after = {"turn": 2, "hand": ["B2"], "picks": {}, "deck": 142}
>>> merge_patch(before, after)
{'turn': 2, 'hand': ['B2'], 'picks': {'ann': None}}
>>> merged(before, merge_patch(before, after)) == after
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from bkref.game.events import Build, End, Harvest, Pick, PlayerId, Rulings
from bkref.game.seen import SeenEvent, SeenView

PROTOCOL = "bkbot/1"
MAX_LINE = 1 << 20
"""The longest line a bot may write (1 MiB); a longer one is ``garbage``."""
MAX_INFO = 16 << 10
"""The largest ``info`` a reply may carry (16 KiB)."""
MAX_INFO_DEPTH = 32
"""The deepest an ``info`` may nest objects and arrays: the log that records it (``meta``) stays
within what a log line may nest (``bkref.io.logfile.MAX_DEPTH``)."""
INFO_PER_GAME = 128 << 10
"""The most ``info`` of one seat a game's log records (128 KiB, as JSON): with four seats, the
game event stays within what a log line may hold (``bkref.io.logfile.MAX_LINE``, 1 MiB). The
rest is counted (``info_dropped``), not recorded."""

if TYPE_CHECKING:
    Kind = str
    FaultKind = str
    Views = str
else:
    Kind = Literal["pick", "camp", "build", "harvest", "end"]
    FaultKind = Literal["timeout", "garbage", "id", "index", "output", "exit"]
    Views = Literal["whole", "patch", "none"]


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """The base of every message: a ``type`` tag and its fields."""


class Hello(_Message, tag="hello"):
    """bkref's first message to a process, once; the bot answers with its own ``hello``."""

    protocol: str = PROTOCOL


class GameStart(_Message, tag="game"):
    """A game begins: this bot's seat, the seats in order, the rulings, a seed for the bot's
    own randomness (unrelated to the deal)."""

    seat: PlayerId
    players: list[PlayerId]
    rulings: Rulings
    seed: int


class Seen(_Message, tag="seen"):
    """One event of the game as this seat sees it."""

    event: SeenEvent


class Hand(_Message, tag="hand"):
    """The hand this seat holds at the start of a turn (with the reserve card, 2 players)."""

    round: int
    turn: int
    cards: list[str]


class Reveal(_Message, tag="reveal"):
    """Every player's parchments, after the 4th harvest (E1)."""

    parchments: dict[PlayerId, list[str]]


Choice = Pick | Build | Harvest | End | None


class Decide(_Message, tag="decide"):
    """A decision of this seat: reply with ``Move`` naming the chosen index of ``moves``. ``view``
    is the seat's view, whole; for a bot whose hello asked for ``views`` ``"patch"``, after the
    game's first decision it is null and ``patch`` turns the last view it was sent into this
    one (``merged``); for ``"none"``, it is null."""

    id: int
    kind: Kind
    moves: list[Choice]
    view: SeenView | None
    ms: int
    patch: dict[str, Any] | None = None


class Fault(_Message, tag="fault"):
    """This bot's reply to decision ``id`` was a fault of ``kind``."""

    id: int
    kind: FaultKind


class Over(_Message, tag="over"):
    """The game is over: its scores and winners; ``aborted`` when the run stopped before the
    game's end. Nothing hidden: no log, deck or other hand (a deal may be played again in
    the same run); what the seat saw came as it was played."""

    scores: dict[PlayerId, int]
    winners: list[PlayerId]
    aborted: bool = False


class Quit(_Message, tag="quit"):
    """The process is to exit; it is killed 2 s later."""


ToBot = Hello | GameStart | Seen | Hand | Reveal | Decide | Fault | Over | Quit


class BotHello(_Message, tag="hello"):
    """The bot's answer to ``Hello``; ``views``, optional, says how it wants the views of its
    decisions: ``"whole"`` (the default), ``"patch"`` (each after a game's first as a JSON merge
    patch of the last, RFC 7386) or ``"none"`` (it keeps its own from the seen events)."""

    protocol: str
    name: Annotated[str, msgspec.Meta(max_length=256)]
    """At most 256 characters, as ``version``: both are recorded in every game's log."""
    version: Annotated[str, msgspec.Meta(max_length=256)]
    views: Views = "whole"


class Move(_Message, tag="move"):
    """The bot's answer to ``Decide``: the 0-based ``index`` of its move; ``info`` is recorded only;
    ``order``, optional: the move's cards (a pick's ``keep``) or squares (a build's ``at``) in the
    order the bot plays them, the same multiset as the move (``in_order``)."""

    id: int
    index: int
    info: Any = None
    order: list[str] | None = None


def in_order(move: Choice, order: list[str]) -> Pick | Build | None:
    """``move`` played in ``order``: a pick keeping, or a build placed at, the same cards or squares
    in that order; None when ``order`` is not the same multiset as the move's list (or the move has
    none to order)."""
    if isinstance(move, Pick) and sorted(order) == sorted(move.keep):
        return msgspec.structs.replace(move, keep=list(order))
    if isinstance(move, Build) and sorted(order) == sorted(move.at):
        return msgspec.structs.replace(move, at=list(order))
    return None


FromBot = BotHello | Move


def merge_patch(before: Any, after: Any) -> dict[str, Any] | None:
    """The JSON merge patch (RFC 7386) that turns the JSON object ``before`` into ``after`` (each a
    dict, or a msgspec struct read as the JSON it encodes to): a member removed is null, an object
    changed is the patch of its members, anything else changed (a list, a number) its new value;
    None when no merge patch can, as a member of ``after`` is null (a patch's null removes a
    member). Structs are compared field by field, a field holding the same object as before
    passed over: a view's parts kept from the last (``bkref.game.knowledge.Kept``) cost nothing."""
    try:
        return _patch(before, after)
    except _Unsayable:
        return None


class _Unsayable(Exception):
    """A change that no merge patch can say: a member set to null."""


_ABSENT: Any = object()


def _patch(before: Any, after: Any) -> dict[str, Any]:
    patch: dict[str, Any] = {}
    if type(before) is type(after) and _fielded(after):  # its fields are its JSON members, all of them
        fields = [(name, getattr(before, name), getattr(after, name)) for name in after.__struct_fields__]
    else:  # a dict's values, structs among them, are compared as they are
        before, after = _members(before), _members(after)
        patch = dict.fromkeys(sorted(before.keys() - after.keys()))
        try:  # the members added or changed, found by sets where the values can be hashed (with their
            # types: Python takes 1, 1.0 and true for one value, JSON does not)
            new = {(k, type(v), v) for k, v in after.items()} - {(k, type(v), v) for k, v in before.items()}
            changed = sorted(key for key, _, _ in new)
        except TypeError:  # lists or structs among them
            changed = list(after)
        fields = [(key, before.get(key, _ABSENT), after[key]) for key in changed]
    for name, old, new in fields:
        if _same(old, new):
            continue
        if isinstance(new, dict | msgspec.Struct) and isinstance(old, dict | msgspec.Struct):
            patch[name] = _patch(old, new)
            continue
        value = _json(new)
        if value is None or _has_null(value):
            raise _Unsayable
        patch[name] = value
    return patch


def _same(old: Any, new: Any) -> bool:
    """Whether two values are the same JSON (Python's ``==`` takes ``1``, ``1.0`` and ``True`` for one).

    >>> _same([1], [True]), _same({"a": 1}, {"a": 1}), _same(1, 1.0)
    (False, True, False)
    """
    if old is new:
        return True
    if type(old) is not type(new) or old != new:
        return False
    return not isinstance(new, list | dict) or msgspec.json.encode(old) == msgspec.json.encode(new)


def _fielded(value: Any) -> bool:
    """Whether ``value`` is a struct whose JSON object holds each of its fields, by its name, and nothing else."""
    if not isinstance(value, msgspec.Struct):
        return False
    config = value.__struct_config__
    return not config.omit_defaults and config.tag is None and value.__struct_encode_fields__ == value.__struct_fields__


def _members(value: Any) -> dict[str, Any]:
    """The members of the JSON object ``value`` (a dict, or a struct as it encodes)."""
    return value if isinstance(value, dict) else msgspec.to_builtins(value)


def _json(value: Any) -> Any:
    """``value`` as JSON values (dicts, lists, strings, numbers, None)."""
    return value if isinstance(value, str | int | float | None) else msgspec.to_builtins(value)


def _has_null(value: Any) -> bool:
    """Whether ``value`` is an object with a null member, at any depth of objects."""
    return isinstance(value, dict) and any(member is None or _has_null(member) for member in value.values())


def merged(target: Any, patch: Any) -> Any:
    """``target`` with the JSON merge patch ``patch`` applied (RFC 7386), as a bot applies a
    ``Decide``'s ``patch`` to the last view it was sent; ``target`` is left as it was."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merged(result.get(key), value)
    return result


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(FromBot)
_to_bot = msgspec.json.Decoder(ToBot)


def encode(message: ToBot | FromBot) -> bytes:
    """``message`` as one line of JSON."""
    return _encoder.encode(message) + b"\n"


def decode_reply(line: bytes) -> BotHello | Move:
    """One line from a bot; ``msgspec.ValidationError`` or ``DecodeError`` if it is no message."""
    return _decoder.decode(line)


def decode_message(line: bytes) -> ToBot:
    """One line from bkref, as a bot reads it; ``msgspec.ValidationError`` or ``DecodeError`` if it is no message."""
    return _to_bot.decode(line)


def protocol_schema() -> str:
    """The schema of every bkbot/1 message, both ways, as stable, pretty-printed JSON text."""
    from bkref.io.schema import document

    (to_bot, from_bot), defs = msgspec.json.schema_components([ToBot, FromBot])
    schema = {
        "anyOf": [{"title": "from bkref to the bot", **to_bot}, {"title": "from the bot to bkref", **from_bot}],
        "$defs": defs,
    }
    return document(
        schema,
        f"{PROTOCOL} message",
        "One line between bkref and a bot program (docs/bot-protocol.md): hello, game, seen, hand, reveal, "
        "decide, fault, over and quit from bkref; hello and move from the bot.",
    )
