"""Nothing lost, nothing applied twice: the real service killed at each step,
duplicate delivery, SMTP 4xx/5xx, an IMAP connection cut mid-fetch, a new
UIDVALIDITY. Real servers on loopback (see conftest.py); waits are on events."""

from __future__ import annotations

import imaplib
import socket
import threading
from collections import Counter
from email.policy import SMTP

import pytest
from conftest import Game, MailWorld

from pbem.mail.outbound.sendchild import MAX_UNRECORDED
from pbem.store import Store

MOVES = [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH")]


def deliver_moves(world: MailWorld, game: Game, moves: list[tuple[str, str]] = MOVES) -> list[str]:
    """Put the players' mails straight into the service mailbox; their Message-IDs."""
    ids = []
    for name, command in moves:
        mail = game.mail(name, command)
        world.sink.append_to_service(game.email(name), str(mail["To"]),
                                     mail.as_bytes(policy=SMTP))
        ids.append(str(mail["Message-ID"]))
    return ids


def commands(store: Store, game_id: int) -> list[str]:
    return [e["text"] for e in store.events(game_id) if e["kind"] == "command"]


def outbox_ids(store: Store) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in store.conn.execute(
        "SELECT message_id, status FROM outbox ORDER BY id").fetchall()]


def assert_all_sent_once_or_more(world: MailWorld, store: Store) -> Counter[str]:
    rows = outbox_ids(store)
    assert rows and all(status == "sent" for _, status in rows), rows
    got = Counter(d.message_id for d in world.sink.delivered)
    missing = [mid for mid, _ in rows if got[mid] == 0]
    assert not missing
    return got


@pytest.mark.parametrize("point", ["after-fetch", "after-store", "after-commit"])
def test_killed_while_reading(world: MailWorld, point: str) -> None:
    game = world.new_game()
    deliver_moves(world, game)
    killed = world.poll_once(PBEM_FAULT=f"{point}:2")  # dies at the second message
    assert killed.wait() == -9
    again = world.poll_once()
    assert again.wait() == 0, again.log[-5:]
    store = world.store()
    try:
        assert commands(store, game.id) == ["buy SV", "buy CS", "buy DH"]
        assert all(r["status"] == "processed" for r in store.inbox_list())
        assert len(store.inbox_list()) == 3
        assert_all_sent_once_or_more(world, store)
    finally:
        store.close()
    # a third run finds nothing to do: every message was marked done on the server
    third = world.poll_once()
    assert third.wait() == 0
    assert any("0 messages" in line for line in third.log)


def test_killed_while_sending(world: MailWorld) -> None:
    """Killed after the server accepted a mail and before it was marked sent: the next
    run sends it again (at least once, the same Message-ID). The mails go out while the
    next messages are processed, and the service's loop records them when it is free,
    so a few accepted just before (never more than MAX_UNRECORDED) may be sent again
    too: the last ones the server accepted, and nothing is lost."""
    game = world.new_game()
    deliver_moves(world, game)
    killed = world.poll_once(PBEM_FAULT="during-send:6")
    assert killed.wait() == -9
    delivered = [d.message_id for d in world.sink.delivered]
    result = world.cli("send")
    assert result.returncode == 0, result.stderr
    again = world.poll_once()  # the messages it had not processed yet
    assert again.wait() == 0, again.log[-5:]
    store = world.store()
    try:
        got = assert_all_sent_once_or_more(world, store)
        assert commands(store, game.id) == ["buy SV", "buy CS", "buy DH"]
    finally:
        store.close()
    twice = [mid for mid, n in got.items() if n > 1]
    assert 1 <= len(twice) <= MAX_UNRECORDED
    assert set(twice) == set(delivered[-len(twice):])  # the one in hand, those just before


def test_duplicate_delivery(world: MailWorld) -> None:
    game = world.new_game()
    mail = game.mail("Ann", "buy SV").as_bytes(policy=SMTP)
    for _ in range(2):  # the same message delivered twice: two UIDs, one Message-ID
        world.sink.append_to_service(game.email("Ann"), game.reply_address("Ann"), mail)
    proc = world.poll_once()
    assert proc.wait() == 0
    store = world.store()
    try:
        assert commands(store, game.id) == ["buy SV"]
        assert len(store.inbox_list()) == 1
        replies = [r for r in outbox_ids(store) if ".re." in r[0]]
        assert len(replies) == 1
    finally:
        store.close()


def test_uidvalidity_change(world: MailWorld) -> None:
    world.write_config(mailbox="Games")
    imap = imaplib.IMAP4(world.imap.host, world.imap.port)
    imap.login(world.imap.user, world.imap.password)
    imap.create("Games")
    world.sink.mailbox = "Games"
    game = world.new_game()
    raws = [game.mail(n, c).as_bytes(policy=SMTP) for n, c in MOVES]
    for raw in raws[:2]:
        imap.append("Games", "", None, raw)
    assert world.poll_once().wait() == 0
    before = _uidvalidity(imap)
    imap.delete("Games")  # the mailbox is rebuilt: all its UIDs change
    imap.create("Games")
    for raw in raws:
        imap.append("Games", "", None, raw)
    assert _uidvalidity(imap) != before
    imap.logout()
    assert world.poll_once().wait() == 0
    store = world.store()
    try:
        assert commands(store, game.id) == ["buy SV", "buy CS", "buy DH"]
        assert len(store.inbox_list()) == 3
    finally:
        store.close()


def _uidvalidity(imap: imaplib.IMAP4) -> int:
    status, data = imap.status("Games", "(UIDVALIDITY)")
    assert status == "OK"
    return int(data[0].split(b"UIDVALIDITY ")[1].rstrip(b")"))


def test_smtp_421_is_retried(world: MailWorld) -> None:
    game = world.new_game(welcome=False)
    world.sink.fail_codes.extend(["421 4.3.2 try again later", "451 4.3.0 busy"])
    deliver_moves(world, game, MOVES[:1])
    proc = world.serve()
    world.sink.wait_refused(2)
    refused = {mid for _, mid in world.sink.refused}
    world.sink.wait_for(lambda ds: refused <= {d.message_id for d in ds})
    reply = [d for d in world.sink.delivered if ".re." in d.message_id][0]
    assert reply.recipient == game.email("Ann")
    assert proc.terminate() == 0
    store = world.store()
    try:
        row = store.conn.execute("SELECT attempts, status FROM outbox WHERE message_id = ?",
                                 [world.sink.refused[0][1]]).fetchone()
        assert row[1] == "sent" and row[0] >= 2
    finally:
        store.close()


def test_smtp_550_fails_and_tells_the_referee(world: MailWorld) -> None:
    game = world.new_game(welcome=False)
    world.sink.fail_codes.append("550 5.1.1 no such user")
    deliver_moves(world, game, MOVES[:1])
    assert world.poll_once().wait() == 0
    failed = world.cli("outbox", "list", "--status", "failed")
    assert failed.returncode == 0 and "550 5.1.1" in failed.stdout
    assert world.cli("send").returncode == 0  # sends the referee's report
    report = [d for d in world.sink.delivered if d.recipient == "referee@games.test"]
    assert len(report) == 1 and "could not be delivered" in report[0].text()
    retried = world.cli("outbox", "retry", "--failed")
    assert retried.returncode == 0, retried.stderr
    assert world.cli("send").returncode == 0
    refused_id = world.sink.refused[0][1]
    assert refused_id in {d.message_id for d in world.sink.delivered}


class CuttingProxy:
    """A TCP proxy to the IMAP server that cuts its first connection once the
    server has sent ``cut_after`` bytes of a FETCH answer."""

    def __init__(self, host: str, port: int, cut_after: int = 4000) -> None:
        self.target = (host, port)
        self.cut_after = cut_after
        self.connections = 0
        self.cut = threading.Event()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            server = socket.create_connection(self.target)
            first = self.connections == 1
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, first), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, cutting: bool) -> None:
        fetched = -1
        try:
            while data := src.recv(1024):
                if cutting and fetched < 0 and b"FETCH" in data:
                    fetched = 0
                if cutting and fetched >= 0:
                    fetched += len(data)
                    if fetched > self.cut_after:
                        dst.sendall(data[: len(data) // 2])
                        self.cut.set()
                        break
                dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def close(self) -> None:
        self.listener.close()


def test_imap_connection_cut_mid_fetch(world: MailWorld) -> None:
    proxy = CuttingProxy(world.imap.host, world.imap.port)
    world.write_config(imap_port=proxy.port)
    game = world.new_game(welcome=False)
    big = game.mail("Ann", "buy SV\n\n" + "> a long quote of an earlier mail\n" * 400)
    world.sink.append_to_service(game.email("Ann"), game.reply_address("Ann"),
                                 big.as_bytes(policy=SMTP))
    proc = world.serve()
    assert proxy.cut.wait(30)
    proc.wait_log("reconnecting")
    world.sink.wait_for(lambda ds: [d for d in ds if ".re." in d.message_id])
    assert proc.terminate() == 0
    proxy.close()
    store = world.store()
    try:
        assert commands(store, game.id) == ["buy SV"]
        assert proxy.connections >= 2
    finally:
        store.close()


def test_graceful_stop_leaves_the_rest(world: MailWorld) -> None:
    """SIGTERM while idle: exits 0 at once; what arrives later waits for the next start."""
    game = world.new_game(welcome=False)
    proc = world.serve()
    proc.wait_log("serving")
    assert proc.terminate() == 0
    deliver_moves(world, game, MOVES[:1])
    assert world.poll_once().wait() == 0
    store = world.store()
    try:
        assert commands(store, game.id) == ["buy SV"]
    finally:
        store.close()


def test_stop_while_the_imap_server_does_not_answer(world: MailWorld) -> None:
    """Issue 13: SIGTERM took 24 s to stop 'pbem serve' while the IMAP server was down
    (the connection attempt ran to its timeout). A server that takes the connection and
    never greets: the service stops at once, whatever the timeout."""
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(5)
    try:
        world.write_config(imap_port=hole.getsockname()[1])
        proc = world.serve(PBEM_IMAP_TIMEOUT="3600")
        proc.wait_log("serving")
        accepted, _ = hole.accept()  # the service is connecting: it waits for a greeting
        assert proc.terminate(timeout=60) == 0
        assert any("stopped" in line for line in proc.log)
        accepted.close()
    finally:
        hole.close()


def test_processed_mail_moved_to_a_folder(world: MailWorld) -> None:
    text = world.config_path.read_text().replace('mailbox = "INBOX"',
                                                 'mailbox = "INBOX"\nmove_to = "Done"')
    world.config_path.write_text(text)
    game = world.new_game(welcome=False)
    deliver_moves(world, game, MOVES[:2])
    assert world.poll_once().wait() == 0
    imap = imaplib.IMAP4(world.imap.host, world.imap.port)
    imap.login(world.imap.user, world.imap.password)
    counts = {box: imap.select(box)[1][0] for box in ("INBOX", "Done")}
    imap.logout()
    assert counts == {"INBOX": b"0", "Done": b"2"}
    store = world.store()
    try:
        assert commands(store, game.id) == ["buy SV", "buy CS"]
    finally:
        store.close()


def test_answers_go_out_while_a_backlog_is_read(world: MailWorld) -> None:
    """Three players' mails wait in the mailbox when pbem serve starts. The answers to
    each go out while the next is processed, and are sent before the one after that is
    read: the sender had a turn only while the poller waited on the network, about one
    mail out per mail read (the soak's finding, docs/security.md), so players waited for
    the whole backlog to be read."""
    game = world.new_game(welcome=False)
    deliver_moves(world, game)
    proc = world.serve()
    world.sink.wait_for(lambda ds: [d for d in ds if d.recipient == game.email("Cat")
                                    and "buys DH" in d.text()])
    assert proc.terminate() == 0
    read = [i for i, line in enumerate(proc.log) if ": processed" in line]
    sent = [i for i, line in enumerate(proc.log) if " sent <" in line]
    assert len(read) == 3, proc.log
    answers = {line.split(" sent <")[1].split(">")[0] for line in proc.log if " sent <" in line}
    store = world.store()
    try:  # the first message's answers: queued before the reply to the second
        queued = [mid.strip("<>") for mid, _ in outbox_ids(store)]
    finally:
        store.close()
    replies = [i for i, mid in enumerate(queued) if ".re." in mid]
    first = queued[:replies[1]]
    assert first and set(first) <= answers
    last_of_first = max(i for i in sent if any(m in proc.log[i] for m in first))
    assert last_of_first < read[2], proc.log  # the first mail's answers before the third
