"""A tournament's folder: its ``tournament.json`` (``Manifest``), what its logs cannot be, and
the standings of the logs of a folder (``bkref standings``), by bot or by player.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

import msgspec

from bkref.io.referee import Report
from bkref.io.standings import GameRecord, Standings
from bkref.io.standings import aggregate as aggregate_by_player
from bkref.io.tournament.records import Meta, Schedule, TournamentRecord, is_tournament, records
from bkref.io.tournament.tally import Ended, TournamentStandings, aggregate

if TYPE_CHECKING:
    from bkref.io.batch import Runner

TOURNAMENT_FILE: Final = "tournament.json"
"""The file the runner writes in a tournament's folder, beside the logs."""


class Manifest(msgspec.Struct, frozen=True):
    """What a tournament is, as ``tournament.json`` in its folder says (``bkref tournament``
    writes it): the players, the bots (name to policy, in line-up order), the schedule and
    its candidate, the deals (from ``seed`` on, or the ``decks`` of those logs), whether the
    run stops once confident, and how it ``ended`` (None while it runs: the folder of a run
    that was stopped says so)."""

    format: Literal["bkref-tournament/1"]
    players: int
    schedule: Schedule
    bots: dict[str, str]
    candidate: str | None
    deals: int
    seed: int | None
    decks: list[str] | None
    until_confident: bool
    ended: Ended | None = None


def manifest_of(folder: Path) -> Manifest | None:
    """The ``tournament.json`` of ``folder``: None when the file is not there. ``ValueError``
    when it cannot be read.

    >>> manifest_of(Path("replays")) is None
    True
    """
    path = folder / TOURNAMENT_FILE
    if not path.is_file():
        return None
    try:
        return msgspec.json.decode(path.read_bytes(), type=Manifest)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ValueError(f"{path}: {error}") from None


def standings(
    paths: Sequence[Path | Report],
    include_illegal: bool,
    run: Runner,
    advance: Callable[[], None],
    manifest: Manifest | None = None,
    warn: Callable[[str], None] | None = None,
    read: Callable[[str, Meta], None] | None = None,
) -> Standings | TournamentStandings:
    """``bkref standings``: the standings of the logs at ``paths``, one pair of records per
    log made by ``run`` (this process, processes or a cluster), then reduced there; by bot
    when every game counted is a tournament's, else by player. ``advance`` is called after
    each log. With the ``manifest`` of the tournament whose folder ``paths`` are
    (``manifest_of``), the folder is checked first: ``FolderError`` when it holds what a
    tournament's games cannot be (``folder_problems``), ``warn`` called with the line of
    ``missing_games`` when games of a finished run are not there. ``read`` is called with each
    log's file and game event's ``meta``, in order."""
    found = []  # as the map gives them: the reduce reads its own copy of them on a cluster
    for game, by_bot, meta in run.map(records, paths):
        found.append((game, by_bot, meta))
        if read is not None:
            read(game.file, meta)
        advance()
    pairs = [(game, by_bot) for game, by_bot, _ in found]
    if manifest is not None:
        games = [t for _, t in pairs]
        problems = folder_problems(games)
        if problems:
            raise FolderError(problems)
        missing = missing_games(games, manifest)
        if missing is not None and warn is not None:
            warn(missing)
    if is_tournament(pairs, include_illegal):
        return run.reduce(_by_bot, found, None if manifest is None else manifest.ended, include_illegal)
    return run.reduce(_by_player, found, include_illegal)


class FolderError(Exception):
    """A tournament's folder holds what its games cannot be: ``problems``, a line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


_GAME_NAME: Final = re.compile(r"game-(\d{6,})-deal-(\d{6,})-(rotation|candidate|control)\b")
"""The form of the file names ``bkref tournament`` gives its games' logs: game, deal, role."""


def _named(name: str) -> tuple[int, int, str] | None:
    """The game, deal and role a file name of ``_GAME_NAME``'s form says.

    >>> _named("game-000012-deal-000004-rotation-1.jsonl"), _named("mine.jsonl")
    ((12, 4, 'rotation'), None)
    """
    found = _GAME_NAME.match(name)
    return None if found is None else (int(found[1]), int(found[2]), found[3])


def folder_problems(games: Sequence[TournamentRecord]) -> list[str]:
    """What the logs of a tournament's folder cannot be, a line each naming the files: a log
    of no tournament among them (a stranger's, or a copy of another game's log edited), two
    logs of one game of the schedule, a log whose file name (of the form ``bkref tournament``
    gives it) says another game than its ``meta.tournament``. None of these comes from a run,
    stopped or not: a run writes each game once, under its own name.

    >>> from bkref.io.tournament.records import BotSeat
    >>> seat = [BotSeat("ann", "new", "greedy", 130, True)]
    >>> one = TournamentRecord("game-000001-deal-000001-rotation-0.jsonl", "legal", 0, None,
    ...     "rotate", 1, 1, "rotation", 0, None, seat)
    >>> two = msgspec.structs.replace(one, file="game-000002-deal-000001-rotation-1.jsonl")
    >>> for problem in folder_problems([one, two]):
    ...     print(problem)
    game-000001-deal-000001-rotation-0.jsonl and game-000002-deal-000001-rotation-1.jsonl are both game 1
    game-000002-deal-000001-rotation-1.jsonl: its name is not that of game 1 of deal 1 (rotation), as its meta says
    """
    problems = [f"{t.file}: not a game of this tournament (its game event has no meta.tournament)"
                for t in games if not t.in_tournament]  # fmt: skip
    by_game: dict[int, list[str]] = {}
    for t in games:
        if t.in_tournament and t.game is not None:
            by_game.setdefault(t.game, []).append(t.file)
            said = _named(Path(t.file).name)  # a name of bkref's own form says a game
            if said is not None and said != (t.game, t.deal, t.role):
                problems.append(
                    f"{t.file}: its name is not that of game {t.game} of deal {t.deal} ({t.role}), as its meta says"
                )
    for game, files in sorted(by_game.items(), reverse=True):
        if len(files) > 1:
            problems.insert(0, f"{' and '.join(files)} are both game {game}")
    return problems


def missing_games(games: Sequence[TournamentRecord], manifest: Manifest) -> str | None:
    """The games of a tournament that ended after all its deals (``manifest.ended``) whose
    logs are not in its folder, in one line; None when none is missing, or the run stopped
    early (a stopped run's folder lacks its later games: ``--resume`` plays them).

    >>> from bkref.io.tournament.records import BotSeat
    >>> seat = [BotSeat("ann", "new", "greedy", 130, True)]
    >>> game = TournamentRecord("game-000002-deal-000002-rotation-0.jsonl", "legal", 0, None,
    ...     "rotate", 2, 2, "rotation", 0, None, seat)
    >>> missing_games([game], Manifest("bkref-tournament/1", 2, "rotate", {}, None, 3, 1, None, False, "deals"))
    'game 1 and the games of deal 3 are missing, though tournament.json says all 3 deals were played'
    """
    if manifest.ended != "deals":
        return None
    numbers = {t.game for t in games if t.game is not None}
    last = max((t.deal for t in games if t.deal is not None), default=0)
    gaps = [n for n in range(1, max(numbers, default=0) + 1) if n not in numbers]
    parts = []
    if gaps:
        parts.append(
            f"game{'s' if len(gaps) > 1 else ''} {', '.join(map(str, gaps[:10]))}{' …' if len(gaps) > 10 else ''}"
        )
    if last < manifest.deals:
        parts.append(f"the games of deal{'s' if manifest.deals - last > 1 else ''} {last + 1}"
                     + (f" to {manifest.deals}" if manifest.deals - last > 1 else ""))  # fmt: skip
    if not parts:
        return None
    are = "is" if len(gaps) == 1 and len(parts) == 1 else "are"
    return f"{' and '.join(parts)} {are} missing, though tournament.json says all {manifest.deals} deals were played"


def _by_bot(
    found: list[tuple[GameRecord, TournamentRecord, Meta]], ended: Ended | None, include_illegal: bool
) -> TournamentStandings:
    return aggregate([t for _, t, _ in found], ended, include_illegal=include_illegal)


def _by_player(found: list[tuple[GameRecord, TournamentRecord, Meta]], include_illegal: bool) -> Standings:
    return aggregate_by_player([g for g, _, _ in found], include_illegal)
