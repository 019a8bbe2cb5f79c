"""Bad input: one clear F1 line naming the file and line, exit 2, never a traceback."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import BKREF_COMMAND, REPLAYS

GAME = (REPLAYS / "3p-ann-bob-cid.jsonl").read_bytes()
GAME_LINES = GAME.count(b"\n")

CASES = {
    "not-json": (b"hello world\n", 1, "line 1 is not JSON: invalid character at column 1"),
    "array": (b"[1, 2]\n", 1, "line 1 is not an event: a JSON array where an object is needed"),
    "truncated-last-line": (GAME[:-40], GAME_LINES, f"line {GAME_LINES} is not complete JSON"),
    "empty": (b"", 1, "the log holds no event: it needs at least a game event"),
    "only-comments": (b"# nothing here\n\n", 1, "the log holds no event"),
    "no-game-event": (GAME.split(b"\n", 1)[1], 1, "the first event is a deal; a log starts with a game event"),
    "binary": (bytes(range(256)) * 4, 1, "holds a NUL byte: this is a binary file"),
    "not-utf8": (b"\x80\x81 caf\xe9\n", 1, "line 1 is not UTF-8 text: byte 0x80 at column 1; bkref/1 logs are UTF-8"),
    "latin-1": (
        GAME.replace(b'"players":[', b'"meta":{"venue":"caf\xe9"},"players":[', 1),
        1,
        "line 1 is not UTF-8 text: byte 0xE9 at column 55; bkref/1 logs are UTF-8: save the file as UTF-8",
    ),
    "latin-1-later": (
        GAME + b"# caf\xe9\n",
        GAME_LINES + 1,
        f"line {GAME_LINES + 1} is not UTF-8 text: byte 0xE9 at column 6",
    ),
    "utf16-bom": (GAME.decode().encode("utf-16"), 1, "this file is UTF-16 text"),
    "utf16-le": (GAME.decode().encode("utf-16-le"), 1, 'UTF-16 text (Windows\' "Unicode"); bkref/1 logs are UTF-8'),
    "utf16-be": (GAME.decode().encode("utf-16-be"), 1, "save it as UTF-8"),
    "unknown-type": (b'{"type":"move","round":1}\n', 1, "unknown event type 'move'"),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_input_gives_one_f1_line_and_exit_2(bkref, tmp_path: Path, name: str) -> None:
    content, line, words = CASES[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(content)
    result = bkref("validate", path)
    assert result.exit_code == 2
    assert result.stdout.count("\n") == 1
    assert result.stdout.startswith(f"{path}:{line}: F1 ")
    assert words in result.stdout
    assert result.stderr == f"{path}: unreadable, 1 problem (F1)\n"
    assert path.read_bytes() == content  # never changes anything


WINDOWS = {
    "crlf": lambda content: content.replace(b"\n", b"\r\n"),
    "bom": lambda content: b"\xef\xbb\xbf" + content,
    "bom-crlf": lambda content: b"\xef\xbb\xbf" + content.replace(b"\n", b"\r\n"),
}


@pytest.mark.parametrize("variant", WINDOWS)
@pytest.mark.parametrize(
    "log", ["3p-ann-bob-cid.jsonl", "illegal/D2-keep-not-in-hand.jsonl", "illegal/F1-unknown-field.jsonl"]
)
def test_crlf_line_ends_and_a_bom_validate_exactly_as_the_lf_file(
    bkref, tmp_path: Path, log: str, variant: str
) -> None:
    """A Windows checkout (git's autocrlf) or an editor's byte order mark changes nothing bkref reports."""
    content = (REPLAYS / log).read_bytes()
    (tmp_path / "lf").mkdir()
    (tmp_path / variant).mkdir()
    plain, windows = tmp_path / "lf" / "game.jsonl", tmp_path / variant / "game.jsonl"
    plain.write_bytes(content)
    windows.write_bytes(WINDOWS[variant](content))
    expected, result = bkref("validate", plain), bkref("validate", windows)
    assert result.exit_code == expected.exit_code
    assert result.stdout == expected.stdout.replace(str(plain), str(windows))
    assert result.stderr == expected.stderr.replace(str(plain), str(windows))


def test_a_column_after_a_bom_counts_the_bom_bytes(bkref, tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf{x}\n")
    assert (
        bkref("validate", path).stdout == f"{path}:1: F1 line 1 is not JSON: object keys must be strings at column 5\n"
    )


def test_missing_path_is_one_line_and_exit_2(bkref, tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    result = bkref("validate", missing)
    assert result.exit_code == 2
    assert result.stdout == f"{missing}: F1 no such file\n"


def test_a_folder_with_no_log_is_refused_in_one_line(bkref, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a log")
    result = bkref("validate", tmp_path)
    assert result.exit_code == 2
    assert result.stdout == f"{tmp_path}: F1 no *.jsonl log in this folder or below it\n"


def test_a_folder_counts_jsonl_logs_in_any_case(bkref, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("a.jsonl", "B.JSONL", "sub/c.JsonL"):
        (tmp_path / name).write_bytes(GAME)
    (tmp_path / "notes.txt").write_bytes(GAME)
    (tmp_path / "d.jsonl.bak").write_bytes(GAME)
    result = bkref("validate", "--verbose", tmp_path)
    assert result.exit_code == 0
    assert [line.split(":")[0] for line in result.stderr.splitlines()[:-1]] == [
        str(tmp_path / name) for name in ("B.JSONL", "a.jsonl", "sub/c.JsonL")
    ]
    assert result.stderr.splitlines()[-1] == "3 files: 3 games, 3 legal, 0 illegal, 0 unreadable"


def test_the_pre_commit_hook_takes_jsonl_in_any_case() -> None:
    hook = (REPLAYS.parent / ".pre-commit-hooks.yaml").read_text()
    pattern = re.search(r"^  files: (.+)$", hook, re.MULTILINE)
    assert pattern
    assert [bool(re.search(pattern[1], name)) for name in ("g.jsonl", "G.JSONL", "g.json", "g.jsonl.bak")] == [
        True,
        True,
        False,
        False,
    ]


def test_no_file_argument_is_bad_usage(bkref) -> None:
    assert bkref("validate").exit_code == 2


def test_bad_lines_later_in_a_log_are_each_reported_and_checking_goes_on(bkref, tmp_path: Path) -> None:
    lines = GAME.decode().splitlines()
    lines[5] = lines[5].replace('"cards"', '"card"')  # an unknown field: the draw is lost
    lines[30] = "not json at all"
    path = tmp_path / "two-bad-lines.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = bkref("validate", path)
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == f"{path}:6: F1 the draw event has an unknown field 'card'"
    assert f"{path}:31: F1 line 31 is not JSON" in result.stdout


def test_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(bytes(range(256)))
    run = subprocess.run(
        [*BKREF_COMMAND, "validate", str(path), str(tmp_path / "nope.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stdout.splitlines() == [
        f"{path}:1: F1 line 1 holds a NUL byte: this is a binary file, not a JSON-lines log",
        f"{tmp_path / 'nope.jsonl'}: F1 no such file",
    ]


def test_an_unknown_field_says_the_rest_of_the_log_was_read_and_judged(bkref, tmp_path: Path) -> None:
    path = tmp_path / "hand-written.jsonl"
    lines = GAME.decode().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"type":"pick"' in line)
    path.write_text("".join([*lines[:at], lines[at].replace('"keep"', '"keeps"', 1), *lines[at + 1 :]]))
    result = bkref("validate", path)
    assert result.exit_code == 2  # an unreadable line keeps the status of an unreadable log
    assert f"{path}:{at + 1}: F1 the pick event has an unknown field 'keeps'" in result.stdout
    verdict = re.fullmatch(
        rf"{re.escape(str(path))}: unreadable, 1 problem \(F1\) reading it; "
        r"the rest read and judged: (\d+) problems? \((.+)\)\n",
        result.stderr,
    )
    assert verdict is not None, result.stderr
    judged = [line for line in result.stdout.splitlines() if ": F1 " not in line]
    assert int(verdict[1]) == len(judged) > 0
