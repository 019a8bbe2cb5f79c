"""The harvest that closes a construction: trading post declarations (H1), every player's
fiefs and carrots (H2-H4, in ``bkref.game.fiefs``), and the log's ``expect`` (X1).

Where the game goes after a harvest (the next deal, or the end) is ``bkref.game.flow``'s.
"""

from __future__ import annotations

from bkref.game.events import Harvest
from bkref.game.fiefs import Harvested, harvest
from bkref.game.table import ROUNDS, Table, Violation, expect_players
from bkref.game.words import count


def declare_and_harvest(table: Table, event: Harvest, found: list[Violation]) -> None:
    """Harvest with ``event``'s trading post declarations: a declaration where its player
    has no trading post, and a post left undeclared, break H1 (the post produces nothing);
    a player's carrots that differ from the log's ``expect`` break X1."""
    expect_players(table, event.trading_posts, "trading_posts")
    expect_players(table, event.expect, "expect")
    position = table.position
    owner = position.owner
    posts = {sq: owner[sq] for sq, on in position.building.items() if on == "trading_post" and sq in owner}
    declared: dict[str, str] = {}
    for p, squares in event.trading_posts.items():
        for sq, resource in squares.items():
            if posts.get(sq) != p:
                found.append(
                    Violation(
                        "H1",
                        f"{p} declares {resource} for {sq}, where {p} has no trading post; the declaration is ignored",
                    )
                )
            else:
                declared[sq] = resource
    for sq in sorted(sq for sq in posts if sq not in declared):
        found.append(
            Violation(
                "H1",
                f"{posts[sq]}'s trading post on {sq} is not declared, so it produces nothing "
                "this harvest; each post produces the wood, fish or carrot its owner declares",
            )
        )
    harvested = harvest_fiefs(table, declared)
    for p, expected in (event.expect or {}).items():
        got = harvested.carrots[p]
        if got != expected:
            detail = (
                "; ".join(
                    f"fief of {f.squares[0]} ({count(len(f.squares), 'square')}) {f.strength}x{f.wealth}"
                    for f in harvested[p]
                    if f.carrots
                )
                or "no fief yields carrots"
            )
            found.append(
                Violation(
                    "X1",
                    f"{p} harvests {count(got, 'carrot')} in round {table.round} ({detail}), "
                    f"the log expects {expected}",
                )
            )


def harvest_fiefs(table: Table, declared: dict[str, str]) -> Harvested:
    """Harvest every player's fiefs (H1-H4) with the trading post declarations ``declared``."""
    table.position.declared = declared
    harvested = table.board_fiefs = harvest(table.position, table.players, whole=table.round == ROUNDS)
    table.harvests.append(harvested)
    return harvested
