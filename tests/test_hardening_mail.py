"""Issue 15's holes that need the real mailbox and the real service process: the keys
of welcome mails are not kept once sent, and an oversized mail is refused before it is
fetched whole."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path
from typing import Any

from conftest import MailWorld

from pbem.mail.config import MailConfig, SmtpConfig
from pbem.mail.embedded import MailSink
from pbem.store import open_store


def test_welcome_keys_are_not_kept_after_sending(world: MailWorld) -> None:
    game = world.new_game()
    result = world.cli("send")
    assert result.returncode == 0, result.stderr
    for name, key in game.keys.items():
        assert key in game.inbox(name)[0].text()  # the player got it
    store = world.store()
    try:
        rows = store.conn.execute("SELECT purpose, status, raw FROM outbox "
                                  "JOIN outbox_mail USING (id)").fetchall()  # as kept
    finally:
        store.close()
    assert rows and all(status == "sent" for _, status, _ in rows)
    for _, _, raw in rows:
        for key in game.keys.values():
            assert key.encode() not in bytes(raw)
            assert key.replace("-", "").encode() not in bytes(raw)
        tag = game.reply_address("Ann").split("+", 1)[1].split("@")[0]
        assert tag.encode() not in bytes(raw)  # reply codes neither


def test_oversized_mail_is_not_fetched_whole(world: MailWorld) -> None:
    world.set_limits(max_mail_bytes=300_000)
    game = world.new_game(welcome=False)
    big: EmailMessage = game.mail("Ann", "buy SV\n" + "0123456789abcdef\n" * 40_000)
    world.send(big)
    proc = world.poll_once()
    assert proc.wait() == 0, proc.log[-10:]
    store = world.store()
    try:
        [row] = store.inbox_list()
        events = store.events(game.id)
    finally:
        store.close()
    assert row["status"] == "ignored" and "too large" in row["error"]
    assert row["size"] > 600_000 and len(row["raw"]) <= 64 * 1024
    assert events == []
    [answer] = game.inbox("Ann")
    assert "too large" in answer.text() and "300,000" in answer.text()


class CountingSink(MailSink):
    """The mail system, counting the mails it accepts and keeping none of them."""

    def __init__(self) -> None:
        super().__init__(None)
        self.count = 0

    def deliver(self, sender: str, recipients: list[str], raw: bytes) -> str:
        self.count += 1
        return "250 OK"


def test_a_backlog_is_sent_without_reading_it_all(tmp_path: Path) -> None:
    """After an outage thousands of mails wait; the sender read every due mail whole
    at each round (the soak found it: 1,400 mails, 400 MB, a mail every few seconds).
    Now a few at a time."""
    import asyncio
    import tracemalloc

    from pbem.mail.serve import send_once

    sink = CountingSink()
    sink.start()
    try:
        store = open_store(tmp_path / "pbem.db", now="2024-01-01T00:00:00+00:00")
        body = (b"x" * 76 + b"\r\n") * 1300  # 100 KB in lines of 78
        for n in range(200):
            store.outbox_add(f"<m{n}@games.test>", None, f"p{n}@players.test", "s",
                             b"Subject: s\r\n\r\n" + body, "2024-01-01T00:00:00+00:00")
        config = MailConfig(address="pbem@games.test",
                            smtp=SmtpConfig(host="127.0.0.1", port=sink.port, security="plain"))
        tracemalloc.start()
        try:
            report: Any = asyncio.run(send_once(store, config))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert report.sent == 200 and sink.count == 200
        assert peak < 8_000_000, peak  # the whole backlog is 20 MB
        store.close()
    finally:
        sink.stop()
