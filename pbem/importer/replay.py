"""Replaying a site log into a pbem game: every command goes through service.act, so it
is decided by pbem's engine and stored as events like any command sent by mail."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .. import service
from ..engine.errors import RulesError
from ..engine.game import apply_facts, decide
from ..engine.state import GameState
from ..engine.title import load_title
from ..identity import MAX_NAME, skeleton
from ..notation import format_action
from ..orders import OrderBook
from ..store import Store
from .options import READ_BY, Reader, site_options
from .sitelog import (
    CHAT_TYPES,
    INERT_TYPES,
    LogError,
    SiteAction,
    SiteLog,
    effective_actions,
    flatten,
)
from .translate import Command, Translator, Unsupported, Upcoming


@dataclass
class Applied:
    """One site action and the pbem commands it became."""

    site: SiteAction
    commands: list[tuple[Command, str]] = field(default_factory=list)  # (command, text)


@dataclass
class Refusal:
    """Why the import stopped: the site action, the command (if any) and pbem's reason."""

    site: SiteAction
    text: str | None
    reason: str
    recent: list[Applied]
    state: GameState
    #: options under which the log's own record says the site decided it (ReadingDiffers)
    options: dict[str, str] | None = None


class ImportStopped(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


@dataclass
class Imported:
    game_id: int
    names: dict[str, str]  # site player key -> pbem name
    state: GameState
    applied: list[Applied]
    stopped_at: Any = None  # the id given with --to, when the import stopped there
    refusal: Refusal | None = None
    #: options taken from the log's own record (an older site's reading), if any
    readings: dict[str, str] = field(default_factory=dict)


# -- setting up ---------------------------------------------------------------------------------


def pbem_name(name: str, taken: set[str]) -> str:
    """A site player name as a pbem player name (letters, digits, - and _, at most
    identity.MAX_NAME characters, not looking like another: ``taken`` holds the
    skeletons of the names given so far)."""
    base = re.sub(r"[^A-Za-z0-9_-]+", "_", name.strip()).strip("_")[:MAX_NAME - 3] or "Player"
    candidate, n = base, 2
    while skeleton(candidate) in taken:
        candidate, n = f"{base}_{n}", n + 1
    taken.add(skeleton(candidate))
    return candidate


def player_names(log: SiteLog) -> dict[str, str]:
    taken: set[str] = set()
    return {p.key: pbem_name(p.name, taken) for p in log.players}


def timestamp(value: Any) -> str:
    """The site's ``created_at`` (Unix seconds, or a date string) as ISO text."""
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC).isoformat(timespec="seconds")
    return str(value or "")


def create(store: Store, log: SiteLog, names: dict[str, str], emails: dict[str, str],
           now: str, readings: dict[str, str] | None = None) -> int:
    players = [(names[p.key], emails.get(names[p.key], "")) for p in log.players]
    created = service.create_game(store, log.title, players, seed=0, seating="fixed",
                                  options={**site_options(log), **(readings or {})}, now=now)
    return created.game_id


def game_options(log: SiteLog, readings: dict[str, str]) -> dict[str, str]:
    """The options ``create`` records for the log's game with ``readings``."""
    resolved, moderation = service.game_options(load_title(log.title),
                                                {**site_options(log), **readings}, "fixed")
    return {**resolved, **moderation}


# -- replaying ----------------------------------------------------------------------------------


#: site actions the replay passes over (chat messages are recorded as talk)
SKIPPED = INERT_TYPES - CHAT_TYPES


def stamp(site: SiteAction) -> tuple[str, str]:
    """The ``source`` and ``now`` of the events a site action's commands record."""
    return f"18xx.games action {site.get('id', '-')}", timestamp(site.get("created_at"))


@dataclass
class Replay:
    store: Store
    game_id: int
    translator: Translator
    state: GameState
    applied: list[Applied] = field(default_factory=list)
    #: the standing orders in force (a site log sets none)
    orders: OrderBook | None = field(default_factory=lambda: OrderBook({}))
    #: called with each site action and pbem's state just before it (the commands change
    #: that state in place afterwards: a hook copies what it keeps)
    watch: Callable[[SiteAction, GameState], None] | None = None
    #: called likewise once pbem has done what the site did by itself before the action
    #: (the implicit commands): both engines should then be in the same state
    settled: Callable[[SiteAction, GameState], None] | None = None
    #: the action under way: its index in the actions and the number of entries in
    #: ``applied`` before it
    began: tuple[int, int] = (0, 0)
    #: the site action whose commands are being sent, with its ``stamp``
    _stamped: tuple[SiteAction | None, str, str] = (None, "", "")

    def run(self, actions: list[SiteAction], to: Any = None, start: int = 0) -> Any:
        """Replay ``actions`` (flattened, effective) from the one at ``start``; stop before
        the one with id ``to``. Returns ``to`` when it stopped there, else None."""
        i = start
        while i < len(actions):
            site = actions[i]
            if to is not None and not site.get("auto") and site.get("id") == to:
                return to
            self.translator.upcoming = Upcoming(actions, i)
            self.translator.absorbed = 0
            if self.watch is not None:
                self.watch(site, self.state)
            self.began = (i, len(self.applied))
            if site.get("type") in self.translator.may_reread:
                self.step_or_take_back(site)
            else:
                self.step(site)
            absorbed = self.translator.absorbed
            for taken in actions[i + 1:i + 1 + absorbed] if absorbed else ():
                self.translator.after(self.state, taken)
            i += 1 + absorbed
        self.commands(None, self.translator.finish(self.state))
        return None

    def step_or_take_back(self, site: SiteAction) -> None:
        """``step``, in a savepoint that takes the action's commands back when the log's
        record calls for another reading of the rules there (``reread`` then decides
        whether the game goes on from this action with it). Any other refusal leaves
        them, as ``step`` does."""
        refused: ImportStopped | None = None
        with self.store.transaction():
            try:
                self.step(site)
            except ImportStopped as exc:
                if exc.refusal.options:
                    raise  # out of the savepoint: rolled back
                refused = exc
        if refused is not None:
            raise refused

    def step(self, site: SiteAction) -> None:
        kind = site.get("type")
        if kind in SKIPPED:
            return
        entry = Applied(site)
        self.applied.append(entry)
        if kind in CHAT_TYPES:
            self.say(site, entry)
            return
        try:
            for _ in range(20):
                implicit = self.translator.before(self.state, site)
                if not implicit:
                    break
                self.commands(entry, implicit)
            if self.settled is not None:
                self.settled(site, self.state)
            self.commands(entry, self.translator.translate(self.state, site))
            self.translator.verify(self.state, site)
        except Unsupported as exc:
            refusal = self.refusal(site, None, str(exc))
            refusal.options = getattr(exc, "options", None)
            raise ImportStopped(refusal) from None
        if kind == "run_routes":
            self.check_revenue(site)
        if kind == "lay_tile":
            self.check_tile(site)
        self.translator.after(self.state, site)

    def check_tile(self, site: SiteAction) -> None:
        """pbem's command names the tile's exits; the track must lie as on the site."""
        name, rotation = self.translator.tile_name(site["tile"]), int(site["rotation"])
        laid = self.state.board.tiles.get(site["hex"])
        tile = self.state.map.tiles.get(name)
        if laid is None or tile is None or laid[0] != name or \
                (laid[1] != rotation and tile.layout(laid[1]) != tile.layout(rotation)):
            raise ImportStopped(self.refusal(
                site, None, f"pbem laid {laid} on {site['hex']}, the site tile {name} at "
                f"rotation {rotation}"))

    def check_revenue(self, site: SiteAction) -> None:
        """The site's recorded revenue must be what pbem makes of the same routes."""
        recorded = sum(int(r.get("revenue", 0)) for r in site.get("routes") or [])
        rnd = self.state.round
        run = (rnd.get("connection") or {}).get("run") or rnd.get("turn", {}).get("run") or {}
        if run.get("revenue") != recorded:
            raise ImportStopped(self.refusal(
                site, None, f"pbem counts ${run.get('revenue')} for the recorded routes, the "
                f"site ${recorded}"))

    def commands(self, entry: Applied | None, commands: list[Command]) -> None:
        for command in commands:
            self.act(entry, command)
            proposal = self.state.round.get("proposal")
            if proposal:  # the site has no consent step: the other side accepts
                self.act(entry, Command(proposal["answer_by"], {"type": "accept"},
                                        "the site needs no consent"))

    def act(self, entry: Applied | None, command: Command) -> None:
        text = format_action(command.action)
        site = entry.site if entry is not None else {}
        if self._stamped[0] is not site:  # an action's commands share its source and time
            self._stamped = (site, *stamp(site))
        _, source, now = self._stamped
        try:
            result = service.act(self.store, self.game_id, command.actor, text,
                                 source=source, now=now, state=self.state,
                                 orders=self.orders, in_place=True,  # one command
                                 action=command.action)  # as the notation reads text
        except service.CommandError as exc:
            raise ImportStopped(self.refusal(site, f"{command.actor}: {text}",
                                             exc.message)) from None
        assert result.state is not None
        self.state, self.orders = result.state, result.orders
        if entry is not None:
            entry.commands.append((command, text))

    def say(self, site: SiteAction, entry: Applied) -> None:
        from ..mail.processing.talk import record

        speaker = self.translator.names.get(str(site.get("entity")))
        if speaker is None:
            return
        source, now = stamp(site)
        record(self.store, self.game_id, speaker, str(site.get("message", "")),
               source=source, now=now)

    def refusal(self, site: SiteAction, text: str | None, reason: str) -> Refusal:
        return Refusal(site, text, reason, self.applied[-6:], self.state)

    def reread(self, options: dict[str, str], recorded: dict[str, str]) -> bool:
        """The log's record needs ``options`` (an older reading of the site) at the action
        under way, where the replay stopped (its commands taken back:
        ``step_or_take_back``). When every command before it decides the same under them,
        the game takes them (``recorded``: its options with them, as created) and True is
        returned: the replay goes on from that action. Only the commands whose decision
        may read the options (options.READ_BY: most never do) and may read them to
        another answer (``_matters_within``: most cannot) are decided again, on the game
        rebuilt from its facts. False when one decides otherwise, an option has no such
        rule, or hooks watch the replay: the caller replays the log from the start (the
        game and its events are then rolled back with the transaction)."""
        found = [READ_BY.get(key) for key in options]
        readers = [reader for reader in found if reader is not None]
        if self.watch is not None or self.settled is not None or len(readers) < len(found):
            return False
        _, entries = self.began
        self.store.replace_options(self.game_id, recorded)
        events = self.store.events(self.game_id)
        state = service.initial(self.store, self.game_id)
        for event in events:
            facts = event["facts"] or []
            asking = [reader for reader in readers if reader.asks(state, facts)] \
                if event["kind"] == "command" else []
            if not asking:
                apply_facts(state, facts)
                continue
            stepped = state.clone()  # stepped through its facts, as far as they matter
            if not _matters_within(stepped, facts, asking):
                state = stepped
            else:  # decided again on the state before it
                try:
                    decision = decide(state, event["actor"], event["command"])
                except RulesError:
                    return False
                if decision.records != facts or decision.log != event["log"]:
                    return False
                apply_facts(state, facts)
        self.state = state
        del self.applied[entries:]  # the action's entry: made again when it is replayed
        return True


def _matters_within(state: GameState, facts: list[dict[str, Any]],
                    readers: list[Reader]) -> bool:
    """Whether a reader's option may matter in a state the command passes through (the
    state before it, then after each of its facts: its decision applied each as it made
    it; a reader is not asked again after a fact it does not read), ``state`` stepped
    through the facts meanwhile: fully when not, up to that state when so."""
    if any(reader.matters(state) for reader in readers):
        return True
    for fact in facts:
        apply_facts(state, [fact])
        if any(not reader.unread(fact) and reader.matters(state) for reader in readers):
            return True
    return False


def translator_for(log: SiteLog, names: dict[str, str]) -> Translator:
    if log.title == "1830":
        from .t1830 import Translator1830

        return Translator1830(names)
    if log.title == "1870":
        from .t1870 import Translator1870

        return Translator1870(names)
    raise Unsupported(f"pbem cannot import {log.title or 'this title'} games yet")


def replay_log(store: Store, log: SiteLog, *, emails: dict[str, str] | None = None,
               to: Any = None, now: str = "",
               watch: Callable[[SiteAction, GameState], None] | None = None,
               settled: Callable[[SiteAction, GameState], None] | None = None) -> Imported:
    """Create the game and replay the log up to the end, the action ``to`` or the first
    action pbem refuses (then ``refusal`` says why).  When the log's own record shows
    that the site read a rule otherwise (translate.ReadingDiffers: an older version of
    the site), the game takes that reading's option and goes on from there when the
    commands before decide the same under it (``Replay.reread``); else it is rolled
    back and replayed with the option from the start."""
    actions = flatten(effective_actions(log.actions))
    if to is not None and not any(a.get("id") == to and not a.get("auto") for a in actions):
        raise LogError(f"the log has no action {to} in effect (undone actions do not count)")
    names = player_names(log)
    readings: dict[str, str] = {}
    while True:
        try:
            with store.transaction():
                imported = _replay(store, log, actions, names, emails or {}, now, to,
                                   (watch, settled), readings)
                refusal = imported.refusal
                if refusal is not None and refusal.options and \
                        not set(refusal.options.items()) <= set(readings.items()):
                    raise _Again(refusal.options)
            imported.readings = dict(readings)
            return imported
        except _Again as again:  # the game is rolled back; once more with those options
            readings.update(again.options)


class _Again(Exception):
    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self.options = options


Hook = Callable[[SiteAction, GameState], None] | None


def _replay(store: Store, log: SiteLog, actions: list[SiteAction], names: dict[str, str],
            emails: dict[str, str], now: str, to: Any, hooks: tuple[Hook, Hook],
            readings: dict[str, str]) -> Imported:
    translator = translator_for(log, names)
    game_id = create(store, log, names, emails, now, readings)
    state = service.load(store, game_id)
    run = Replay(store, game_id, translator, state, watch=hooks[0], settled=hooks[1])
    with store.appending(game_id):  # the chain head sealed once, at the end
        start = 0
        while True:
            try:
                stopped = run.run(actions, to, start)
            except ImportStopped as exc:
                wanted = exc.refusal.options
                if not wanted or set(wanted.items()) <= set(readings.items()) or \
                        not run.reread(wanted, game_options(log, {**readings, **wanted})):
                    return Imported(game_id, names, run.state, run.applied,
                                    refusal=exc.refusal)
                readings.update(wanted)  # the game goes on with them from that action
                start = run.began[0]
                continue
            return Imported(game_id, names, run.state, run.applied, stopped_at=stopped)
