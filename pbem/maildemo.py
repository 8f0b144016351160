"""The whole mail loop on one machine: `make demo` (second part).

An SMTP server (aiosmtpd) and an IMAP server (pymap) start on loopback; a
game is created and its welcome mails sent; four scripted players answer the
mails they receive by email (one makes a mistake, one talks); the real
service (IMAP IDLE poller + outbox sender) runs in the background; at the end
the mails one player received are printed.
"""

from __future__ import annotations

import asyncio
import io
import logging
import smtplib
import tempfile
import threading
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid, parseaddr
from pathlib import Path

from . import service
from .mail.clock import now
from .mail.config import ImapConfig, MailConfig, SmtpConfig
from .mail.embedded import Delivered, EmbeddedImap, MailSink
from .mail.outbound.welcome import queue_welcome
from .mail.serve import serve
from .store import open_store

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
SHOWN = "Cat"
SCRIPT = [  # (player, what they write at the top of their reply)
    ("Ann", "buy SV"),
    ("Ben", "bid CA 170\nsay Good luck, everyone!"),
    ("Cat", "bid DH 10"),  # too low: refused, with what would be legal
    ("Cat", "buy CS"),
    ("Dan", "buy DH"),
    ("Ann", "buy MH"),
    ("Ben", "pass"),
    ("Cat", "pass"),
]


def say(text: str = "") -> None:
    print(text, flush=True)


class ServiceThread:
    """The real service (serve()) in a background thread with its own event loop."""

    def __init__(self, db: Path, config: MailConfig) -> None:
        self.db, self.config = db, config
        self.ready = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stop_event: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, name="pbem-serve", daemon=True)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.stop_event = asyncio.Event()
        store = open_store(self.db, now=now())
        try:
            await serve(store, self.config, stop=self.stop_event)
        finally:
            store.close()

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        if self.loop is not None and self.stop_event is not None:
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(30)


def reply(sink: MailSink, player: str, mail: Delivered, text: str) -> None:
    """What a player's mail program sends: a reply to the reply address, quoting."""
    msg = EmailMessage()
    msg["From"] = f"{player} <{player.lower()}@players.example>"
    msg["To"] = str(mail.message["Reply-To"])
    msg["Subject"] = "Re: " + mail.subject
    msg["Message-ID"] = make_msgid(domain="players.example")
    msg["In-Reply-To"] = mail.message_id
    msg["References"] = mail.message_id
    quoted = "\n".join("> " + line for line in mail.text().splitlines()[:10])
    msg.set_content(f"{text}\n\nOn Monday, pbem wrote:\n{quoted}\n")
    with smtplib.SMTP(sink.host, sink.port, timeout=30) as smtp:
        smtp.sendmail(parseaddr(str(msg["From"]))[1], [parseaddr(str(msg["To"]))[1]],
                      msg.as_bytes(policy=SMTP))


def latest_to(sink: MailSink, player: str, after: int) -> Delivered:
    """Block until ``player`` has received a mail with the prompt (after index ``after``)."""
    address = f"{player.lower()}@players.example"

    def found(delivered: list[Delivered]) -> Delivered | None:
        mails = [d for d in delivered[after:] if d.recipient == address
                 and "What you can do now:" in d.text()]
        return mails[-1] if mails else None

    result: Delivered = sink.wait_for(found, timeout=60)
    return result


def main() -> None:
    log = io.StringIO()
    logging.basicConfig(level=logging.WARNING, stream=log)
    with tempfile.TemporaryDirectory() as tmp:
        imap = EmbeddedImap("pbem", "demo-secret").start()
        sink = MailSink(imap, "pbem").start()
        say(f"IMAP server (pymap) on 127.0.0.1:{imap.port}, SMTP server (aiosmtpd) on "
            f"127.0.0.1:{sink.port}")
        config = MailConfig(
            address="pbem@pbem.example", name="pbem demo",
            imap=ImapConfig(host=imap.host, port=imap.port, security="plain", user=imap.user,
                            password=imap.password, idle_seconds=60,
                            processed_flag="\\Seen"),
            smtp=SmtpConfig(host=sink.host, port=sink.port, security="plain"))
        db = Path(tmp) / "demo.db"
        store = open_store(db, now=now())
        created = service.create_game(
            store, "1830", [(n, f"{n.lower()}@players.example") for n in PLAYERS], seed=1830,
            seating="fixed", options={}, now=now())
        queue_welcome(store, config, created.game_id, created.keys, now())
        store.close()
        say(f"Game #{created.game_id} (1830) created for {', '.join(PLAYERS)}; welcome mails "
            "queued.\nThe service starts: it reads pbem@pbem.example by IMAP IDLE and sends "
            "by SMTP.\n")
        worker = ServiceThread(db, config)
        worker.start()
        try:
            seen = 0
            for player, text in SCRIPT:
                mail = latest_to(sink, player, seen)
                seen = len(sink.delivered)
                say(f"{player} got \"{mail.subject}\" and replies: "
                    f"{text.replace(chr(10), ' / ')}")
                reply(sink, player, mail, text)
            latest_to(sink, "Dan", seen)  # the answer to the last move has arrived
        finally:
            worker.stop()
            sink.stop()
            imap.stop()
        show_inbox(sink, f"{SHOWN.lower()}@players.example")
        problems = [line for line in log.getvalue().splitlines() if "WARNING" in line]
        say(f"\nService log: {len(problems)} warnings. Mails sent: {len(sink.delivered)}.")


def show_inbox(sink: MailSink, address: str) -> None:
    mails = sink.mails_to(address)
    say(f"\n{address} received {len(mails)} mails:")
    for mail in mails:
        say(f"  {mail.subject}")
    answer = next(m for m in mails if m.subject.split("] ", 1)[-1].startswith("Not done"))
    say(f"\n--- the answer to Cat's mistake ({answer.subject}) ---")
    for line in _without_board(answer.text()):
        say(line)
    turn = [m for m in mails if "What you can do now:" in m.text()][-1]
    say(f"\n--- Cat's last \"your turn\" mail ({turn.subject}), board shortened ---")
    for line in turn.text().splitlines()[:40]:
        say(line)


def _without_board(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        if line.startswith("The game now"):
            break
        lines.append(line)
    return lines


if __name__ == "__main__":
    main()
