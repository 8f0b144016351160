"""pbem.collector: the garbage collector of a short `pbem` command and of a long-running
one (docs/operators-guide.md, "Memory and the garbage collector")."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.collector import SHORT_THRESHOLDS, command_of, is_short, short_run

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("argv", "command"), [
    (["audit", "1"], "audit"),
    (["--db", "games.db", "import-18xx", "x.json", "--check"], "import-18xx"),
    (["--db=games.db", "show", "1"], "show"),
    (["--help"], None),
    ([], None),
])
def test_the_command_of_a_command_line(argv: list[str], command: str | None) -> None:
    assert command_of(argv)[0] == command


@pytest.mark.parametrize(("argv", "short"), [
    (["--db", "serve", "audit", "1"], True),  # a database file named serve
    (["import-18xx", "x.json"], True),
    (["poll", "--once"], True),
    (["--db", "g.db", "poll"], False),
    (["serve", "--config", "/etc/pbem.toml"], False),
    (["--help"], True),
])
def test_only_serve_and_poll_without_once_run_long(argv: list[str], short: bool) -> None:
    assert is_short(argv) is short


def run_cli(tmp_path: Path, *argv: str) -> str:
    """`pbem ARGV` in a process of its own (as the console script runs it); prints the
    collector's thresholds and frozen count as it is when the command is done."""
    code = ("import gc, sys\n"
            "from pbem.cli import main\n"
            f"sys.argv = ['pbem', *{list(argv)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(gc.get_threshold(), gc.get_freeze_count() > 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, check=True)
    return done.stdout.splitlines()[-1]


def test_a_short_command_freezes_its_start_and_collects_less_often(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    assert run_cli(tmp_path, "--db", db, "games") == f"{SHORT_THRESHOLDS} True"


def test_a_long_running_command_keeps_the_defaults(tmp_path: Path) -> None:
    # no configuration: `pbem poll` stops at once with a sentence, as itself
    assert run_cli(tmp_path, "--db", str(tmp_path / "pbem.db"), "poll") == \
        "(700, 10, 10) False"  # Python's defaults


def test_short_run_restores_the_collector() -> None:
    before = gc.get_threshold(), gc.get_freeze_count()
    with short_run():
        assert gc.get_threshold() == SHORT_THRESHOLDS
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
