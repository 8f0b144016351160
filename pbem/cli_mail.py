"""The mail service's commands: config check, serve, poll, send, inbox, outbox, welcome.

Registered on the main group by ``register(main)`` (the last lines of cli.py).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from typing import Any

import click

from .cli_output import echo, fail
from .mail import clock
from .mail.config import ConfigError, MailConfig, load_config, require_mail
from .store import Store, StoreError, open_store

F = Callable[..., Any]


def config_option(func: F) -> F:
    return click.option("--config", "config_path", envvar="PBEM_CONFIG", default=None,
                        metavar="FILE",
                        help="The mail configuration (default $PBEM_CONFIG or ./pbem.toml).")(func)


def verbose_option(func: F) -> F:
    return click.option("-v", "--verbose", count=True, help="Log more (-vv: debug).")(func)


def _fail(message: str, code: int = 1) -> None:
    fail(message, code)


def _config(config_path: str | None, **needs: bool) -> MailConfig:
    try:
        config = load_config(config_path)
        if needs:
            require_mail(config, **needs)
        return config
    except ConfigError as exc:
        _fail(f"configuration: {exc}", 2)
        raise AssertionError from exc  # unreachable


def _store(ctx: click.Context, config: MailConfig) -> Store:
    db = getattr(ctx.obj, "db", None) or config.database or None
    return open_store(db, now=clock.now())


def _logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s",
                        stream=sys.stderr)


# -- config ---------------------------------------------------------------------------------------


@click.group("config")
def config_group() -> None:
    """The mail configuration.

    \b
    Example:
      pbem config check
    """


@config_group.command("check")
@config_option
def config_check(config_path: str | None) -> None:
    """Connect to the IMAP and SMTP servers and report what works.

    \b
    Example:
      pbem config check --config /etc/pbem.toml
    """
    from .mail.check import check_servers, describe_config

    config = _config(config_path)
    echo(f"configuration: {config.source}")
    for line in describe_config(config):
        echo(line)
    lines, ok = asyncio.run(check_servers(config))
    for line in lines:
        echo(line)
    if not ok:
        sys.exit(1)


# -- running --------------------------------------------------------------------------------------


@click.command("serve")
@config_option
@verbose_option
@click.pass_context
def serve_command(ctx: click.Context, config_path: str | None, verbose: int) -> None:
    """Run the mail service: read the mailbox (IMAP IDLE or polling) and send the
    outbox, until SIGTERM or Ctrl-C.

    \b
    Example:
      pbem serve --config /etc/pbem.toml -v
    """
    from .mail.serve import serve

    _logging(max(verbose, 1))
    config = _config(config_path, imap=True, smtp=True)
    store = _store(ctx, config)
    try:
        asyncio.run(serve(store, config))
    finally:
        store.close()


@click.command("poll")
@click.option("--once", is_flag=True, help="Process what is waiting, send what is due, exit.")
@click.option("--no-send", is_flag=True, help="Do not send the outbox.")
@config_option
@verbose_option
@click.pass_context
def poll_command(ctx: click.Context, once: bool, no_send: bool, config_path: str | None,
                 verbose: int) -> None:
    """Read the mailbox and process the messages waiting there.

    Without --once this polls forever (like serve, without the sender unless
    the outbox is sent by serve or 'pbem send').

    \b
    Example:
      pbem poll --once
    """
    from .mail.serve import poll_forever, poll_once

    _logging(verbose)
    config = _config(config_path, imap=True, smtp=not no_send)
    store = _store(ctx, config)
    try:
        if once:
            report = asyncio.run(poll_once(store, config, send=not no_send))
            echo(f"{report.seen} messages: {report.processed} processed, "
                       f"{report.ignored} ignored, {report.dead} dead letters, "
                       f"{report.again} handled before")
        else:
            asyncio.run(poll_forever(store, config))
    finally:
        store.close()


@click.command("send")
@config_option
@verbose_option
@click.pass_context
def send_command(ctx: click.Context, config_path: str | None, verbose: int) -> None:
    """Send the mails of the outbox that are due now, once.

    \b
    Example:
      pbem send
    """
    from .mail.serve import send_once

    _logging(verbose)
    config = _config(config_path, smtp=True)
    store = _store(ctx, config)
    try:
        report = asyncio.run(send_once(store, config))
    finally:
        store.close()
    echo(f"sent {report.sent}, to retry {report.retry}, failed {report.failed}")  # type: ignore[attr-defined]


# -- inbox ----------------------------------------------------------------------------------------


@click.group("inbox")
def inbox_group() -> None:
    """Inbound messages: list, show, retry or discard (dead letters).

    \b
    Example:
      pbem inbox list --status dead
      pbem inbox retry 12
    """


@inbox_group.command("list")
@click.option("--status", default=None,
              type=click.Choice(["new", "processed", "ignored", "dead", "discarded"]))
@config_option
@click.pass_context
def inbox_list(ctx: click.Context, status: str | None, config_path: str | None) -> None:
    """List inbound messages (all, or one status).

    \b
    Example:
      pbem inbox list --status dead
    """
    from .mail.processing.inbox import summary

    store = _store(ctx, _config(config_path))
    for row in store.inbox_list(status):
        echo(summary(row))


@inbox_group.command("show")
@click.argument("inbox_id", type=int)
@click.option("--raw", is_flag=True, help="Print the raw message.")
@config_option
@click.pass_context
def inbox_show(ctx: click.Context, inbox_id: int, raw: bool, config_path: str | None) -> None:
    """Show one inbound message: its headers, commands, status and error.

    \b
    Example:
      pbem inbox show 12
    """
    from .mail.processing.inbox import describe

    store = _store(ctx, _config(config_path))
    try:
        row = store.inbox_get(inbox_id)
    except StoreError as exc:
        _fail(str(exc))
        return
    if raw:
        echo(bytes(row["raw"]).decode("utf-8", "replace"))
        return
    echo(describe(row))


@inbox_group.command("retry")
@click.argument("inbox_ids", type=int, nargs=-1, required=True)
@config_option
@click.pass_context
def inbox_retry(ctx: click.Context, inbox_ids: tuple[int, ...], config_path: str | None) -> None:
    """Process messages again (dead letters, or ignored ones); the replies are queued.

    \b
    Example:
      pbem inbox retry 12
    """
    from .mail.processing.inbox import retry

    config = _config(config_path)
    store = _store(ctx, config)
    failed = False
    for inbox_id in inbox_ids:
        try:
            outcome = retry(store, config, inbox_id, clock.now())
        except StoreError as exc:
            echo(str(exc), err=True)
            failed = True
            continue
        echo(f"#{inbox_id}: {outcome.status} {outcome.note}".rstrip())
        failed = failed or outcome.status == "dead"
    if failed:
        sys.exit(1)


@inbox_group.command("discard")
@click.argument("inbox_ids", type=int, nargs=-1, required=True)
@config_option
@click.pass_context
def inbox_discard(ctx: click.Context, inbox_ids: tuple[int, ...], config_path: str | None) -> None:
    """Give up on messages (kept, marked discarded; never processed).

    \b
    Example:
      pbem inbox discard 12 13
    """
    store = _store(ctx, _config(config_path))
    for inbox_id in inbox_ids:
        try:
            store.inbox_set_status(inbox_id, "discarded")
        except StoreError as exc:
            _fail(str(exc))
        echo(f"#{inbox_id}: discarded")


# -- outbox ---------------------------------------------------------------------------------------


@click.group("outbox")
def outbox_group() -> None:
    """Outgoing mails: list them, retry failed ones.

    \b
    Example:
      pbem outbox list --status failed
      pbem outbox retry --failed
    """


@outbox_group.command("list")
@click.option("--status", default=None, type=click.Choice(["pending", "sent", "failed"]))
@click.option("--limit", default=50, show_default=True)
@config_option
@click.pass_context
def outbox_list(ctx: click.Context, status: str | None, limit: int,
                config_path: str | None) -> None:
    """List outgoing mails, newest first.

    \b
    Example:
      pbem outbox list --status failed
    """
    store = _store(ctx, _config(config_path))
    for row in store.outbox_list(status, limit):
        error = f"  [{row['last_error']}]" if row["last_error"] else ""
        echo(f"#{row['id']:<5} {row['status']:<8} {row['attempts']}x "
                   f"{row['created'][:19]} {row['recipient']:<28} {row['subject'][:50]}{error}")


@outbox_group.command("retry")
@click.argument("outbox_ids", type=int, nargs=-1)
@click.option("--failed", "all_failed", is_flag=True, help="Every failed mail.")
@config_option
@click.pass_context
def outbox_retry(ctx: click.Context, outbox_ids: tuple[int, ...], all_failed: bool,
                 config_path: str | None) -> None:
    """Make mails due again now (the running service or 'pbem send' sends them).

    \b
    Example:
      pbem outbox retry --failed
    """
    store = _store(ctx, _config(config_path))
    ids = list(outbox_ids)
    if all_failed:
        ids += [r["id"] for r in store.outbox_list("failed", 100000)]
    if not ids:
        _fail("name the mails to retry, or use --failed", 2)
    moment = clock.now()
    for outbox_id in ids:
        try:
            row = store.outbox_get(outbox_id)
            store.outbox_mark_retry(outbox_id, moment, row["last_error"] or "retried by hand")
        except StoreError as exc:
            _fail(str(exc))
        echo(f"#{outbox_id}: due again")


# -- welcome --------------------------------------------------------------------------------------


@click.command("welcome")
@click.argument("game", type=int)
@click.option("--send/--no-send", default=True, help="Send at once (else the service does).")
@config_option
@click.pass_context
def welcome_command(ctx: click.Context, game: int, send: bool, config_path: str | None) -> None:
    """Issue new keys to a game's players (and its referee) and mail each the welcome
    mail.

    The old keys stop working.

    \b
    Example:
      pbem welcome 12
    """
    from .mail.outbound.welcome import queue_welcome, reissue_keys
    from .moderation.seats import new_referee_key

    config = _config(config_path, smtp=send)
    store = _store(ctx, config)
    try:
        with store.transaction():
            keys = reissue_keys(store, game)
            referee = new_referee_key(store, game) if store.game(game)["referee"] else None
            ids = queue_welcome(store, config, game, keys, clock.now(), referee_key=referee)
    except StoreError as exc:
        _fail(str(exc))
        return
    echo(f"{len(ids)} welcome mails queued")
    if send:
        _send_now(store, config)


def send_welcome(db: str | None, created: Any, config_path: str | None = None) -> None:
    """For ``pbem new --email``: queue and send the welcome mails of a game just made
    (``created`` is service.NewGame, whose keys are known only now)."""
    from .mail.outbound.welcome import queue_welcome

    config = _config(config_path, smtp=True)
    store = open_store(db or config.database or None, now=clock.now())
    try:
        queue_welcome(store, config, created.game_id, created.keys, clock.now(),
                      referee_key=created.referee_key)
        _send_now(store, config)
    finally:
        store.close()


def _send_now(store: Store, config: MailConfig) -> None:
    from .mail.serve import send_once

    report: Any = asyncio.run(send_once(store, config))
    echo(f"sent {report.sent}, to retry {report.retry}, failed {report.failed}", err=True)


def register(main: click.Group) -> None:
    for command in (config_group, serve_command, poll_command, send_command, inbox_group,
                    outbox_group, welcome_command):
        main.add_command(command)
