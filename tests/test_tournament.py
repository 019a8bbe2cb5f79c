"""A tournament's standings by bot (issue 28): the intervals against scipy, the paired
difference, head to head, the ratings' ties, and ``bkref standings`` of a tournament's folder.

The games are the runner's (``bkref.bots.tournament``), or simulated logs with the runner's
``meta.tournament`` put in their game event, for schedules made by hand.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import jsonschema
import msgspec
import pytest
from openskill.models import MODELS, BradleyTerryFull, PlackettLuce
from scipy import stats

from bkref.bots.simulate import PLAYER_IDS, simulate, to_jsonl
from bkref.bots.tournament import Bot, run, schedule, seed_deals
from bkref.io.batch import Local
from bkref.io.intervals import mean_interval, t_quantile, wilson
from bkref.io.referee import check
from bkref.io.standings import game_record
from bkref.io.tournament.records import BotSeat, TournamentRecord, tournament_record
from bkref.io.tournament.tables import CSV_HEADER
from bkref.io.tournament.tally import (
    MIN_DEALS,
    TournamentStandings,
    aggregate,
    confident,
    difference,
    ratings,
)
from tests.conftest import REPLAYS, ROOT
from tests.test_standings import TextSnapshot

SCHEMA = ROOT / "schemas" / "bkref-tournament-standings-1.schema.json"


def write_game(
    folder: Path, game: int, seed: int, lineup: Sequence[str], policies: dict[str, str], **fields: object
) -> Path:
    """The log of one tournament game, as the runner writes it: the deal's seed, the bots of
    ``lineup`` in the seats, and ``fields`` (schedule, deal, role, rotation, candidate) in
    ``meta.tournament``."""
    events = simulate(len(lineup), seed, [policies[bot] for bot in lineup])
    seats = PLAYER_IDS[: len(lineup)]
    tournament = {
        **fields,
        "game": game,
        "bots": dict(zip(seats, lineup)),
        "policies": {bot: policies[bot] for bot in dict.fromkeys(lineup)},
    }
    meta = {"generator": "bkref tournament", "seed": seed, "tournament": tournament}
    events[0] = msgspec.structs.replace(events[0], meta=meta)
    path = folder / f"game-{game:06d}.jsonl"
    path.write_text(to_jsonl(events))
    return path


def candidate_schedule(
    folder: Path, players: int, deals: int, policies: dict[str, str], candidate: str, baseline: str
) -> Path:
    """Each deal with the candidate in every seat, then the control game of the baseline alone."""
    folder.mkdir(exist_ok=True)
    game = 0
    for deal in range(1, deals + 1):
        for seat in [*range(1, players + 1), None]:
            lineup = [candidate if i + 1 == seat else baseline for i in range(players)]
            role = "candidate" if seat else "control"
            game += 1
            write_game(
                folder, game, 100 + deal, lineup, policies,
                schedule="candidate", deal=deal, role=role, rotation=seat, candidate=candidate,
            )  # fmt: skip
    return folder


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> Path:
    """greedy (the candidate, ``new``) against random (``old``), 2 players, 12 deals: 36 games,
    played by the runner as ``bkref tournament`` plays them (the manual's example)."""
    folder = tmp_path_factory.mktemp("cup")
    jobs = schedule("candidate", 2, [Bot("new", "greedy"), Bot("old", "random")], seed_deals(1, 12), "new")
    for job, log in run(jobs, Local()):
        (folder / job.name).write_text(log)
    return folder


def standings_json(bkref, *args: str | Path) -> tuple[int, TournamentStandings]:
    result = bkref("standings", "--format", "json", *args)
    assert result.stderr == ""
    return result.exit_code, msgspec.json.decode(result.stdout, type=TournamentStandings, strict=True)


def seat(player: str, bot: str, total: int, won: bool = False) -> BotSeat:
    return BotSeat(player, bot, "greedy", total, won)


def record(
    game: int, deal: int, seats: list[BotSeat], role: str = "rotation", rotation: int | None = 0
) -> TournamentRecord:
    """A record by hand; the winners are the seats with the highest total (E8)."""
    best = max(s.total for s in seats)
    seats = [msgspec.structs.replace(s, won=s.total == best) for s in seats]
    schedule = "candidate" if role in ("candidate", "control") else "rotate"
    candidate = "new" if schedule == "candidate" else None
    return TournamentRecord(f"g{game}.jsonl", "legal", 0, None, schedule, game, deal, role, rotation, candidate, seats)  # type: ignore[arg-type]


# The intervals, against scipy


@pytest.mark.parametrize("p", [0.6, 0.9, 0.95, 0.975, 0.99, 0.995])
def test_the_t_quantile_is_scipys(p: float) -> None:
    for df in [*range(1, 201), 500, 1000, 10_000]:
        assert t_quantile(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-10, abs=1e-10), df


def test_the_wilson_interval_is_scipys() -> None:
    for n in range(1, 41):
        for k in range(n + 1):
            expected = stats.binomtest(k, n).proportion_ci(method="wilson")
            assert wilson(k, n) == pytest.approx((expected.low, expected.high), abs=1e-12), (k, n)


def test_the_wilson_interval_of_shared_wins_by_hand() -> None:
    """3.5 wins of 10 (a victory shared by two): the formula with p = 0.35, z = 1.959964."""
    z, p, n = 1.959963984540054, 0.35, 10
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    assert wilson(3.5, 10) == pytest.approx((centre - half, centre + half), abs=1e-15)
    assert wilson(3.5, 10) == pytest.approx((0.1369, 0.6463), abs=1e-4)


def test_the_mean_interval_is_scipys() -> None:
    rng = random.Random(28)
    for n in (2, 3, 10, 57):
        values = [rng.gauss(5, 20) for _ in range(n)]
        mean, interval = mean_interval(values)
        expected = stats.t.interval(0.95, n - 1, loc=statistics.fmean(values), scale=stats.sem(values))
        assert mean == pytest.approx(statistics.fmean(values))
        assert interval == pytest.approx(expected, rel=1e-10)


# The paired difference


def test_a_bot_against_itself_on_the_candidate_schedule_differs_by_exactly_0(bkref, tmp_path: Path) -> None:
    """Two names for the same policy: each candidate game is the control game, seat for seat."""
    folder = candidate_schedule(tmp_path / "self", 2, 3, {"new": "greedy", "old": "greedy"}, "new", "old")
    status, standings = standings_json(bkref, folder)
    assert status == 0
    found = standings.difference
    assert found is not None
    assert (found.candidate, found.against, found.deals, found.mean) == ("new", "control", 3, 0.0)
    assert found.interval is not None
    assert (found.interval.low, found.interval.high) == (0.0, 0.0)  # width 0, exactly
    assert not standings.confident


def test_the_paired_difference_and_the_margins_agree_with_an_independent_computation(bkref, cup: Path) -> None:
    """Each game's totals from the by-player record, the meta from the log's first line, the
    deals' values by hand, the intervals from scipy."""
    status, standings = standings_json(bkref, cup)
    assert status == 0 and standings.schedules == ["candidate"] and standings.deals == 12
    games = defaultdict(dict)
    margins: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(cup.glob("*.jsonl")):
        meta = json.loads(path.read_text().split("\n", 1)[0])["meta"]["tournament"]
        totals = {s.player: s.total for s in game_record(path).seats}
        seats = list(meta["bots"])
        games[meta["deal"]][meta["rotation"]] = [totals[p] for p in seats]
        for p in seats:
            best_other = max(totals[q] for q in seats if q != p)
            margins[meta["bots"][p]][meta["deal"]].append(totals[p] - best_other)
    by_deal = []
    for deal in sorted(games):
        control = games[deal][None]
        seats = [k for k in games[deal] if k is not None]
        by_deal.append(
            sum(games[deal][k][k - 1] for k in seats) / len(seats) - sum(control[k - 1] for k in seats) / len(seats)
        )
    found = standings.difference
    assert found is not None and found.interval is not None
    assert found.mean == pytest.approx(statistics.fmean(by_deal))
    expected = stats.t.interval(0.95, len(by_deal) - 1, loc=statistics.fmean(by_deal), scale=stats.sem(by_deal))
    assert (found.interval.low, found.interval.high) == pytest.approx(expected, rel=1e-9)
    assert found.interval.low > 0 and standings.confident  # greedy beats random
    for bot in standings.bots:
        means = [statistics.fmean(m) for _, m in sorted(margins[bot.bot].items())]
        expected = stats.t.interval(0.95, len(means) - 1, loc=statistics.fmean(means), scale=stats.sem(means))
        assert bot.margin_interval is not None
        assert bot.mean_margin == pytest.approx(statistics.fmean(means))
        assert (bot.margin_interval.low, bot.margin_interval.high) == pytest.approx(expected, rel=1e-9)
        wins = stats.binomtest(round(bot.wins), bot.seats).proportion_ci(method="wilson")
        assert bot.wins == round(bot.wins)  # no shared victory in these games: scipy's integer test applies
        assert (bot.win_interval.low, bot.win_interval.high) == pytest.approx((wins.low, wins.high), abs=1e-12)


def test_confident_only_after_the_least_deals(cup: Path) -> None:
    records = [tournament_record(path) for path in sorted(cup.glob("*.jsonl"))]
    first = [r for r in records if (r.deal or 0) < MIN_DEALS]
    early = difference(first)
    assert early is not None and early.deals == MIN_DEALS - 1
    assert early.interval is not None and early.interval.low > 0  # it would be, but too early to say
    assert not confident(early)
    assert confident(difference([r for r in records if (r.deal or 0) <= MIN_DEALS]))


def test_without_a_control_game_the_candidate_is_paired_with_the_other_bots() -> None:
    games = [
        record(1, 1, [seat("ann", "new", 100), seat("bob", "old", 80)]),
        record(2, 1, [seat("ann", "old", 90), seat("bob", "new", 95)]),
        record(3, 2, [seat("ann", "new", 70), seat("bob", "old", 75)]),
        record(4, 2, [seat("ann", "old", 60), seat("bob", "new", 85)]),
    ]
    games = [msgspec.structs.replace(g, candidate="new") for g in games]
    found = difference(games)
    assert found is not None
    assert (found.against, found.deals) == ("others", 2)
    assert found.mean == statistics.fmean([(100 + 95) / 2 - (80 + 90) / 2, (70 + 85) / 2 - (75 + 60) / 2])


def test_with_illegal_games_counted_the_paired_difference_counts_them_too() -> None:
    """``--include-illegal`` counts an illegal game with a final score in every figure, the paired
    difference included (it left them out of the difference alone)."""
    games = [
        record(1, 1, [seat("ann", "new", 100), seat("bob", "old", 80)]),
        record(2, 2, [seat("ann", "old", 90), seat("bob", "new", 95)]),
    ]
    games = [msgspec.structs.replace(g, candidate="new") for g in games]
    games[1] = msgspec.structs.replace(games[1], status="illegal")
    counted = aggregate(games, include_illegal=True)
    assert counted.counted == 2 and counted.bots[0].deals == 2
    assert counted.difference == difference(games, include_illegal=True)
    assert counted.difference is not None and counted.difference.deals == 2
    legal = aggregate(games).difference
    assert legal is not None and legal.deals == 1


# By bot, by hand


def test_a_shared_victory_a_bot_in_two_seats_and_head_to_head_by_hand() -> None:
    """ann and bob tie for the win (E8): half a win each; bot a sits in two seats."""
    standings = aggregate(
        [
            record(1, 1, [seat("ann", "a", 100), seat("bob", "b", 100), seat("cid", "a", 90)]),
            record(2, 2, [seat("ann", "b", 80), seat("bob", "a", 120), seat("cid", "a", 70)]),
        ]
    )
    by_bot = {b.bot: b for b in standings.bots}
    assert [b.bot for b in standings.bots] == ["a", "b"]  # a: 1.5 wins in 4 seats; b: 0.5 in 2
    a, b = by_bot["a"], by_bot["b"]
    assert (a.games, a.seats, a.deals, a.wins, a.win_share) == (2, 4, 2, 1.5, 0.375)
    assert (b.games, b.seats, b.deals, b.wins, b.win_share) == (2, 2, 2, 0.5, 0.25)
    assert a.mean_score == (100 + 90 + 120 + 70) / 4
    # margins: game 1, a: 0 and -10 (deal mean -5); game 2, a: +40 and -50 (deal mean -5)
    assert a.mean_margin == -5.0 and a.margin_interval is not None
    assert (a.margin_interval.low, a.margin_interval.high) == (-5.0, -5.0)
    assert b.mean_margin == statistics.fmean([0, -40])
    h2h = {(h.bot, h.opponent): h for h in standings.head_to_head}
    # a over b: game 1, 100 = 100 (a half), 90 < 100; game 2, 120 > 80, 70 < 80
    assert (h2h["a", "b"].games, h2h["a", "b"].pairs, h2h["a", "b"].above) == (2, 4, 1.5)
    assert (h2h["b", "a"].above, h2h["b", "a"].share) == (2.5, 0.625)
    assert standings.difference is None and not standings.confident


def test_the_same_records_in_any_order_give_the_same_bytes(cup: Path) -> None:
    records = [tournament_record(path) for path in sorted(cup.glob("*.jsonl"))]
    shuffled = records[:]
    random.Random(3).shuffle(shuffled)
    one, two = aggregate(records), aggregate(shuffled)
    assert msgspec.json.encode(one.bots) == msgspec.json.encode(two.bots)
    assert msgspec.json.encode(one.head_to_head) == msgspec.json.encode(two.head_to_head)
    assert one.difference == two.difference


# Ratings


def placings(players: int) -> list[list[int]]:
    """Every placing of ``players`` players, ties included (1 is first)."""
    return [list(p) for p in itertools.product(range(1, players + 1), repeat=players)]


def rates_ties_right(model: type, players: int) -> bool:
    """From equal ratings, one game: tied players rate equally, and never a lower place above a higher."""
    m = model()
    for ranks in placings(players):
        rated = [team[0] for team in m.rate([[m.rating()] for _ in ranks], ranks=ranks)]
        for (i, a), (j, b) in itertools.product(enumerate(rated), repeat=2):
            if ranks[i] == ranks[j] and (a.mu, a.sigma) != pytest.approx((b.mu, b.sigma), abs=1e-12):
                return False
            if ranks[i] < ranks[j] and (a.mu < b.mu - 1e-12 or a.ordinal() < b.ordinal() - 1e-12):
                return False
    return True


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_which_openskill_models_rate_ties_right(model: type) -> None:
    """The choice of the rating model: Plackett-Luce, openskill's default, rates a third
    place above two tied winners (ranks 1, 1, 2, 3: reported upstream); the others pass."""
    assert rates_ties_right(model, 2)
    assert rates_ties_right(model, 3)
    assert rates_ties_right(model, 4) is (model is not PlackettLuce)


def test_the_ratings_rate_ties_right_for_every_placing() -> None:
    """Through ``ratings``, the model bkref uses: every placing of 2 to 4 bots in one game."""
    assert rates_ties_right(BradleyTerryFull, 4)
    for players in (2, 3, 4):
        for ranks in placings(players):
            seats = [seat(PLAYER_IDS[i], f"bot{i}", 200 - 10 * rank) for i, rank in enumerate(ranks)]
            rated = ratings([record(1, 1, seats)])
            for (i, a), (j, b) in itertools.product(enumerate(ranks), repeat=2):
                x, y = rated[f"bot{i}"], rated[f"bot{j}"]
                if a == b:
                    assert (x.mu, x.sigma, x.ordinal) == (y.mu, y.sigma, y.ordinal), ranks
                elif a < b:
                    assert x.mu > y.mu and x.ordinal > y.ordinal, ranks


def test_a_game_of_one_bot_alone_changes_no_rating() -> None:
    control = record(1, 1, [seat("ann", "old", 100), seat("bob", "old", 90)], role="control", rotation=None)
    assert ratings([control])["old"].mu == BradleyTerryFull().rating().mu


# bkref standings of a tournament's folder


def test_the_report_keeps_the_game_events_meta() -> None:
    path = REPLAYS / "generated" / "2p-seed1-greedy.jsonl"
    expected = {"generator": "bkref simulate", "seed": 1, "policy": "greedy"}
    assert check(path).meta == check(path, keep_state=False).meta == expected


def test_the_json_follows_the_committed_schema(bkref, cup: Path) -> None:
    result = bkref("standings", "--format", "json", cup)
    jsonschema.validate(json.loads(result.stdout), json.loads(SCHEMA.read_text()))
    assert bkref("schema", "--tournament").stdout == SCHEMA.read_text()


def test_csv_is_every_table_with_names_a_spreadsheet_shows_as_text(bkref, tmp_path: Path) -> None:
    folder = candidate_schedule(tmp_path / "cup", 2, 2, {"=new": "greedy", "old": "random"}, "=new", "old")
    broken = folder / "game-000002.jsonl"
    broken.write_text(broken.read_text() + "not json\n")
    result = bkref("standings", "--format", "csv", folder)
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert result.stdout.split("\n", 1)[0] == ",".join(CSV_HEADER)
    assert [r["table"] for r in rows] == ["tournament", "left_out", "bots", "bots", "head_to_head", "head_to_head"]
    assert [(r["counted"], r["left_out"], r["candidate"]) for r in rows[:1]] == [("5", "1", "'=new")]
    assert (rows[1]["file"], rows[1]["status"], rows[1]["rule"]) == (str(broken), "unreadable", "F1")
    assert [(r["bot"], r["policy"], r["games"], r["seats"]) for r in rows[2:4]] == [
        ("'=new", "greedy", "3", "3"),
        ("old", "random", "5", "7"),
    ]
    assert rows[2]["difference_deals"] == "2" and rows[3]["difference"] == ""
    assert [(r["bot"], r["opponent"]) for r in rows[4:]] == [("'=new", "old"), ("old", "'=new")]


def test_csv_of_a_tournament(bkref, cup: Path, snapshot) -> None:
    result = bkref("standings", "--format", "csv", cup)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == snapshot(extension_class=TextSnapshot)


def test_csv_figures_are_the_jsons_to_the_documented_decimals(bkref, cup: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(bkref("standings", "--format", "csv", cup).stdout)))
    standings = standings_json(bkref, cup)[1]
    bots = {r["bot"]: r for r in rows if r["table"] == "bots"}
    for b in standings.bots:
        row = bots[b.bot]
        assert row["win_share"] == f"{b.win_share:.4f}" and row["mean_score"] == f"{b.mean_score:.2f}"
        assert float(row["ordinal"]) == pytest.approx(b.rating.ordinal, abs=0.005)
    assert standings.difference is not None
    assert float(bots["new"]["difference"]) == pytest.approx(standings.difference.mean, abs=0.005)
    h2h = {(r["bot"], r["opponent"]): r for r in rows if r["table"] == "head_to_head"}
    assert {pair: float(r["share"]) for pair, r in h2h.items()} == {
        (h.bot, h.opponent): round(h.share, 4) for h in standings.head_to_head
    }
    decimals = {column: len(value.partition(".")[2]) for r in rows for column, value in r.items() if "." in value}
    assert decimals == {
        "wins": 2, "win_share": 4, "win_low": 4, "win_high": 4, "mean_score": 2, "mean_margin": 2, "margin_low": 2,
        "margin_high": 2, "mu": 2, "sigma": 2, "ordinal": 2, "difference": 2, "difference_low": 2,
        "difference_high": 2, "above": 1, "share": 4,
    }  # fmt: skip


def test_text_standings_of_a_tournament(bkref, cup: Path, snapshot) -> None:
    result = bkref("standings", cup)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith(
        "Tournament standings of 36 games: 36 counted\n12 deals, schedule candidate, candidate new\n"
    )
    assert result.stdout == snapshot(extension_class=TextSnapshot)


def test_how_the_run_ended_is_read_from_tournament_json(bkref, tmp_path: Path) -> None:
    folder = candidate_schedule(tmp_path / "cup", 2, 1, {"new": "greedy", "old": "random"}, "new", "old")
    manifest = {
        "format": "bkref-tournament/1", "players": 2, "schedule": "candidate",
        "bots": {"new": "greedy", "old": "random"}, "candidate": "new", "deals": 1, "seed": 1, "decks": None,
        "until_confident": True, "ended": "until-confident",
    }  # fmt: skip
    (folder / "tournament.json").write_text(json.dumps(manifest))
    assert standings_json(bkref, folder)[1].ended == "until-confident"
    assert "ended when the paired difference became confident" in bkref("standings", folder).stdout
    (folder / "tournament.json").write_text(json.dumps({**manifest, "ended": "never"}))
    result = bkref("standings", folder)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"bkref: error: {folder / 'tournament.json'}: Invalid enum value 'never'")


def test_a_game_left_out_is_listed_and_the_rest_stay_a_tournament(bkref, tmp_path: Path) -> None:
    folder = candidate_schedule(tmp_path / "cup", 2, 2, {"new": "greedy", "old": "random"}, "new", "old")
    broken = folder / "game-000002.jsonl"
    broken.write_text(broken.read_text() + "not json\n")
    status, standings = standings_json(bkref, folder)
    assert (status, standings.counted, standings.left_out) == (2, 5, 1)
    assert standings.difference is not None and standings.difference.deals == 2  # deal 1 without its seat 2 game
    text = bkref("standings", folder).stdout
    assert "Games left out" in text and "\ngame-000002.jsonl   unreadable: F1 line " in text


def test_a_game_outside_the_tournament_gives_the_standings_by_player(bkref, cup: Path, tmp_path: Path) -> None:
    result = bkref("standings", cup, REPLAYS / "2p-ann-bob.jsonl")
    assert result.stdout.startswith("Standings of 37 games: 37 counted\n")


def test_processes_give_the_same_bytes(bkref, cup: Path) -> None:
    for output in ("json", "text", "csv"):
        one = bkref("standings", "--format", output, cup)
        two = bkref("standings", "--format", output, "-j", "2", cup)
        assert (two.exit_code, two.stdout) == (one.exit_code, one.stdout)


def test_a_bot_name_that_holds_control_characters_is_escaped_in_every_format(bkref, tmp_path: Path) -> None:
    name = "new\x1b[2J\u202e"
    folder = candidate_schedule(tmp_path / "cup", 2, 1, {name: "greedy", "old": "random"}, name, "old")
    for output in ("text", "csv", "json"):
        printed = bkref("standings", "--format", output, folder).stdout
        assert "\x1b" not in printed and "\u202e" not in printed
        assert ("\\u001b[2J\\u202e" if output == "json" else "new\\x1b[2J\\u202e") in printed
    assert standings_json(bkref, folder)[1].candidate == name
