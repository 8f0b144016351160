"""A game and its store for the mail tests without servers: mail a player's commands in,
read the outbox (tests/test_mail_service.py, test_mail_views.py, test_mail_recent.py,
test_mail_orders.py)."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP
from email.policy import default as default_policy
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from pbem import service
from pbem.mail.config import Limits, MailConfig
from pbem.mail.processing.process import Outcome, process_inbox, store_message
from pbem.store import Store, open_store

NOW = "2024-05-01T10:00:00.000+00:00"
NAMES = ("Ann", "Ben", "Cat", "Dan")


class Mail:
    def __init__(self, row: dict[str, Any]) -> None:
        self.recipient = row["recipient"]
        self.message = message_from_bytes(bytes(row["raw"]), policy=default_policy)
        self.subject = str(self.message["Subject"])
        body = self.message.get_body(("plain",))  # type: ignore[attr-defined]
        self.text = body.get_content() if body is not None else ""


def table_config(limits: Limits | None = None) -> MailConfig:
    """The service's configuration in these tests (no servers: the outbox is read)."""
    return MailConfig(address="pbem@games.test", referee="ref@games.test",
                      trusted_authserv_id="mx.games.test", limits=limits or Limits())


class Table:
    """A game, its store and a way to send mail into it as a player."""

    def __init__(self, tmp: Path, options: dict[str, str] | None = None,
                 limits: Limits | None = None, names: tuple[str, ...] = NAMES) -> None:
        self.store: Store = open_store(tmp / "pbem.db", now=NOW)
        self.config = table_config(limits)
        created = service.create_game(
            self.store, "1830", [(n, f"{n.lower()}@players.test") for n in names], seed=1,
            seating="fixed", options=options or {}, now=NOW, referee="ref@games.test")
        self.game = created.game_id
        self.keys = created.keys
        self.players = {p["name"]: p for p in self.store.players(self.game)}
        self.seen = 0
        self.uid = 0

    def address(self, name: str) -> str:
        code = self.store.reply_code(self.store.player(self.game, self.players[name]["seat"]))
        return f"pbem+{self.game}.{code}@games.test"

    def send(self, name: str, body: str, *, to: str | None = None, sender: str | None = None,
             subject: str = "Re: your turn", headers: dict[str, str] | None = None) -> Outcome:
        msg = EmailMessage()
        msg["From"] = sender or f"{name.lower()}@players.test"
        msg["To"] = to or self.address(name)
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        for key, value in (headers or {}).items():
            msg[key] = value
        msg.set_content(body)
        self.uid += 1
        inbox_id, _ = store_message(self.store, "INBOX", 1, self.uid, msg.as_bytes(policy=SMTP),
                                    NOW)
        outcome = process_inbox(self.store, self.config, inbox_id, NOW)
        self.check_record(outcome)
        return outcome

    def check_record(self, outcome: Outcome) -> None:
        """The game the mail's turn left (loaded once, never rebuilt) is the game its
        record rebuilds, and the record audits."""
        if outcome.state is not None:
            assert service.load(self.store, self.game) == outcome.state
        assert service.audit(self.store, self.game).problem is None

    def new_mail(self) -> list[Mail]:
        rows = self.store.outbox_mails()  # each mail as it goes out
        fresh = rows[self.seen:]
        self.seen = len(rows)
        return [Mail(row) for row in fresh]

    def all_mail(self) -> list[Mail]:
        """Every mail queued so far."""
        return [Mail(row) for row in self.store.outbox_mails()]

    def to(self, name: str, mails: list[Mail]) -> list[Mail]:
        return [m for m in mails if m.recipient == f"{name.lower()}@players.test"]

    def texts(self) -> list[str]:
        return [e["text"] for e in self.store.events(self.game)]


def check_widths(text: str) -> None:
    board = False
    for line in text.splitlines():
        board = board or line.startswith(("The game now", "What you can do now"))
        assert len(line) <= (100 if board else 78), line
