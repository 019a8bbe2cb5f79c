"""A run of games in one room (issue 42): ``bkref.bots.runs`` from Python, as the commands use it,
and the standings kept as running tallies as the games are written (``bkref.io.tournament.tally``)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import msgspec
import pytest

from bkref.bots.runs import Existing, Run, RunError, Tournament
from bkref.bots.tournament import Bot, seed_deals, simulate_jobs
from bkref.io import referee
from bkref.io.batch import Local
from bkref.io.referee import check
from bkref.io.standings import counts
from bkref.io.tournament import records as records_module
from bkref.io.tournament.folder import manifest_of, standings
from bkref.io.tournament.records import tournament_record
from bkref.io.tournament.tally import Streamed, Tally, aggregate, confident, difference

GREEDY_AND_RANDOM = [Bot("new", "greedy"), Bot("old", "random")]


def records_of(folder: Path) -> list:
    return [tournament_record(path) for path in sorted(folder.glob("game-*.jsonl"))]


def test_a_tournament_from_python_gives_the_standings_of_its_folder(tmp_path: Path) -> None:
    """The tallies, kept as the games come, are the standings ``bkref standings`` reads from the
    folder afterwards, byte for byte; without the games kept, they differ only by the list of games."""
    cup = Tournament(3, "rotate", [*GREEDY_AND_RANDOM, Bot("third", "random")], seed_deals(4, 3))
    notes: list[str] = []
    kept = cup.play(Run(tmp_path / "kept", cup.jobs), Local(1), notes.append)
    lean = cup.play(Run(tmp_path / "lean", cup.jobs), Local(2), keep_games=False)
    read = aggregate(records_of(tmp_path / "kept"), "deals")
    assert msgspec.json.encode(kept) == msgspec.json.encode(read)
    assert len(kept.games) == len(cup.jobs) == 9 and lean.games == []
    read_lean = aggregate(records_of(tmp_path / "lean"), "deals")
    assert msgspec.json.encode(msgspec.structs.replace(lean, games=read_lean.games)) == msgspec.json.encode(read_lean)
    best = max(kept.bots, key=lambda b: (b.win_share, b.bot))
    assert len(notes) == 9 and notes[-1] == f"leader {best.bot} ({best.win_share:.0%} won)"
    manifest = msgspec.json.decode((tmp_path / "kept" / "tournament.json").read_bytes())
    assert (manifest["ended"], manifest["deals"], manifest["seed"]) == ("deals", 3, 4)


def test_a_tally_holds_no_game_once_its_deal_is_closed(tmp_path: Path) -> None:
    """What a long run keeps: a number per deal and bot, never the games (flat memory)."""
    cup = Tournament(2, "candidate", GREEDY_AND_RANDOM, seed_deals(1, 4), "new")
    cup.play(Run(tmp_path, cup.jobs), Local(1))
    records = records_of(tmp_path)
    tally = Tally(keep_games=False)
    for n, record in enumerate(records, 1):
        tally.add(record)
        assert sum(map(len, tally.open.values())) == (n - 1) % 3 + 1  # the open deal's games only
        if n % 3 == 0:
            tally.close()
            assert not tally.open and tally.games == []
            assert {bot: len(values) for bot, values in tally.deal_margins.items()} == {"new": n // 3, "old": n // 3}
            assert tally.difference() == difference(records[:n])
    assert msgspec.json.encode(tally.standings("deals", records)) == msgspec.json.encode(aggregate(records, "deals"))


def test_the_stop_rule_stops_after_the_first_confident_deal(tmp_path: Path) -> None:
    cup = Tournament(2, "candidate", GREEDY_AND_RANDOM, seed_deals(1, 30), "new", until_confident=True)
    standings = cup.play(Run(tmp_path, cup.jobs), Local(1))
    records = records_of(tmp_path)
    deals = len(records) // 3
    assert standings.ended == "until-confident" and standings.confident and deals < 30
    assert standings.deals == deals and not confident(difference(records[:-3]))
    manifest = msgspec.json.decode((tmp_path / "tournament.json").read_bytes())
    assert manifest["ended"] == "until-confident"


def test_a_run_refuses_resumes_and_forces_from_python(tmp_path: Path) -> None:
    jobs = simulate_jobs(2, 5, ["greedy", "random"], 4)
    assert Run(tmp_path, jobs).play(Local(1)) == 0
    logs = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(RunError, match=r"2p-seed-000005.jsonl exists: --resume keeps"):
        Run(tmp_path, jobs).play(Local(1))
    (tmp_path / "2p-seed-000006.jsonl").unlink()
    (tmp_path / "2p-seed-000007.jsonl").write_bytes(logs["2p-seed-000005.jsonl"])
    said: list[str] = []
    written: list[str] = []
    run = Run(tmp_path, jobs, Existing.resume, say=said.append, written=lambda path, log: written.append(path.name))
    assert run.play(Local(1)) == 2
    assert said == [f"playing {tmp_path / '2p-seed-000007.jsonl'} again: it is another game"]
    assert written == ["2p-seed-000006.jsonl", "2p-seed-000007.jsonl"]
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == logs
    assert Run(tmp_path, jobs, Existing.force).play(Local(1)) == 0
    assert run.stopped() == f"stopped: 4 of 4 games are in {tmp_path} and kept; the same command with --resume goes on"


EDITS = {  # what someone did to a game's file, and whether --resume keeps it (legal and complete)
    "its end without expect": (lambda log: re.sub(r',"expect":\{[^}]*\}', "", log), True),
    "a line of spaces after its end": (lambda log: log + "   \n", True),
    "a total changed": (lambda log: log.replace('"expect":{"ann":', '"expect":{"ann":1'), False),
    "a line added": (lambda log: log + log.splitlines()[-1] + "\n", False),
}


@pytest.mark.parametrize("edit", EDITS)
def test_resume_checks_each_kept_game_once_and_an_edited_one_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """A resumed run checks each game it keeps once, to keep it, and makes its record from its
    text when its turn comes; a game's file edited is kept (and counted as it reads) or played
    again as it was before a kept game's record was made from its text. The end without
    ``expect`` alone cannot say its record: it is checked a second time."""
    cup = Tournament(2, "rotate", GREEDY_AND_RANDOM, seed_deals(1, 2))
    cup.play(Run(tmp_path, cup.jobs), Local(1))
    logs = {path.name: path.read_bytes() for path in tmp_path.glob("game-*.jsonl")}
    game = tmp_path / cup.jobs[1].name
    change, keeps = EDITS[edit]
    game.write_text(change(game.read_text()))
    edited = game.read_bytes()
    checked: list[str] = []

    def counted(source: object, *args: object, **options: object) -> object:
        checked.append(Path(str(source)).name)
        return check(source, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(referee, "check", counted)
    monkeypatch.setattr(records_module, "check", counted)
    said: list[str] = []
    standings = cup.play(Run(tmp_path, cup.jobs, Existing.resume, say=said.append), Local(1))
    monkeypatch.undo()
    assert said == ([] if keeps else [f"playing {game} again: it is not a legal, complete game"])
    assert game.read_bytes() == (edited if keeps else logs[game.name])
    twice = [game.name] if edit == "its end without expect" else []
    assert sorted(checked) == sorted([*logs, *twice])
    assert msgspec.json.encode(standings) == msgspec.json.encode(aggregate(records_of(tmp_path), "deals"))


def shuffled_names(folder: Path) -> None:
    """The games of ``folder`` renamed so that their names sort in the reverse of schedule order."""
    games = sorted(folder.glob("game-*.jsonl"), reverse=True)
    for n, path in enumerate(games):
        path.rename(folder / f"x-{n:02d}.jsonl")


@pytest.mark.parametrize("order", ["schedule", "reversed"])
def test_the_standings_of_a_tournaments_folder_streamed_are_those_of_its_records(tmp_path: Path, order: str) -> None:
    """``bkref standings`` of a folder with its ``tournament.json`` takes the records one by one
    (``Streamed``), each deal closed as the next comes: the same standings, byte for byte, as
    ``aggregate`` of all of them, with one game broken and one illegal (counted or not), the
    games listed or not; a folder whose names do not sort in schedule order is read again."""
    cup = Tournament(3, "candidate", [*GREEDY_AND_RANDOM, Bot("third", "random")], seed_deals(2, 4), "new")
    cup.play(Run(tmp_path, cup.jobs), Local(1))
    broken, illegal = sorted(tmp_path.glob("game-*.jsonl"))[5:7]
    broken.write_text(broken.read_text() + "not json\n")
    illegal.write_text(illegal.read_text().replace('"expect":{"ann":', '"expect":{"ann":1'))
    if order == "reversed":
        shuffled_names(tmp_path)
    paths = sorted(tmp_path.glob("*.jsonl"))
    records = [tournament_record(path) for path in paths]
    assert [r.status for r in records].count("legal") == len(records) - 2
    assert {r.status for r in records} == {"legal", "illegal", "unreadable"}
    for include_illegal in (False, True):
        streamed = Streamed(include_illegal, keep_games=False)
        for record in records:
            streamed.add(record)
        assert (streamed.tally is None) == (order == "reversed")
        want = aggregate(records, "deals", include_illegal=include_illegal)
        for keep_games in (True, False):
            read: list[str] = []
            found = standings(
                paths, include_illegal, Local(1), lambda: None, manifest_of(tmp_path),
                read=lambda game, meta, read=read: read.append(game.file), keep_games=keep_games,
            )  # fmt: skip
            if not keep_games and streamed.tally is not None:  # the games left out alone (read again: all)
                want = msgspec.structs.replace(want, games=[r for r in records if not counts(r, include_illegal)])
            assert msgspec.json.encode(found) == msgspec.json.encode(want)
            assert read == [str(path) for path in paths]


def test_standings_of_a_tournaments_folder_name_a_game_left_out_in_it_and_exit_as_validate(
    bkref, tmp_path: Path
) -> None:
    """Text and CSV do not list the games counted: the one left out is still named from the
    folder that holds them all, and the exit status is still validate's (an illegal game
    counted with --include-illegal: 1)."""
    cup = Tournament(2, "rotate", GREEDY_AND_RANDOM, seed_deals(1, 2))
    cup.play(Run(tmp_path, cup.jobs), Local(1))
    illegal = tmp_path / cup.jobs[2].name
    illegal.write_text(illegal.read_text().replace('"expect":{"ann":', '"expect":{"ann":1'))
    text = bkref("standings", tmp_path)
    assert text.exit_code == 1 and f"\n{illegal.name}   illegal: X1 line " in text.stdout
    table = bkref("standings", "--format", "csv", tmp_path)
    left_out = [row for row in csv.DictReader(io.StringIO(table.stdout)) if row["table"] == "left_out"]
    assert table.exit_code == 1 and [(r["file"], r["status"], r["rule"]) for r in left_out] == [
        (str(illegal), "illegal", "X1")
    ]
    for output in ("text", "csv"):
        counted = bkref("standings", "--format", output, "--include-illegal", tmp_path)
        assert counted.exit_code == 1 and illegal.name not in counted.stdout
