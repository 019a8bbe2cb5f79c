"""Any Python policy as a ``bkbot/1`` program (``bkref bot POLICY``): ``serve(policy, stdin, stdout)``.

It answers ``hello``; at each ``game`` it takes its seat and seeds its generator from the
message's ``seed`` (``random.Random(seed)``, so the same messages give the same replies); at
each ``decide`` it rebuilds a position from the message's ``view`` (``state_of``), calls the
policy with that seat's ``View``, the decision's moves and the generator, and replies
``move`` with the index of the move chosen; ``quit`` (or the end of its input) ends it.
The view holds all a policy may know (BOT-PROTOCOL.md), so ``seen``, ``hand``, ``reveal``,
``fault`` and ``over`` need nothing from it. A ``hello`` asking for ``views`` ``"patch"`` gets
each view after a game's first as a patch of the last, which it applies (``merged``).

A policy with a time budget (``timed``: a deadline, in ``time.monotonic()`` seconds, to the
policy, as ``bkref.bots.mcts.mcts_within``) is given half of each decision's ``ms`` from the
moment the ``decide`` is read, well inside the referee's deadline.

``state_of(view)`` is a full ``State`` whose view for ``view.player`` is ``view``, field for
field: the public part as the view shows it, the cards the player has not seen dealt to the
hidden places as ``bkref.game.worlds.sample`` deals them (from a generator seeded 0). What a
view does not show is not rebuilt: the camps placed in this construction (a sampled world
may place a lower camp after a higher one) and the 2-player discards of earlier turns.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, cast

import msgspec

from bkref.bots.protocol import BotHello, Decide, GameStart, Hello, Move, Quit, decode_message, encode, merged
from bkref.bots.simulate import index_of
from bkref.game.catalog import CARDS, DECK_SIZE
from bkref.game.engine import State
from bkref.game.events import Pick
from bkref.game.flow import stand_at
from bkref.game.knowledge import view as view_of
from bkref.game.position import Position
from bkref.game.results import Fief
from bkref.game.seen import SeenView
from bkref.game.worlds import sample

if TYPE_CHECKING:
    from bkref.bots.policies import Policy
    from bkref.game.table import Phase

_HIDDEN = "?"
"""A card not known yet in the skeleton ``state_of`` builds; ``sample`` deals a real one in its place."""


def serve(
    policy: Policy,
    hello: BotHello,
    stdin: IO[bytes],
    stdout: IO[bytes],
    timed: Callable[[float], Policy] | None = None,
) -> None:
    """Play ``policy`` as a ``bkbot/1`` program answering ``hello`` on ``stdin`` and ``stdout`` (see the module).

    A line that is not a message of bkref's raises ``msgspec.ValidationError`` or ``DecodeError``."""
    seat, rng = "", random.Random(0)
    seen: dict[str, Any] | None = None  # the last view, as JSON values, when views come as patches
    for line in stdin:
        if not line.strip():
            continue
        message = decode_message(line)
        reply: BotHello | Move | None = None
        if isinstance(message, Quit):
            return
        if isinstance(message, GameStart):
            seat, rng, seen = message.seat, random.Random(message.seed), None
        elif isinstance(message, Decide):
            started = time.monotonic()
            if hello.views == "patch":
                seen = msgspec.to_builtins(message.view) if message.patch is None else merged(seen, message.patch)
                message.view = None if seen is None else msgspec.convert(seen, SeenView)
            deciding = policy if timed is None else timed(started + message.ms / 2000)
            reply = Move(message.id, choose(deciding, message, seat, rng))
        elif isinstance(message, Hello):
            reply = hello
        if reply is not None:
            stdout.write(encode(reply))
            stdout.flush()


def choose(policy: Policy, decide: Decide, seat: str, rng: random.Random) -> int:
    """The index in ``decide.moves`` of the move ``policy`` chooses from ``decide``'s view for
    ``seat``: ``0`` unasked when the only move is ``null``, as ``simulate`` asks a Python policy;
    ``ValueError`` for a decision without a view, or a move that is none of ``moves``."""
    if decide.moves == [None]:
        return 0
    if decide.view is None:
        raise ValueError(f"decide {decide.id} has no view")
    chosen = policy(view_of(state_of(decide.view), seat), decide.moves, rng)
    index = index_of(chosen, decide.moves)
    if index is None:
        raise ValueError(f"the policy chose {chosen!r:.200}, none of decide {decide.id}'s moves")
    return index


def state_of(view: SeenView) -> State:
    """A full state whose view for ``view.player`` is ``view`` (see the module)."""
    me, players = view.player, tuple(view.players)
    skeleton = State()
    skeleton.seat(players)
    skeleton.rulings = view.rulings
    stand_at(skeleton, cast("Phase", view.phase), view.round, view.turn)
    skeleton.deck_pos = DECK_SIZE - view.deck
    board = view.board
    towers = [(first, second) for first, second in board.towers]
    skeleton.position = Position(board.owner, dict(board.buildings), towers, dict(board.declared))
    skeleton.supply = {p: dict(view.seats[p].supply) for p in players}
    skeleton.parchments = {
        p: list(view.parchments) if p == me else [_HIDDEN] * view.seats[p].parchments for p in players
    }
    if view.revealed is not None:
        skeleton.parchments = {p: list(cards) for p, cards in view.revealed.items()}
    camps = [board.owner[sq] for sq, card in board.buildings.items() if CARDS[card].kind == "camp"]
    skeleton.camps_placed = {p: camps.count(p) for p in players}
    skeleton.camps_played = {
        p: skeleton.camps_placed[p] + sum(n for c, n in view.seats[p].supply.items() if CARDS[c].kind == "camp")
        for p in players
    }
    done = view.round - (view.phase in ("dealing", "exploring", "building"))
    if done:  # the carrots so far, as if all came at the first harvest
        skeleton.harvests = [{p: [Fief((), 0, (), view.seats[p].carrots)] for p in players}]
        skeleton.harvests += [{p: [] for p in players} for _ in range(done - 1)]
    skeleton.copies = {p: dict(chosen) for p, chosen in (view.copies or {}).items()}
    exploring = view.phase == "exploring"
    two = len(players) == 2
    for p in players:
        held = view.hand if p == me else [_HIDDEN] * view.seats[p].hand
        if exploring and two:  # the turn's reserve card is the last of the hand (D3)
            skeleton.reserves[p] = [_HIDDEN] * (view.turn - 1) + held[-1:] + [_HIDDEN] * view.seats[p].reserve
            held = held[:-1]
        skeleton.hands[p] = list(held) if exploring else []
    for p, pick in view.picks.items():
        if None in pick.keep or None in (pick.discard or ()):
            raise ValueError(f"the view shows {p}'s pick only in part: no decision is due")
        skeleton.picks[p] = Pick(pick.round, pick.turn, p, list(pick.keep), pick.discard)  # type: ignore[arg-type]
    return sample(view_of(skeleton, me), random.Random(0))
