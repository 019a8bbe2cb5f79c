"""A run of games in one room (issue 42): ``bkref.bots.runs`` from Python, as the commands use it,
and the standings kept as running tallies as the games are written (``bkref.io.tournament.tally``)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from bkref.bots.runs import Existing, Run, RunError, Tournament
from bkref.bots.tournament import Bot, seed_deals, simulate_jobs
from bkref.io.batch import Local
from bkref.io.tournament.records import tournament_record
from bkref.io.tournament.tally import Tally, aggregate, confident, difference

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
