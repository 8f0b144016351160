"""A whole 1830 game start played by email between four bots, end to end.

The real ``pbem serve`` process reads the service mailbox on a real IMAP server
(Dovecot, or pymap where Dovecot is absent) and sends through a real SMTP server
(aiosmtpd); each bot reads the mails delivered to its player, picks one of the
commands the prompt lists, and replies by SMTP to the reply address.
"""

from __future__ import annotations

import re
from collections import Counter
from email.headerregistry import AddressHeader
from email.message import EmailMessage
from typing import cast

from conftest import Game, MailWorld

from pbem import service
from pbem.mail.embedded import Delivered


def listed_commands(text: str) -> list[str]:
    """The ready-to-copy commands under "What you can do now:"."""
    lines = text.splitlines()
    if "What you can do now:" not in lines:
        return []
    start = lines.index("What you can do now:") + 1
    commands = []
    for line in lines[start:]:
        if line.startswith("   "):  # the rest of a long note
            continue
        if not line.startswith("  "):
            break
        commands.append(re.split(r"\s{2,}", line.strip())[0])
    return commands


class Bot:
    """Plays from the prompt: buys in the auction, buys twice in the first stock
    round and once in the later ones, ends operating turns."""

    def __init__(self) -> None:
        self.buys: Counter[tuple[str, str]] = Counter()

    def choose(self, player: str, subject: str, commands: list[str]) -> str:
        def first(*verbs: str) -> str | None:
            return next((c for c in commands if c.split()[0] in verbs and " pool" not in c),
                        None)

        stock = re.search(r"SR (\d+)", subject)
        if "OR " in subject:
            return first("done", "pass") or commands[0]
        if stock:
            key = (player, stock.group(1))
            wanted = 2 if stock.group(1) == "1" else 1
            choice = first("par", "buy") if self.buys[key] < wanted else None
            if choice:
                self.buys[key] += 1
                return choice
            return first("pass") or commands[0]
        return first("buy") or first("par") or first("pass") or commands[0]


def play(world: MailWorld, game: Game, until: str, max_moves: int = 400) -> list[str]:
    bot = Bot()
    address_of = {game.email(n): n for n in game.players}
    moves: list[str] = []

    looked = 0  # mails before this index were looked at already

    def next_turn(delivered: list[Delivered]) -> Delivered | bool | None:
        nonlocal looked
        fresh, looked = delivered[looked:], len(delivered)
        if any(until in d.subject for d in fresh):
            return True
        turns = [d for d in fresh if d.recipient in address_of and listed_commands(d.text())]
        return turns[-1] if turns else None

    for _ in range(max_moves):
        found = world.sink.wait_for(next_turn, timeout=60)
        if found is True:
            return moves
        mail = found
        player = address_of[mail.recipient]
        command = bot.choose(player, mail.subject, listed_commands(mail.text()))
        moves.append(f"{player}: {command}")
        quoted = "\n".join("> " + line for line in mail.text().splitlines()[:20])
        body = f"{command}\n\nOn Monday, pbem wrote:\n{quoted}\n"
        reply_to = str(mail.message.get("Reply-To"))
        world.send(game.mail(player, body, to=reply_to, subject="Re: " + mail.subject,
                             in_reply_to=mail.message_id))
    raise AssertionError(f"no {until!r} after {max_moves} moves: {moves[-10:]}")


def check_mail_layout(mail: Delivered) -> None:
    msg = cast(EmailMessage, mail.message)  # parsed with the default policy
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-PBEM-Game"]
    assert msg["Message-ID"].startswith("<pbem.")
    assert msg.get_content_type() == "multipart/alternative"
    html = msg.get_body(("html",))
    assert html is not None and "<pre" in html.get_content()
    in_map = False  # lines of at most 78 characters, the map drawing up to 100
    for line in mail.text().splitlines():
        in_map = line.startswith("MAP (") or in_map and not line.startswith("Legend:")
        assert len(line) <= (100 if in_map else 78), line
    if "MAP (" in mail.text():  # the map also as an inline picture the HTML shows
        images = [p for p in msg.walk() if p.get_content_maintype() == "image"]
        assert len(images) == 1, mail.subject
        assert f'src="cid:{images[0]["Content-ID"].strip("<>")}"' in html.get_content()


def test_game_start_by_email(world: MailWorld) -> None:
    """Four bots play by mail to stock round 3; on the way (issue 13) Dan reads compact
    mail, Cat has a standing order, Ben takes a new key and Ann talks to Ben alone."""
    game = world.new_game()
    old_ben = game.reply_address("Ben")
    proc = world.serve()
    proc.wait_log("serving")
    for name, body in [("Dan", "mail compact"), ("Cat", "auto pass"), ("Ben", "key new"),
                       ("Ann", "say to Ben: shall we share the B&O?")]:
        world.send(game.mail(name, body))
    world.sink.wait_for(lambda ds: [d for d in ds if "Your new key" in d.subject])
    moves = play(world, game, until="SR 3")
    print(f"{len(moves)} moves by mail")
    world.send(game.mail("Ben", "pass", to=old_ben))  # the old reply address: refused
    world.sink.wait_for(lambda ds: [d for d in ds if d.recipient == game.email("Ben")
                                    and "not accepted" in d.subject])
    assert proc.terminate() == 0
    assert any("stopped" in line for line in proc.log)

    store = world.store()
    try:
        assert service.audit(store, game.id).problem is None
        state = service.load(store, game.id)
        assert state.round["kind"] == "stock" and state.round["number"] == 3
        statuses = Counter(row["status"] for row in store.inbox_list())
        assert statuses == {"processed": len(moves) + 4, "ignored": 1}, statuses
        events = store.events(game.id)
        sources = {e["source"] for e in events}
        assert all(s.startswith(("<", "auto ")) for s in sources)
        auto = [e for e in events if str(e["source"]).startswith("auto ")
                and e["kind"] == "command"]
        assert auto and {e["actor"] for e in auto} == {"Cat"}
        assert {e["text"] for e in auto} == {"pass"}
        players = {p["name"]: p for p in store.players(game.id)}
        assert players["Dan"]["mail"] == "compact"
        new_ben_code = store.reply_code(players["Ben"])
        sent = set(store.conn.execute(
            "SELECT message_id FROM outbox WHERE status = 'sent'").fetchall())
    finally:
        store.close()

    ids: list[str] = []
    for name in game.players:
        inbox = game.inbox(name)
        assert "Your secret key is:  " + game.keys[name] in inbox[0].text()
        assert any("it is your turn" in m.text() for m in inbox), name
        assert any("SR 2" in m.subject for m in inbox), name
        for mail in inbox:
            check_mail_layout(mail)
        ids += [m.message_id for m in inbox]
    assert len(ids) == len(set(ids))
    assert {mid for (mid,) in sent} <= set(ids) | {d.message_id for d in world.sink.delivered}

    # Ann's private talk reached Ben alone
    assert [m for m in game.inbox("Ben") if "shall we share" in m.text()]
    for name in ("Cat", "Dan"):
        assert not [m for m in game.inbox(name) if "shall we share" in m.text()]
    # Cat's order passed for her and was dropped when the auction ended
    assert [m for m in game.inbox("Cat") if "auto pass is dropped" in " ".join(
        m.text().split())]
    # Dan's mails after his setting are compact: no board, no map, small
    compact = game.inbox("Dan")[2:]  # after the welcome and the answer to his setting
    assert compact and all("MAP (" not in m.text() and len(m.message.as_bytes()) <= 8_000
                           for m in compact)
    assert any("Your holdings:" in m.text() for m in compact)
    # Ben's new key: his mails carry the new reply address, the old one is refused
    new_ben = f"pbem+{game.id}.{new_ben_code}@games.test"
    replies = [reply_address(m) for m in game.inbox("Ben")]
    assert replies[0] == old_ben and replies[-1] == new_ben
    for name in ("Ann", "Cat", "Dan"):
        for mail in game.inbox(name):
            assert reply_address(mail) == game.reply_address(name)


def reply_address(mail: Delivered) -> str:
    reply_to = mail.message["Reply-To"]
    assert isinstance(reply_to, AddressHeader)
    return str(reply_to.addresses[0].addr_spec)
