"""The habits of command-line tools: --version, -h, shell completion, closed pipes, Ctrl-C."""

from __future__ import annotations

import fcntl
import itertools
import os
import re
import shutil
import signal
import subprocess
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BKREF_COMMAND, REPLAYS, ROOT

BKREF = BKREF_COMMAND


@pytest.mark.parametrize("option", ["--version", "-V"])
def test_version(bkref, option: str) -> None:
    result = bkref(option)
    assert (result.exit_code, result.stdout) == (0, f"bkref {version('bkref')}\n")


@pytest.mark.parametrize("args", [[], ["validate"], ["score"], ["simulate"], ["schema"]])
def test_h_is_help(bkref, args: list[str]) -> None:
    short, long = bkref(*args, "-h"), bkref(*args, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Usage: bkref" in short.stdout


def test_completion_is_offered_and_completes_commands_options_and_choices() -> None:
    # --show-completion takes no shell name: it finds the shell it runs in among its parent
    # processes, so it is run from bash here, as a user would, whatever ran pytest.
    from_bash = ["bash", "-c", '"$@"; exit $?', "bash", *BKREF, "--show-completion"]
    shown = subprocess.run(from_bash, capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and "_BKREF_COMPLETE=complete_bash" in shown.stdout

    def complete(words: str) -> list[str]:
        env = dict(os.environ, _BKREF_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(len(words.split())))
        if not words.endswith(" "):
            env["COMP_CWORD"] = str(len(words.split()) - 1)
        run = subprocess.run(BKREF, capture_output=True, text=True, env=env, check=False)
        assert run.returncode == 0
        return run.stdout.split()

    assert complete("bkref val") == ["validate"]
    assert complete("bkref validate --for") == ["--format"]
    assert complete("bkref validate --format ") == ["text", "json", "github", "sarif"]


@pytest.fixture(scope="module")
def many_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of 240 legal logs: enough work to outlast a pipe's buffer and a Ctrl-C."""
    folder = tmp_path_factory.mktemp("many")
    for i in range(20):
        for log in sorted((REPLAYS / "generated").glob("*.jsonl")):
            shutil.copy(log, folder / f"{i:02}-{log.name}")
    return folder


def left_running(folder: Path) -> list[int]:
    """The processes (a worker left behind, say) still working on ``folder``, after a moment to end."""
    for _ in range(25):
        found = []
        for proc in Path("/proc").iterdir():
            try:
                if proc.name.isdigit() and str(folder).encode() in (proc / "cmdline").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                continue
        if not found:
            break
        time.sleep(0.2)
    return found


def closed_after_one_line(args: list[str], keys: bytes = b"") -> int:
    """Run bkref with its output going to a small pipe that is read for one line and then
    closed, as ``bkref ARGS 2>&1 | head -1`` does; bkref's exit status (negative: a signal).

    The line is read a byte at a time, so that bkref has written at most the line and the
    pipe's 4,096 bytes when the pipe closes: a command that prints more than that is
    always still writing then. ``keys`` is its standard input.
    """
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)  # the smallest pipe: it fills at once
    with subprocess.Popen([*BKREF, *args], stdin=subprocess.PIPE, stdout=write_end, stderr=write_end, cwd=ROOT) as run:
        os.close(write_end)
        assert run.stdin is not None
        run.stdin.write(keys)
        run.stdin.close()
        try:
            while os.read(read_end, 1) not in (b"\n", b""):
                pass
        finally:
            os.close(read_end)
        return run.wait(timeout=60)


@pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="needs Linux pipes")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--verbose", "MANY"],
        ["validate", "--verbose", "-j", "2", "MANY"],
        ["score", "--no-color", "replays/4p-ann-bob-cid-dee.jsonl"],
        ["score", "--format", "json", "replays/4p-ann-bob-cid-dee.jsonl"],
        ["replay", "--step", "replays/4p-ann-bob-cid-dee.jsonl"],
    ],
    ids=["validate", "validate-j2", "score", "score-json", "replay"],
)
def test_a_closed_pipe_ends_bkref_as_sigpipe_never_as_illegal(many_logs: Path, args: list[str]) -> None:
    """The logs are legal: the status is 0 or SIGPIPE's (141 in the shell), never 1."""
    keys = b"n\n" * 10 if "--step" in args else b""  # ten positions: more than the pipe holds
    status = closed_after_one_line([str(many_logs) if a == "MANY" else a for a in args], keys)
    assert status == -signal.SIGPIPE
    assert left_running(many_logs) == []  # no worker process outlives bkref


@pytest.mark.usefixtures("ctrl_c_as_in_a_terminal")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_with_no_traceback(many_logs: Path, jobs: str) -> None:
    """Ctrl-C in a terminal interrupts bkref's whole process group, worker processes too."""
    with subprocess.Popen(
        [*BKREF, "validate", "--verbose", "-j", jobs, str(many_logs)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as run:
        assert run.stderr is not None
        assert run.stderr.readline().endswith("legal (119 events)\n")  # checking is under way
        os.killpg(run.pid, signal.SIGINT)
        rest = run.stderr.read()
        assert run.wait(timeout=60) == 130
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest
    assert "240 files" not in rest  # it stopped before the end
    assert left_running(many_logs) == []


def commands() -> dict[str, object]:
    import typer.main

    from bkref.cli import app

    group = typer.main.get_command(app)
    return {"": group, **group.commands}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(commands()))
def test_help_describes_every_option_and_argument_with_an_upper_case_metavar(bkref, name: str) -> None:
    command: Any = commands()[name]
    ctx = command.context_class(command, info_name=name or "bkref")
    for param in command.params:
        assert param.help, f"{name} {param.name} has no help"
        if param.param_type_name == "option" and (param.is_flag or param.name == "help"):
            continue
        metavar = param.make_metavar(ctx)
        assert metavar == metavar.upper() and not metavar.startswith(("<", "[", "{")), f"{name} {param.name}: {metavar}"
    text = bkref(*([name] if name else []), "--help").stdout
    description = re.split(r"\n(?:Arguments|Options):\n", text)[0]
    for paragraph in description.split("\n\n")[1:]:  # after the usage line
        lines = paragraph.splitlines()
        for line, after in itertools.pairwise(lines):  # the next word did not fit on the line
            assert len(line) + 1 + len(after.split()[0]) > 78, f"{name}: a paragraph wrapped by hand: {lines}"


@pytest.mark.parametrize("name", sorted(set(commands()) - {""}))
@pytest.mark.parametrize("rest", [["--help"], ["--no-such-option"], []], ids=["help", "bad-option", "bare"])
def test_the_command_that_runs_alone_behaves_as_in_the_whole_app(name: str, rest: list[str]) -> None:
    from typer.testing import CliRunner

    from bkref.cli import app, running

    runs = running([name, *rest])
    assert runs is not app
    alone, whole = (CliRunner().invoke(which, [name, *rest]) for which in (runs, app))
    assert (alone.exit_code, alone.stdout, alone.stderr) == (whole.exit_code, whole.stdout, whole.stderr)


def test_the_command_list_gives_each_command_a_whole_summary(bkref) -> None:
    listed = bkref("--help").stdout.split("Commands:\n")[1].split("\n\n")[0].splitlines()  # then "Manual: ..."
    assert len(listed) == len(commands()) - 1
    assert all(line.endswith(".") and not line.endswith("...") for line in listed), listed


@pytest.mark.parametrize("name", sorted(commands()))
def test_each_help_names_its_page_of_the_manual(bkref, name: str) -> None:
    pages = re.findall(r"^  Manual: .*?(docs/[\w-]+\.md)", bkref(*([name] if name else []), "--help").stdout, re.M)
    assert len(pages) == 1 and (ROOT / pages[0]).is_file()


def test_required_options_are_marked(bkref) -> None:
    text = " ".join(bkref("simulate", "--help").stdout.split())
    assert "2, 3 or 4 players (required)" in text and "a whole number from 0 (required)" in text


def test_validate_help_gives_the_line_format_and_where_summaries_go(bkref) -> None:
    text = " ".join(bkref("validate", "--help").stdout.split())
    assert "file:line: RULE message" in text
    assert "standard error" in text


def test_simulate_help_names_the_players_and_the_policies(bkref) -> None:
    text = " ".join(bkref("simulate", "--help").stdout.split())
    assert "ann, bob, cid and dee" in text
    assert "random" in text and "greedy" in text and "PKG.MODULE:FUNC" in text
