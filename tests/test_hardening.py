"""The holes an attack on pbem found (issue 15), each as a test that failed before the
fix: keys and reply codes, CPU burnt by strangers, replies forged mail used up,
control characters, bad names and addresses, strict From. Processing without
servers (one stored message in, one transaction); the ones that need the real
mailbox are in test_hardening_mail.py, the record's tampering in test_audit.py."""

from __future__ import annotations

import base64
import hashlib
import math
import os
import stat
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from mailtable import NOW, Table

from pbem import service
from pbem.mail.config import Limits, MailConfig, load_config
from pbem.mail.processing.process import Outcome, process_inbox, store_message
from pbem.store import new_player_key, open_store
from pbem.store.keys import KEY_ALPHABET, normalize_key

CONTROL = "\x1b[2J\x1b[31mred alert\x07\x1b]0;pwned\x07"


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def raw_send(table: Table, raw: bytes) -> Outcome:
    table.uid += 1
    inbox_id, _ = store_message(table.store, "INBOX", 1, table.uid, raw, NOW,
                                max_bytes=table.config.limits.max_mail_bytes)
    outcome = process_inbox(table.store, table.config, inbox_id, NOW)
    table.check_record(outcome)
    return outcome


# -- keys and reply codes ---------------------------------------------------------------


def test_keys_have_at_least_64_bits() -> None:
    for _ in range(20):
        key = normalize_key(new_player_key())
        assert set(key) <= set(KEY_ALPHABET)
        assert len(key) * math.log2(len(KEY_ALPHABET)) >= 64, key


def test_reading_the_database_is_not_enough_to_play(table: Table) -> None:
    """The reply code used to be sha256(game:seat:key_hash): anyone who read the
    players table could compute it. Now it needs the server's secret."""
    ann = table.players["Ann"]
    digest = hashlib.sha256(f"pbem-reply:{table.game}:{ann['seat']}:{ann['key_hash']}"
                            .encode()).digest()
    old_code = base64.b32encode(digest).decode("ascii")[:16].lower()
    outcome = table.send("Ann", "buy SV", to=f"pbem+{table.game}.{old_code}@games.test")
    assert outcome.status == "ignored" and "rejected" in outcome.note
    assert table.texts() == []
    assert table.send("Ann", "buy SV").status == "processed"  # the real reply address


def test_reply_codes_are_compared_in_constant_time(table: Table,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import hmac

    compared: list[tuple[Any, Any]] = []
    original = hmac.compare_digest

    def counting(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return original(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    tag = table.address("Ann").split("+", 1)[1].split("@")[0].split(".", 1)[1]
    assert table.send("Ann", "buy SV").status == "processed"
    assert any(tag in str(a) and tag in str(b) for a, b in compared)


def test_database_and_secret_files_are_private(tmp_path: Path) -> None:
    os.umask(0o022)
    path = tmp_path / "games.db"
    store = open_store(path, now=NOW)
    try:
        store.create_game("1830", {}, 1, "e", "r", NOW)
    finally:
        store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    secrets = [p for p in tmp_path.iterdir() if "secret" in p.name]
    assert secrets, list(tmp_path.iterdir())
    for file in secrets:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


def test_configuration_secrets_are_never_printed(tmp_path: Path) -> None:
    config_file = tmp_path / "pbem.toml"
    config_file.write_text('[service]\naddress = "pbem@games.test"\n'
                           '[imap]\nhost = "imap.games.test"\npassword = "imap-hunter2"\n'
                           '[smtp]\nhost = "smtp.games.test"\npassword = "smtp-hunter2"\n')
    config = load_config(config_file, {})
    for shown in (repr(config), str(config), repr(config.imap), str(config.smtp)):
        assert "hunter2" not in shown
    from pbem.mail.check import describe_config

    assert "hunter2" not in "\n".join(describe_config(config))
    assert config.imap.secret() == "imap-hunter2"


# -- strangers burning CPU --------------------------------------------------------------


def test_a_stranger_with_guessed_keys_costs_no_slow_hash(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Three guessed keys in a six-player game cost one scrypt (or PBKDF2) per key per
    player, 0.4 to 1 s a mail. Now at most one fast keyed hash per mail."""
    table = Table(tmp_path, names=("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    slow: list[str] = []
    for name in ("scrypt", "pbkdf2_hmac"):
        original = getattr(hashlib, name)

        def counting(*args: Any, _original: Any = original, _name: str = name,
                     **kwargs: Any) -> Any:
            slow.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(hashlib, name, counting)
    from pbem.store import secret as secret_module

    keyed: list[str] = []
    original_mac = secret_module.ServerSecret.mac

    def counting_mac(self: Any, purpose: str, *parts: Any) -> str:
        keyed.append(purpose)
        return original_mac(self, purpose, *parts)

    monkeypatch.setattr(secret_module.ServerSecret, "mac", counting_mac)
    guess = "GUESS-GUESS-GUESS"
    outcome = table.send("Ann", f"key {guess}\nbuy SV", sender="evil@evil.test",
                         to=f"pbem+{table.game}.{guess.lower()}@games.test",
                         subject=f"[1830 #{table.game} key {guess}]")
    assert outcome.status == "ignored"
    assert slow == []
    assert keyed.count("key") <= 1


# -- replies forged mail cannot use up -----------------------------------------------------


def test_forged_mail_cannot_use_up_a_players_replies(table: Table) -> None:
    for _ in range(50):
        outcome = table.send("Ann", "buy SV", to="pbem@games.test",
                             subject=f"[1830 #{table.game}] my move")
        assert outcome.status == "ignored"
    notices = table.to("Ann", table.new_mail())
    assert len(notices) == 1 and "not accepted" in notices[0].subject
    assert table.send("Ann", "buy SV").status == "processed"
    [answer] = table.to("Ann", table.new_mail())
    assert "Done" in answer.subject


def test_strangers_are_rate_limited(tmp_path: Path) -> None:
    table = Table(tmp_path, limits=Limits(stranger_mails_per_sender_per_hour=5,
                                          stranger_mails_per_hour=8))
    notes = [table.send("Ann", "buy SV", sender="evil@evil.test").note for _ in range(7)]
    assert [("rate limit" in n) for n in notes] == [False] * 5 + [True] * 2
    others = [table.send("Ann", "buy SV", sender=f"evil{i}@evil.test").note for i in range(4)]
    assert [("rate limit" in n) for n in others] == [False, True, True, True]
    assert table.send("Ann", "buy SV").status == "processed"  # players are not strangers
    assert table.texts() == ["buy SV"]


# -- control characters ----------------------------------------------------------------------


def test_control_characters_never_reach_a_mail(table: Table) -> None:
    assert table.send("Ann", f"say {CONTROL}").status == "processed"
    mails = table.to("Ben", table.new_mail())
    assert mails
    for mail in mails:
        raw = mail.message.as_bytes()
        for ch in ("\x1b", "\x07"):
            assert ch.encode() not in raw
            assert ch not in mail.subject and ch not in mail.text
        html = mail.message.get_body(("html",)).get_content()  # type: ignore[union-attr]
        assert "\x1b" not in html and "\x07" not in html
        assert "red alert" in mail.text


def test_control_characters_never_reach_the_archive_or_the_terminal(table: Table) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    table.send("Ann", f"say {CONTROL}")
    db = str(table.store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    runner = CliRunner()
    for args in (["log", str(table.game)], ["export", str(table.game), "--format", "html"],
                 ["export", str(table.game)], ["show", str(table.game), "--as", "Ben"]):
        result = runner.invoke(main, ["--db", db, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output, args
        assert "red alert" in result.output or args[0] == "show"
        if args[-1] == "html":  # the page's data, which its script shows, too
            import gzip
            import re

            blob = re.search(r'<script id="data"[^>]*>([^<]*)</script>', result.output)
            assert blob is not None
            data = gzip.decompress(base64.b64decode(blob.group(1))).decode()
            assert "red alert" in data and "\\u001b" not in data and "\\u0007" not in data


def test_old_records_with_control_characters_are_shown_safely(table: Table) -> None:
    """Talk stored before lines were cleaned as they are read still holds raw escapes:
    every output makes them visible."""
    from click.testing import CliRunner

    from pbem.cli import main
    from pbem.mail.processing.talk import record

    record(table.store, table.game, "Ann", CONTROL, source="old", now=NOW)
    assert table.send("Ann", "buy SV").status == "processed"
    mails = table.new_mail()
    assert mails
    for mail in mails:
        assert b"\x1b" not in mail.message.as_bytes() and b"\x07" not in mail.message.as_bytes()
    db = str(table.store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    for args in (["log", str(table.game)], ["export", str(table.game), "--format", "html"]):
        output = CliRunner().invoke(main, ["--db", db, *args]).output
        assert "red alert" in output and "\x1b" not in output and "\x07" not in output
    from pbem.render.archive import archive_page

    page = archive_page(service.initial(table.store, table.game), table.store.events(table.game),
                        table.store.game(table.game), table.store.players(table.game))
    assert "\x1b" not in page and "\x07" not in page


# -- names and addresses -----------------------------------------------------------------------


@pytest.mark.parametrize("spec, words", [
    ("Ben:ben@x.test\r\nBcc: v@evil.test", "address"),
    ("Ben:ben@x.test\nBcc: v@evil.test", "address"),
    ("Ben:ben@@x.test", "address"),
    ("Ben:ben@x.test>, v@evil.test", "address"),
    ("B" * 100_000 + ":ben@x.test", "long"),
    ("\u0410nn:ann2@x.test", "looks like"),  # Cyrillic A beside Ann
    ("B\u0435n:ben2@x.test", "alphabets"),  # a Latin name with a Cyrillic e
])
def test_names_and_addresses_are_checked(tmp_path: Path, spec: str, words: str) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    db = str(tmp_path / "pbem.db")
    result = CliRunner().invoke(main, ["--db", db, "new", "1830", "--player", "Ann:ann@x.test",
                                       "--player", spec, "--player", "Cat:cat@x.test",
                                       "--seed", "1", "--seating", "fixed"])
    assert result.exit_code == 2, result.output
    assert words in result.output.lower()
    assert len(result.output) < 400 and "\r" not in result.output
    store = open_store(db, now=NOW)
    try:
        assert store.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    finally:
        store.close()


def test_a_bad_stored_address_does_not_undo_the_others_moves(table: Table) -> None:
    """A database written before the check may hold a bad address: the mail to it is
    left out (and logged), the other players' moves and mails go on."""
    table.store.conn.execute("DROP TRIGGER IF EXISTS players_no_bad_address")
    table.store.conn.execute("UPDATE players SET email = ? WHERE seat = 1",
                             ["ben@x.test\r\nBcc: v@evil.test"])
    assert table.send("Ann", "buy SV").status == "processed"
    assert table.texts() == ["buy SV"]
    mails = table.new_mail()
    assert table.to("Ann", mails) and table.to("Cat", mails)
    assert not [m for m in mails if "evil" in m.recipient or "\n" in m.recipient]


# -- From ------------------------------------------------------------------------------------------


def test_from_is_read_strictly(table: Table) -> None:
    for sender in ("ann@players.test <evil@evil.test>", "evil@evil.test, ann@players.test",
                   "ann@players.test evil@evil.test"):
        msg = EmailMessage()
        msg["To"] = table.address("Ann")
        msg["Subject"] = "Re: your turn"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content("buy SV")
        raw = msg.as_bytes(policy=SMTP)
        raw = f"From: {sender}\r\n".encode() + raw
        outcome = raw_send(table, raw)
        assert outcome.status == "ignored", (sender, outcome)
    assert table.texts() == []
    # carried Ann's reply code but not from her: she hears of it once, no other player
    # does; the game's referee gets his copy of each rejection (issue 12)
    mails = table.new_mail()
    [notice] = table.to("Ann", mails)
    assert "not your address of record" in " ".join(notice.text.split())
    others = [m.recipient for m in mails if m is not notice]
    assert others == ["ref@games.test"] * 3


# -- limits before parsing --------------------------------------------------------------------


def nested(depth: int, body: str) -> bytes:
    inner = f"Content-Type: text/plain\r\n\r\n{body}\r\n"
    for level in range(depth):
        inner = (f"Content-Type: multipart/mixed; boundary=\"b{level}\"\r\n\r\n"
                 f"--b{level}\r\n{inner}--b{level}--\r\n")
    return inner.encode()


def test_deep_mime_nesting_is_refused_with_a_sentence(table: Table) -> None:
    head = (f"From: Ann <ann@players.test>\r\nTo: {table.address('Ann')}\r\n"
            f"Subject: Re: your turn\r\nMessage-ID: {make_msgid(domain='players.test')}\r\n"
            "MIME-Version: 1.0\r\n").encode()
    outcome = raw_send(table, head + nested(1000, "buy SV"))
    assert outcome.status == "ignored" and "nest" in outcome.note
    assert table.texts() == []
    [answer] = table.to("Ann", table.new_mail())
    assert "nested" in answer.text
    fine = raw_send(table, head.replace(b"Message-ID: <", b"Message-ID: <x") + nested(5, "buy SV"))
    assert fine.status == "processed" and table.texts() == ["buy SV"]


def test_oversized_mail_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    table = Table(tmp_path, limits=Limits(max_mail_bytes=200_000))
    msg = EmailMessage()
    msg["From"] = "Ann <ann@players.test>"
    msg["To"] = table.address("Ann")
    msg["Subject"] = "Re: your turn"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("buy SV\n" + "x" * 300_000)
    raw = msg.as_bytes(policy=SMTP)
    outcome = raw_send(table, raw)
    assert outcome.status == "ignored" and "too large" in outcome.note
    [row] = table.store.inbox_list()
    assert len(row["raw"]) < 100_000 and row["size"] == len(raw)
    [answer] = table.to("Ann", table.new_mail())
    assert "too large" in answer.text
    assert table.texts() == []


def test_default_configuration_has_the_limits() -> None:
    limits = MailConfig().limits
    assert 1_000_000 <= limits.max_mail_bytes <= 10_000_000
    assert limits.rejections_per_address_per_day == 1
