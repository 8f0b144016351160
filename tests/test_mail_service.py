"""The mail service's processing, without servers: one stored message in, one
transaction, the reply and the notifications in the outbox."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP
from email.policy import default as default_policy
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest

from pbem import service
from pbem.mail.config import Limits, MailConfig
from pbem.mail.outbound.welcome import queue_welcome
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


class Table:
    """A game, its store and a way to send mail into it as a player."""

    def __init__(self, tmp: Path, options: dict[str, str] | None = None,
                 limits: Limits | None = None, names: tuple[str, ...] = NAMES) -> None:
        self.store: Store = open_store(tmp / "pbem.db", now=NOW)
        self.config = MailConfig(address="pbem@games.test", referee="ref@games.test",
                                 trusted_authserv_id="mx.games.test",
                                 limits=limits or Limits())
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
        rows = self.store.conn.execute(
            "SELECT recipient, raw FROM outbox ORDER BY id").fetchall()
        fresh = rows[self.seen:]
        self.seen = len(rows)
        return [Mail({"recipient": r, "raw": raw}) for r, raw in fresh]

    def to(self, name: str, mails: list[Mail]) -> list[Mail]:
        return [m for m in mails if m.recipient == f"{name.lower()}@players.test"]

    def texts(self) -> list[str]:
        return [e["text"] for e in self.store.events(self.game)]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_all_or_nothing(table: Table) -> None:
    assert table.send("Ann", "buy SV\nbid CA 5").status == "processed"
    assert table.texts() == []
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert "Not done" in reply.subject
    assert "bid CA 5" in reply.text and "None of the commands" in reply.text
    assert "bid CA 165" in reply.text  # the closest legal commands
    assert table.to("Ben", mails) == []


def test_turn_reply_and_updates(table: Table) -> None:
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    [reply] = table.to("Ann", mails)
    assert reply.subject == f"[1830 #{table.game}] Done - Private auction: Ben to act"
    assert reply.message["In-Reply-To"]
    [turn] = table.to("Ben", mails)
    assert "it is your turn" in turn.text and "What you can do now:" in turn.text
    assert re.search(r"^  buy CS +costs \$40\r?$", turn.text, re.M)
    [update] = table.to("Cat", mails)
    assert "Ann buys SV for $20." in update.text
    for mail in mails:
        assert mail.message["Auto-Submitted"] == "auto-generated"
        assert mail.message["X-PBEM-Game"] == str(table.game)
        assert mail.message["Reply-To"].addresses[0].addr_spec.startswith(f"pbem+{table.game}.")
        assert mail.message["References"].strip().startswith(f"<pbem.{table.game}.sr0@")
        _check_widths(mail.text)


def _check_widths(text: str) -> None:
    board = False
    for line in text.splitlines():
        board = board or line.startswith(("The game now", "What you can do now"))
        assert len(line) <= (100 if board else 78), line


def test_any_time_commands(table: Table) -> None:
    outcome = table.send("Cat", "say Hello; good luck\nhelp bid\nshow\nhistory 5\nnotify turn")
    assert outcome.status == "processed"
    mails = table.new_mail()
    [reply] = table.to("Cat", mails)
    assert "Done" in reply.subject
    assert "help bid: bid CA 170" in reply.text
    assert "The last 1 of 1 events:" in reply.text
    assert "notify turn" in reply.text
    assert table.store.player(table.game, 2)["notify"] == "turn"
    talk = table.to("Ann", mails)
    assert len(talk) == 1 and "Cat says: Hello; good luck" in talk[0].subject
    assert table.texts() == ["say Hello; good luck"]
    assert service.audit(table.store, table.game).problem is None
    assert service.load(table.store, table.game).round["kind"] == "auction"


def test_undo_own_last(table: Table) -> None:
    table.send("Ann", "buy SV")
    table.new_mail()
    table.send("Ben", "undo")
    assert "Not done" in table.to("Ben", table.new_mail())[0].subject
    table.send("Ann", "undo")
    mails = table.new_mail()
    assert "Done" in table.to("Ann", mails)[0].subject
    assert table.to("Ann", mails)[0].text.count("What you can do now:") == 1
    state = service.load(table.store, table.game)
    assert state.privates["SV"].owner == "bank"


def test_notify_turn_and_round(table: Table) -> None:
    table.send("Cat", "notify turn")
    table.send("Dan", "notify round")
    table.new_mail()
    table.send("Ann", "buy SV")
    mails = table.new_mail()
    assert table.to("Cat", mails) == [] and table.to("Dan", mails) == []
    for name, command in [("Ben", "buy CS"), ("Cat", "buy DH"), ("Dan", "buy MH"),
                          ("Ann", "buy CA"), ("Ben", "buy BO")]:
        table.send(name, command)
    mails = table.new_mail()
    assert not [m for m in table.to("Dan", mails) if "this round" in m.text]
    table.send("Ben", "par B&O 100")  # the auction is over: stock round 1 begins
    mails = table.new_mail()
    digest = [m for m in table.to("Dan", mails) if "What happened this round:" in m.text]
    assert len(digest) == 1 and "Ann buys SV for $20." in digest[0].text


def test_keys(table: Table) -> None:
    key = table.keys["Ann"]
    assert table.send("Ann", f"key {key}\nbuy SV", to="pbem@games.test",
                      subject=f"[1830 #{table.game}] move").status == "processed"
    assert table.texts() == ["buy SV"]
    outcome = table.send("Ben", "buy CS", to="pbem@games.test",
                         subject=f"Re: [1830 #{table.game} key {table.keys['Ben']}]")
    assert outcome.status == "processed" and table.texts()[-1] == "buy CS"
    outcome = table.send("Cat", "key AAAAAAAA\nbuy DH", to="pbem@games.test",
                         subject=f"[1830 #{table.game}]")
    assert outcome.status == "ignored" and "not yours" in outcome.note
    table.new_mail()


def test_routing_by_reference(table: Table) -> None:
    queue_welcome(table.store, table.config, table.game, table.keys, NOW)
    welcome = table.to("Ann", table.new_mail())[0]
    outcome = table.send("Ann", f"buy SV\nkey {table.keys['Ann']}", to="pbem@games.test",
                         subject="Re: hello",
                         headers={"In-Reply-To": str(welcome.message["Message-ID"])})
    assert outcome.status == "processed" and outcome.game_id == table.game
    lost = table.send("Ann", "buy SV", to="pbem@games.test", subject="hello")
    assert lost.status == "ignored" and "no game" in lost.note


def test_reply_cap_stops_a_loop(tmp_path: Path) -> None:
    """A player's own autoresponder (no robot headers) answers every mail: the daily
    cap on replies ends the loop."""
    table = Table(tmp_path, limits=Limits(replies_per_address_per_day=3))
    table.send("Ann", "I am on holiday until Monday.")
    rounds = 0
    while (answer := table.to("Ann", table.new_mail())) and rounds < 20:
        rounds += 1
        table.send("Ann", "I am on holiday until Monday.\n\n> " + answer[0].subject)
    assert rounds == 3  # three replies in all, then silence
    assert table.texts() == []


def test_dead_letter_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr("pbem.mail.processing.process.notify_others", broken)
    outcome = table.send("Ann", "buy SV")
    assert outcome.status == "dead" and "renderer exploded" in outcome.note
    assert table.texts() == []  # nothing of it was applied
    [row] = table.store.inbox_list("dead")
    assert "RuntimeError" in row["error"]
    monkeypatch.undo()
    from pbem.mail.processing.inbox import retry

    assert retry(table.store, table.config, row["id"], NOW).status == "processed"
    assert table.texts() == ["buy SV"]


def test_game_over_mail(table: Table) -> None:
    from pbem.mail.outbound.notify import Activity, game_over_mail

    state = service.load(table.store, table.game)
    state.finished = True
    state.result = {"reason": "The bank is broken.", "scores": {"Ann": 4200, "Ben": 5100},
                    "winners": ["Ben"], "bankrupt": None}
    run = Activity(table.game, "Ann", happened=["Ann: pass"])
    out = game_over_mail(table.config, table.store.game(table.game), table.players["Cat"],
                         state, run)
    assert out.subject == f"[1830 #{table.game}] Game over: Ben wins"
    from pbem.mail.outbound.templates import fill

    text = fill(table.config.templates_dir, out.template, out.values)
    assert "The bank is broken." in text
    assert text.index("Ben          $5100") < text.index("Ann          $4200")
