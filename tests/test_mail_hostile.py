"""Bad and hostile mail, through the real mailbox and the real ``pbem poll`` process:
each is answered as DESIGN.md section 4 says, or ignored; nothing is applied
wrongly and nothing crashes. Each case plays in its own game, so they do not
depend on each other."""

from __future__ import annotations

import base64
from collections.abc import Callable
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

from conftest import AUTHSERV, Game, MailWorld

from pbem.mail.embedded import Delivered
from pbem.store import Store

SAMPLES = Path(__file__).parent / "mail_samples"


def raw_mail(game: Game, name: str, body_part: MIMEText | MIMEMultipart | None = None,
             headers: dict[str, str] | None = None, sender: str | None = None,
             to: str | None = None) -> bytes:
    msg = body_part or MIMEText("buy SV")
    msg["From"] = f"{name} <{sender or game.email(name)}>"
    msg["To"] = to or game.reply_address(name)
    msg["Subject"] = f"Re: [1830 #{game.id}] Private auction: {name} to act"
    msg["Message-ID"] = make_msgid(domain="players.test")
    for key, value in (headers or {}).items():
        msg[key] = value
    return msg.as_bytes(policy=SMTP)


def encoded(text: str, charset: str, cte: str) -> bytes:
    data = text.encode(charset)
    if cte == "base64":
        body = base64.encodebytes(data)
    else:
        import quopri

        body = quopri.encodestring(data)
    return (f"Content-Type: text/plain; charset={charset}\r\n"
            f"Content-Transfer-Encoding: {cte}\r\nMIME-Version: 1.0\r\n\r\n").encode() + \
        body.replace(b"\n", b"\r\n")


def with_headers(game: Game, name: str, body: bytes, extra: str = "") -> bytes:
    head = (f"From: {name} <{game.email(name)}>\r\nTo: {game.reply_address(name)}\r\n"
            f"Subject: Re: [1830 #{game.id}] your turn\r\n"
            f"Message-ID: {make_msgid(domain='players.test')}\r\n{extra}")
    return head.encode() + body


def commands(store: Store, game_id: int) -> list[str]:
    return [e["text"] for e in store.events(game_id) if e["kind"] != "revert"]


def test_hostile_mail(world: MailWorld) -> None:
    # every case's game has the same players' addresses: let each case be answered
    world.set_limits(rejections_per_address_per_day=10)
    cases: dict[str, tuple[Game, bytes]] = {}

    def case(label: str, build: object) -> None:
        game = world.new_game(welcome=False)
        assert callable(build)
        cases[label] = (game, build(game))

    case("forged-from-no-key", lambda g: raw_mail(g, "Ann", to="pbem@games.test"))
    case("stranger-right-key", lambda g: raw_mail(g, "Ann", sender="evil@elsewhere.test"))
    case("html-only", lambda g: raw_mail(g, "Ann", MIMEText(
        "<html><body><p>buy SV</p><blockquote><p>pass</p></blockquote></body></html>",
        "html")))
    case("base64-koi8r", lambda g: with_headers(g, "Ann", encoded(
        "buy SV\nsay Привет всем\n", "koi8-r", "base64")))
    case("qp-cp1252", lambda g: with_headers(g, "Ann", encoded(
        "buy SV\nsay Grüße – 5 €\n", "cp1252", "quoted-printable")))
    case("utf16-base64", lambda g: with_headers(g, "Ann", encoded(
        "buy SV\n", "utf-16", "base64")))

    def attachment(megabytes: float) -> Callable[[Game], bytes]:
        def build(g: Game) -> bytes:
            mixed = MIMEMultipart()
            mixed.attach(MIMEText("buy SV\n"))
            mixed.attach(MIMEApplication(b"\x00\xff" * int(megabytes * 512 * 1024),
                                         Name="map.bin"))
            return raw_mail(g, "Ann", mixed)
        return build

    case("3mb-attachment", attachment(3))  # under the limit of 5 MiB (base64: 4 MB)
    case("10mb-attachment", attachment(10))  # over it: not fetched whole, not read
    case("10000-lines", lambda g: raw_mail(g, "Ann", MIMEText(
        "buy SV\n" + "".join(f"line {i} of a very long mail\n" for i in range(10000)))))
    case("bounce", lambda g: (SAMPLES / "bounce_mailer_daemon.eml").read_bytes().replace(
        b"pbem@pbem.example.org", b"pbem@games.test"))
    case("out-of-office", lambda g: raw_mail(g, "Ann", MIMEText("I am away until May."),
                                             {"Auto-Submitted": "auto-replied",
                                              "X-Autoreply": "yes"}))
    case("out-of-office-subject-only", lambda g: raw_mail(
        g, "Ann", MIMEText("I am away."),
        {"Subject": "Automatic reply: your turn"}).replace(
            f"Subject: Re: [1830 #{g.id}] Private auction: Ann to act\r\n".encode(), b""))
    case("robot-loop", lambda g: raw_mail(g, "Ann", MIMEText("Thank you for your mail!"),
                                          sender="robot@bots.test", to="pbem@games.test",
                                          headers={"In-Reply-To": f"<pbem.{g.id}.sr0@games.test>"}))
    case("dkim-fail", lambda g: raw_mail(g, "Ann", headers={
        "Authentication-Results": f"{AUTHSERV}; dkim=fail header.d=players.test; spf=pass"}))
    case("own-mail-back", lambda g: raw_mail(g, "Ann", headers={"X-PBEM-Game": str(g.id)}))
    case("no-message-id", lambda g: raw_mail(g, "Ann").replace(b"Message-ID:", b"X-Old-Id:"))

    for _game, raw in cases.values():
        world.sink.append_to_service("x@y.test", "pbem@games.test", raw)
    proc = world.poll_once()
    assert proc.wait() == 0, proc.log[-10:]

    store = world.store()
    try:
        statuses = {row["game_id"]: row for row in store.inbox_list()}
        assert not [r for r in store.inbox_list() if r["status"] in ("dead", "new")]
        applied = {label: commands(store, game.id) for label, (game, _) in cases.items()}
    finally:
        store.close()

    def replies(game: Game, name: str = "Ann") -> list[Delivered]:
        return [d for d in world.sink.delivered if d.recipient == game.email(name)
                and f"#{game.id}]" in d.subject]

    for label in ("html-only", "base64-koi8r", "qp-cp1252", "utf16-base64", "3mb-attachment",
                  "no-message-id"):
        assert applied[label][:1] == ["buy SV"], (label, applied[label])
        game = cases[label][0]
        assert [d.subject for d in replies(game) if "Done" in d.subject], label
    assert applied["base64-koi8r"] == ["buy SV", "say Привет всем"]
    assert applied["qp-cp1252"] == ["buy SV", "say Grüße – 5 €"]

    for label in ("forged-from-no-key", "stranger-right-key", "10000-lines", "10mb-attachment",
                  "bounce",
                  "out-of-office", "out-of-office-subject-only", "robot-loop", "dkim-fail",
                  "own-mail-back"):
        assert applied[label] == [], label

    # a rejected mail: one short reply, to the address of record only
    for label in ("forged-from-no-key", "stranger-right-key", "dkim-fail"):
        game = cases[label][0]
        answer = replies(game)
        wanted = "has leaked" if label == "stranger-right-key" else "not accepted"
        assert len(answer) == 1 and wanted in answer[0].subject, label
        assert answer[0].message["References"], label  # in the game's thread
    assert "dkim=fail" in replies(cases["dkim-fail"][0])[0].text()
    assert not [d for d in world.sink.delivered
                if d.recipient in ("evil@elsewhere.test", "robot@bots.test")]

    # robots and junk: no reply at all
    for label in ("bounce", "out-of-office", "out-of-office-subject-only", "robot-loop",
                  "own-mail-back"):
        assert replies(cases[label][0]) == [], label

    [too_large] = replies(cases["10mb-attachment"][0])
    assert "not read" in too_large.subject and "too large" in too_large.text()

    long_reply = replies(cases["10000-lines"][0])
    assert len(long_reply) == 1 and "Not done" in long_reply[0].subject
    assert "more than 50 command lines" in long_reply[0].text()
    assert statuses  # every message got a row
