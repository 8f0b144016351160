"""The mail commands of the CLI, run as real processes against real servers."""

from __future__ import annotations

import re
import subprocess
import sys
from email.policy import SMTP
from pathlib import Path

from conftest import ROOT, MailWorld

from pbem.cli import main


def test_config_check(world: MailWorld) -> None:
    result = world.cli("config", "check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"imap 127.0.0.1:\d+ \(plain\): ok, logged in", result.stdout)
    assert "smtp 127.0.0.1" in result.stdout and "all good" in result.stdout
    # the SMTP server's extensions, also where pbem does not log in (it said "none")
    assert "extensions: none" not in result.stdout and "8bitmime" in result.stdout
    bad = world.cli("config", "check", PBEM_IMAP_PASSWORD="wrong")
    assert bad.returncode == 1 and "FAILED" in bad.stdout


def test_inbox_commands(world: MailWorld, tmp_path: Path) -> None:
    game = world.new_game(welcome=False)
    mail = game.mail("Ann", "buy SV")
    world.sink.append_to_service(game.email("Ann"), game.reply_address("Ann"),
                                 mail.as_bytes(policy=SMTP))
    empty = tmp_path / "no-templates"
    empty.mkdir()
    assert world.poll_once(PBEM_TEMPLATES=str(empty)).wait() == 0  # every reply fails
    dead = world.cli("inbox", "list", "--status", "dead")
    assert dead.returncode == 0 and "#1" in dead.stdout, dead.stdout
    shown = world.cli("inbox", "show", "1")
    assert "TemplateError" in shown.stdout and "buy SV" in shown.stdout
    retried = world.cli("inbox", "retry", "1")
    assert retried.returncode == 0 and "#1: processed" in retried.stdout
    assert world.cli("inbox", "discard", "1").returncode == 0
    assert "discarded" in world.cli("inbox", "list").stdout
    assert world.cli("send").returncode == 0
    assert any("Done" in d.subject for d in game.inbox("Ann"))


def test_welcome_issues_new_keys(world: MailWorld) -> None:
    game = world.new_game(welcome=False)
    result = world.cli("welcome", str(game.id))
    assert result.returncode == 0, result.stderr
    [welcome] = game.inbox("Ben")
    key = re.search(r"Your secret key is:  (\w+)", welcome.text())
    assert key and key.group(1) != game.keys["Ben"]


def test_every_command_is_documented() -> None:
    doc = (ROOT / "docs" / "mail-service.md").read_text()
    names = ["config check", "serve", "poll", "send", "inbox list", "inbox show", "inbox retry",
             "inbox discard", "outbox list", "outbox retry", "welcome"]
    for name in names:
        assert f"pbem {name}" in doc, name
        head, _, sub = name.partition(" ")
        command = main.commands[head]
        if sub:
            assert sub in command.commands  # type: ignore[attr-defined]
    help_text = subprocess.run([sys.executable, "-m", "pbem", "inbox", "--help"],
                               capture_output=True, text=True, cwd=ROOT).stdout
    assert "retry" in help_text


def test_welcome_names_the_games_options(world: MailWorld) -> None:
    """docs/options.md: the welcome mail lists the options that differ from the
    defaults, each with its rule, in lines a plain-text client shows whole."""
    game = world.new_game(options={"game": "base", "split_revenue": "yes"}, welcome=False)
    assert world.cli("welcome", str(game.id)).returncode == 0
    [welcome] = game.inbox("Ann")
    text = welcome.text()
    assert "Options (the others are the defaults" in text
    for named in ("game=base (1.0)", "privates=groups (V-1.8)", "forced_train=loan (7.6.2)",
                  "split_revenue=yes (V-7.1)"):
        assert named in text, named
    assert "It is your turn first" in text and "bid" in text
    listing = text[text.index("Options ("):text.index("Your secret key")]
    assert max(len(line) for line in listing.splitlines()) <= 78
