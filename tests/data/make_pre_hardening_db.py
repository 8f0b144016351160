"""How tests/data/pre-hardening.db.gz was written: by the code of main at 77ef705, before
the hardening of issue 15 (unkeyed hash chain, 8-character keys hashed with scrypt,
reply tags computed from the key hashes alone). It cannot be run with today's code:
it is kept to say what the file holds. Keys of its players: pre-hardening.json.

    git worktree add /tmp/old 77ef705 && cd /tmp/old && python <this file> OUT.db OUT.json
    sqlite3 OUT.db 'VACUUM; PRAGMA journal_mode=DELETE' && gzip -9 OUT.db
"""

from __future__ import annotations

import json
import sys
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

import pbem.mail.outbound.compose as compose
from pbem import service
from pbem.mail.config import MailConfig
from pbem.mail.outbound.welcome import queue_welcome
from pbem.mail.processing.process import process_inbox, store_message
from pbem.store import open_store

NOW = "2024-05-01T10:00:00+00:00"


def main(out: Path, keys_file: Path) -> None:
    compose.map_image = lambda text: None  # type: ignore[assignment,attr-defined]  # no pictures: small
    store = open_store(out, now=NOW)
    config = MailConfig(address="pbem@games.test", referee="ref@games.test")
    names = ("Ann", "Ben", "Cat", "Dan")
    created = service.create_game(store, "1830", [(n, f"{n.lower()}@players.test")
                                                  for n in names],
                                  seed=1, seating="fixed", options={}, now=NOW,
                                  referee="ref@games.test")
    game = created.game_id
    queue_welcome(store, config, game, created.keys, NOW)
    players = {p["name"]: p for p in store.players(game)}

    def send(uid: int, name: str, body: str) -> None:
        player = players[name]
        msg = EmailMessage()
        msg["From"] = f"{name} <{player['email']}>"
        tag = compose.reply_tag(game, player["seat"], player["key_hash"])  # type: ignore[call-arg,attr-defined]
        msg["To"] = f"pbem+{game}.{tag}@games.test"
        msg["Subject"] = "Re: your turn"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(body)
        now = f"2024-05-01T10:{uid:02d}:00+00:00"
        inbox_id, _ = store_message(store, "INBOX", 1, uid, msg.as_bytes(policy=SMTP), now)
        process_inbox(store, config, inbox_id, now)

    send(1, "Ann", "buy SV\nsay hello all")
    send(2, "Ben", "buy CS")
    send(3, "Cat", "buy DH")
    service.undo(store, game, 3, actor="referee", source="cli", now="2024-05-01T10:04:00+00:00")
    send(5, "Cat", "pass")
    other = service.create_game(store, "1870", [("Eve", "eve@players.test"),
                                                ("Fay", "fay@players.test"),
                                                ("Gus", "gus@players.test")],
                                seed=5, seating="fixed", options={}, now=NOW)
    service.act(store, other.game_id, "Eve", "pass", source="cli",
                now="2024-05-01T11:00:00+00:00")
    store.close()
    keys = {str(game): created.keys, str(other.game_id): other.keys}
    keys_file.write_text(json.dumps({"keys": keys}, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
