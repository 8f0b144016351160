"""Running games to their end at the command line: ``pbem act`` (carried out as a
mail), ``pbem games``, ``pbem report``, ``pbem tick`` (docs/moderation.md).

Registered on the main group by ``register(main)`` (the last lines of cli.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import click

from .cli_output import echo, fail
from .engine.errors import SetupError
from .mail import clock
from .mail.config import ConfigError, MailConfig, load_config
from .service import CommandError
from .store import StoreError


def optional_config(path: str | None = None) -> MailConfig | None:
    """The mail configuration when there is a usable one (pbem.toml, $PBEM_CONFIG),
    else None: the command works without mail."""
    try:
        config = load_config(path)
    except ConfigError:
        return None
    return config if config.address else None


def act_command(env: Any, game: int, actor: str, commands: str) -> None:
    """``pbem act``: the commands as a mail's (pbem.mail.processing.command_line)."""
    from .mail.processing.command_line import carry_out

    store = env.store()
    config = optional_config()
    try:
        result = carry_out(store, game, actor, commands, now=clock.now(), config=config)
    except CommandError as exc:
        fail(str(exc), 1)
    except (StoreError, SetupError) as exc:
        fail(str(exc), 1)
    for line in result.lines:  # a command's log lines, indented for the mail's block
        echo(line.removeprefix("  ") if line.startswith("      ") else line)
    for seat, key in result.keys.items():
        echo(f"The new key of seat {seat}: {key} (no mail configuration: give it to "
                   "the new player yourself)", err=True)
    assert result.state is not None
    if result.waiting:
        echo(f"Now: {', '.join(result.waiting)} to act.")
    elif result.state.finished:
        echo("The game is over.")
    if result.mailed:
        echo("The players' mails are queued (pbem serve or pbem send sends them).",
                   err=True)


@click.command("games")
@click.option("--status", "statuses", multiple=True,
              type=click.Choice(["active", "paused", "finished"]),
              help="Only games of this status (repeatable).")
@click.pass_obj
def games_command(env: Any, statuses: tuple[str, ...]) -> None:
    """List the games: id, title, players, round, who must act and since when, the
    deadline, paused or over.

    \b
    Example:
      pbem games
      pbem games --status active
    """
    from .moderation.listing import all_games, table

    store = env.store()
    lines = all_games(store, tuple(statuses))
    if not lines:
        echo("No games.")
        return
    echo(table(lines), nl=False)


@click.command("report")
@click.argument("game", type=int)
@click.pass_obj
def report_command(env: Any, game: int) -> None:
    """The round report: per round the auction's sales, the stock rounds' trades, each
    company's revenue and dividend, trains bought and rusted, phase changes, and at the
    end the final scores.

    \b
    Example:
      pbem report 1
    """
    from . import service
    from .render.report import build_report, report_text

    store = env.store()
    try:
        start = service.initial(store, game)
        events = store.effective_events(game)
    except StoreError as exc:
        fail(str(exc), 1)
    echo(report_text(build_report(start, events)), nl=False)


@click.command("tick")
@click.option("--now", "moment", default=None, metavar="TIME",
              help="Run the timers as at this ISO time (UTC), e.g. to catch up; default: now.")
@click.option("--no-send", is_flag=True, help="Queue the mails, do not send them.")
@click.option("--config", "config_path", envvar="PBEM_CONFIG", default=None, metavar="FILE",
              help="The mail configuration (default $PBEM_CONFIG or ./pbem.toml).")
@click.pass_obj
def tick_command(env: Any, moment: str | None, no_send: bool, config_path: str | None) -> None:
    """Fire the games' due timers once (reminders, passed deadlines, expired undo
    requests), then send the mails; for operators who run it from cron instead of
    pbem serve.

    \b
    Example:
      pbem tick
      */5 * * * *  pbem tick --config /etc/pbem.toml
    """
    from .mail.config import require_mail
    from .mail.serve import send_once
    from .mail.timers import fire_due
    from .moderation.timecalc import iso, parse_moment
    from .store import open_store

    try:
        config = load_config(config_path)
        if not no_send:
            require_mail(config, smtp=True)
    except ConfigError as exc:
        fail(f"configuration: {exc}", 2)
    try:
        now = iso(parse_moment(moment)) if moment else clock.now()
    except ValueError:
        fail(f"'{moment}' is not an ISO time, like 2026-05-04T10:00:00Z.", 2)
        return
    store = open_store(env.db or config.database or None, now=clock.now())
    try:
        fired = fire_due(store, config, now)
        for item in fired:
            echo(f"game #{item.game_id}: {item.what} {item.player} {item.note}".rstrip())
        if not fired:
            echo("nothing due")
        if not no_send:
            report: Any = asyncio.run(send_once(store, config, at=now))
            echo(f"sent {report.sent}, to retry {report.retry}, failed {report.failed}",
                       err=True)
    finally:
        store.close()


def register(main: click.Group) -> None:
    for command in (games_command, report_command, tick_command):
        main.add_command(command)
