"""Operator views of the inbox, and retrying a stored message."""

from __future__ import annotations

from typing import Any

from ...store import Store
from ..config import MailConfig
from ..inbound.mime import parse_message
from ..inbound.replies import command_lines
from .process import Outcome, process_inbox


def summary(row: dict[str, Any]) -> str:
    mail = parse_message(bytes(row["raw"]))
    error = (row["error"] or "").splitlines()[0][:60] if row["error"] else ""
    game = f"#{row['game_id']}" if row["game_id"] else "-"
    return (f"#{row['id']:<5} {row['status']:<9} {row['received'][:19]} game {game:<5} "
            f"{mail.from_addr[:28]:<28} {mail.subject[:40]}" + (f"  [{error}]" if error else ""))


def describe(row: dict[str, Any]) -> str:
    mail = parse_message(bytes(row["raw"]))
    text = command_lines(mail.body_text)
    lines = [
        f"Inbound message #{row['id']}: {row['status']}",
        f"  mailbox {row['mailbox']} UIDVALIDITY {row['uidvalidity']} UID {row['uid']}",
        f"  Message-ID {row['message_id']}",
        f"  received {row['received']}, processed {row['processed'] or '-'}, "
        f"game {row['game_id'] or '-'}",
        f"  From: {mail.from_name} <{mail.from_addr}>",
        f"  To: {', '.join(mail.to_addrs)}",
        f"  Subject: {mail.subject}",
        f"  {len(row['raw'])} bytes, {len(mail.attachments)} attachments",
        "Command lines:",
        *[f"  {line}" for line in text.lines],
    ]
    if row["error"]:
        lines += ["Error:", *[f"  {line}" for line in str(row["error"]).splitlines()]]
    return "\n".join(lines)


def retry(store: Store, config: MailConfig, inbox_id: int, now: str) -> Outcome:
    """Process a stored message again from the start (a dead letter after a fix)."""
    store.inbox_set_status(inbox_id, "new")
    return process_inbox(store, config, inbox_id, now)
