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
    game = world.new_game()
    proc = world.serve()
    proc.wait_log("serving")
    moves = play(world, game, until="SR 3")
    print(f"{len(moves)} moves by mail")
    assert proc.terminate() == 0
    assert any("stopped" in line for line in proc.log)

    store = world.store()
    try:
        assert service.audit(store, game.id).problem is None
        state = service.load(store, game.id)
        assert state.round["kind"] == "stock" and state.round["number"] == 3
        statuses = Counter(row["status"] for row in store.inbox_list())
        assert statuses == {"processed": len(moves)}, statuses
        sources = {e["source"] for e in store.events(game.id)}
        assert all(s.startswith("<") for s in sources)
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
            reply_to = mail.message["Reply-To"]
            assert isinstance(reply_to, AddressHeader)
            assert reply_to.addresses[0].addr_spec == game.reply_address(name)
        ids += [m.message_id for m in inbox]
    assert len(ids) == len(set(ids))
    assert {mid for (mid,) in sent} <= set(ids) | {d.message_id for d in world.sink.delivered}
