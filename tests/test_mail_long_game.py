"""A postal game run to a point by email against real servers (issue 12, Must show):
the real ``pbem serve`` reads the service mailbox on Dovecot (pymap where Dovecot is
absent) and sends through aiosmtpd; a referee with a key of his own replaces a player
mid-game, another player goes away and comes back, a deadline passes under
``on_deadline=pass`` (fired by ``pbem tick --now``, the cron way, at a time three days
on), and the game goes on to the first stock round. Every inbox is checked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from conftest import REFEREE, Game, MailWorld, fast_key_hashes

from pbem import service
from pbem.mail.clock import now
from pbem.mail.embedded import Delivered
from pbem.mail.outbound.welcome import queue_welcome

NAMES = ("Ann", "Ben", "Cat", "Dan")
OPTIONS = {"deadline": "72h", "on_deadline": "pass", "away_max": "14d"}


def new_game(world: MailWorld) -> tuple[Game, str]:
    store = world.store()
    try:
        with fast_key_hashes():
            created = service.create_game(
                store, "1830", [(n, f"{n.lower()}@players.test") for n in NAMES], seed=1830,
                seating="fixed", options=OPTIONS, now=now(), referee=REFEREE)
        assert created.referee_key is not None
        queue_welcome(store, world.config, created.game_id, created.keys, now(),
                      referee_key=created.referee_key)
        players = {p["name"]: p for p in store.players(created.game_id)}
    finally:
        store.close()
    return Game(world, created.game_id, created.keys, players), created.referee_key


class Inboxes:
    """Waits for mails and replies to them as their recipients would."""

    def __init__(self, world: MailWorld, game: Game) -> None:
        self.world = world
        self.game = game

    def wait(self, address: str, subject: str, after: int = 0) -> Delivered:
        """The first mail to ``address`` whose subject has ``subject``, among those after
        the first ``after`` mails to it."""
        def found(_: list[Delivered]) -> Delivered | None:
            mails = self.world.sink.mails_to(address)[after:]
            return next((m for m in mails if subject in m.subject), None)

        mail: Delivered = self.world.sink.wait_for(found, timeout=120)
        return mail

    def count(self, address: str) -> int:
        return len(self.world.sink.mails_to(address))

    def reply(self, mail: Delivered, body: str, sender: str | None = None) -> None:
        msg = self.game.mail("Player", body, to=str(mail.message["Reply-To"]),
                             sender=sender or mail.recipient, subject="Re: " + mail.subject,
                             in_reply_to=mail.message_id)
        self.world.send(msg)


def flat(mail: Delivered) -> str:
    return " ".join(mail.text().split())


def check_layout(mail: Delivered) -> None:
    msg = mail.message
    assert msg["Auto-Submitted"] == "auto-generated" and msg["X-PBEM-Game"]
    assert msg.get_content_type() == "multipart/alternative"
    in_map = False
    for line in mail.text().splitlines():
        in_map = line.startswith("MAP (") or in_map and not line.startswith("Legend:")
        assert len(line) <= (100 if in_map else 78), (mail.subject, line)


def test_a_game_with_a_replacement_an_absence_and_a_passed_deadline(world: MailWorld) -> None:
    game, _referee_key = new_game(world)
    mail = Inboxes(world, game)
    ann, ben, cat, dan = (game.email(n) for n in NAMES)
    eve = "eve@players.test"
    proc = world.serve()
    proc.wait_log("serving")

    welcome = mail.wait(ann, "Welcome")
    assert "It is your turn first." in welcome.text()
    assert "Deadlines: 72h per decision, reminder 24h before; when one passes: pass." \
        in flat(welcome)
    referee_welcome = mail.wait(REFEREE, "You referee game")
    mail.reply(welcome, "tz Europe/Berlin\nbuy SV")  # Ann reads times in her zone too

    # Ben goes away (his deadlines wait) and comes back; the others are told.
    turn = mail.wait(ben, "Ben to act")
    assert "Your deadline: " in turn.text()
    until = (datetime.now(UTC) + timedelta(days=7)).strftime("%Y-%m-%d")
    mail.reply(turn, f"away until {until} family visit")
    for address in (ann, cat, dan, REFEREE):
        notice = mail.wait(address, "Ben is away until")
        assert "(family visit); Ben's deadlines wait." in flat(notice)
    mail.reply(turn, "back")
    for address in (ann, cat, dan, REFEREE):
        mail.wait(address, "Ben is back")
    mail.reply(turn, "buy CS")

    # The referee gives Cat's seat to Eve, by mail with the referee's key.
    cat_turn = mail.wait(cat, "Cat to act")
    mail.reply(referee_welcome, "replace Cat with Eve eve@players.test")
    takeover = mail.wait(eve, "Welcome to game")
    assert "Hello Eve (seat Cat)" in takeover.text()
    assert "You take over the seat Cat" in flat(takeover)
    assert "Ann buys SV for $20." in flat(takeover) and "Your secret key is:" in takeover.text()
    for address in (ann, ben, dan):
        notice = mail.wait(address, "The referee replaces Cat")
        assert "Eve (eve@players.test) plays the seat Cat from now on" in flat(notice)
    # Cat's old address and reply code are refused from now on; the referee hears of it.
    before = mail.count(cat)
    mail.reply(cat_turn, "buy DH")
    refused = mail.wait(cat, "Your mail was not accepted", after=before)
    assert "the referee gave your seat Cat" in flat(refused)
    mail.wait(REFEREE, "A mail was not accepted")
    mail.reply(takeover, "buy DH")  # Eve, from her address with the seat's new code

    # Dan stays silent: three days on, the deadline passes under the pass policy.
    mail.wait(dan, "Dan to act")
    assert proc.terminate() == 0
    before = mail.count(ann)
    later = (datetime.now(UTC) + timedelta(hours=80)).isoformat(timespec="seconds")
    ticked = world.cli("tick", "--now", later)
    assert ticked.returncode == 0, ticked.stderr
    assert f"game #{game.id}: expiry Dan pass: 1 moves" in ticked.stdout
    for address in (ben, eve, dan, REFEREE):
        notice = mail.wait(address, "Deadline passed: Dan")
        assert "Dan passes." in flat(notice)
    after_deadline = mail.wait(ann, "Ann to act", after=before)
    assert "Dan's deadline" in flat(after_deadline) and "Dan passes." in flat(after_deadline)
    assert " in Europe/Berlin)" in flat(after_deadline).split("Your deadline: ")[1]

    # The game goes on by mail to the first stock round.
    proc = world.serve()
    proc.wait_log("serving")
    seats = {ann: "Ann", ben: "Ben", eve: "Cat", dan: "Dan"}
    answered: set[str] = set()
    for _ in range(30):
        def next_turn(delivered: list[Delivered]) -> Delivered | bool | None:
            if any("SR 1" in d.subject for d in delivered):
                return True
            turns = [d for d in delivered if d.recipient in seats and d.message_id not in
                     answered and f"{seats[d.recipient]} to act" in d.subject
                     and "What you can do now:" in d.text()]
            return turns[-1] if turns else None

        found = world.sink.wait_for(next_turn, timeout=120)
        if found is True:
            break
        answered.add(found.message_id)
        text = found.text()
        command = "par B&O 100" if "par B&O" in text else "buy" if "  buy " in text else "pass"
        mail.reply(found, command)
    else:
        raise AssertionError("the auction did not end")
    assert proc.terminate() == 0

    store = world.store()
    try:
        assert service.audit(store, game.id).problem is None
        state = service.load(store, game.id)
        assert state.round["kind"] == "stock" and state.round["number"] == 1
        commands = [e for e in store.effective_events(game.id) if e["kind"] == "command"]
        policy = [e for e in commands if e["source"] == "policy:pass"]
        assert [(e["actor"], e["text"]) for e in policy] == [("Dan", "pass")]
        assert any(e["actor"] == "Cat" and e["text"] == "buy DH" for e in commands)
        seat = next(p for p in store.players(game.id) if p["name"] == "Cat")
        assert (seat["email"], seat["person"]) == (eve, "Eve")
        kinds = [e["command"]["type"] for e in store.events_of_kind(game.id, ("moderation",))]
        for kind in ("deadline", "away", "back", "replace", "expired"):
            assert kind in kinds, kind
        statuses = {row["status"] for row in store.inbox_list()}
        assert statuses <= {"processed", "ignored"}
    finally:
        store.close()

    check_inboxes(world, game, eve)


def check_inboxes(world: MailWorld, game: Game, eve: str) -> None:
    """Every inbox: what each got, and nothing it should not have."""
    def subjects(address: str) -> list[str]:
        return [m.subject for m in world.sink.mails_to(address)]

    every: dict[str, list[Any]] = {a: world.sink.mails_to(a) for a in
                                   [*(game.email(n) for n in NAMES), eve, REFEREE]}
    for address, mails in every.items():
        assert mails, address
        for mail in mails:
            check_layout(mail)
        ids = [m.message_id for m in mails]
        assert len(ids) == len(set(ids)), address
    ann, ben, cat, dan = (game.email(n) for n in NAMES)
    assert any("Welcome to game" in s for s in subjects(ann))
    assert [s for s in subjects(ben) if "Done" in s][:2] == [
        f"[1830 #{game.id}] Done - Private auction: Ben to act"] * 2  # away, back
    # Cat's inbox ends with the refusal: nothing of the game after her seat went to Eve.
    cat_subjects = subjects(cat)
    assert cat_subjects[-1] == f"[1830 #{game.id}] Your mail was not accepted"
    assert not any("Deadline passed" in s or "SR 1" in s for s in cat_subjects)
    assert any("SR 1" in s for s in subjects(eve))
    assert any("Deadline passed: Dan" in s for s in subjects(dan))
    referee = subjects(REFEREE)
    for part in ("You referee game", "Ben is away", "Ben is back", "Done - ",
                 "A mail was not accepted", "Deadline passed: Dan"):
        assert any(part in s for s in referee), part
    for mail in every[REFEREE]:
        assert mail.recipient == REFEREE


def test_serve_runs_the_timers(world: MailWorld) -> None:
    """A game whose first deadline passed while the service was down: pbem serve fires it
    when it starts (the pass policy), mails the notice and the next player's turn."""
    store = world.store()
    try:
        started = (datetime.now(UTC) - timedelta(days=4)).isoformat(timespec="seconds")
        with fast_key_hashes():
            created = service.create_game(
                store, "1830", [(n, f"{n.lower()}@players.test") for n in NAMES], seed=1,
                seating="fixed", options=OPTIONS, now=started, referee=REFEREE)
    finally:
        store.close()
    proc = world.serve()
    turn = world.sink.wait_for(lambda ds: next(
        (d for d in ds if d.recipient == "ben@players.test" and "Ben to act" in d.subject),
        None), timeout=120)
    assert "Ann passes." in flat(turn) and "Your deadline: " in turn.text()
    notice = world.sink.wait_for(lambda ds: next(
        (d for d in ds if d.recipient == REFEREE and "Deadline passed: Ann" in d.subject),
        None), timeout=120)
    assert "The game's policy (on_deadline=pass): the service moves for Ann." in flat(notice)
    proc.wait_log(f"game #{created.game_id}: expiry Ann")
    assert proc.terminate() == 0
