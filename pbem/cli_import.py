"""``pbem import-18xx``: an 18xx.games game log as a pbem game (docs/18xx-games.md)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from typing import Any

import click

from .cli_output import echo
from .engine.errors import SetupError
from .importer import LogError, Unsupported, describe_refusal, import_log, outcome, score_lines
from .importer.options import UnknownOptionalRule


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@click.command("import-18xx")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--check", is_flag=True,
              help="Exit 0 only when the final scores and the end reason are the log's.")
@click.option("--to", "to", type=int, default=None, metavar="ID",
              help="Stop just before the log's action ID and leave the game there.")
@click.option("--email", "emails", multiple=True, metavar="NAME=ADDRESS",
              help="A player's mail address (by the name pbem gives him); repeatable.")
@click.pass_obj
def import_18xx(env: Any, file: str, check: bool, to: int | None,
                emails: tuple[str, ...]) -> None:
    """Create a game from an 18xx.games log FILE and replay every action in it.

    Each action becomes pbem commands, decided by pbem's rules and stored like commands
    sent by mail.  Prints each player's final score and why the game ended; when pbem
    refuses an action, the action, pbem's reason and the state around it (exit 1).

    \b
    Example:
      pbem import-18xx 29133.json --check
      pbem import-18xx 29133.json --to 250
    """
    addresses = {}
    for spec in emails:
        name, sep, address = spec.partition("=")
        if not sep:
            echo(f"'{spec}' is not NAME=ADDRESS.", err=True)
            sys.exit(2)
        addresses[name.strip()] = address.strip()
    store = env.store()
    try:
        log, imported = import_log(store, file, emails=addresses, to=to, now=_now())
    except (LogError, UnknownOptionalRule, Unsupported, SetupError) as exc:
        echo(f"Cannot import {file}: {exc}", err=True)
        sys.exit(2)
    players = ", ".join(imported.names[p.key] for p in log.players)
    echo(f"Game #{imported.game_id}: {log.title}, {players}")
    if imported.readings:
        echo("The log's record needs the site's older reading: " + ", ".join(
            f"{k}={v}" for k, v in imported.readings.items()))
    if imported.refusal is not None:
        echo("\n".join(describe_refusal(imported.refusal)))
        echo(f"Game #{imported.game_id} is left before that action.")
        sys.exit(1)
    if imported.stopped_at is not None:
        echo(f"Stopped before action {imported.stopped_at}; game #{imported.game_id} "
                   "is left there.")
        return
    echo("\n".join(score_lines(log, imported)))
    if check:
        found = outcome(log, imported)
        if not found.matches:
            echo("Differs from the log: " + "; ".join(found.problems))
            sys.exit(1)
        echo("Matches the log's result.")


def register(main: click.Group) -> None:
    main.add_command(import_18xx)
