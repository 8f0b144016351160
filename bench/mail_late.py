"""CPU time of one inbound mail in a late game, every recipient's mail included: the
mail processed as the service does (``process_inbox``: authentication, the commands
decided and recorded, the reply and every other player's mail rendered, the whole
RFC 5322 messages with their text, HTML and map picture, queued in the outbox), without
the servers (bench_mail.py measures those).

Positions, from the 18xx.games logs of ../shared/fixtures imported by pbem's importer:

* late 1870: 1870_game_end_bank from action 1289 (TP lays a tile, runs its 8-train,
  pays out and ends its turn; the board nearly full);
* late 1830: 1830_game_end_bank from action 484 (B&O lays a tile, runs, pays out; ERIE
  runs and pays out).

Each action of the log is one mail from the player who made it, with the commands pbem
recorded for it when the whole log was imported (a tile lay with its exits, a run with
its routes written out). Every player gets mail: notify every move (the default), all
full mails with the picture. Per mail: CPU ms (best of ``--repeat``, each on a fresh
copy of the position), the mails queued and their bytes. Before each run the process
forgets what it drew and loads and draws the position once, as a running ``pbem serve``
did for the mail before (which left a snapshot of the game in the store).
``python -m bench mail-late`` (or ``python bench/mail_late.py [--repeat N]``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem.importer import import_log  # noqa: E402
from pbem.mail.config import MailConfig  # noqa: E402
from pbem.mail.outbound.compose import build, message_id  # noqa: E402
from pbem.mail.outbound.notify import your_turn_mail  # noqa: E402
from pbem.mail.outbound.views import StateViews, forget  # noqa: E402
from pbem.mail.processing.process import process_inbox, store_message  # noqa: E402
from pbem.service import load  # noqa: E402
from pbem.store import Store, open_store  # noqa: E402
from pbem.store.secret import ServerSecret, create_secret, read_secret  # noqa: E402

SHARED = Path(os.environ.get("PBEM_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "18xx.games"
CACHE = ROOT / "bench" / ".cache" / "late"
NOW = "2024-05-01T10:00:00+00:00"
CONFIG = MailConfig(address="pbem@games.test", domain="games.test")
#: (label, log, the first action mailed, the action before which the mails stop)
POSITIONS = [
    ("late 1870", "1870/1870_game_end_bank.json", 1289, 1296),
    ("late 1830", "1830/1830_game_end_bank.json", 484, 490),
]


@cache
def bench_secret() -> ServerSecret:
    """The server secret of the bench's databases (bench/.cache/late/bench.secret)."""
    path = CACHE / "bench.secret"
    CACHE.mkdir(parents=True, exist_ok=True)
    return read_secret(path) if path.exists() else create_secret(path)


def imported(log: str, to: int) -> Path:
    """A database holding the log's game just before action ``to`` (made once, cached in
    bench/.cache/late/; delete it after a rules change)."""
    path = CACHE / f"{Path(log).stem}-{to}.db"
    source = FIXTURES / log
    if path.exists() and path.stat().st_mtime >= source.stat().st_mtime:
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.unlink(missing_ok=True)
    store = open_store(partial, now=NOW, secret=bench_secret())
    try:
        _, done = import_log(store, source, to=to, now=NOW)
        assert done.refusal is None, done.refusal.reason
        for player in store.players(done.game_id):
            store.set_player_email(done.game_id, player["seat"],
                                   f"{player['name'].lower()}@players.test")
    finally:
        store.close()
    partial.replace(path)
    return path


def mails(log: str, first: int, last: int) -> list[tuple[str, str]]:
    """(player, the mail's text) for each action of the log from ``first`` to before
    ``last``: the commands pbem recorded for it."""
    store = open_store(imported(log, last), now=NOW, secret=bench_secret())
    try:
        game_id = store.db.execute("SELECT MAX(id) FROM games").fetchone()[0]
        found: dict[tuple[int, str], list[str]] = {}
        for event in store.events(game_id):
            source = event["source"] or ""
            action = source.removeprefix("18xx.games action ")
            if event["kind"] == "command" and action.isdigit() and first <= int(action) < last:
                found.setdefault((int(action), event["actor"]), []).append(event["text"])
    finally:
        store.close()
    return [(actor, "\n".join(texts)) for (_, actor), texts in found.items()]


def inbound(store: Store, game_id: int, name: str, body: str) -> int:
    """The mail of player ``name`` with ``body``, stored in the inbox; its id."""
    player = next(p for p in store.players(game_id) if p["name"] == name)
    msg = EmailMessage()
    msg["From"] = f"{name} <{player['email']}>"
    msg["To"] = CONFIG.plus_address(game_id, store.reply_code(player))
    msg["Subject"] = f"Re: [game #{game_id}] your turn"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    inbox_id, _ = store_message(store, None, None, None, msg.as_bytes(policy=SMTP), NOW)
    return inbox_id


def one_mail(store: Store, game_id: int, name: str, body: str) -> dict[str, Any]:
    """Process one mail; its CPU seconds and what it queued."""
    inbox_id = inbound(store, game_id, name, body)
    before = {row["id"] for row in store.outbox_list(limit=10_000)}
    started = time.process_time()
    outcome = process_inbox(store, CONFIG, inbox_id, NOW)
    seconds = time.process_time() - started
    queued = [row for row in store.outbox_list(limit=10_000) if row["id"] not in before]
    sizes = [len(store.outbox_get(row["id"])["raw"]) for row in queued]
    return {"cpu": seconds, "status": outcome.status, "note": outcome.note, "who": name,
            "body": body, "mails": len(queued), "bytes": sizes}


def prime(store: Store, game_id: int) -> None:
    """Forget what this process drew, then load the game in a transaction (which keeps
    a snapshot of it) and draw it, with its picture: what the mail before left in the
    store and in a running service."""
    forget()
    with store.transaction():
        state = load(store, game_id)
    views = StateViews(state)
    name = views.waiting[0]
    player = next(p for p in store.players(game_id) if p["name"] == name)
    game = store.game(game_id)
    out = your_turn_mail(CONFIG, game, player, views, [])
    build(CONFIG, out, message_id(CONFIG, game_id, "turn"), NOW)


def run_position(database: Path, sent: list[tuple[str, str]], repeat: int, folder: Path
                 ) -> list[dict[str, Any]]:
    """The mails in turn, on ``repeat`` fresh copies of the position; the best per mail."""
    best: list[dict[str, Any]] = []
    for attempt in range(repeat):
        copy = folder / f"{database.stem}-{attempt}.db"
        shutil.copyfile(database, copy)
        store = open_store(copy, now=NOW, secret=bench_secret())
        game_id = store.db.execute("SELECT MAX(id) FROM games").fetchone()[0]
        prime(store, game_id)
        for index, (name, body) in enumerate(sent):
            found = one_mail(store, game_id, name, body)
            assert found["status"] == "processed" and found["mails"], found
            if len(best) <= index or found["cpu"] < best[index]["cpu"]:
                best[index:index + 1] = [found]
        store.close()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/mail_late.py")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv or [])
    if not FIXTURES.is_dir():
        print(f"no late positions: {FIXTURES} is absent (set PBEM_SHARED)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        plans = [(label, imported(log, first), mails(log, first, last),
                  f"{Path(log).stem} from action {first}")
                 for label, log, first, last in POSITIONS]
        warm = folder / "warm"
        warm.mkdir()
        run_position(plans[0][1], plans[0][2][:1], 1, warm)  # the process's first mail
        print(f"CPU ms per inbound mail (process_inbox: decided, recorded, every "
              f"recipient's mail rendered and queued), best of {args.repeat}")
        for label, database, sent, where in plans:
            results = run_position(database, sent, args.repeat, folder)
            for found in results:
                sizes = found["bytes"]
                command = found["body"].replace("\n", "; ")
                print(f"{label} ({where}): {found['who']}: {command[:40]!r}: "
                      f"{found['cpu'] * 1000:.0f} ms; {found['mails']} mails, "
                      f"{sum(sizes) // 1024} KB", flush=True)
            mean = sum(r["cpu"] for r in results) / len(results)
            print(f"{label}: {len(results)} mails, mean {mean * 1000:.0f} ms, max "
                  f"{max(r['cpu'] for r in results) * 1000:.0f} ms CPU per inbound mail")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
