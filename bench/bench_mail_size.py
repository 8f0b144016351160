"""Bytes of a "your turn" mail, full and compact (issue 13: a full one at most 80 KB,
the map picture at most 60 KB, a compact one at most 8 KB), for an early 1830 and a
late 1870 position, as the service writes them (``notify.your_turn_mail`` and
``compose.build``: the whole RFC 5322 message with its text, HTML and picture).

- early 1830: a game recorded through ``service.act``: the private auction sold out,
  PRR, NYC and B&O parred in stock round 1;
- late 1870: the 18xx.games log of a whole 1870 game (../shared/fixtures, imported with
  pbem's importer), at the start of its last operating round before the bank broke.
  Without ../shared the benchmark says so and measures the rest.

``your_turn_size`` is used by tests/test_mail_size.py on positions the tests build.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem import service  # noqa: E402
from pbem.engine.game import apply_facts, to_act  # noqa: E402
from pbem.engine.state import GameState  # noqa: E402
from pbem.mail.config import MailConfig  # noqa: E402
from pbem.mail.outbound.compose import build, message_id  # noqa: E402
from pbem.mail.outbound.notify import recent_lines, your_turn_mail  # noqa: E402
from pbem.mail.outbound.views import StateViews  # noqa: E402
from pbem.store import Store, effective, open_store  # noqa: E402

NOW = "2024-05-01T10:00:00.000+00:00"
NAMES = ["Ann", "Ben", "Cat", "Dan"]
EARLY_1830 = ["buy SV", "buy CS", "buy DH", "buy MH", "buy CA", "buy BO", "par B&O 100",
              "par PRR 67", "buy B&O", "par NYC 67", "buy PRR"]
SHARED = Path(__import__("os").environ.get("PBEM_SHARED", ROOT.parent / "shared"))
LATE_1870_LOG = SHARED / "fixtures" / "18xx.games" / "1870" / "1870_game_end_bank.json"


@dataclass(frozen=True)
class Size:
    mode: str  # full, compact
    total: int  # bytes of the whole message
    text: int  # bytes of the text/plain part
    html: int
    image: int  # bytes of the picture (decoded), 0 for none


def your_turn_size(state: GameState, events: Sequence[dict[str, Any]], mode: str,
                   viewer: str | None = None) -> Size:
    """The your-turn mail the player to act (or ``viewer``) gets in ``state``;
    ``events``: the game's events up to it (for "Since your last turn")."""
    config = MailConfig(address="pbem@games.test")
    views = StateViews(state)
    name = viewer or views.waiting[0]
    seat = state.names.index(name)
    player = {"name": name, "seat": seat, "email": f"{name.lower()}@players.test",
              "key_hash": "x", "notify": "every", "mail": mode, "picture": "on", "tz": "UTC"}
    game = {"id": 1, "title": state.title}
    out = your_turn_mail(config, game, player, views, recent_lines(events, player))
    raw = build(config, out, message_id(config, 1, "turn"), NOW)
    msg = message_from_bytes(raw, policy=default_policy)
    parts = {p.get_content_type(): p for p in msg.walk() if not p.is_multipart()}
    image = next((p for kind, p in parts.items() if kind.startswith("image/")), None)
    return Size(mode, len(raw), len(parts["text/plain"].as_bytes()),
                len(parts["text/html"].as_bytes()),
                len(image.get_content()) if image is not None else 0)


def early_1830(store: Store) -> tuple[GameState, list[dict[str, Any]]]:
    created = service.create_game(store, "1830", [(n, f"{n.lower()}@players.test")
                                                  for n in NAMES], seed=3, seating="fixed",
                                  options={}, now=NOW)
    state = service.load(store, created.game_id)
    for command in EARLY_1830:
        actor = service.waiting_for(state)[0]
        state = service.act(store, created.game_id, actor, command, source="bench", now=NOW,
                            state=state).state or state
    return state, store.events(created.game_id)


def late_1870(store: Store) -> tuple[GameState, list[dict[str, Any]]] | None:
    """The imported 1870 game at the start of its last operating-company turn that is
    not the game's end, or None without ../shared."""
    if not LATE_1870_LOG.exists():
        return None
    from pbem.importer import import_log

    _, imported = import_log(store, LATE_1870_LOG, now=NOW)
    game_id = imported.game_id
    events = store.events(game_id)
    kept = effective(events)
    last = None
    state = service.initial(store, game_id)
    for index, event in enumerate(kept):
        apply_facts(state, event["facts"])
        rnd = state.round
        if not state.finished and rnd.get("kind") == "operating" and rnd.get("current") \
                and to_act(state):
            last = index
    state = service.initial(store, game_id)
    for event in kept[: (last or 0) + 1]:
        apply_facts(state, event["facts"])
    upto = kept[last or 0]["seq"]
    return state, [e for e in events if e["seq"] <= upto]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "pbem.db", now=NOW)
        try:
            positions = [("early 1830", early_1830(store)), ("late 1870", late_1870(store))]
            for label, found in positions:
                if found is None:
                    print(f"{label}: skipped ({LATE_1870_LOG} is not there)")
                    continue
                state, events = found
                print(f"{label}: {service.waiting_for(state)[0]} to act, "
                      f"{state.round.get('kind')} round, phase {state.phase}, "
                      f"{len(events)} events")
                for mode in ("full", "compact"):
                    size = your_turn_size(state, events, mode)
                    print(f"  your-turn mail, {size.mode:<7}: {size.total / 1000:6.1f} KB "
                          f"(text {size.text / 1000:.1f} KB, HTML {size.html / 1000:.1f} KB,"
                          f" map picture {size.image / 1000:.1f} KB)")
            print("limits (issue 13): full 80 KB, map picture 60 KB, compact 8 KB")
        finally:
            store.close()


if __name__ == "__main__":
    main()
