"""Hostile and huge input (issue 31): deep nesting, endless lines, keys given twice, odd
files in folders. Each is one F1 line naming the file and line, never a traceback, in
bounded memory, and the run goes on."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bkref import Problem, check, read
from bkref.io.logfile import MAX_DEPTH, MAX_LINE, LineReader
from bkref.io.sources import blocks
from tests.conftest import BKREF_COMMAND, REPLAYS, ROOT
from tests.test_properties import BOUNDED

GAME = (REPLAYS / "2p-ann-bob.jsonl").read_bytes()
LINES = GAME.splitlines(keepends=True)


def with_line(line: bytes, at: int = 5) -> bytes:
    """The 2-player game with ``line`` inserted as line ``at``: a legal log but for that line."""
    return b"".join([*LINES[: at - 1], line + b"\n", *LINES[at - 1 :]])


def nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


DEEP_LINES = {
    "deep object": (nested(1000), 1000),
    "deep array before the type": (b'{"x":' + b"[" * 1000 + b"]" * 1000 + b',"type":"pick"}', 1001),
    "deep and cut short": (b"[" * 5000, 5000),
}


@pytest.mark.parametrize(("line", "depth"), DEEP_LINES.values(), ids=DEEP_LINES)
def test_a_deeply_nested_line_is_one_f1_and_the_check_goes_on(bkref, tmp_path: Path, line: bytes, depth: int) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(with_line(line))
    result = bkref("validate", path)
    assert result.exit_code == 2
    assert (
        result.stdout
        == f"{path}:5: F1 line 5 nests objects and arrays {depth} deep; a line may nest them 100 deep at most\n"
    )
    assert check(path).events == len(LINES)  # every other line played


def test_every_command_reports_a_deep_line(bkref, tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(with_line(nested(1000)))
    for command in (["score"], ["replay"], ["moves", "--to", "10"], ["standings"], ["replay", "--html", "-"]):
        result = bkref(*command, path)
        assert result.exit_code == 2, command
    assert bkref("validate", "-", input=with_line(nested(1000)).decode()).stdout.startswith("-:5: F1 line 5 nests")


def test_a_deep_meta_in_the_game_event_is_f1(bkref, tmp_path: Path) -> None:
    game = json.loads(LINES[0])
    line = json.dumps({**game, "meta": {"x": "PLACE"}}).encode().replace(b'"PLACE"', nested(2000))
    path = tmp_path / "meta.jsonl"
    path.write_bytes(line + b"\n" + b"".join(LINES[1:]))
    assert bkref("validate", path).stdout == (
        f"{path}:1: F1 line 1 nests objects and arrays 2002 deep; a line may nest them 100 deep at most\n"
    )


def test_folders_and_processes_go_on_past_a_deep_line(bkref, tmp_path: Path) -> None:
    (tmp_path / "a-deep.jsonl").write_bytes(with_line(nested(1000)))
    (tmp_path / "b-legal.jsonl").write_bytes(GAME)
    for jobs in ("1", "2"):
        result = bkref("validate", tmp_path, "-j", jobs)
        assert result.stderr.endswith("2 files: 2 games, 1 legal, 0 illegal, 1 unreadable\n")


def test_the_depth_limit_is_the_same_wherever_the_reader_is_called_from() -> None:
    """A line within the limit but deeper than the stack has room for: the limit's F1, not a RecursionError."""
    line = LINES[0][:-2] + b',"x":' + b"[" * 90 + b"]" * 90 + b"}\n"
    assert check(line).diagnostics[0].message == "the game event has an unknown field 'x'"  # read, here
    meta = LINES[0].replace(b'"meta":{', b'"meta":{"x":' + b"[" * 89 + b"]" * 89 + b",")
    frames, frame = 0, sys._getframe()
    while frame is not None:
        frames, frame = frames + 1, frame.f_back

    def deep(levels: int) -> object:
        return deep(levels - 1) if levels else LineReader().read(1, meta)

    found = deep(sys.getrecursionlimit() - frames - 40)  # 40 frames left: too few for msgspec
    assert isinstance(found, Problem)
    assert found.message == "line 1 nests objects and arrays 91 deep; a line may nest them 100 deep at most"


def test_a_line_at_the_depth_limit_is_read(bkref) -> None:
    line = b'{"type":"game","format":"bkref/1","players":["a","b"],"meta":{"x":' + b"[" * 98 + b"]" * 98 + b"}}"
    assert check(line).diagnostics[0].rule == "T1"  # only the end is missing
    too_deep = line.replace(b'"x":[', b'"x":[[', 1)[:-2] + b"]}}"
    assert "101 deep" in check(too_deep).diagnostics[0].message


# -- endless lines -------------------------------------------------------------------


def test_a_line_without_end_is_held_only_to_the_limit() -> None:
    """An endless line of one byte: the reader gets what was read up to the limit, never more."""
    sizes = []

    def endless(size: int) -> bytes:
        sizes.append(size)
        if len(sizes) > 200:  # 12 MiB in
            return b""
        return b"x" * size

    held = [len(line) for block in blocks(endless) for line in block]
    assert held and max(held) <= MAX_LINE + (1 << 16)
    assert len(sizes) > 200  # it read on to the end, holding nothing


def test_a_long_line_is_f1_and_the_lines_after_it_are_checked(bkref, tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(with_line(b"x" * (3 * MAX_LINE)))
    expected = f"F1 line 5 is longer than {MAX_LINE:,} bytes (1 MiB), the longest a line may be"
    assert bkref("validate", path).stdout == f"{path}:5: {expected}\n"
    assert bkref("validate", "-", input=path.read_text()).stdout == f"-:5: {expected}\n"
    report = check(io.BytesIO(path.read_bytes()))
    assert ([d.line for d in report.diagnostics], report.events) == ([5], len(LINES))


def test_a_line_of_exactly_the_limit_is_read(bkref) -> None:
    game = json.loads(LINES[0])
    game["meta"] = {"x": ""}
    short = json.dumps(game, separators=(",", ":")).encode() + b"\n"
    line = short.replace(b'"x":""', b'"x":"' + b"x" * (MAX_LINE - len(short)) + b'"')
    assert len(line) == MAX_LINE
    assert check(line + b"".join(LINES[1:])).status == 0
    assert "longer than" in check(line.replace(b'"x"', b'"xx"', 1) + b"".join(LINES[1:])).diagnostics[0].message


def limited_run(*args: str, memory: int = 1 << 30) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [*BKREF_COMMAND, *args], capture_output=True, text=True, cwd=ROOT, preexec_fn=limit, timeout=60
    )


def test_dev_zero_is_a_binary_file_in_bounded_memory() -> None:
    result = limited_run("validate", "/dev/zero")
    assert (result.returncode, result.stderr) == (2, "/dev/zero: unreadable, 1 problem (F1)\n")
    assert result.stdout == "/dev/zero:1: F1 line 1 holds a NUL byte: this is a binary file, not a JSON-lines log\n"


def test_a_pipe_without_line_ends_is_read_in_bounded_memory() -> None:
    """NUL-free bytes with no line end, piped in: F1 once the line passes the limit."""
    result = subprocess.run(
        f"head -c 300000000 /dev/zero | tr '\\0' x | {' '.join(BKREF_COMMAND)} validate -",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)),
        timeout=120,
    )
    assert result.stdout.startswith("-:1: F1 line 1 is longer than 1,048,576 bytes")
    assert result.returncode == 2


# -- keys given twice, encodings, columns ---------------------------------------------

TWICE = {
    "type twice": (b'{"type":"pick","type":"deal"}', "'type'", None),
    "keep twice": (b'{"type":"pick","round":1,"turn":1,"player":"ann","keep":["A1"],"keep":["B2"]}', "'keep'", "pick"),
    "nested": (b'{"type":"harvest","round":1,"expect":{"ann":1,"ann":2}}', "'ann'", "harvest"),
    "after an escape": (b'{"type":"pick","round":1,"turn":1,"player":"a\\"","keep":[],"keep":[]}', "'keep'", "pick"),
    "a player named as a field": (
        b'{"type":"harvest","round":1,"expect":{"trading_posts":1},"round":1}',
        "'round'",
        "harvest",
    ),
    "an empty field twice": (b'{"type":"end","copies":{},"copies":{}}', "'copies'", "end"),
    "spaced": (b'{"type":"build","round":1,"player":"ann","card":"C1", "card" :"C2","at":["C1"]}', "'card'", "build"),
    "a pick with a discard": (
        b'{"type":"pick","round":1,"turn":1,"player":"ann","keep":["A1"],"discard":["B2"],"discard":["B3"]}',
        "'discard'",
        "pick",
    ),
    "a discard written null": (
        b'{"type":"pick","round":1,"turn":1,"player":"ann","keep":["A1"],"discard":null,"turn":1}',
        "'turn'",
        "pick",
    ),
    "a name with a colon": (
        b'{"type":"draw","round":1,"turn":1,"player":"a:","cards":[],"cards":[]}',
        "'cards'",
        "draw",
    ),
}


@pytest.mark.parametrize(("line", "key", "kind"), TWICE.values(), ids=TWICE)
def test_a_key_given_twice_is_f1(line: bytes, key: str, kind: str | None) -> None:
    report = check(with_line(line))
    assert [(d.line, d.event, d.rule, d.message) for d in report.diagnostics] == [
        (5, kind, "F1", f"line 5 gives the key {key} twice in one object; each key may appear once")
    ]


@settings(BOUNDED, max_examples=60)
@given(line=st.integers(2, len(LINES) - 1), which=st.integers(0, 20))
def test_any_key_of_a_game_given_twice_is_found(line: int, which: int) -> None:
    event = json.loads(LINES[line - 1])
    key = list(event)[which % len(event)]
    doubled = "{" + json.dumps(key) + ":" + json.dumps(event[key]) + "," + LINES[line - 1].decode()[1:]
    report = check(b"".join([*LINES[: line - 1], doubled.encode(), *LINES[line:]]), partial=True)
    assert (
        report.diagnostics[0].message
        == f"line {line} gives the key {key!r} twice in one object; each key may appear once"
    )


def test_a_field_of_the_game_event_written_empty_twice_is_found() -> None:
    twice = b'{"type":"game","format":"bkref/1","players":["ann","bob"],"rulings":{},"rulings":{}}'
    assert check(twice, partial=True).diagnostics[0].message == (
        "line 1 gives the key 'rulings' twice in one object; each key may appear once"
    )
    named = b'{"type":"game","format":"bkref/1","players":["ann","rulings"],"rulings":{},"meta":{"rulings":1}}'
    assert check(named, partial=True).diagnostics == []  # a player may be named rulings


def test_the_same_key_in_two_objects_is_not_twice() -> None:
    line = b'{"type":"end","copies":{"ann":{"liberal":null},"bob":{"liberal":null}}}'
    assert "twice" not in check(with_line(line)).diagnostics[0].message


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (GAME.decode().encode("utf-32"), "this file is UTF-32 text; bkref/1 logs are UTF-8: save it as UTF-8"),
        (GAME.decode().encode("utf-32-le"), "this file is UTF-32 text; bkref/1 logs are UTF-8: save it as UTF-8"),
        (GAME.decode().encode("utf-32-be"), "this file is UTF-32 text; bkref/1 logs are UTF-8: save it as UTF-8"),
        (bytes(1000), "line 1 holds a NUL byte: this is a binary file, not a JSON-lines log"),
        (bytes(10) + b"\n" + bytes(10), "line 1 holds a NUL byte: this is a binary file, not a JSON-lines log"),
    ],
    ids=["utf-32", "utf-32-le", "utf-32-be", "all NUL", "NUL lines"],
)
def test_wide_and_nul_files_are_named_right(content: bytes, message: str) -> None:
    assert [d.message for d in check(content).diagnostics] == [message]


@pytest.mark.parametrize(
    ("text", "column"),
    [("not json", 2), ('{"a":nulx}', 9), ('{"a":tru}', 9), ('{"a":falsy}', 10), ("nope", 2), ('{"a":-x}', 7)],
)
def test_a_json_syntax_error_points_at_the_bad_character(text: str, column: int) -> None:
    message = check(text + "\n").diagnostics[0].message
    assert message.endswith(f" at column {column}"), message


# -- odd files -----------------------------------------------------------------------


def test_links_to_nothing_loops_and_pipes_in_a_folder_are_each_reported(bkref, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a-game.jsonl").write_bytes(GAME)
    (folder / "b-dangling.jsonl").symlink_to("nowhere.jsonl")
    (folder / "c-loop.jsonl").symlink_to("c-loop.jsonl")
    os.mkfifo(folder / "d-pipe.jsonl")  # never opened: that would wait for a writer
    result = bkref("validate", folder)
    assert result.stdout == (
        f"{folder}/b-dangling.jsonl: F1 is a symbolic link to nowhere.jsonl, which does not exist\n"
        f"{folder}/c-loop.jsonl: F1 is a symbolic link in a loop: it never reaches a file\n"
        f"{folder}/d-pipe.jsonl: F1 is a named pipe (FIFO), not a log file: not read\n"
    )
    assert result.stderr.endswith("4 files: 1 game, 1 legal, 0 illegal, 3 unreadable\n")


def test_a_named_pipe_with_no_writer_on_the_command_line_is_one_line_not_a_wait(bkref, tmp_path: Path) -> None:
    """Attacks the open of a path: a FIFO with no writer once blocked validate forever."""
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    result = bkref("validate", pipe)
    assert (result.exit_code, result.stdout) == (
        2,
        f"{pipe}:1: F1 the log holds no event: it needs at least a game event\n",
    )


def test_a_link_loop_on_the_command_line_is_named(bkref, tmp_path: Path) -> None:
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    assert bkref("validate", loop).stdout == f"{loop}: F1 is a symbolic link in a loop: it never reaches a file\n"
    assert (
        bkref("score", loop).stderr == f"bkref: error: {loop}: is a symbolic link in a loop: it never reaches a file\n"
    )


def test_the_api_says_what_the_command_line_says() -> None:
    assert check("nosuch").diagnostics[0].text() == "nosuch: F1 no such file"
    assert [p.message for p in read("nosuch")] == ["nosuch: no such file"]
    assert check("").diagnostics[0].message == "is a directory, not a log file"


# -- the fuzz test: nesting depth, line length, control characters in names ----------------

CONTROL = st.text(st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp"]), min_size=1, max_size=6)


@settings(BOUNDED, max_examples=40)
@given(
    depth=st.integers(0, 400),
    length=st.sampled_from([0, MAX_LINE - 200, MAX_LINE + 1, 2 * MAX_LINE]),
    name=CONTROL,
)
def test_hostile_lines_are_each_one_diagnostic_line(depth: int, length: int, name: str) -> None:
    game = json.loads(LINES[0])
    game["players"] = [name, "bob"]
    header = json.dumps(game).encode() + b"\n"
    deep = b'{"type":"end","x":' + b"[" * depth + b"]" * depth + b"}\n"
    long = b'{"type":"end","x":"' + b"y" * length + b'"}\n'
    report = check(header + deep + long, partial=True)
    texts = [d.text() for d in report.diagnostics]
    assert all("\n" not in text and text.isprintable() for text in texts)
    assert any(f"nests objects and arrays {depth + 1} deep" in t for t in texts) == (depth + 1 > MAX_DEPTH)
    assert any("longer than" in t for t in texts) == (length + 21 > MAX_LINE)


# -- writes: whole or not at all, never through a link ---------------------------------


def full_disk_run(*args: str, cwd: Path, limit: int = 4096) -> subprocess.CompletedProcess[str]:
    """``bkref ARGS`` with files limited to ``limit`` bytes: a write past it fails as on a full disk."""

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    # SIGXFSZ ignored (inherited through exec): the write fails with EFBIG instead of killing bkref
    command = [
        "python3",
        "-c",
        "import os,signal,sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])",
    ]
    return subprocess.run(
        [*command, *BKREF_COMMAND, *args], capture_output=True, text=True, cwd=cwd, preexec_fn=small_files, timeout=60
    )


@pytest.mark.parametrize(
    "command",
    [
        ["replay", str(REPLAYS / "2p-ann-bob.jsonl"), "--html", "out"],
        ["replay", str(REPLAYS / "2p-ann-bob.jsonl"), "--svg", "out"],
        ["schema", "-o", "out"],
        ["simulate", "--players", "2", "--seed", "1", "-o", "out"],
    ],
    ids=lambda command: command[0] + " " + command[-2],
)
def test_a_write_that_fails_leaves_the_old_file_whole(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "out").write_text("the old file\n")
    result = full_disk_run(*command, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "bkref: error: cannot write out: File too large\n")
    assert (tmp_path / "out").read_text() == "the old file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary file left


def test_simulate_games_leaves_no_partial_game(tmp_path: Path) -> None:
    result = full_disk_run("simulate", "--players", "2", "--seed", "1", "--games", "3", "-o", "games", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("bkref: error: cannot write games/2p-seed-000001.jsonl")
    assert list((tmp_path / "games").iterdir()) == []


IN_A_FULL_FILESYSTEM = """
import json, os, subprocess, sys
from pathlib import Path
folder, command = sys.argv[1], sys.argv[2:]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", folder], check=True)
os.chdir(folder)
os.mkdir("games")
for old in ("out", "games/2p-seed-000001.jsonl"):
    Path(old).write_text("the old file\\n")
filler = os.open("filler", os.O_WRONLY | os.O_CREAT)
try:
    while True:
        os.write(filler, bytes(4096))
except OSError:  # full
    os.ftruncate(filler, os.fstat(filler).st_size - 4096)  # room for the start of any output, not all of it
done = subprocess.run(command, capture_output=True, text=True)
files = {str(path): path.read_text() for path in sorted(Path().rglob("*")) if path.is_file() and path != Path("filler")}
print(json.dumps([done.returncode, done.stderr, files]))
"""


def really_full_disk_run(folder: Path, *args: str) -> tuple[int, str, dict[str, str]]:
    """``bkref ARGS`` in ``folder`` on a filesystem of its own (a 256 KiB tmpfs, in a mount
    namespace of its own) holding ``out`` and ``games/2p-seed-000001.jsonl`` and full but for
    4 KiB; its exit status, its standard error and the files left there (but the filler)."""
    folder.mkdir()
    probe = subprocess.run(
        ["unshare", "--mount", "mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if probe.returncode:  # CI runs as root, where it is allowed
        pytest.skip(f"mounting a filesystem is not permitted here (root in a mount namespace): {probe.stderr.strip()}")
    done = subprocess.run(
        ["unshare", "--mount", sys.executable, "-c", IN_A_FULL_FILESYSTEM, str(folder), *BKREF_COMMAND, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    status, stderr, files = json.loads(done.stdout)
    return status, stderr, files


@pytest.mark.parametrize(
    ("command", "written"),
    [
        (["replay", str(REPLAYS / "2p-ann-bob.jsonl"), "--html", "out"], "out"),
        (["schema", "-o", "out"], "out"),
        (
            ["simulate", "--players", "2", "--seed", "1", "--games", "3", "-o", "games", "--force"],
            "games/2p-seed-000001.jsonl",
        ),
    ],
    ids=["replay --html", "schema -o", "simulate --games"],
)
def test_a_full_filesystem_leaves_the_old_file_whole_and_no_partial_file(
    tmp_path: Path, command: list[str], written: str
) -> None:
    status, stderr, files = really_full_disk_run(tmp_path / "full", *command)
    assert (status, stderr) == (2, f"bkref: error: cannot write {written}: No space left on device\n")
    assert files == {"games/2p-seed-000001.jsonl": "the old file\n", "out": "the old file\n"}  # nothing else


def test_a_symbolic_link_at_the_target_is_refused_not_followed(bkref, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    games = tmp_path / "games"
    games.mkdir()
    (games / "2p-seed-000002.jsonl").symlink_to(victim)
    result = bkref("simulate", "--players", "2", "--seed", "1", "--games", "2", "-o", games)
    assert result.exit_code == 2  # a file at a game's name, unless --resume or --force says what to do with it
    assert result.stderr.startswith(f"bkref: error: {games}/2p-seed-000002.jsonl exists: --resume keeps")
    result = bkref("simulate", "--players", "2", "--seed", "1", "--games", "2", "-o", games, "--force")
    assert result.exit_code == 2
    assert result.stderr == (
        f"bkref: error: cannot write {games}/2p-seed-000002.jsonl: it is a symbolic link; "
        "bkref writes no file through a link (remove it first)\n"
    )
    assert victim.read_text() == "keep me\n"
    assert (games / "2p-seed-000001.jsonl").read_text().startswith('{"type":"game"')


def test_a_write_replaces_the_file_and_keeps_devices(bkref, tmp_path: Path) -> None:
    out = tmp_path / "schema.json"
    out.write_text("old")
    assert bkref("schema", "-o", out).exit_code == 0
    assert out.read_text() == (ROOT / "schemas" / "bkref-1.schema.json").read_text()
    assert oct(out.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    assert bkref("schema", "-o", "/dev/null").exit_code == 0


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- processes ---------------------------------------------------------------------


def test_jobs_are_capped_at_the_logs_and_the_cpus(bkref) -> None:
    from bkref.io.batch import MAX_JOBS, Local

    assert Local(10**20).jobs == MAX_JOBS == 4 * (os.cpu_count() or 1)
    result = bkref("validate", REPLAYS / "2p-ann-bob.jsonl", "-j", "99999999999999999999")
    assert (result.exit_code, result.stderr) == (0, f"{REPLAYS / '2p-ann-bob.jsonl'}: legal (113 events)\n")


def test_one_log_with_many_jobs_starts_no_process(monkeypatch) -> None:
    import concurrent.futures

    from bkref.io.batch import Local

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process pool was started for one log")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    assert list(Local(100000).map(len, ["one"])) == [3]


def test_a_policy_that_exits_is_a_one_line_error(bkref, tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\n\ndef play(state, options, rng):\n    sys.exit(0)\n")
    result = bkref("simulate", "--players", "2", "--seed", "1", "--policy", f"{bot}:play")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"bkref: error: policy {bot}:play raised SystemExit: 0 ({bot}:4) at ann's pick in round 1, turn 1 (event 3)\n"
    )


def test_standings_reads_standard_input_for_a_dash(bkref) -> None:
    log = REPLAYS / "2p-ann-bob.jsonl"
    piped = bkref("standings", "-", "--format", "csv", input=log.read_text())
    named = bkref("standings", log, "--format", "csv")
    assert piped.exit_code == named.exit_code == 0
    assert piped.stdout == named.stdout.replace(str(log), "-")
