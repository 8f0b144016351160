"""Mail benchmark against real servers on loopback (Dovecot, else pymap; aiosmtpd).

1. Throughput: 50 games, their players' mails waiting in the service mailbox;
   the service fetches, processes (one transaction each) and sends every reply
   and notification (to an SMTP sink in a process of its own): inbound messages per
   second, end to end; the CPU of pbem's process, of its sending process and, apart,
   of the sink's. The mails go out (the sending process) while the next messages are
   processed, as in ``pbem serve``; the bench prints the most all of them allow.
   Twice: the standard run, where all 50 games are at the start of the game (they all
   show the same map, so its picture is drawn once and the text map and market come
   from the caches), and a run with games that differ (each played some way into its
   operating rounds by the bots, a few moves apart, then four moves of the bots by
   mail): what a real server with many games sees. That one in two parts: the first
   mail of each game (its map never drawn in this process: a server just started, or
   one whose mails go to more games in turn than it keeps drawings of) and the other
   three (each game's map drawn by its mail before, as on a running server).
2. Latency: with ``serve`` running (IMAP IDLE), a player mails a move by SMTP;
   the time until the next player's "your turn" mail is accepted by SMTP.
   Median and 95th percentile.
3. Memory: 100 games played at once as in 1; the peak resident memory of the process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from email.policy import SMTP
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from conftest import Game, MailWorld  # noqa: E402
from mailservers import ImapServers  # noqa: E402

from pbem import service  # noqa: E402
from pbem.bots import pick  # noqa: E402
from pbem.engine.game import apply_facts, decide  # noqa: E402
from pbem.mail.clock import now  # noqa: E402
from pbem.mail.serve import poll_once, serve  # noqa: E402
from pbem.notation import format_action  # noqa: E402
from pbem.store import open_store  # noqa: E402

GAMES = 50
#: games played at once for the memory figure (issue 16: 100 active games)
MEMORY_GAMES = 100
MOVES = [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH"), ("Dan", "buy MH")]
LATENCY_MOVES = ["buy SV", "buy CS", "buy DH", "buy MH", "buy CA", "pass"]
#: the games that differ: game i played by the bots for ADVANCE + i * APART commands
#: (the first operating rounds start after about 40), then MOVES_BY_MAIL by mail
ADVANCE, APART, MOVES_BY_MAIL = 60, 3, 4


@dataclass
class Throughput:
    processed: int  # inbound messages
    elapsed: float  # wall seconds
    cpu: float  # CPU seconds of this process (pbem: the sink is not in it)
    own: float  # of them those of the thread that fetched and processed
    sender: float  # CPU seconds of pbem's sending process
    sink: float  # CPU seconds of the SMTP sink's process while pbem sent
    sent: int  # mails the sink accepted
    imap: float | None  # CPU seconds of Dovecot's processes meanwhile (None: pymap, in ours)


def throughput(world: MailWorld, count: int = GAMES, imap_pid: int | None = None,
               varied: bool = False) -> list[Throughput]:
    """``count`` games' moves waiting in the service mailbox, fetched, processed and their
    mails sent by ``poll_once`` in this process (and its sending process), to an SMTP
    sink in a process of its own (its CPU measured apart: in this process its threads
    took the GIL from pbem's), and the CPU of the IMAP server's processes under
    ``imap_pid`` (Dovecot's master). ``varied``: games that differ (``varied_moves``),
    measured in two parts: the first mail of each game (its map never drawn in this
    process) and the other three (each game's last map drawn by the mail before)."""
    games = [world.new_game(welcome=False) for _ in range(count)]
    moves = varied_moves(world, games) if varied else [MOVES] * count
    parts = [range(1), range(1, len(MOVES))] if varied else [range(len(MOVES))]
    runs = []
    for turns in parts:
        for turn in turns:  # interleaved: every game's first move, then the second...
            for game, played in zip(games, moves, strict=True):
                name, command = played[turn]
                mail = game.mail(name, command)
                world.sink.append_to_service(game.email(name), str(mail["To"]),
                                             mail.as_bytes(policy=SMTP))
        run = measured_poll(world, imap_pid)
        assert run.processed == count * len(turns), run
        if not varied:  # 4 mails a move (a move of the bots may end a turn, or a round...)
            assert run.sent == run.processed * len(MOVES), run.sent
        runs.append(run)
    _check_carried_out(world, games, moves)
    return runs


def measured_poll(world: MailWorld, imap_pid: int | None) -> Throughput:
    """What waits in the mailbox processed and sent by ``poll_once``, measured."""
    with SinkProcess() as sink:
        _point_smtp_at(world, sink.port)
        store = open_store(world.db, now=now())
        imap = None if imap_pid is None else tree_cpu(imap_pid)
        started, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
        children = _children_cpu()  # the sending process, once it has ended
        report = asyncio.run(poll_once(store, world.config))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        own, sender = time.thread_time() - own, _children_cpu() - children
        imap = None if imap is None or imap_pid is None else tree_cpu(imap_pid) - imap
        store.close()
    return Throughput(report.processed, elapsed, cpu, own, sender, sink.cpu, sink.accepted,
                      imap)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def varied_moves(world: MailWorld, games: list[Game]) -> list[list[tuple[str, str]]]:
    """Games that differ: game i played by the bots (seed i) for ADVANCE + i * APART
    commands, as ``pbem act`` would; and the next MOVES_BY_MAIL commands of the bots for
    each, to be mailed (the player, the command)."""
    store = open_store(world.db, now=now())
    mailed = []
    try:
        for i, game in enumerate(games):
            rng = random.Random(i)
            state = service.load(store, game.id)
            for _ in range(ADVANCE + i * APART):
                who, action = pick(state, rng)
                state = service.act(store, game.id, who, format_action(action), source="bench",
                                    now=now(), state=state, in_place=True).state or state
            moves = []
            for _ in range(MOVES_BY_MAIL):  # decided on the side: the store is not changed
                who, action = pick(state, rng)
                apply_facts(state, decide(state, who, action).facts)
                moves.append((who, format_action(action)))
            mailed.append(moves)
    finally:
        store.close()
    return mailed


def _check_carried_out(world: MailWorld, games: list[Game],
                       moves: list[list[tuple[str, str]]]) -> None:
    """Every mailed command was carried out (the last commands of each game's record)."""
    store = open_store(world.db, now=now())
    try:
        for game, played in zip(games, moves, strict=True):
            texts = [e["text"] for e in store.events(game.id) if e["kind"] == "command"]
            assert texts[-len(played):] == [command for _, command in played], \
                (game.id, texts[-len(played):], played)
    finally:
        store.close()


def tree_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and its descendants, the live ones and those it
    has reaped (its children's times): Dovecot's master, its login and imap processes."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            stats[int(entry.name)] = text.rsplit(")", 1)[1].split()
    children: dict[int, list[int]] = {}
    for child, fields in stats.items():
        children.setdefault(int(fields[1]), []).append(child)  # fields[1]: the parent
    total, todo = 0, [pid]
    while todo:
        here = todo.pop()
        fields = stats.get(here)
        if fields is not None:  # utime, stime, and for the master its reaped children's
            total += int(fields[11]) + int(fields[12])
            if here == pid:
                total += int(fields[13]) + int(fields[14])
        todo.extend(children.get(here, []))
    return total / tick


def _point_smtp_at(world: MailWorld, port: int) -> None:
    """The service's configuration with its SMTP server on ``port``."""
    text = world.config_path.read_text()
    head, smtp = text.split("[smtp]\n", 1)
    smtp = re.sub(r"(?m)^port = \d+$", f"port = {port}", smtp, count=1)
    world.config_path.write_text(f"{head}[smtp]\n{smtp}")


#: an SMTP sink (MailSink without an IMAP server: every mail kept in memory) in a process
#: of its own: prints its port and its CPU seconds so far, then, when its standard input
#: closes, its CPU seconds and how many mails it accepted.
SINK = """
import resource, sys
from pbem.mail.embedded import MailSink

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

sink = MailSink(None).start()
print(sink.port, cpu(), flush=True)
sys.stdin.read()
print(cpu(), len(sink.delivered), flush=True)
sink.stop()
"""


class SinkProcess:
    def __init__(self) -> None:
        self.child = subprocess.Popen([sys.executable, "-c", SINK], cwd=ROOT, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.child.stdout is not None
        port, cpu = self.child.stdout.readline().split()
        self.port, self._started = int(port), float(cpu)
        self.cpu, self.accepted = 0.0, 0

    def __enter__(self) -> SinkProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        out, _ = self.child.communicate("", timeout=60)
        cpu, accepted = out.split()
        self.cpu, self.accepted = float(cpu) - self._started, int(accepted)


def memory(world: MailWorld) -> tuple[int, float]:
    """MEMORY_GAMES games, each player's move waiting as in ``throughput``, processed and
    sent by a ``pbem poll --once`` of its own: (messages processed, its peak RSS in MB)."""
    games = [world.new_game(welcome=False) for _ in range(MEMORY_GAMES)]
    for name, command in MOVES:
        for game in games:
            mail = game.mail(name, command)
            world.sink.append_to_service(game.email(name), str(mail["To"]),
                                         mail.as_bytes(policy=SMTP))
    child = subprocess.run([sys.executable, "-c", PEAK_OF_POLL, str(world.config_path)],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, check=True)
    peak_kb = int(child.stderr.rsplit("VmHWM:", 1)[1].split()[0])
    store = open_store(world.db, now=now())
    processed = store.conn.execute(
        "SELECT COUNT(*) FROM inbox WHERE status = 'processed'").fetchone()[0]
    store.close()
    return processed, peak_kb / 1024


#: ``pbem poll --once --config FILE`` that writes its own peak resident memory (VmHWM) to
#: stderr as it exits.  Not the child's ``ru_maxrss``: Linux keeps there the high-water
#: mark of the process before its exec too, that is of this bench's own process at the
#: fork, which has grown by then (a full run printed 143 MB for a poll of 60 MB).
PEAK_OF_POLL = """
import atexit, runpy, sys

def peak():
    with open("/proc/self/status") as status:
        sys.stderr.write("".join(l for l in status if l.startswith("VmHWM:")))

atexit.register(peak)
sys.argv = ["pbem", "poll", "--once", "--config", sys.argv[1]]
runpy.run_module("pbem", run_name="__main__", alter_sys=True)
"""


class Service:
    def __init__(self, world: MailWorld) -> None:
        self.world = world
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stop_event: asyncio.Event | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        self.loop, self.stop_event = asyncio.get_running_loop(), asyncio.Event()
        store = open_store(self.world.db, now=now())
        await serve(store, self.world.config, stop=self.stop_event)
        store.close()

    def __enter__(self) -> Service:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.loop is not None and self.stop_event is not None
        self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(30)


def latency(world: MailWorld, games: int = 8) -> list[float]:
    samples: list[float] = []
    played = [world.new_game(welcome=False) for _ in range(games)]
    with Service(world):
        for game in played:
            for i, command in enumerate(LATENCY_MOVES):
                player = ["Ann", "Ben", "Cat", "Dan"][i % 4]
                nxt = ["Ann", "Ben", "Cat", "Dan"][(i + 1) % 4]
                samples.append(one_move(world, game, player, nxt, command))
    return samples


def one_move(world: MailWorld, game: Game, player: str, nxt: str, command: str) -> float:
    address = game.email(nxt)
    before = len(world.sink.delivered)
    world.send(game.mail(player, command))
    sent = time.monotonic()  # the sink has accepted the player's mail
    turn = world.sink.wait_for(
        lambda ds: [d for d in ds[before:] if d.recipient == address
                    and f"#{game.id}]" in d.subject and "What you can do now:" in d.text()],
        timeout=60)[0]
    return turn.when - sent


def report_latency(label: str, samples: list[float]) -> None:
    q = statistics.quantiles(samples, n=20)
    print(f"mail in -> next player's 'your turn' accepted by SMTP ({label}), {len(samples)} "
          f"moves: median {statistics.median(samples):.3f} s, 95th percentile {q[18]:.3f} s")


def report_throughput(kind: str, runs: list[Throughput], varied: bool = False) -> None:
    games = (f"{GAMES} games that differ (played {ADVANCE} to "
             f"{ADVANCE + (GAMES - 1) * APART} commands by the bots, then theirs by mail)"
             if varied else f"{GAMES} games, all at the start")
    print(f"IMAP server: {kind}; {games}")
    if varied:
        print("  (in two parts: the first mail of each game, whose map this process never "
              "drew,\n  then the other three, each game's last map drawn by the mail before)")
    for run in runs:
        _report_run(run)


def _report_run(run: Throughput) -> None:
    count = run.processed
    print(f"inbound: {count} messages processed end to end in {run.elapsed:.2f} s = "
          f"{count / run.elapsed:.1f} messages/s (each: fetch, one transaction, flag; "
          f"replies and notifications sent: {run.sent} mails)")
    print(f"  CPU time of pbem's process: {run.cpu:.2f} s = {run.cpu / count * 1000:.1f} ms a "
          f"message, {count / run.cpu:.1f} messages per CPU second (wall time suffers when "
          "other jobs share the cores)")
    print(f"  of which the thread that fetches and processes: "
          f"{run.own:.2f} s = {run.own / count * 1000:.1f} ms a message; besides, "
          f"pbem's sending process {run.sender:.2f} s = {run.sender / count * 1000:.1f} ms")
    imap = ("the IMAP server's CPU is not measured (pymap: in pbem's process)"
            if run.imap is None else
            f"Dovecot's processes {run.imap:.2f} s = {run.imap / count * 1000:.1f} ms a message")
    print(f"  besides: the SMTP sink's process (aiosmtpd, receiving {run.sent} mails) "
          f"{run.sink:.2f} s = {run.sink / count * 1000:.1f} ms a message; {imap}")
    total = run.cpu + run.sender + run.sink + (run.imap or 0.0)
    print(f"  all of them: {total / count * 1000:.1f} ms of CPU a message: at most "
          f"{count / total * (os.cpu_count() or 1):.0f} messages/s on {os.cpu_count()} cores "
          "with nothing else running")


def run_in_world(servers: ImapServers, job: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        world = MailWorld(Path(tmp), servers.account())
        try:
            if job in ("throughput", "varied"):
                master = servers.dovecot.proc if servers.dovecot is not None else None
                varied = job == "varied"
                report_throughput(servers.kind, throughput(
                    world, imap_pid=master.pid if master is not None else None,
                    varied=varied), varied)
            elif job == "memory":
                count, peak = memory(world)
                print(f"{MEMORY_GAMES} active games, {count} inbound messages processed and "
                      f"their mails sent by `pbem poll --once`: peak resident memory of that "
                      f"process {peak:.0f} MB")
            else:
                report_latency(servers.kind, latency(world))
        finally:
            world.close()


def main() -> None:
    logging.getLogger("pbem.mail").setLevel(logging.ERROR)
    servers = ImapServers()
    try:
        run_in_world(servers, "throughput")
        run_in_world(servers, "varied")
        run_in_world(servers, "latency")
        run_in_world(servers, "memory")
    finally:
        servers.stop()
    if servers.kind == "dovecot":
        print("(Dovecot tells an IDLE client of new mail about 0.5 s after it arrives; "
              "the same with pymap, which tells at once:)")
        fast = ImapServers("pymap")
        try:
            run_in_world(fast, "latency")
        finally:
            fast.stop()


if __name__ == "__main__":
    main()
