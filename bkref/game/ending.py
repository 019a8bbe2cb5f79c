"""The end event: each copy card's choice (E7, R3), the final score (E1-E9, in
``bkref.game.scoring``) and the log's ``expect`` (X1).

>>> from bkref.game.table import Table
>>> table = Table()
>>> table.seat(("ann", "bob"))
>>> table.parchments = {"ann": ["liberal"], "bob": ["fisher"]}
>>> found = []
>>> copy_choices(table, {"ann": {"liberal": "farmer"}}, found)
{'ann': {'liberal': None}}
>>> found[0].message
"ann's liberal copies farmer, which bob (on the right) does not have; it is scored as copying nothing"
"""

from __future__ import annotations

from collections.abc import Mapping

from bkref.game import scoring
from bkref.game.catalog import COPY_CARDS
from bkref.game.events import End
from bkref.game.fiefs import BitBoard
from bkref.game.results import FinalScore
from bkref.game.table import COPY_SIDE, Table, Violation, expect_players
from bkref.game.words import cards

Copies = Mapping[str, Mapping[str, str | None]]
"""Copy choices by player: each copy card to the parchment it copies, or None (E7)."""


def end(table: Table, event: End, found: list[Violation]) -> None:
    """Score the game with ``event``'s copy choices (a wrong one copies nothing: E7); a
    player's total that differs from the log's ``expect`` breaks X1."""
    expect_players(table, event.copies, "copies")
    expect_players(table, event.expect, "expect")
    table.copies = copy_choices(table, event.copies, found)
    board = final_board(table)
    final = table.final = scoring.final_score(table, board, explain=False)  # points only
    for p, expected in (event.expect or {}).items():
        got = final.players[p].total
        if got != expected:
            row = final.players[p]
            table.final = scoring.final_score(table, board)  # with what each parchment counted
            found.append(
                Violation(
                    "X1",
                    f"{p} ends with {got} carrots (harvests {row.harvest} + parchments "
                    f"{row.parchment_total}), the log expects {expected}",
                )
            )


def final_board(table: Table) -> BitBoard | None:
    """The board as it stands read into bitmasks, if a harvest read it and nothing changed since."""
    return None if table.board_fiefs is None else table.board_fiefs.board


def explained(table: Table) -> FinalScore | None:
    """``table.final`` with what each parchment counted (``State.final_explained``)."""
    return None if table.final is None else scoring.final_score(table, final_board(table))


def copy_choices(table: Table, chosen_by: Copies, found: list[Violation]) -> dict[str, dict[str, str | None]]:
    """The copy choices ``chosen_by`` makes, as they count (E7, R3): a wrong one is reported
    in ``found`` and copies nothing."""
    copies: dict[str, dict[str, str | None]] = {}
    for p in table.players:
        owned = COPY_CARDS.intersection(table.parchments[p])
        chosen = chosen_by.get(p, {})
        for card in sorted(chosen.keys() - owned):
            found.append(Violation("E7", f"{p} names a copy for {card}, but does not own {card}"))
        for card in sorted(owned):
            problem = _copy_problem(table, p, card, chosen)
            if problem:
                found.append(Violation("E7", f"{problem}; it is scored as copying nothing"))
            copies.setdefault(p, {})[card] = None if problem else chosen[card]
    if table.rulings.copy_of_copy == "follow":
        for p, chosen in copies.items():
            for card, target in chosen.items():
                if target is not None and scoring.resolve_copy(table, copies, p, card) is scoring.CYCLE:
                    found.append(
                        Violation(
                            "E7",
                            f"{p}'s {card} copies {target}, a chain of copies that leads back "
                            "to itself (ruling R3 copy_of_copy: follow); it is scored as copying "
                            "nothing",
                        )
                    )
                    chosen[card] = None
    return copies


def _copy_problem(table: Table, p: str, card: str, chosen: Mapping[str, str | None]) -> str | None:
    """Why ``p``'s copy card ``card`` cannot copy what ``chosen`` names, or None if it can."""
    neighbour, side = table.copies_from(p, card), COPY_SIDE[card]
    theirs = table.parchments[neighbour]
    copyable = _copyable(table, theirs)
    if card not in chosen:
        return f"{p}'s {card} has no copy choice; name the parchment of {neighbour} (on the {side}) it copies, or null"
    target = chosen[card]
    if target is None:
        if copyable:
            return f"{p}'s {card} copies nothing, but {neighbour} (on the {side}) has {cards(copyable)}"
        return None
    if target not in theirs:
        return f"{p}'s {card} copies {target}, which {neighbour} (on the {side}) does not have"
    if target not in copyable:
        return f"{p}'s {card} copies {target}; a copy card may not copy a copy card (ruling R3 copy_of_copy: forbidden)"
    return None  # it copies what it names


def _copyable(table: Table, theirs: list[str]) -> list[str]:
    """The parchments of ``theirs`` (a neighbour's) that a copy card may copy, sorted (E7): a
    copy card only under R3 ``follow``."""
    if table.rulings.copy_of_copy == "follow":
        return sorted(set(theirs))
    return sorted(set(theirs) - COPY_CARDS)


def copy_targets(table: Table, p: str, card: str) -> list[str | None]:
    """What ``p``'s copy card ``card`` may copy, each on its own (E7): every parchment of its
    neighbour it may copy, sorted, or nothing (None) when there is none: the choices the end's
    own check (``_copy_problem``) finds no problem in. Under R3 ``follow`` a set of choices is
    legal only if no chain of copies leads back to itself (``scoring.resolve_copy``).

    >>> table = Table()
    >>> table.seat(("ann", "bob"))
    >>> table.parchments = {"ann": ["liberal"], "bob": ["fisher", "socialist", "explorer"]}
    >>> copy_targets(table, "ann", "liberal"), copy_targets(table, "bob", "socialist")
    (['explorer', 'fisher'], [None])
    """
    copyable: list[str | None] = [*_copyable(table, table.parchments[table.copies_from(p, card)])]
    return copyable or [None]
