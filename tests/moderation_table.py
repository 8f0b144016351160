"""A game run by mail without servers, on a clock the test moves: mails in through the
service's processing (one transaction each), the timers fired at the test's time, the
outbox read back. For the tests of deadlines, absences, seats, the referee and undo."""

from __future__ import annotations

from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP
from email.policy import default as default_policy
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from conftest import fast_key_hashes

from pbem import service
from pbem.mail.config import MailConfig
from pbem.mail.processing.process import Outcome, process_inbox, store_message
from pbem.mail.timers import Fired, fire_due
from pbem.moderation.clock import schedule_of
from pbem.moderation.deadlines import Schedule
from pbem.moderation.timecalc import iso, parse_moment
from pbem.store import Store, open_store

#: A Monday, 10:00 UTC.
T0 = "2026-05-04T10:00:00.000+00:00"
REFEREE = "ref@games.test"


class Mail:
    def __init__(self, recipient: str, raw: bytes) -> None:
        self.recipient = recipient
        self.message = message_from_bytes(raw, policy=default_policy)
        self.subject = str(self.message["Subject"])
        body = self.message.get_body(("plain",))  # type: ignore[attr-defined]
        self.text = body.get_content().replace("\r\n", "\n") if body is not None else ""

    @property
    def flat(self) -> str:
        """The text with its lines joined (sentences wrapped at 78 columns read whole)."""
        return " ".join(self.text.split())

    def __repr__(self) -> str:
        return f"<Mail to {self.recipient}: {self.subject}>"


class Clock:
    """The test's time: it only moves when the test moves it."""

    def __init__(self, start: str = T0) -> None:
        self.moment = parse_moment(start)

    @property
    def now(self) -> str:
        return iso(self.moment)

    def advance(self, **delta: float) -> str:
        self.moment += timedelta(**delta)
        return self.now


class ModTable:
    """A game of 1830 with a referee, played by mail on the test's clock."""

    def __init__(self, tmp: Path, options: dict[str, str] | None = None,
                 names: tuple[str, ...] = ("Ann", "Ben", "Cat", "Dan"),
                 referee: str | None = REFEREE, title: str = "1830") -> None:
        self.clock = Clock()
        self.store_path = tmp / "pbem.db"
        self.store: Store = open_store(self.store_path, now=self.clock.now)
        self.config = MailConfig(address="pbem@games.test", referee="ops@games.test")
        with fast_key_hashes():
            created = service.create_game(
                self.store, title, [(n, f"{n.lower()}@players.test") for n in names], seed=1,
                seating="fixed", options=options or {}, now=self.clock.now, referee=referee)
        self.game = created.game_id
        self.keys = dict(created.keys)
        self.referee_key = created.referee_key
        self.seen = 0
        self.uid = 0

    # -- addresses ------------------------------------------------------------------------------

    def player(self, name: str) -> dict[str, Any]:
        return next(p for p in self.store.players(self.game) if p["name"] == name)

    def email(self, name: str) -> str:
        return str(self.player(name)["email"])

    def address(self, name: str) -> str:
        p = self.player(name)
        return f"pbem+{self.game}.{self.store.reply_code(p)}@games.test"

    def referee_address(self) -> str:
        game = self.store.game(self.game)
        referee = {"game_id": self.game, "seat": -1, "key_hash": game["referee_key_hash"]}
        return f"pbem+{self.game}.{self.store.reply_code(referee)}@games.test"

    # -- mail in --------------------------------------------------------------------------------

    def send(self, name: str, body: str, *, sender: str | None = None, to: str | None = None,
             subject: str = "Re: your turn") -> Outcome:
        """A mail from player ``name`` (or ``referee``) through the service, now."""
        if name == "referee":
            sender = sender or REFEREE
            to = to or self.referee_address()
        msg = EmailMessage()
        msg["From"] = sender or self.email(name)
        msg["To"] = to or self.address(name)
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(body)
        return self.deliver(msg.as_bytes(policy=SMTP))

    def answer(self, name: str, body: str) -> Mail:
        """Send a mail as ``name`` and return the one mail he gets back."""
        self.new_mail()
        self.send(name, body)
        [reply] = self.to(name, self.new_mail())
        return reply

    def deliver(self, raw: bytes) -> Outcome:
        self.uid += 1
        inbox_id, _ = store_message(self.store, "INBOX", 1, self.uid, raw, self.clock.now)
        outcome = process_inbox(self.store, self.config, inbox_id, self.clock.now)
        self.check_record(outcome)
        return outcome

    def check_record(self, outcome: Outcome | None = None) -> None:
        """The state the turn left is the record's, and the record audits."""
        if outcome is not None and outcome.state is not None:
            assert service.load(self.store, self.game) == outcome.state
        assert service.audit(self.store, self.game).problem is None

    def tick(self, **delta: float) -> list[Fired]:
        """Move the clock on and fire what is due."""
        if delta:
            self.clock.advance(**delta)
        fired = fire_due(self.store, self.config, self.clock.now)
        self.check_record()
        return fired

    # -- what happened --------------------------------------------------------------------------

    def new_mail(self) -> list[Mail]:
        """The mails queued since the last call; each within 78 columns (the map drawing,
        100)."""
        rows = self.store.outbox_mails()  # each mail as it goes out
        fresh = rows[self.seen:]
        self.seen = len(rows)
        mails = [Mail(row["recipient"], bytes(row["raw"])) for row in fresh]
        for mail in mails:
            in_map = False
            for line in mail.text.splitlines():
                in_map = line.startswith("MAP (") or in_map and not line.startswith("Legend:")
                assert len(line) <= (100 if in_map else 78), (mail.subject, line)
        return mails

    def to(self, name: str, mails: list[Mail]) -> list[Mail]:
        address = REFEREE if name == "referee" else self.email(name)
        return [m for m in mails if m.recipient == address]

    def schedule(self) -> Schedule:
        return schedule_of(self.store, self.game)

    def due(self, name: str) -> str | None:
        decision = self.schedule().decisions.get(name)
        return iso(decision.due) if decision and decision.due else None

    def state(self) -> Any:
        return service.load(self.store, self.game)

    def waiting(self) -> list[str]:
        return service.waiting_for(self.state())

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        events = self.store.events(self.game)
        return [e for e in events if kind is None or e["kind"] == kind]

    def moderation(self, *types: str) -> list[dict[str, Any]]:
        return [e for e in self.events("moderation") if not types or
                e["command"].get("type") in types]

    def commands(self) -> list[str]:
        return [f"{e['actor']}: {e['text']}" for e in self.store.effective_events(self.game)
                if e["kind"] == "command"]


#: From the start to operating round 1.1 (as tests/enginehelp.py's first_operating_round):
#: Ann SV, MH; Ben CS, CA; Cat DH; Dan BO and B&O at $100; PRR (Ann), NYC (Ben) and
#: C&O (Cat) parred at $67; PRR and C&O float, NYC and B&O do not.
TO_FIRST_OR = [
    ("Ann", "buy"), ("Ben", "buy"), ("Cat", "buy"), ("Dan", "pass"), ("Ann", "buy"),
    ("Ben", "buy"), ("Cat", "pass"), ("Dan", "buy"), ("Dan", "par B&O 100"),
    ("Ann", "par PRR 67"), ("Ben", "par NYC 67"), ("Cat", "par C&O 67"),
    *[(who, f"buy {corp}") for _ in range(3)
      for who, corp in [("Dan", "B&O"), ("Ann", "PRR"), ("Ben", "NYC"), ("Cat", "C&O")]],
    ("Dan", "pass"), ("Ann", "pass"), ("Ben", "pass"), ("Cat", "buy C&O"),
    ("Dan", "pass"), ("Ann", "pass"), ("Ben", "pass"), ("Cat", "pass"),
]


def play(table: ModTable, moves: list[tuple[str, str]]) -> None:
    """Moves at the command line (no mail), on the table's clock."""
    from pbem.mail.processing.command_line import carry_out

    for who, text in moves:
        carry_out(table.store, table.game, who, text, now=table.clock.now)


def finish_auction(table: ModTable) -> None:
    """Whoever is to act buys the cheapest private (and pars the B&O at $100) until the
    stock round begins."""
    while table.state().round["kind"] == "auction":
        [who] = table.waiting()
        pending = table.state().round.get("pending_par")
        play(table, [(who, "par B&O 100" if pending else "buy")])
