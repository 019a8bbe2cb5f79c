"""Drawing one position of a replay with rich: the board, the players, the event in words.

Nothing here prints or reads files: ``position`` takes the steps the referee kept
(``referee.play(keep=True)``) and returns a rich renderable; ``bkref.views.stepper`` prints it.
The text is the same with and without colour, so plain output (a pipe, ``--no-color``)
loses nothing: colour only repeats what the letters say.

Each square of the board is five characters: who controls it, the terrain letter and
the building.

``seen_by`` (``--as PLAYER``) hides what that player could not see: the others' hands,
the cards of their discards, which parchments they play (P4, D3), and the words of the
problems that could name them (``problems``). Without it, all is shown.

>>> from bkref.game.position import Position
>>> p = Position(owner={"A3": "ann", "B2": "bob", "D10": "ann"})
>>> p.building.update({"A3": "farm_mushroom", "B2": "city3", "D10": "camp4"})
>>> tags = {"ann": "a", "bob": "b"}
>>> [square_text(p, sq, tags) for sq in ("A3", "B2", "D10", "A4", "A5")]
['aFmus', 'bM[3]', 'aF^4 ', ' #(1)', ' S   ']
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bkref.game.catalog import BOARD, CARDS, COLUMNS, LAVA, ROWS
from bkref.game.engine import KEEP, State
from bkref.game.events import Build, Deal, Draw, Event, Game, Harvest, Pick
from bkref.game.fiefs import yield_of
from bkref.game.position import Position
from bkref.game.words import count, joined
from bkref.io.diagnostics import Diagnostic, printable
from bkref.io.referee import Step
from bkref.views.terminal import table as table_of

PLAYER_STYLES = ("black on #e69f00", "black on #56b4e9", "black on #d883d8", "black on #8fd14f")
"""Seat colours (orange, sky blue, orchid, green): black letters on a light background, so they
read the same on dark and light terminals; on a 16-colour terminal they become yellow,
bright cyan, bright magenta and bright green, still four different colours."""

TERRAIN = {
    "forest": ("F", "green4", "forest (wood)"),
    "sea": ("S", "dodger_blue2", "sea (fish)"),
    "field": ("C", "dark_orange3", "field (carrot)"),
    "plains": ("P", "", "plains"),
    "mountain": ("M", "grey42", "mountain"),
    "city": ("#", "magenta3", "city space"),
}
"""Each terrain's letter on the board, its colour (plains keep the terminal's own), its name.
The colours are mid-tones that stay readable on dark and light backgrounds."""

FARM_CODES = {
    "wood": "woo",
    "fish": "fis",
    "carrot": "car",
    "mushroom": "mus",
    "pearl": "pea",
    "carrot_powder": "pow",
    "diamond": "dia",
    "gold": "gol",
    "copper": "cop",
    "steel": "ste",
}
LAVA_STYLE = "bold red1"
PROBLEM_STYLE = "bold red1"
_A_TERRAIN = {
    "forest": "a forest",
    "sea": "a sea",
    "field": "a field",
    "plains": "plains",
    "mountain": "a mountain",
    "city": "a printed city",
}


def tags(players: Sequence[str]) -> dict[str, str]:
    """One character per player for the board: the first letter, or the seat if two share one.

    >>> tags(["ann", "bob"]), tags(["ann", "Alf", "bob"])
    ({'ann': 'a', 'bob': 'b'}, {'ann': '1', 'Alf': '2', 'bob': '3'})
    """
    first = [p[0].lower() for p in players]
    if len(set(first)) == len(first) and all(c.isalpha() and c.isascii() for c in first):
        return dict(zip(players, first))
    return {p: str(i) for i, p in enumerate(players, start=1)}


def building(position: Position, square: str) -> tuple[str, str] | None:
    """What stands on ``square`` as ``(kind, detail)``, or None: a ``printed city`` (detail 1), a
    ``city`` (its strength), a ``camp`` (its priority), a ``sky tower`` (the number of its pair),
    a ``farm`` (its resource) or a ``trading post`` (the resource of its latest declaration, or "").

    >>> from bkref.game.position import Position
    >>> p = Position(building={"B2": "city3", "D10": "camp4", "E5": "trading_post"})
    >>> [building(p, sq) for sq in ("A4", "B2", "D10", "E5", "A5")]
    [('printed city', '1'), ('city', '3'), ('camp', '4'), ('trading post', ''), None]
    """
    if BOARD[square].printed_city:
        return "printed city", "1"
    card = position.building.get(square)
    if card is None:
        return None
    info = CARDS[card]
    if info.kind == "city":
        return "city", str(info.strength)
    if info.kind == "camp":
        return "camp", str(info.priority)
    if info.kind == "sky_tower":
        pair = next(i for i, pair in enumerate(position.towers, start=1) if square in pair)
        return "sky tower", str(pair)
    if info.produces is None:
        return "trading post", position.declared.get(square, "")
    return "farm", info.produces


def building_code(position: Position, square: str) -> str:
    """The three characters that say what stands on ``square``: a city, farm, camp or tower."""
    match building(position, square):
        case None:
            return "   "
        case ("printed city", _):
            return "(1)"
        case ("city", strength):
            return f"[{strength}]"
        case ("camp", priority):
            return f"^{priority} "
        case ("sky tower", pair):
            return f"T{pair} "
        case ("trading post", declared):
            return "tp" + (declared[0] if declared else "?")
        case (_, resource):
            return FARM_CODES[resource]


def square_text(position: Position, square: str, tags: dict[str, str]) -> str:
    """Five characters: the owner's letter (or a space), the terrain letter, the building."""
    owner = position.owner.get(square)
    letter = TERRAIN[BOARD[square].terrain][0]
    return f"{tags[owner] if owner else ' '}{letter}{building_code(position, square)}"


def _lava(a: str, b: str) -> bool:
    return frozenset((a, b)) in LAVA


def changed(before: State, after: State) -> frozenset[str]:
    """The squares an event claimed, built on or freed: the last move, to mark on the board."""
    old, new = before.position, after.position
    squares = old.owner.keys() | new.owner.keys() | old.building.keys() | new.building.keys()
    return frozenset(
        sq for sq in squares if old.owner.get(sq) != new.owner.get(sq) or old.building.get(sq) != new.building.get(sq)
    )


MARK_STYLE = "reverse"
"""The squares of the last move: reverse video, which shows without colour too."""


def board(state: State, marked: frozenset[str] = frozenset()) -> Text:
    """The 10x10 board with its row and column labels; lava edges drawn between squares.

    The ``marked`` squares are drawn in reverse video (only visible where styles are).
    """
    position, marks = state.position, tags(state.players)
    styles = {p: PLAYER_STYLES[i] for i, p in enumerate(state.players)}
    out = Text("   " + "".join(f" {c:^5}" for c in COLUMNS).rstrip() + "\n")
    for r, row in enumerate(ROWS):
        out.append(f" {row} ")
        for c in COLUMNS:
            square = f"{row}{c}"
            if c > 1 and _lava(f"{row}{c - 1}", square):
                out.append("|", LAVA_STYLE)
            else:
                out.append(" ")
            owner = position.owner.get(square)
            style = styles[owner] if owner else TERRAIN[BOARD[square].terrain][1]
            if square in marked:
                style = f"{style} {MARK_STYLE}"
            out.append(square_text(position, square, marks), style)
        out.append("\n")
        if r + 1 < len(ROWS):
            below = [_lava(f"{row}{c}", f"{ROWS[r + 1]}{c}") for c in COLUMNS]
            if any(below):
                out.append("   ")
                for lava in below:
                    out.append(" ")
                    out.append("~~~~~" if lava else "     ", LAVA_STYLE if lava else "")
                out.rstrip()
                out.append("\n")
    out.rstrip()
    return out


def legend(state: State) -> Text:
    """What the letters and marks of the board mean, with the players' letters and colours."""
    out = Text("  ".join(f"{letter} {name}" for letter, _, name in TERRAIN.values()) + "\n")
    marks = tags(state.players)
    for i, p in enumerate(state.players):
        out.append(f" {marks[p]} ", PLAYER_STYLES[i])
        out.append(f" {printable(p)}  ")
    out.append("(first letter of a square: who controls it)\n")
    out.append("(1) printed city  [2] city of strength 2  ^3 camp of priority 3  T1 sky tower pair 1\n")
    farms = [f"{code} {resource.replace('_', ' ')}" for resource, code in FARM_CODES.items()]
    out.append(f"farms: {'  '.join(farms[:6])}\n       {'  '.join(farms[6:])}\n")
    out.append("tpw trading post declared wood (tpf fish, tpc carrot, tp? not declared yet)\n")
    out.append("|", LAVA_STYLE)
    out.append(" ")
    out.append("~~~", LAVA_STYLE)
    out.append(" lava: the squares on either side do not touch")
    towers = state.position.towers
    if towers:
        pairs = ", ".join(
            f"T{i} {a}-{b} ({printable(str(state.position.owner.get(a)))})" for i, (a, b) in enumerate(towers, 1)
        )
        out.append(f"\nsky towers: {pairs}")
    return out


# -- the event in words ------------------------------------------------------------------


def stage(state: State) -> str:
    """Where the game stands after an event, in a player's words."""
    r, phase = state.round, state.phase
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


def _hidden(player: str, seen_by: str | None) -> bool:
    """Whether ``player``'s secrets are hidden from whom the replay is shown to."""
    return seen_by is not None and seen_by != player


def problems(step: Step, seen_by: str | None) -> list[Diagnostic]:
    """The diagnostics of ``step`` as ``seen_by`` may read them: those of a deal, and of
    another player's pick or draw, without their words, which may name cards of a hand
    ``seen_by`` could not see (the rule and the line stay). The problems of other lines
    shown with the step (an F1 line before it) keep theirs."""
    event = step.event
    if seen_by is None or not (isinstance(event, Deal) or (isinstance(event, Pick | Draw) and event.player != seen_by)):
        return step.diagnostics
    unseen = f"not shown with --as {seen_by}: it may name cards {seen_by} does not see"
    return [msgspec.structs.replace(d, message=unseen) if d.line == step.line else d for d in step.diagnostics]


def _card(card: str, player: str, seen_by: str | None) -> str:
    """A card ``player`` plays face up, or "a parchment" if it is hidden (P4)."""
    return "a parchment" if CARDS[card].is_parchment and _hidden(player, seen_by) else card


def _plays(position: Position, player: str, card: str, seen_by: str | None) -> str:
    """One line: ``player`` plays ``card`` and what it does (P1-P4)."""
    if _card(card, player, seen_by) != card:
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
            lines += ["  " + _plays(before.position, p, card, seen_by) for card in pick.keep]
            if pick.discard:
                discards = count(len(pick.discard), "card") if _hidden(p, seen_by) else joined(pick.discard)
                lines.append(f"  {p} discards {discards}")
    return lines


def _pick_lines(step: Step, before: State, seen_by: str | None) -> list[str]:
    """A pick stays face down, unless it is the turn's last: then every kept card is played (D4).

    A pick for a later turn first closes the turns the log left unfinished, as the referee does (T1).
    """
    event = step.event
    assert isinstance(event, Pick)
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
        face_down = f"{event.player} picks for turn {event.turn}: {hidden}, face down until every player has picked"
        return [*lines, face_down]
    own_problem = any(d.line == step.line for d in step.diagnostics)
    revealed = _revealed({**picks, event.player: None if own_problem else event}, before, seen_by)
    return [*lines, f"{event.player} picks last for turn {event.turn}: every pick is revealed and played", *revealed]


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
            if len(after.harvests) > len(before.harvests)
            else []
        )
        if after.round != event.round:  # the round was closed, then the deal itself refused
            return [*closed, f"the deal of round {event.round}: illegal, skipped"]
        first = after.players[0]
        reserve = f", and {len(after.reserves[first])} to each reserve" if after.reserves else ""
        return [*closed, f"the deal of round {event.round}: {len(after.hands[first])} cards to each hand{reserve}"]
    if isinstance(event, Pick):
        return _pick_lines(step, before, seen_by)
    if isinstance(event, Draw):
        drawn = [_card(card, event.player, seen_by) for card in event.cards]
        return [f"{event.player}'s provisions draws {joined(drawn)}"] + [
            "  " + _plays(before.position, event.player, card, seen_by) for card in event.cards
        ]
    if isinstance(event, Build):
        return [_build_words(event, after.position)]
    if isinstance(event, Harvest):
        carrots = ", ".join(f"{p} {yield_of(after.harvests[-1][p])}" for p in after.players)
        lines = [f"the harvest of round {event.round}: {carrots} carrots"]
        declared = after.position.declared  # as the referee took them: a wrong declaration is ignored (H1)
        lines += [
            f"  {after.position.owner[sq]}'s trading post on {sq} makes {resource}" for sq, resource in declared.items()
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


# -- the players, the harvest, the final scores ------------------------------------------


def supply(state: State, player: str) -> str:
    """The buildings in ``player``'s supply, in card order ("city2 x2, farm_pearl"), or "-"."""
    held = state.supply[player]
    shown = [f"{card} x{n}" if n > 1 else card for card in CARDS if (n := held.get(card, 0)) > 0]
    return ", ".join(shown) or "-"


def in_reserve(state: State, player: str) -> int:
    """The cards left in ``player``'s face-down reserve (2 players): one joins the hand at each pick (D3)."""
    if state.phase != "exploring" or not state.reserves:
        return 0
    return len(state.reserves[player]) - (state.turn - 1) - (player in state.picks)


def _hand(state: State, player: str, seen_by: str | None) -> str:
    if state.phase != "exploring":
        return "-"
    cards = state.hands[player]
    hand = count(len(cards), "card") if _hidden(player, seen_by) else ", ".join(cards) or "-"
    left = in_reserve(state, player)
    return hand + (f" (+{left} in reserve)" if left else "")


def players(state: State, seen_by: str | None = None) -> Table:
    """Each player: squares controlled, hand, supply, parchments held, carrots harvested so far."""
    table = table_of(
        "",
        "player",
        "squares",
        "hand",
        "supply",
        "parchments",
        "harvests",
        prose=("hand", "supply"),
        numbers=("squares", "parchments", "harvests"),
    )
    marks = tags(state.players)
    for i, p in enumerate(state.players):
        table.add_row(
            Text(f" {marks[p]} ", PLAYER_STYLES[i]),
            printable(p),
            str(len(state.position.controlled(p))),
            _hand(state, p, seen_by),
            supply(state, p),
            str(len(state.parchments[p])),
            str(state.harvest_total(p)),
        )
    return table


def harvest(state: State) -> Table:
    """The latest harvest: each player's fiefs with strength, wealth and carrots (H2-H4)."""
    table = table_of(
        "player",
        "fief",
        "strength",
        "wealth",
        "carrots",
        numbers=("strength", "carrots"),
        prose=("fief",),
        title=f"harvest of round {len(state.harvests)}",
    )
    for p in state.players:
        fiefs = state.harvests[-1][p]
        for fief in fiefs:
            if fief.carrots:
                table.add_row(
                    printable(p),
                    f"{fief.squares[0]} ({count(len(fief.squares), 'square')})",
                    str(fief.strength),
                    f"{fief.wealth} ({', '.join(fief.resources)})",
                    str(fief.carrots),
                )
        idle = [f.squares[0] for f in fiefs if not f.carrots]
        if idle:
            table.add_row(printable(p), f"{len(idle)} more yielding nothing: {', '.join(idle)}", "", "", "0")
        table.add_row("", "", "", f"{printable(p)}'s total", str(yield_of(fiefs)), end_section=True)
    return table


def final_scores(state: State) -> Group:
    """The final scores (E1-E9): per player the harvests, each parchment's points, the total.

    What each parchment counted is ``bkref score``'s business; here one line per player
    keeps the board in view.
    """
    final = state.final
    assert final is not None
    table = table_of(
        "player",
        "harvests",
        "parchments",
        "total",
        numbers=("total",),
        prose=("parchments",),
        title="final scores (bkref score shows what each parchment counted)",
    )
    for p in final.ranking:
        score = final.players[p]
        cards = ", ".join(
            f"{row.card}{f' ({row.copied})' if row.copied else ''} {row.points}" for row in score.parchments
        )
        table.add_row(
            printable(p),
            f"{'+'.join(map(str, score.harvests))} = {score.harvest}",
            f"{score.parchment_total}: {cards}" if cards else "0",
            str(score.total),
        )
    rulings = ", ".join(f"{name} {value}" for name, value in final.rulings.items())
    return Group(table, Text(winners(state)), Text(f"rulings: {rulings}"))


def winners(state: State) -> str:
    """Who won the finished game, and with how many points: "ann wins with 125"."""
    final = state.final
    assert final is not None
    best = final.players[final.winners[0]].total
    if len(final.winners) == 1:
        return printable(f"{final.winners[0]} wins with {best}")
    return printable(f"{joined(final.winners)} win with {best} (tied)")


# -- the whole position ------------------------------------------------------------------


def state_before(steps: Sequence[Step], index: int) -> State:
    """The state before event ``index + 1`` of a replay: the one after the event before, or a new game."""
    return steps[index - 1].state if index else State()


def earlier_problems(steps: Sequence[Step], index: int) -> str | None:
    """How many problems the log had before event ``index + 1``, and on which lines."""
    earlier = [d.line for s in steps[:index] for d in s.diagnostics]
    if not earlier:
        return None
    where = sorted(set(earlier))
    lines = f"{'line' if len(where) == 1 else 'lines'} {joined([str(n) for n in where])}"
    return f"{count(len(earlier), 'earlier problem')} in this log, on {lines}"


def stops_here(steps: Sequence[Step], index: int) -> str | None:
    """At the last event of a log that stops before the end of the game: where it stops."""
    state = steps[index].state
    return f"the log stops here, {state.where()}" if index == len(steps) - 1 and not state.complete else None


def position(steps: Sequence[Step], index: int, label: str, seen_by: str | None = None) -> Group:
    """Everything shown after event ``index + 1`` of a replay: header, event, board, players."""
    step = steps[index]
    state = step.state
    before = state_before(steps, index)
    parts: list[RenderableType] = [
        Text(
            f"{printable(label)}: event {index + 1} of {len(steps)} (line {step.line})", no_wrap=True, overflow="ignore"
        ),
        Text(stage(state), style="bold"),
    ]
    lines = describe(step, before, seen_by)
    parts.append(Text(lines[0], style="bold"))
    parts += [Text(line) for line in lines[1:]]
    # A problem stays on one line, as validate prints it (print the position with crop=False).
    parts += [Text(d.text(), style=PROBLEM_STYLE, no_wrap=True, overflow="ignore") for d in problems(step, seen_by)]
    parts += [Text(line) for line in (earlier_problems(steps, index), stops_here(steps, index)) if line]
    parts += [Text(""), board(state), Text(""), legend(state), Text(""), players(state, seen_by)]
    if len(state.harvests) > len(before.harvests):  # a harvest event, or a deal that closes a round (T1)
        parts += [Text(""), harvest(state)]
    if state.final is not None:
        parts += [Text(""), final_scores(state)]
    return Group(*parts)
