"""Soak: many games played by email against the real servers for a long time, the
service killed with SIGKILL at random moments and restarted.

    python -m bench.soak --minutes 60 --games 100 [--seed 1] [--json FILE]

Dovecot (else pymap) holds the service mailbox, aiosmtpd is the mail system, and the
real ``pbem serve`` runs as a child process. Bots play every game by mail: when the
game says a player must act, his bot picks one of the legal moves (``pbem.bots``, the
weighted random player), writes it as a player types it, and mails it to the reply
address of the last mail the player got. To see games end within the run, most games
start from a position reached by self-play (their earlier moves recorded through the
CLI path), the others from the start.

While they play, a killer thread sends SIGKILL to ``pbem serve`` after a random
time (exponential, mean ``--kill-mean`` seconds, at least 10) and starts it again.
At the end the bots stop, the service drains what is left and stops (SIGTERM), and
the run checks:

- every game's record audits (keyed chain, sealed head, every event decided again);
- the service drained: every mail in its mailbox read, every outgoing mail sent;
- every mail the bots sent is stored exactly once, processed (none new, none dead),
  and carried out at most once (no event of two mails, no mail's command twice); a
  mail not stored is counted "unread" if it is still in the mailbox (the draining ran
  out of time), "lost" if it is not;
- every outgoing mail was sent and reached the mail system;
- the service's memory did not grow (RSS of each incarnation, sampled).

The figures are printed (and written as JSON with ``--json``); docs/security.md
keeps those of a one-hour run. Exit 1 when a check fails. Not part of ``make
bench`` (it runs for a long time): run it alone, ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import smtplib
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid, parseaddr
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from conftest import SERVICE, MailWorld, ServiceProcess  # noqa: E402
from mailservers import ImapServers  # noqa: E402

from pbem import service  # noqa: E402
from pbem.bots import pick  # noqa: E402
from pbem.engine.game import apply_facts, decide, to_act  # noqa: E402
from pbem.engine.state import GameState  # noqa: E402
from pbem.mail.clock import now  # noqa: E402
from pbem.mail.embedded import MailSink  # noqa: E402
from pbem.mail.outbound.welcome import queue_welcome  # noqa: E402
from pbem.notation import format_action  # noqa: E402
from pbem.store import Store  # noqa: E402

NAMES = ("Ann", "Ben", "Cat", "Dan")


# -- the mail system, keeping only what the bots and the checks need ----------------------


@dataclass(frozen=True)
class Seen:
    recipient: str
    message_id: str
    reply_to: str
    subject: str


class SoakSink(MailSink):
    """The tests' sink, but it keeps a few headers of each mail, not the mail: a
    long run delivers tens of thousands of mails with pictures."""

    def __init__(self, imap: Any) -> None:
        super().__init__(imap, "pbem")
        self.seen: list[Seen] = []
        self.last_reply_to: dict[str, str] = {}
        self.lock = threading.Lock()

    def deliver(self, sender: str, recipients: list[str], raw: bytes) -> str:
        head = message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n")
        reply_to = parseaddr(str(head.get("Reply-To", "")))[1]
        for recipient in recipients:
            if self.is_service(recipient):
                self.append_to_service(sender, recipient, raw)
                continue
            with self.lock:
                self.seen.append(Seen(recipient.lower(), str(head.get("Message-ID", "")),
                                      reply_to, str(head.get("Subject", ""))))
                if reply_to:
                    self.last_reply_to[recipient.lower()] = reply_to
        return "250 OK delivered"


# -- the games ------------------------------------------------------------------------------


@dataclass
class Table:
    game_id: int
    players: dict[str, str]  # name -> address
    keys: dict[str, str]
    state: GameState
    seq: int
    rng: random.Random
    pending: dict[str, tuple[int, str, float]] = field(default_factory=dict)
    # name -> (seq the move was chosen at, its Message-ID, when)


def make_games(world: MailWorld, count: int, rng: random.Random) -> list[Table]:
    """``count`` games of 2 to 4 players; three in four start from a self-played
    position (200 to 450 moves in), recorded through the CLI path."""
    tables = []
    store = world.store()
    try:
        for index in range(count):
            names = NAMES[:2 + index % 3]
            players = {n: f"{n.lower()}{index}@players.test" for n in names}
            created = service.create_game(store, "1830", list(players.items()),
                                          seed=rng.randrange(2**31), seating="fixed",
                                          options={}, now=now())
            game_id = created.game_id
            state = service.load(store, game_id)
            moves = 0 if index % 4 == 0 else rng.randint(200, 450)
            bot = random.Random(rng.randrange(2**31))
            for _ in range(moves):
                if state.finished:
                    break
                name, action = pick(state, bot)
                result = service.act(store, game_id, name, format_action(action),
                                     source="soak-setup", now=now(), state=state)
                assert result.state is not None
                state = result.state
            queue_welcome(store, world.config, game_id, created.keys, now())
            tables.append(Table(game_id, players, created.keys, state,
                                store.last_seq(game_id), bot))
    finally:
        store.close()
    return tables


def refresh(store: Store, table: Table) -> None:
    """Bring the bot's view of the game up to date (events since the last look)."""
    rows = store.conn.execute("SELECT seq, kind, facts FROM events WHERE game_id = ? AND "
                              "seq > ? ORDER BY seq", [table.game_id, table.seq]).fetchall()
    if not rows:
        return
    if any(kind == "revert" for _, kind, _ in rows):
        table.state = service.load(store, table.game_id)
    else:
        for _, _, facts in rows:
            apply_facts(table.state, json.loads(facts))
    table.seq = rows[-1][0]


# -- the bots ---------------------------------------------------------------------------------


class Bots:
    def __init__(self, world: MailWorld, sink: SoakSink, tables: list[Table]) -> None:
        self.world = world
        self.sink = sink
        self.tables = tables
        self.sent: dict[str, tuple[int, str, str]] = {}  # Message-ID -> (game, player, move)
        self.refused = 0

    def step(self, store: Store) -> int:
        """One look at every game; the number of mails sent."""
        sent = 0
        processed = {mid for (mid,) in store.conn.execute(
            "SELECT message_id FROM inbox WHERE status != 'new'").fetchall()}
        for table in self.tables:
            refresh(store, table)
            if table.state.finished:
                continue
            for name in to_act(table.state):
                if name not in table.players:
                    continue
                chosen = table.pending.get(name)
                if chosen is not None:
                    at_seq, mid, _ = chosen
                    if at_seq == table.seq and mid not in processed:
                        continue  # not read yet
                    if at_seq == table.seq:
                        self.refused += 1  # read, and nothing changed: it was refused
                self.play(table, name)
                sent += 1
        return sent

    def play(self, table: Table, name: str) -> None:
        for _ in range(5):  # a move the engine takes, as a player would check his
            _, action = pick(table.state, table.rng, only=name)
            try:
                decide(table.state, name, action)
                break
            except Exception:  # noqa: BLE001 - refused: pick again (the last one is sent)
                continue
        move = format_action(action)
        address = table.players[name]
        msg = EmailMessage()
        msg["From"] = f"{name} <{address}>"
        reply_to = self.sink.last_reply_to.get(address)
        msg["To"] = reply_to or SERVICE
        msg["Subject"] = f"Re: [1830 #{table.game_id}] my move"
        mid = make_msgid(domain="players.test")
        msg["Message-ID"] = mid
        body = move if reply_to else f"key {table.keys[name]}\n{move}"
        msg.set_content(f"{body}\n\n-- \n{name}\n")
        with smtplib.SMTP(self.sink.host, self.sink.port, timeout=60) as smtp:
            smtp.sendmail(address, [str(msg["To"])], msg.as_bytes(policy=SMTP))
        table.pending[name] = (table.seq, mid, time.monotonic())
        self.sent[mid] = (table.game_id, name, move)


# -- the service, its killer and its memory -----------------------------------------------------


class Service:
    def __init__(self, world: MailWorld, rng: random.Random, kill_mean: float) -> None:
        self.world = world
        self.rng = rng
        self.kill_mean = kill_mean
        self.proc: ServiceProcess | None = None
        self.kills = 0
        self.lives: list[dict[str, Any]] = []  # per incarnation: pid, start, rss samples
        self.stop_killing = threading.Event()
        self.stop_sampling = threading.Event()
        self.lock = threading.Lock()

    def start(self) -> None:
        with self.lock:
            self.proc = self.world.serve()
            self.proc.wait_log("serving", timeout=300)
            self.lives.append({"pid": self.proc.proc.pid, "started": time.monotonic(),
                               "rss_kb": []})

    def killer(self) -> None:
        while not self.stop_killing.wait(max(10.0, self.rng.expovariate(1 / self.kill_mean))):
            with self.lock:
                assert self.proc is not None
                self.proc.proc.send_signal(signal.SIGKILL)
                self.proc.proc.wait()
                self.kills += 1
                self.lives[-1]["killed"] = time.monotonic()
            self.start()

    def sampler(self) -> None:
        while not self.stop_sampling.wait(5.0):
            with self.lock:
                life = self.lives[-1] if self.lives else None
                pid = life["pid"] if life else None
            rss = _rss_kb(pid) if pid else None
            if life is not None and rss is not None:
                life["rss_kb"].append((round(time.monotonic() - life["started"], 1), rss))

    def stop(self) -> int:
        with self.lock:
            assert self.proc is not None
            return self.proc.terminate(timeout=300)


def _rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


# -- the checks ----------------------------------------------------------------------------------


@dataclass
class Figures:
    minutes: float = 0.0
    games: int = 0
    games_finished: int = 0
    games_finished_in_run: int = 0
    bot_mails: int = 0
    bot_mails_refused: int = 0
    inbox_rows: int = 0
    events_by_mail: int = 0
    outbox_rows: int = 0
    delivered: int = 0
    delivered_again: int = 0  # at least once: a mail sent again after a kill mid-send
    restarts: int = 0
    lost_inbound: int = 0  # sent by a bot, neither stored nor in the mailbox
    unread_inbound: int = 0  # in the mailbox, not yet read when the run ended
    drained: bool = False
    not_processed: int = 0
    applied_twice: int = 0
    outbox_not_sent: int = 0
    outbox_not_delivered: int = 0
    audit_problems: list[str] = field(default_factory=list)
    rss_first_kb: int = 0
    rss_last_kb: int = 0
    rss_max_kb: int = 0
    longest_life_s: float = 0.0
    longest_life_rss_kb: tuple[int, int] = (0, 0)
    memory_grew: bool = False

    @property
    def ok(self) -> bool:
        return not (self.lost_inbound or self.unread_inbound or not self.drained
                    or self.not_processed or self.applied_twice
                    or self.outbox_not_sent or self.outbox_not_delivered
                    or self.audit_problems or self.memory_grew)


def check(world: MailWorld, sink: SoakSink, bots: Bots, tables: list[Table], svc: Service,
          finished_before: int, figures: Figures) -> None:
    store = world.store()
    try:
        inbox = store.conn.execute("SELECT message_id, status FROM inbox").fetchall()
        rows_by_id = Counter(mid for mid, _ in inbox)
        figures.inbox_rows = len(inbox)
        figures.bot_mails = len(bots.sent)
        in_mailbox = _mailbox_message_ids(world)
        not_stored = [mid for mid in bots.sent if rows_by_id[mid] == 0]
        figures.unread_inbound = sum(1 for mid in not_stored if mid in in_mailbox)
        figures.lost_inbound = len(not_stored) - figures.unread_inbound
        figures.applied_twice = sum(1 for mid in bots.sent if rows_by_id[mid] > 1)
        figures.not_processed = sum(1 for _, status in inbox if status != "processed")
        sources = Counter(src for (src,) in store.conn.execute(
            "SELECT source FROM events WHERE source LIKE '<%'").fetchall())
        figures.events_by_mail = sum(sources.values())
        figures.applied_twice += sum(1 for count in sources.values() if count > 1)
        figures.applied_twice += sum(1 for src in sources if src not in bots.sent)
        outbox = store.conn.execute("SELECT message_id, status FROM outbox").fetchall()
        figures.outbox_rows = len(outbox)
        figures.outbox_not_sent = sum(1 for _, status in outbox if status != "sent")
        delivered = {s.message_id for s in sink.seen}
        figures.delivered = len(sink.seen)
        figures.delivered_again = len(sink.seen) - len(delivered)
        figures.outbox_not_delivered = sum(1 for mid, _ in outbox if mid not in delivered)
        for table in tables:
            result = service.audit(store, table.game_id)
            figures.audit_problems += [str(p) for p in result.problems]
            refresh(store, table)
        figures.games_finished = sum(1 for t in tables if t.state.finished)
        figures.games_finished_in_run = figures.games_finished - finished_before
    finally:
        store.close()
    figures.bot_mails_refused = bots.refused
    figures.restarts = svc.kills
    samples = [rss for life in svc.lives for _, rss in life["rss_kb"]]
    if samples:
        figures.rss_first_kb, figures.rss_last_kb = samples[0], samples[-1]
        figures.rss_max_kb = max(samples)
    longest = max(svc.lives, key=lambda life: len(life["rss_kb"]), default=None)
    if longest and longest["rss_kb"]:
        warm = [rss for at, rss in longest["rss_kb"] if at >= 60] or [longest["rss_kb"][-1][1]]
        figures.longest_life_s = longest["rss_kb"][-1][0]
        figures.longest_life_rss_kb = (warm[0], warm[-1])
        # grown: the longest life ends more than 25% and 30 MB above where it stood
        # after its first minute (the caches of the maps and renderings fill first)
        figures.memory_grew = warm[-1] > warm[0] * 1.25 and warm[-1] - warm[0] > 30_000


# -- the run ---------------------------------------------------------------------------------


def quiet(world: MailWorld, timeout: float) -> bool:
    """Wait until every stored mail is processed and every outgoing one sent."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        store = world.store()
        try:
            waiting = store.conn.execute(
                "SELECT (SELECT COUNT(*) FROM inbox WHERE status = 'new') + "
                "(SELECT COUNT(*) FROM outbox WHERE status = 'pending')").fetchone()[0]
        finally:
            store.close()
        if not waiting and _mailbox_empty(world):
            return True
        time.sleep(2)
    return False


def _mailbox_empty(world: MailWorld) -> bool:
    import imaplib

    conn = imaplib.IMAP4(world.imap.host, world.imap.port)
    try:
        conn.login(world.imap.user, world.imap.password)
        conn.select("INBOX")
        status, data = conn.uid("search", "UNKEYWORD", "$PbemProcessed")
        return status == "OK" and not data[0].split()
    finally:
        conn.logout()


def _mailbox_message_ids(world: MailWorld) -> set[str]:
    """The Message-IDs of the mails in the service's mailbox, read or not."""
    import imaplib

    conn = imaplib.IMAP4(world.imap.host, world.imap.port)
    try:
        conn.login(world.imap.user, world.imap.password)
        conn.select("INBOX", readonly=True)
        status, data = conn.uid("fetch", "1:*", "(BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
        if status != "OK":
            return set()
        ids = set()
        for item in data:
            if isinstance(item, tuple):
                head = message_from_bytes(item[1])
                ids.add(str(head.get("Message-ID", "")).strip())
        return ids
    finally:
        conn.logout()


def run(minutes: float, games: int, seed: int, kill_mean: float) -> Figures:
    # the mail system (aiosmtpd) runs in a thread of this process beside the bots, whose
    # moves can take a route search: let it have the interpreter often
    sys.setswitchinterval(0.001)
    rng = random.Random(seed)
    figures = Figures(minutes=minutes, games=games)
    servers = ImapServers(os.environ.get("PBEM_TEST_IMAP", ""))
    tmp = Path(tempfile.mkdtemp(prefix="pbem-soak-"))
    account = servers.account()
    world = MailWorld(tmp, account)
    world.sink.stop()
    sink = SoakSink(account)
    sink.start()
    world.sink = sink
    world.write_config()
    try:
        print(f"soak: {games} games in {tmp}; setting up", flush=True)
        tables = make_games(world, games, rng)
        finished_before = sum(1 for t in tables if t.state.finished)
        bots = Bots(world, sink, tables)
        svc = Service(world, rng, kill_mean)
        svc.start()
        threads = [threading.Thread(target=svc.killer, daemon=True),
                   threading.Thread(target=svc.sampler, daemon=True)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        end = started + minutes * 60
        next_report = started + 60
        store = world.store()
        try:
            while time.monotonic() < end:
                if not bots.step(store):
                    time.sleep(0.5)
                if time.monotonic() >= next_report:
                    next_report += 60
                    done = sum(1 for t in tables if t.state.finished)
                    print(f"soak: {(time.monotonic() - started) / 60:.0f} min, "
                          f"{len(bots.sent)} mails sent by bots, {len(sink.seen)} delivered, "
                          f"{svc.kills} kills, {done} games over", flush=True)
        finally:
            store.close()
        svc.stop_killing.set()
        print("soak: bots stopped; draining", flush=True)
        drained = quiet(world, 1800)
        figures.drained = drained
        code = svc.stop()
        svc.stop_sampling.set()
        print(f"soak: drained {drained}, serve exited {code}", flush=True)
        check(world, sink, bots, tables, svc, finished_before, figures)
        figures.minutes = round((time.monotonic() - started) / 60, 1)
    finally:
        world.close()
        account.stop()
        servers.stop()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kill-mean", type=float, default=180.0,
                        help="mean seconds between two kills of the service")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    figures = run(args.minutes, args.games, args.seed, args.kill_mean)
    report = asdict(figures) | {"ok": figures.ok}
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0 if figures.ok else 1


if __name__ == "__main__":
    sys.exit(main())
