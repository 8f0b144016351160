"""What running games to their end costs (issue 12), in process, without servers:

1. A mail's processing (one transaction: the commands, the game's clock, the reply and
   the notifications) in a game without deadlines and in one with ``deadline=72h``:
   milliseconds per mail over the private auction and the first stock round.
2. The timers' round over 50 active games with deadlines when nothing is due (what
   ``pbem serve`` does after each mail and at least once a minute), and ``next_due``.
3. The round report of an 18xx.games log imported into pbem (../shared; skipped with a
   message when it is absent).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from moderation_table import TO_FIRST_OR, ModTable  # noqa: E402

from pbem import service  # noqa: E402
from pbem.mail.timers import fire_due, next_due  # noqa: E402
from pbem.render.report import build_report  # noqa: E402

SHARED = ROOT.parent / "shared" / "fixtures" / "18xx.games" / "1830" / "1830_202816.json"
GAMES = 50


def per_mail(options: dict[str, str]) -> list[float]:
    """Milliseconds of each mail's processing, the first stock round's start included."""
    with tempfile.TemporaryDirectory() as tmp:
        table = ModTable(Path(tmp), options)
        times = []
        for who, text in TO_FIRST_OR[:24]:
            table.clock.advance(minutes=30)
            started = time.perf_counter()
            table.deliver(_mail(table, who, text))
            times.append((time.perf_counter() - started) * 1000)
        table.store.close()
    return times


def _mail(table: ModTable, who: str, text: str) -> bytes:
    from email.message import EmailMessage
    from email.policy import SMTP
    from email.utils import make_msgid

    msg = EmailMessage()
    msg["From"], msg["To"] = table.email(who), table.address(who)
    msg["Subject"], msg["Message-ID"] = "Re: your turn", make_msgid(domain="players.test")
    msg.set_content(text)
    return msg.as_bytes(policy=SMTP)


def timers_round() -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        tables = [ModTable(Path(tmp), {"deadline": "72h"})]
        store = tables[0].store
        for _ in range(GAMES - 1):
            service.create_game(store, "1830", [(n, f"{n.lower()}@players.test")
                                                for n in ("Ann", "Ben", "Cat")], seed=1,
                                seating="fixed", options={"deadline": "72h"},
                                now=tables[0].clock.now)
        started = time.perf_counter()
        fired = fire_due(store, tables[0].config, tables[0].clock.now)
        fire_ms = (time.perf_counter() - started) * 1000
        assert fired == []
        started = time.perf_counter()
        assert next_due(store) is not None
        next_ms = (time.perf_counter() - started) * 1000
        store.close()
    return fire_ms, next_ms


def report_time() -> str:
    if not SHARED.exists():
        return f"round report: {SHARED} is absent (../shared); not measured"
    from pbem.importer import import_log
    from pbem.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "pbem.db")
        _, imported = import_log(store, str(SHARED), emails={}, to=None,
                                 now="2026-01-01T00:00:00+00:00")
        events = store.events(imported.game_id)
        start = service.initial(store, imported.game_id)
        started = time.perf_counter()
        report = build_report(start, events)
        elapsed = (time.perf_counter() - started) * 1000
        store.close()
    return (f"round report of {SHARED.name} ({len(events)} events, {len(report.rounds)} "
            f"rounds): {elapsed:.0f} ms")


def main() -> None:
    per_mail({})  # warm up: titles, tiles and maps loaded once per process
    for label, options in (("no deadlines", {}), ("deadline=72h", {"deadline": "72h"})):
        times = per_mail(options)
        print(f"a mail's processing, {label}: median {statistics.median(times):.0f} ms, "
              f"max {max(times):.0f} ms ({len(times)} mails)")
    fire_ms, next_ms = timers_round()
    print(f"timers' round over {GAMES} games with deadlines, nothing due: {fire_ms:.0f} ms; "
          f"next_due: {next_ms:.0f} ms")
    print(report_time())


if __name__ == "__main__":
    main()
