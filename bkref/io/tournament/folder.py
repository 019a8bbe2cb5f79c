"""A tournament's folder: its ``tournament.json`` (``Manifest``), what its logs cannot be
(``FolderCheck``), and the standings of the logs of a folder (``bkref standings``), by bot or
by player.
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

import msgspec

from bkref.io.lazy import Made
from bkref.io.referee import Report
from bkref.io.standings import GameRecord, Standings, counts
from bkref.io.standings import aggregate as aggregate_by_player
from bkref.io.tournament.records import Meta, Schedule, TournamentRecord, is_tournament, records
from bkref.io.tournament.tally import Ended, Streamed, TournamentStandings, aggregate

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
    games: int | None = None
    """How many games the schedule holds (None in the folders of a bkref that did not write it)."""


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
    read: Callable[[GameRecord, Meta], None] | None = None,
    keep_games: bool = True,
) -> Standings | TournamentStandings:
    """``bkref standings``: the standings of the logs at ``paths``, one pair of records per
    log made by ``run`` (this process, processes or a cluster); by bot when every game
    counted is a tournament's, else by player. ``advance`` is called after each log, and
    ``read`` with each log's record by player and game event's ``meta``, in order.

    Without a ``manifest``, the records are held, then reduced where ``run`` runs. With the
    ``manifest`` of the tournament whose folder ``paths`` are (``manifest_of``), the records
    are taken one by one as they come (``FolderCheck``, ``Streamed``): memory does not grow
    with the games but for those left out (and with ``keep_games``, the standings list every
    game: JSON does). Then ``FolderError`` when the folder holds what a tournament's games
    cannot be, and ``warn`` is called with the line of ``FolderCheck.missing`` when games of a
    finished run are not there. A folder whose logs do not come in schedule order is read a
    second time, its records held (``Streamed``); one where no game counts gives the standings
    by player."""
    if manifest is None:
        found = []  # as the map gives them: the reduce reads its own copy of them on a cluster
        for game, by_bot, meta in run.map(records, paths):
            found.append((game, by_bot, meta))
            _after_each(game, meta, read, advance)
        return _reduced(run, found, None, include_illegal)
    check = FolderCheck(manifest, Files(paths))
    streamed = Streamed(include_illegal, keep_games)
    left_out = []  # the standings by player, when no game counts
    for game, by_bot, meta in run.map(records, paths):
        check.add(by_bot)
        streamed.add(by_bot)
        if not counts(game, include_illegal):
            left_out.append(game)
        _after_each(game, meta, read, advance)
    problems = check.problems()
    if problems:
        raise FolderError(problems)
    missing = check.missing(manifest)
    if missing is not None and warn is not None:
        warn(missing)
    if streamed.tally is None:
        return _reduced(run, list(run.map(records, paths)), manifest.ended, include_illegal)
    if not streamed.tally.counted:
        return aggregate_by_player(left_out, include_illegal)
    return streamed.tally.standings(manifest.ended)


class Files(Made[str]):
    """The file each record of ``logs`` names (what ``records`` gives as ``file``), made when asked for."""

    def __init__(self, logs: Sequence[Path | Report]) -> None:
        self.logs = logs

    def __len__(self) -> int:
        return len(self.logs)

    def make(self, index: int) -> str:
        item = self.logs[index]
        return item.path if isinstance(item, Report) else os.fspath(item)


def _after_each(
    game: GameRecord, meta: Meta, read: Callable[[GameRecord, Meta], None] | None, advance: Callable[[], None]
) -> None:
    """What ``standings`` does after each log: ``read`` told of it, then ``advance``."""
    if read is not None:
        read(game, meta)
    advance()


def _reduced(
    run: Runner, found: list[tuple[GameRecord, TournamentRecord, Meta]], ended: Ended | None, include_illegal: bool
) -> Standings | TournamentStandings:
    """The standings of the records ``found``, reduced where ``run`` runs: by bot when every
    game counted is a tournament's."""
    if is_tournament([(game, by_bot) for game, by_bot, _ in found], include_illegal):
        return run.reduce(_by_bot, found, ended, include_illegal)
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


class FolderCheck:
    """What the logs of a tournament's folder cannot be, checked as their records come
    (``add``): a log of no tournament among them (a stranger's, or a copy of another game's
    log edited), two logs of one game of the schedule, a log whose file name (of the form
    ``bkref tournament`` gives it) says another game than its ``meta.tournament``. None of
    these comes from a run, stopped or not: a run writes each game once, under its own name.
    It holds where the first log of each game was in the order read (8 bytes a game of the
    schedule, as ``tournament.json`` counts them; a dict's entry for others), and the
    problems; ``files`` names the logs in the order they are read.

    >>> from bkref.io.tournament.records import BotSeat
    >>> seat = [BotSeat("ann", "new", "greedy", 130, True)]
    >>> one = TournamentRecord("game-000001-deal-000001-rotation-0.jsonl", "legal", 0, None,
    ...     "rotate", 1, 1, "rotation", 0, None, seat)
    >>> check = FolderCheck(files=[one.file, "game-000002-deal-000001-rotation-1.jsonl"])
    >>> check.add(one)
    >>> check.add(msgspec.structs.replace(one, file="game-000002-deal-000001-rotation-1.jsonl"))
    >>> for problem in check.problems():
    ...     print(problem)
    game-000001-deal-000001-rotation-0.jsonl and game-000002-deal-000001-rotation-1.jsonl are both game 1
    game-000002-deal-000001-rotation-1.jsonl: its name is not that of game 1 of deal 1 (rotation), as its meta says
    """

    def __init__(self, manifest: Manifest | None = None, files: Sequence[str] = ()) -> None:
        self.manifest = manifest
        """The folder's ``tournament.json``, whose games these logs must be (their schedule,
        candidate, deals and games)."""
        self.files = files
        self.read = 0
        """How many logs were read."""
        games = manifest.games if manifest is not None else None
        self.first = array("q", [0]) * min(games or 0, len(files))  # no larger than the logs to read
        """Where the first log of each game of the schedule was read (from 1; 0: none read), by game from 1."""
        self.first_beyond: dict[int, int] = {}
        """The same of games beyond ``first`` (none in a folder whose ``tournament.json`` counts its games)."""
        self.top = 0
        """The highest game read."""
        self.again: dict[int, list[str]] = {}
        """The other files of a game read twice or more."""
        self.strangers: list[str] = []
        self.misnamed: list[str] = []
        self.last_deal = 0

    def add(self, t: TournamentRecord) -> None:
        """Check the log of ``t``, the next read."""
        self.read += 1
        if t.deal is not None:
            self.last_deal = max(self.last_deal, t.deal)
        if not t.in_tournament:
            self.strangers.append(f"{t.file}: not a game of this tournament (its game event has no meta.tournament)")
        elif (other := self._other(t)) is not None:
            self.strangers.append(f"{t.file}: not a game of this tournament ({other})")
        elif t.game is not None:
            if self._first(t.game):
                self.again.setdefault(t.game, []).append(t.file)
            elif 0 < t.game <= len(self.first):
                self.first[t.game - 1] = self.read
            else:
                self.first_beyond[t.game] = self.read
            self.top = max(self.top, t.game)
            said = _named(Path(t.file).name)  # a name of bkref's own form says a game
            if said is not None and said != (t.game, t.deal, t.role):
                self.misnamed.append(
                    f"{t.file}: its name is not that of game {t.game} of deal {t.deal} ({t.role}), as its meta says"
                )

    def _first(self, game: int) -> int:
        """Where the first log of ``game`` was read (from 1), or 0 when none was."""
        return self.first[game - 1] if 0 < game <= len(self.first) else self.first_beyond.get(game, 0)

    def _other(self, t: TournamentRecord) -> str | None:
        """What in ``t``'s ``meta.tournament`` says another tournament than the folder's, if anything."""
        m = self.manifest
        if m is None:
            return None
        if t.schedule != m.schedule:
            return f"its meta.tournament says the {t.schedule} schedule; tournament.json the {m.schedule}"
        if t.candidate != m.candidate:
            return (
                f"its meta.tournament says candidate {t.candidate or 'none'}; tournament.json {m.candidate or 'none'}"
            )
        if t.deal is not None and t.deal > m.deals:
            return f"its meta.tournament says deal {t.deal}; tournament.json has {m.deals}"
        if t.game is not None and m.games is not None and t.game > m.games:
            return f"its meta.tournament says game {t.game}; tournament.json has {m.games}"
        return None

    def problems(self) -> list[str]:
        """The problems of the logs read, a line each naming the files: two logs of one game
        first (by game), then the strangers' and the misnamed logs (in the order read)."""
        twice = [f"{' and '.join([self.files[self._first(game) - 1], *files])} are both game {game}"
                 for game, files in sorted(self.again.items())]  # fmt: skip
        return [*twice, *self.strangers, *self.misnamed]

    def missing(self, manifest: Manifest) -> str | None:
        """The games of a tournament that ended after all its deals (``manifest.ended``) whose
        logs were not read, in one line; None when none is missing, or the run stopped early
        (a stopped run's folder lacks its later games: ``--resume`` plays them).

        >>> from bkref.io.tournament.records import BotSeat
        >>> seat = [BotSeat("ann", "new", "greedy", 130, True)]
        >>> check = FolderCheck()
        >>> check.add(TournamentRecord("game-000002-deal-000002-rotation-0.jsonl", "legal", 0, None,
        ...     "rotate", 2, 2, "rotation", 0, None, seat))
        >>> check.missing(Manifest("bkref-tournament/1", 2, "rotate", {}, None, 3, 1, None, False, "deals"))
        'game 1 and the games of deal 3 are missing, though tournament.json says all 3 deals were played'
        """
        if manifest.ended != "deals":
            return None
        last, top = self.last_deal, self.top
        gaps = [n for n in range(1, top + 1) if not self._first(n)]
        if manifest.games is not None and last >= manifest.deals:  # the last deal's last games
            gaps += range(top + 1, manifest.games + 1)
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
        return (
            f"{' and '.join(parts)} {are} missing, though tournament.json says all {manifest.deals} deals were played"
        )


def _by_bot(
    found: list[tuple[GameRecord, TournamentRecord, Meta]], ended: Ended | None, include_illegal: bool
) -> TournamentStandings:
    return aggregate([t for _, t, _ in found], ended, include_illegal=include_illegal)


def _by_player(found: list[tuple[GameRecord, TournamentRecord, Meta]], include_illegal: bool) -> Standings:
    return aggregate_by_player([g for g, _, _ in found], include_illegal)
