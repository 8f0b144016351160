"""A database written before the hardening (tests/data/pre-hardening.db.gz, written by
main at 77ef705) is migrated forward: its record keyed to the server's secret and
anchored, its players' short keys replaced by new ones mailed to them (the old keys
and reply codes were readable from the file), and its games go on."""

from __future__ import annotations

import gzip
import json
import stat
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

import pytest

from pbem import service
from pbem.mail.config import MailConfig
from pbem.mail.outbound.welcome import reissue_legacy_keys
from pbem.mail.processing.process import process_inbox, store_message
from pbem.store import open_store
from pbem.store.keys import KEY_LENGTH, normalize_key

DATA = Path(__file__).parent / "data"
NOW = "2024-06-01T10:00:00+00:00"
CONFIG = MailConfig(address="pbem@games.test", referee="ref@games.test")


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    path = tmp_path / "pbem.db"
    path.write_bytes(gzip.decompress((DATA / "pre-hardening.db.gz").read_bytes()))
    path.chmod(0o644)
    return path


def old_keys() -> dict[str, dict[str, str]]:
    return json.loads((DATA / "pre-hardening.json").read_text())["keys"]


def mail_to_game(store: object, game: int, sender: str, to: str, body: str, uid: int) -> str:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"Re: [1830 #{game}] your turn"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    inbox_id, _ = store_message(store, "INBOX", 7, uid, msg.as_bytes(policy=SMTP), NOW)  # type: ignore[arg-type]
    outcome = process_inbox(store, CONFIG, inbox_id, NOW)  # type: ignore[arg-type]
    return outcome.status


def test_old_database_is_migrated(old_db: Path) -> None:
    store = open_store(old_db, now=NOW)
    try:
        assert stat.S_IMODE(old_db.stat().st_mode) == 0o600
        secret = old_db.with_name(old_db.name + ".secret")
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600
        games = [row[0] for row in store.conn.execute("SELECT id FROM games ORDER BY id")]
        assert games == [1, 2]
        for game in games:
            result = service.audit(store, game)
            assert result.problems == [], (game, result.problems)
        # the rebuilt games are the games the old code left
        assert service.load(store, 1).privates["SV"].owner.removeprefix("p:") == "Ann"
        texts = [e["text"] for e in store.events(1)]
        assert texts == ["buy SV", "say hello all", "buy CS", "buy DH", "revert to 3", "pass"]
        # old welcome mails keep no key
        keys = old_keys()
        for (raw,) in store.conn.execute("SELECT raw FROM outbox JOIN outbox_mail USING (id) "
                                         "WHERE purpose = 'welcome'"):
            for key in keys["1"].values():
                assert key.encode() not in bytes(raw)
    finally:
        store.close()


def test_old_keys_are_replaced_and_mailed(old_db: Path) -> None:
    store = open_store(old_db, now=NOW)
    try:
        old = old_keys()["1"]
        # before the new keys are mailed, the old key is refused like any wrong key
        status = mail_to_game(store, 1, "ann@players.test", "pbem@games.test",
                              f"key {old['Ann']}\nsay hello", 1)
        assert status == "ignored"
        issued = reissue_legacy_keys(store, CONFIG, NOW)
        assert sorted(issued) == [(1, "Ann"), (1, "Ben"), (1, "Cat"), (1, "Dan"),
                                  (2, "Eve"), (2, "Fay"), (2, "Gus")]
        assert reissue_legacy_keys(store, CONFIG, NOW) == {}  # once only
        mails = [(m["recipient"], m["subject"], m["raw"], m["status"])
                 for m in store.outbox_mails() if m["purpose"] == "key"]
        assert len(mails) == 7 and all(m[3] == "pending" for m in mails)
        assert all("new key" in m[1] for m in mails)
        # mails the old code queued carry old reply codes: not sent, the new mail replaces them
        # (the rejection above and the referee's copy of it are new)
        stale = store.conn.execute("SELECT COUNT(*) FROM outbox WHERE purpose NOT IN ('key', "
                                   "'rej', 'ref') AND status = 'pending'").fetchone()[0]
        assert stale == 0
        new_key = issued[(1, "Ann")]
        assert len(normalize_key(new_key)) == KEY_LENGTH
        assert new_key in bytes(mails[0][2]).decode("utf-8", "replace").replace("=\r\n", "")
        assert mail_to_game(store, 1, "ann@players.test", "pbem@games.test",
                            f"key {old['Ann']}\nsay hello", 2) == "ignored"
        assert mail_to_game(store, 1, "ann@players.test", "pbem@games.test",
                            f"key {new_key}\nsay hello again", 3) == "processed"
        assert store.events(1)[-1]["text"] == "say hello again"
        assert service.audit(store, 1).problems == []
    finally:
        store.close()


def test_a_missing_secret_is_refused(old_db: Path) -> None:
    open_store(old_db, now=NOW).close()
    secret = old_db.with_name(old_db.name + ".secret")
    kept = secret.read_bytes()
    secret.unlink()
    with pytest.raises(Exception, match="secret"):
        open_store(old_db, now=NOW)
    secret.write_bytes(b"0" * 64 + b"\n")
    secret.chmod(0o600)
    with pytest.raises(Exception, match="does not belong"):
        open_store(old_db, now=NOW)
    secret.write_bytes(kept)
    open_store(old_db, now=NOW).close()
