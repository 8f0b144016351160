"""Issue 15's holes that need the real mailbox and the real service process: the keys
of welcome mails are not kept once sent, and an oversized mail is refused before it is
fetched whole."""

from __future__ import annotations

from email.message import EmailMessage

from conftest import MailWorld


def test_welcome_keys_are_not_kept_after_sending(world: MailWorld) -> None:
    game = world.new_game()
    result = world.cli("send")
    assert result.returncode == 0, result.stderr
    for name, key in game.keys.items():
        assert key in game.inbox(name)[0].text()  # the player got it
    store = world.store()
    try:
        rows = store.conn.execute("SELECT purpose, status, raw FROM outbox").fetchall()
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
