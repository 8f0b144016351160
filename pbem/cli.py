"""The pbem command line: the only place that prints or exits."""

from __future__ import annotations

import json
import secrets
import sys
from datetime import UTC, datetime
from typing import Any

import click

from . import collector, service
from .cli_output import echo, fail
from .engine.errors import PbemError, SetupError
from .notation import format_action
from .render import full_text, mail_parts, since_last_turn, state_json, svg_map
from .render.archive import archive_page
from .render.options import options_text
from .store import StoreError, open_store


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Env:
    def __init__(self, db: str | None) -> None:
        self.db = db

    def store(self) -> Any:
        return open_store(self.db, now=now())


class PbemGroup(click.Group):
    """The `pbem` group: run as the process itself (the console script, ``python -m
    pbem``: no ``args`` given, the command line is the process's), it first sets up the
    garbage collector for the command (pbem/collector.py).  A test's CliRunner passes
    its arguments and leaves its own process alone."""

    def main(self, args: Any = None, *rest: Any, **extra: Any) -> Any:
        if args is None:
            collector.set_up_for(sys.argv[1:])
        return super().main(args, *rest, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        """The command, and for an error of pbem's that no command turned into its own
        message (the store's server secret missing, say), the sentence, not a trace."""
        try:
            return super().invoke(ctx)
        except PbemError as exc:
            fail(str(exc), 1)


@click.group(cls=PbemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="PBEM_DB", default=None, metavar="FILE",
              help="The SQLite database (default ./pbem.db, or $PBEM_DB).")
@click.pass_context
def main(ctx: click.Context, db: str | None) -> None:
    """pbem: a play-by-email moderator for the 18xx games 1830 and 1870.

    \b
    Example:
      pbem new 1830 --player Alice:alice@example.org --player Bob:bob@example.org \\
                    --player Carol:carol@example.org
      pbem act 1 --as Alice "bid CA 170"
      pbem show 1
    """
    ctx.obj = Env(db)


@main.command()
@click.argument("title")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME:EMAIL",
              help="A player, in seat order when seating is fixed (2 to 6 times).")
@click.option("--seed", type=int, default=None, help="The game's random seed (default: random).")
@click.option("--seating", type=click.Choice(["fixed", "random"]), default="random",
              show_default=True, help="Seat players as given, or shuffled by the seed (C-2.1).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option (see docs/options.md).")
@click.option("--referee", default=None, metavar="EMAIL",
              help="The referee's address (may be a player's): the referee gets a key and "
              "acts by mail (docs/moderation.md).")
@click.option("--show-keys", is_flag=True, help="Also print each player's secret key.")
@click.option("--email", "send_email", is_flag=True,
              help="Mail each player the welcome mail with their key (see docs/mail-service.md).")
@click.pass_obj
def new(env: Env, title: str, players: tuple[str, ...], seed: int | None, seating: str,
        options: tuple[str, ...], referee: str | None, show_keys: bool,
        send_email: bool) -> None:
    """Create a game and print its id.

    \b
    Example:
      pbem new 1830 --player Alice:alice@example.org --player Bob:bob@example.org \\
                    --player Carol:carol@example.org --seed 7 --seating fixed
    """
    parsed = []
    for spec in players:
        name, sep, email = spec.partition(":")
        if not sep or not name.strip() or "@" not in email:
            fail(f"'{spec}' is not NAME:EMAIL, e.g. Alice:alice@example.org.", 2)
        parsed.append((name.strip(), email.strip()))
    opts = {}
    for spec in options:
        key, sep, value = spec.partition("=")
        if not sep:
            fail(f"'{spec}' is not KEY=VALUE, e.g. stock_turn=sell-buy.", 2)
        opts[key.strip()] = value.strip()
    store = env.store()
    try:
        created = service.create_game(
            store, title, parsed, seed=seed if seed is not None else secrets.randbelow(2**31),
            seating=seating, options=opts, now=now(), referee=referee)
    except SetupError as exc:
        fail(str(exc), 2)
    echo(created.game_id)
    echo(f"Seats: {', '.join(created.seats)}; {created.seats[0]} has the priority deal "
               "card.", err=True)
    if show_keys:
        for name, key in created.keys.items():
            echo(f"key {name}: {key}", err=True)
        if created.referee_key:
            echo(f"key referee: {created.referee_key}", err=True)
    if send_email:
        from .cli_mail import send_welcome

        send_welcome(env.db, created)


@main.command()
@click.argument("game", type=int)
@click.option("--as", "actor", required=True, metavar="NAME",
              help="The player acting, or referee.")
@click.argument("commands")
@click.pass_obj
def act(env: Env, game: int, actor: str, commands: str) -> None:
    """Carry out COMMANDS (separated by newlines or ';') for a player, all or none, as a
    mail with them would: game commands, undo, away, history... (docs/commands.md).

    Exit 0 when done, 1 when refused (nothing is recorded then). The referee (--as
    referee) has the referee's commands: as Alice <command>, deadline 48h, extend
    Alice 24h, pause, resume, replace Alice with Ben ben@example.org, kick Alice,
    revert to N, end game. Standing orders are set here too ("auto pass", "auto buy
    PRR until 60%", "auto cancel", "auto" lists them); the orders that are due are
    carried out after the commands, each as its player's command. Where the mail
    service is configured (pbem.toml or $PBEM_CONFIG), the players' mails are queued
    as for a mail.

    \b
    Example:
      pbem act 1 --as Alice "bid CA 170"
      pbem act 1 --as Bob "sell 2 PRR; buy NYC"
      pbem act 1 --as referee "extend Alice 24h"
      pbem act 1 --as Carol "auto buy PRR until 60%"
    """
    from .cli_moderation import act_command

    act_command(env, game, actor, commands)


@main.command()
@click.argument("game", type=int)
@click.option("--as", "viewer", default=None, metavar="NAME",
              help="Show what this player may see and do now.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html", "svg"]),
              default="text", show_default=True)
@click.pass_obj
def show(env: Env, game: int, viewer: str | None, fmt: str) -> None:
    """Show the game now: who must act, holdings, market, map.

    With --as, what that player may see (the visibility option), his commands and
    what happened since his last turn (text and html).

    \b
    Example:
      pbem show 1 --as Alice
      pbem show 1 --format json
      pbem show 1 --format svg > map.svg
    """
    store = env.store()
    recent: list[str] = []
    try:
        state = service.load(store, game)
        if viewer is not None:
            viewer = service.resolve_player(state, viewer)
            recent = since_last_turn(store.events(game, facts=False), viewer,
                                     more=f'"pbem log {game}" lists every event')
    except (StoreError, SetupError) as exc:
        fail(str(exc), 1)
    if fmt == "json":
        data = state_json(state, format_action, viewer)
        data["game"] = game
        data["options"] = state.options
        echo(json.dumps(data, indent=2, default=list))
    elif fmt == "svg":
        echo(svg_map(state))
    elif fmt == "html":
        echo(mail_parts(state, viewer, recent, image_cid="").html, nl=False)
    else:
        echo(f"Game #{game}")
        echo(options_text(state.title, state.options))
        echo(full_text(state, viewer, recent))


@main.command()
@click.argument("game", type=int)
@click.pass_obj
def log(env: Env, game: int) -> None:
    """Print the game's history: every event with who, when and what it did.

    \b
    Example:
      pbem log 1
    """
    store = env.store()
    try:
        events = store.events(game)
    except StoreError as exc:
        fail(str(exc), 1)
    for e in events:
        echo(f"[{e['seq']}] {e['received']} {e['actor'] or '-'}: {e['text']}")
        for line in e["log"]:
            echo(f"    {line}")


@main.command()
@click.argument("game", type=int, required=False)
@click.option("--all", "every", is_flag=True, help="Every game, and the list of the games.")
@click.pass_obj
def audit(env: Env, game: int | None, every: bool) -> None:
    """Check a game's record: the keyed hash chain and its sealed head, the players and
    settings, and every event decided again from the state before it.

    With --all, every game and the sealed list of games; every problem is printed
    with its game and event. Exit 1 when there is a problem.

    \b
    Example:
      pbem audit 1
      pbem audit --all
    """
    if (game is None) == (not every):
        fail("name a GAME, or give --all", 2)
    store = env.store()
    notes: list[str] = []
    try:
        problems, events, games = audit_games(store, None if every else game, notes)
    except StoreError as exc:
        fail(str(exc), 1)
    for note in notes:
        echo(note)
    for problem in problems:
        echo(f"audit failed: {problem}", err=True)
    if problems:
        sys.exit(1)
    counted = f" in {games} game{'' if games == 1 else 's'}" if every else ""
    echo(f"audit ok: {events} event{'' if events == 1 else 's'}{counted}")


def audit_games(store: Any, game: int | None,
                notes: list[str] | None = None) -> tuple[list[Any], int, int]:
    """(problems, events, games) of one game, or of every game and their list; the
    audit's notes are added to ``notes``."""
    games = [game] if game is not None else store.game_ids()
    problems = [] if game is not None else store.verify_games()
    events = 0
    for game_id in games:
        result = service.audit(store, game_id)
        problems += result.problems
        events += result.events
        if notes is not None:
            notes += [f"game #{game_id}: {note}" if game is None else note
                      for note in result.notes]
    return problems, events, len(games)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.pass_obj
def backup(env: Env, file: str) -> None:
    """Copy the database to FILE (SQLite's online backup: consistent while the service
    runs), mode 0600. The server secret is not copied: keep it apart (docs/store.md).

    \b
    Example:
      pbem backup /var/backups/pbem-$(date +%F).db
    """
    from .store.backup import backup_to

    store = env.store()
    try:
        pages = backup_to(store, file)
    except StoreError as exc:
        fail(str(exc), 1)
    echo(f"backed up to {file} ({pages} pages)")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--force", is_flag=True, help="Replace a database that exists.")
@click.pass_obj
def restore(env: Env, file: str, force: bool) -> None:
    """Replace the database with the backup FILE, after checking it: SQLite's
    integrity check, the server secret it was written with, and the audit of every
    game. Stop the service first.

    \b
    Example:
      pbem restore /var/backups/pbem-2025-01-31.db
    """
    from .store import default_db_path
    from .store.backup import restore_from

    target = env.db or str(default_db_path())
    try:
        restore_from(file, target, force=force,
                     audit=lambda store: audit_games(store, None)[0])
    except StoreError as exc:
        fail(str(exc), 1)
    echo(f"restored {target} from {file}; audit ok")


@main.command()
@click.argument("game", type=int)
@click.option("--format", "fmt", type=click.Choice(["json", "html", "18xx"]), default="json",
              show_default=True, help="JSON data, one self-contained HTML page, or an "
              "18xx.games log (docs/18xx-games.md).")
@click.option("--private", is_flag=True, help="HTML: the referee's copy, with private "
              "talk, standing orders and settings (left out of the page by default).")
@click.pass_obj
def export(env: Env, game: int, fmt: str, private: bool) -> None:
    """Write the whole game (setup and every event) as JSON, or as an HTML archive page
    with the history, a map to step through, holdings and the final scores.

    \b
    The JSON holds every event; the HTML page and the 18xx.games log leave out
    what not every player saw (private talk, standing orders, settings). A game
    played with an option 18xx.games does not have is not exported to its format.

    \b
    Example:
      pbem export 1 > game1.json
      pbem export 1 --format html > game1.html
      pbem export 1 --format html --private > game1-referee.html
      pbem export 1 --format 18xx > game1-18xx.json
    """
    store = env.store()
    if fmt == "18xx":
        from .importer.export import ExportError, export_game, verify_export

        try:
            document = export_game(store, game)
        except (StoreError, ExportError) as exc:
            fail(str(exc), 1)
        echo(json.dumps(document, indent=1, ensure_ascii=False))
        problem = verify_export(store, game, document)
        if problem:
            echo(f"Warning: under 18xx.games' rules this log differs at {problem}",
                       err=True)
        return
    try:
        data = {"game": store.game(game), "players": store.players(game),
                "events": store.events(game)}
        start = service.initial(store, game) if fmt == "html" else None
    except StoreError as exc:
        fail(str(exc), 1)
    for p in data["players"]:
        p.pop("key_hash", None)
    if start is not None:
        echo(archive_page(start, data["events"], data["game"], data["players"], private),
                   nl=False)
        return
    echo(json.dumps(data, indent=2, ensure_ascii=False))


@main.command()
@click.argument("game", type=int)
@click.option("--to", "to_seq", type=int, required=True, metavar="SEQ",
              help="The last event to keep (0: back to the start).")
@click.pass_obj
def undo(env: Env, game: int, to_seq: int) -> None:
    """Referee: revert the game to event SEQ (appends a revert event; nothing is deleted).

    \b
    Example:
      pbem undo 1 --to 12
    """
    store = env.store()
    try:
        seq = service.undo(store, game, to_seq, actor="referee", source="cli", now=now())
    except service.CommandError as exc:
        fail(exc.message, 1)
    except StoreError as exc:
        fail(str(exc), 1)
    echo(f"[{seq}] revert to {to_seq}")

from .cli_mail import register  # noqa: E402

register(main)

from .cli_import import register as register_import  # noqa: E402

register_import(main)

from .cli_moderation import register as register_moderation  # noqa: E402

register_moderation(main)
