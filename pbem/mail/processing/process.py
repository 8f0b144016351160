"""One inbound message, one transaction (design, sections 3 and 4).

``process_inbox(store, config, inbox_id, now)`` reads the stored raw message,
decides what it is (junk, rejected, or a player's commands), carries out the
commands, and queues the reply and the notifications; the inbox row's status,
the game's events and the outbox rows commit together. A message that makes
processing fail unexpectedly becomes a dead letter with the error.
"""

from __future__ import annotations

import hashlib
import logging
import re
import traceback
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from ... import service
from ...engine.state import GameState
from ...moderation.listing import mail_listing
from ...service import CommandError
from ...store import Store, StoreBusy
from ..config import MailConfig
from ..inbound.auth import Sender, authenticate, find_game, game_by_key
from ..inbound.junk import authentication_failure, classify
from ..inbound.mime import InboundMail, parse_message
from ..inbound.replies import command_lines
from ..inbound.routing import key_line, subject_key
from ..outbound.compose import (
    LEAK_PURPOSES,
    REJECTION_PURPOSES,
    REPLY_PURPOSES,
    Outgoing,
    queue_mail,
    subject_for,
)
from ..outbound.notify import (
    board_section,
    game_mail,
    happened_block,
    notify_others,
    prompt_block,
    tell_referee,
)
from ..outbound.templates import shorten, wrap_paragraph
from ..outbound.views import GameView, StateViews, thread_key
from .aftermath import send_welcomes, settle
from .turn import MailTurn

__all__ = ["Outcome", "process_inbox", "store_message"]

log = logging.getLogger("pbem.mail.processing")


@dataclass(frozen=True)
class Outcome:
    status: str  # processed, ignored, dead
    note: str = ""
    game_id: int | None = None
    #: the game after a processed mail, as the mail's turn left it (never rebuilt
    #: again: tests compare it with a rebuild from the store)
    state: GameState | None = field(default=None, compare=False, repr=False)
    sender: str | None = None  # the From address, when there was one
    stranger: bool | None = None  # not a player's or referee's address of record


#: how much of a mail over the size limit is kept (its headers and the start)
HEAD_BYTES = 64 * 1024


def store_message(store: Store, mailbox: str | None, uidvalidity: int | None, uid: int | None,
                  raw: bytes, now: str, *, size: int | None = None,
                  max_bytes: int | None = None) -> tuple[int, bool]:
    """Store the raw message once (by UID, else by Message-ID); (inbox id, new?).

    ``size``: the whole message's size when ``raw`` is only its start (the mailbox
    fetched no more of a mail over the limit). A message over ``max_bytes`` is stored
    as its first HEAD_BYTES only; processing refuses it by its size.

    Stored without waiting for the disk (``durable=False``): its processing, which
    follows, commits durably, and the message is marked done on the server only
    after that; a power cut before it leaves the message unmarked, to be fetched
    again."""
    size = len(raw) if size is None else size
    if max_bytes is not None and len(raw) > max_bytes:
        raw = raw[:HEAD_BYTES]
    mail = _parsed(raw[:HEAD_BYTES] if size > len(raw) else raw)
    mid = mail.message_id or synthetic_message_id(raw)
    with store.transaction(durable=False):
        added = store.inbox_add(mailbox, uidvalidity, uid, mid, raw, now, size=size)
    return added.id, added.new


@lru_cache(maxsize=1)
def _parsed(raw: bytes) -> InboundMail:
    """``parse_message(raw)``, the last one kept: a message is parsed as it is stored
    and again as it is processed, right after (nothing changes an InboundMail once
    parsed)."""
    return parse_message(raw)


def synthetic_message_id(raw: bytes) -> str:
    """A Message-ID for a mail without one, the same for the same bytes."""
    return f"<{hashlib.sha256(raw).hexdigest()[:40]}@no-message-id.pbem.invalid>"


def process_inbox(store: Store, config: MailConfig, inbox_id: int, now: str) -> Outcome:
    """Process a stored message whose status is 'new' (others are left alone).

    ``StoreBusy`` is raised (the message stays 'new', to be tried again); any
    other failure makes it a dead letter.
    """
    try:
        with store.transaction():
            # read inside the write transaction: two processes never both take a message
            row = store.inbox_get(inbox_id)
            if row["status"] != "new":
                return Outcome(row["status"], "already handled", row["game_id"])
            outcome = handle(store, config, bytes(row["raw"]), now, size=row["size"])
            store.inbox_set_status(inbox_id, outcome.status, error=outcome.note or None,
                                   game_id=outcome.game_id, processed=now,
                                   sender=outcome.sender, stranger=outcome.stranger)
        return outcome
    except StoreBusy:
        raise
    except Exception as exc:  # noqa: BLE001 - a dead letter keeps the error for the operator
        error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}"
        store.inbox_set_status(inbox_id, "dead", error=error, processed=now)
        _dead_letter_to_referee(store, config, inbox_id, f"{type(exc).__name__}: {exc}", now)
        return Outcome("dead", f"{type(exc).__name__}: {exc}")


def _dead_letter_to_referee(store: Store, config: MailConfig, inbox_id: int, error: str,
                            now: str) -> None:
    """The game's referee hears of a dead letter of his game (when the game can be told
    from the mail). Telling him must never fail the service."""
    try:
        with store.transaction():
            row = store.inbox_get(inbox_id)
            mail = parse_message(bytes(row["raw"]))
            found = find_game(store, config, mail)
            if found is None:
                return
            game = store.game(found[0])
            tell_referee(store, config, game, "A mail could not be processed", [
                f"A mail to game #{game['id']} from {mail.from_addr or 'an unknown sender'} "
                f"(subject: {shorten(mail.subject or '(none)', 50)}) could not be processed "
                f"and is kept as dead letter #{inbox_id}: {error}",
                f'"pbem inbox show {inbox_id}" shows it, "pbem inbox retry {inbox_id}" '
                "processes it again after a fix."], now)
            store.inbox_set_status(inbox_id, "dead", game_id=game["id"])
    except Exception:  # noqa: BLE001 - the dead letter is kept; the log has the rest
        log.exception("telling the referee of dead letter #%s failed", inbox_id)


def handle(store: Store, config: MailConfig, raw: bytes, now: str,
           size: int | None = None) -> Outcome:
    """What one stored message is and does. The checks that cost least come first: the
    size (before anything is parsed), robots, strangers over their rate limit; then the
    game and the player (one key check), then the commands."""
    size = len(raw) if size is None else size
    mail = _parsed(raw)
    sender = mail.from_addr or None
    stranger = sender is None or not _known(store, config, sender)
    outcome = _screen(store, config, mail, size, stranger, now)
    return replace(outcome, sender=sender, stranger=stranger)


def _known(store: Store, config: MailConfig, address: str) -> bool:
    return address == config.referee.strip().lower() or store.is_known_address(address)


def _screen(store: Store, config: MailConfig, mail: InboundMail, size: int, stranger: bool,
            now: str) -> Outcome:
    if size > config.limits.max_mail_bytes:
        return _unread(store, config, mail, f"it is too large ({size:,} bytes; the limit is "
                       f"{config.limits.max_mail_bytes:,})", now)
    verdict = classify(mail)
    if verdict.ignored:
        return Outcome("ignored", f"{verdict.rule}: {verdict.reason}")
    if stranger:
        limited = _rate_limited(store, config, mail.from_addr, now)
        if limited:
            return Outcome("ignored", f"rate limit: {limited}")
    if mail.unreadable:
        return _unread(store, config, mail, mail.unreadable, now)
    text = command_lines(mail.body_text, config.limits.lines_per_mail)
    lines, ignored = list(text.lines), list(text.ignored)
    line_key = key_line(lines)
    found = find_game(store, config, mail)
    if found is None:
        by_key = game_by_key(store, mail, line_key)
        if by_key is None:
            return _no_game(store, config, mail, now)
        found = by_key, None
    game_id, tag = found
    sender = authenticate(store, mail, game_id, [tag, _subject_key(mail), line_key])
    failure = authentication_failure(mail, config.trusted_authserv_id)
    if sender.player is None or failure:
        reason = failure or sender.reason
        _reject(store, config, mail, game_id, sender, reason, now)
        return Outcome("ignored", f"rejected: {reason}", game_id)
    game = store.game(game_id)
    if game["status"] == "finished":
        reason = f"game #{game_id} is {game['status']}; it takes no commands now"
        _reject(store, config, mail, game_id, sender, reason, now)
        return Outcome("ignored", f"rejected: {reason}", game_id)
    after = _apply(store, config, mail, sender.player, lines, ignored, text.stop_description,
                   now)
    return Outcome("processed", "", game_id, after)


def _rate_limited(store: Store, config: MailConfig, sender: str, now: str) -> str:
    """Why a stranger's mail is not read now, or "": mails from addresses of nobody's
    record are read up to a number per hour from one address, and in all."""
    limits = config.limits
    since = _ago(now, hours=1)
    if sender and store.inbox_count_strangers(since, sender) >= \
            limits.stranger_mails_per_sender_per_hour:
        return (f"more than {limits.stranger_mails_per_sender_per_hour} mails in an hour from "
                f"{sender}, which is nobody's address of record")
    if store.inbox_count_strangers(since) >= limits.stranger_mails_per_hour:
        return (f"more than {limits.stranger_mails_per_hour} mails in an hour from addresses "
                "that are nobody's address of record")
    return ""


def _unread(store: Store, config: MailConfig, mail: InboundMail, reason: str,
            now: str) -> Outcome:
    """A mail that was not read (too large, nested too deep): a short answer to its
    player (one of his replies when the headers carry his key, else at most the one
    rejection notice a day to the address of record), nothing carried out."""
    found = find_game(store, config, mail)
    if found is None:
        return Outcome("ignored", f"not read: {reason}; no game found")
    game_id, tag = found
    sender = authenticate(store, mail, game_id, [tag, _subject_key(mail)])
    target = sender.player or sender.notify
    if target is not None and target["email"].strip().lower() == mail.from_addr:
        game = store.game(game_id)
        purpose = "re" if sender.player is not None else "rej"
        if not _capped(store, config, target["email"], now, purpose):
            out = Outgoing(
                recipient=target["email"], template="player-unread.txt",
                values={"title": game["title"], "game": game_id, "reason": reason,
                        "their_subject": shorten(mail.subject or "(no subject)", 50),
                        "service_name": config.name},
                subject=subject_for(game["title"], game_id, "Your mail was not read"),
                purpose=purpose, game_id=game_id, in_reply_to=mail.message_id)
            queue_mail(store, config, out, now)
    return Outcome("ignored", f"not read: {reason}", game_id)


def _subject_key(mail: InboundMail) -> str | None:
    return subject_key(mail.subject)


# -- carrying out ----------------------------------------------------------------------------------


def _apply(store: Store, config: MailConfig, mail: InboundMail, player: dict[str, Any],
           lines: list[str], ignored: list[str], stop: str, now: str) -> GameState:
    """Carry out the mail's commands on the game, loaded once (MailTurn), then queue the
    reply and the notifications, rendered from the game before and after; the game
    after."""
    turn = MailTurn.start(store, player["game_id"], player["name"], player["seat"],
                          mail.message_id or "mail", now)
    greetings, commands = turn.greetings(turn.split("\n".join(lines)))
    ignored = [f"{line}  (not a command, above your first command)" for line in greetings] + \
        ignored
    refused: CommandError | None = None
    if commands:
        try:
            with store.transaction():  # a savepoint: a refusal undoes the whole mail
                turn.run(commands)
        except CommandError as exc:
            refused = exc
            turn.rollback()
    after = turn.state
    views = settle(turn)  # rendered once for the reply and every notification
    send_welcomes(store, config, turn)
    player = store.player(player["game_id"], player["seat"]) if player["seat"] >= 0 \
        else player  # a new key, new settings
    turn.results.extend(turn.notes.get(player["name"], []))
    values = _result_values(mail, turn, refused, commands, ignored, stop)
    view = views.view(None if player["seat"] < 0 else player["name"])  # the referee sees all
    values["prompt_section"] = _prompt_section(view, player["name"])
    if turn.changed or player["name"] in view.waiting or refused:
        values["board_section"] = board_section(views, player, view)
    _queue_reply(store, config, mail, player, views, values, refused is None and bool(commands),
                 now)
    for name, key in turn.new_keys.items():
        _queue_new_key(store, config, player["game_id"], name, key, views, now)
    notify_others(store, config, turn.before, after, turn.activity(), now, views,
                  turn.recorded())
    return after


def _queue_new_key(store: Store, config: MailConfig, game_id: int, name: str, key: str,
                   views: StateViews, now: str) -> None:
    """The new key and reply address, to the address of record (``key new``)."""
    game = store.game(game_id)
    player = next(p for p in store.players(game_id) if p["name"] == name)
    address = config.plus_address(game_id, store.reply_code(player))
    queue_mail(store, config, game_mail(
        config, game, player, views, "player-new-key.txt", "key",
        {"key": key, "reply_address": address, "email": player["email"]},
        subject_for(game["title"], game_id, "Your new key")), now)


def _prompt_section(view: GameView, name: str) -> str:
    if name not in view.waiting:
        return f"Waiting for: {', '.join(view.waiting) or 'nobody'}.\n"
    return "It is your turn.\n" + prompt_block(view)


def _result_values(mail: InboundMail, run: MailTurn, refused: CommandError | None,
                   commands: list[str], ignored: list[str], stop: str) -> dict[str, object]:
    values: dict[str, object] = {"their_subject": shorten(mail.subject or "(no subject)", 50)}
    if not commands:
        values["results_section"] = wrap_paragraph(
            f"Your mail had no commands. {stop} Write your commands at the top of your "
            "reply.") + "\n"
    elif refused is None:
        values["results_section"] = happened_block(run.results, "Results:") or "Results: done.\n"
    else:
        values["not_done_section"] = _not_done(refused, commands)
    if ignored:
        values["ignored_section"] = happened_block(ignored, "Ignored lines:")
    if run.answers:
        values["answers_section"] = "\n\n".join(run.answers) + "\n"
    return values


def _not_done(refused: CommandError, commands: list[str]) -> str:
    lines = ["Not done:", f"  {refused.line}",
             wrap_paragraph(refused.message, indent="      ")]
    if refused.suggestions:
        lines.append("      You could write:")
        lines.extend(f"        {s}" for s in refused.suggestions)
    if len(commands) > 1:
        lines.append("")
        lines.append("None of the commands of your mail was carried out (all or none):")
        lines.extend(f"  {c}" for c in commands)
    return "\n".join(lines) + "\n"


def _queue_reply(store: Store, config: MailConfig, mail: InboundMail, player: dict[str, Any],
                 views: StateViews, values: dict[str, object], done: bool, now: str) -> None:
    if _capped(store, config, player["email"], now, "re"):
        return
    game = store.game(player["game_id"])
    head = "Done" if done else "Not done" if "not_done_section" in values else "Answer"
    out = game_mail(config, game, player, views, "player-result.txt", "re", values,
                    subject_for(game["title"], game["id"], f"{head} - {views.situation}"))
    if mail.message_id:
        out.in_reply_to = mail.message_id
    queue_mail(store, config, out, now)


def _capped(store: Store, config: MailConfig, address: str, now: str, purpose: str) -> bool:
    """True when ``address`` had its day's replies (``re``), rejection notices (``rej``)
    or warnings of a leaked key (``leak``), and the referee's copies (``ref``): each
    counted apart, so mail forged in a player's name cannot use up his replies, and he
    (or the referee) hears of forgeries and of mail with his key from elsewhere a
    limited number of times a day."""
    since = _ago(now, days=1)
    for notices in (REJECTION_PURPOSES, LEAK_PURPOSES):
        if purpose in notices:
            return (store.outbox_count(address, since, notices)
                    >= config.limits.rejections_per_address_per_day)
    counted = (purpose,) if purpose == "ref" else REPLY_PURPOSES
    return (store.outbox_count(address, since, counted)
            >= config.limits.replies_per_address_per_day)


def _ago(now: str, days: int = 0, hours: int = 0) -> str:
    moment = datetime.fromisoformat(now) - timedelta(days=days, hours=hours)
    return moment.isoformat(timespec="seconds")


# -- refusing --------------------------------------------------------------------------------------


def _reject(store: Store, config: MailConfig, mail: InboundMail, game_id: int, sender: Sender,
            reason: str, now: str) -> None:
    """At most one short reply, and only to an address of record, in the game's thread:
    to the sender when the mail came from his address; to the player whose key a
    stranger's mail carried, telling him that his reply address has leaked. The game's
    referee gets a copy."""
    game = store.game(game_id)
    target = sender.notify or sender.player
    told = f"Its sender was told at {target['email']}." if target else \
        "Its sender was not answered (not an address of record)."
    if not _capped(store, config, game.get("referee") or "", now, "ref"):
        tell_referee(store, config, game, "A mail was not accepted",
                     [f"A mail to game #{game_id} from {mail.from_addr or 'an unknown sender'} "
                      f"(subject: {shorten(mail.subject or '(none)', 50)}) was not accepted: "
                      f"{reason}.", told], now)
    purpose = "leak" if sender.leaked else "rej"
    if target is None or _capped(store, config, target["email"], now, purpose):
        return
    values: dict[str, object] = {
        "player": target["name"], "email": target["email"], "title": game["title"],
        "game": game_id, "reason": reason, "service_name": config.name,
        "sender": mail.from_addr or "an unknown address"}
    out = Outgoing(
        recipient=target["email"],
        template="player-key-leaked.txt" if sender.leaked else "player-rejected.txt",
        values=values,
        subject=subject_for(game["title"], game_id, "Your reply address has leaked"
                            if sender.leaked else "Your mail was not accepted"),
        purpose=purpose, game_id=game_id, thread=thread_key(service.load(store, game_id)),
        reply_for=target if target.get("key_hash") else None)
    if not sender.leaked and mail.message_id:
        out.in_reply_to = mail.message_id  # his own mail: the answer goes with it
    queue_mail(store, config, out, now)


_LIST = re.compile(r"(?:list(?:\s+(?:my\s+|all\s+)?games?)?|(?:my\s+)?games)[.!]?",
                   re.IGNORECASE)


def _no_game(store: Store, config: MailConfig, mail: InboundMail, now: str) -> Outcome:
    """No game found. A mail whose first command is ``list``, from an address that plays
    or referees a game here, is answered with that address's games and where each
    stands; any other mail from a player's address of record gets one short answer there
    (which games are his, and how to write to one); anybody else none, since nothing
    tells whose the mail is."""
    text = command_lines(mail.body_text)
    first = next((line.strip() for line in text.lines if line.strip()), "")
    address = mail.from_addr
    if first and _LIST.fullmatch(first) and address and \
            (store.players_by_email(address) or store.refereed_by(address)):
        if _capped(store, config, address, now, "re"):
            return Outcome("ignored", "list: the address had its replies for the day")
        listing = Outgoing(recipient=address, template="service-list.txt",
                           values={"service_name": config.name,
                                   "listing_section": mail_listing(store, address) + "\n"},
                           subject=f"Re: {shorten(mail.subject, 60)}" if mail.subject else
                           "Your games", purpose="re", in_reply_to=mail.message_id or None)
        queue_mail(store, config, listing, now)
        return Outcome("processed", "list: the sender's games")
    seats = store.players_by_email(mail.from_addr) if mail.from_addr else []
    note = "no game found: no reply address, subject tag, reference or key of ours"
    if not seats or _capped(store, config, seats[0]["email"], now, "rej"):
        return Outcome("ignored", note)
    games = "\n".join(f"    [{s['title']} #{s['game_id']}]  you play {s['name']} ({s['status']})"
                      for s in seats[:20])
    out = Outgoing(
        recipient=seats[0]["email"], template="player-no-game.txt",
        values={"email": seats[0]["email"], "service_name": config.name,
                "their_subject": shorten(mail.subject or "(no subject)", 50),
                "games_section": games},
        subject="Which game is your mail for?", purpose="rej")
    if mail.message_id:
        out.in_reply_to = mail.message_id
    queue_mail(store, config, out, now)
    return Outcome("ignored", note + "; the sender was told how to address a game")
