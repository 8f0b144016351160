"""The application: one request (a CLI call or, later, one email) is one transaction.

Everything here is deterministic given its inputs; the caller supplies the time.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from . import snapshot
from .engine.errors import PbemError, RulesError, SetupError
from .engine.facts import Fact
from .engine.game import (
    ENGINE_VERSION,
    REFEREE,
    Decision,
    apply_facts,
    decide,
    legal_moves,
    new_game,
    recorded_with,
    seat_players,
    to_act,
)
from .engine.memo import ByIdentity
from .engine.state import GameState
from .engine.title import Title, load_title
from .identity import check_address, check_players
from .moderation.clock import reschedule
from .moderation.errors import ModerationError
from .moderation.options import Moderation
from .moderation.options import check as check_options
from .moderation.options import split as split_options
from .notation import (
    NotationError,
    ParseContext,
    closest,
    format_action,
    parse_command,
    split_commands,
)
from .orders import (
    MAX_AUTO_COMMANDS,
    ORDER_KIND,
    Drop,
    Order,
    OrderBook,
    OrderError,
    current_orders,
    new_order,
)
from .safe_text import visible
from .store import SERVICE_KINDS, Problem, Store, effective
from .store.keys import new_player_key


class CommandError(PbemError):
    """A command (or one of several) was refused; nothing was recorded."""

    def __init__(self, line: str, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.line = line
        self.suggestions = suggestions

    def __str__(self) -> str:
        text = f"Not done: {self.line}\n  {self.message}"
        if self.suggestions:
            text += "\nYou could: " + "; ".join(self.suggestions)
        return text


@dataclass
class Applied:
    seq: int
    text: str
    log: list[str]
    actor: str = ""  # whose command it is
    auto: bool = False  # given by the actor's standing order
    kind: str = "command"  # or "order": a standing order set, cancelled or dropped


@dataclass
class ActResult:
    applied: list[Applied] = field(default_factory=list)
    state: GameState | None = None
    drops: list[Drop] = field(default_factory=list)  # standing orders dropped
    answers: list[str] = field(default_factory=list)  # what 'auto' (the list) answers
    orders: OrderBook | None = None  # the standing orders in force after them


@dataclass
class NewGame:
    game_id: int
    seats: list[str]
    keys: dict[str, str]
    referee_key: str | None = None


# -- creating ---------------------------------------------------------------------------------


def create_game(
    store: Store,
    title: str,
    players: list[tuple[str, str]],
    *,
    seed: int,
    seating: str,
    options: dict[str, str],
    now: str,
    referee: str | None = None,
) -> NewGame:
    """Record a new game; players are (name, email) in the order given. Names and
    addresses are checked first (``identity.check_players``: InvalidPlayer, a
    SetupError, says what to change)."""
    check_players(players)
    if referee:
        check_address(referee)
    rules = load_title(title)
    resolved, moderation = game_options(rules, options, seating)
    names = [name for name, _ in players]
    emails = dict(players)
    seated = seat_players(names, seed, resolved["seating"])
    new_game(title, seated, seed, resolved)  # validates players and options
    keys = {name: new_player_key() for name in seated}
    referee_key = new_player_key() if referee else None
    with store.transaction():
        game_id = store.create_game(title, {**resolved, **moderation}, seed, ENGINE_VERSION,
                                    rules.rules_version, now, referee)
        if referee_key is not None:
            store.set_referee(game_id, referee, store.key_hash(referee_key))
        for seat, name in enumerate(seated):
            store.add_player(game_id, seat, name, emails[name], store.key_hash(keys[name]))
        if Moderation.of(moderation).has_deadlines:  # the first decision's deadline
            reschedule(store, game_id, initial(store, game_id), now, "setup")
    return NewGame(game_id, seated, keys, referee_key)


def game_options(rules: Title, options: dict[str, str], seating: str
                 ) -> tuple[dict[str, str], dict[str, str]]:
    """A new game's options as recorded, checked: the rules' options resolved (defaults,
    what presets set, the given ones; ``seating`` unless given) and the moderation
    options (docs/moderation.md). Raises SetupError saying what is wrong."""
    opts, moderation = split_options(dict(options))
    opts.setdefault("seating", seating)
    resolved = rules.resolve_options(opts)
    try:
        return resolved, check_options(moderation)
    except ModerationError as exc:
        raise SetupError(str(exc)) from exc


# -- loading ------------------------------------------------------------------------------------


def initial(store: Store, game_id: int) -> GameState:
    """The game before its first event, once the versions it was recorded with are read
    (a game recorded by a newer pbem is refused: SetupError)."""
    game = store.game(game_id)
    seated = [p["name"] for p in store.players(game_id)]
    rules_options, _ = split_options(game["options"])  # the moderation options are not rules
    options = load_title(game["title"]).options_as_recorded(rules_options)
    state = new_game(game["title"], seated, game["seed"], options)
    recorded_with(game["engine_version"], game["rules_version"], load_title(game["title"]))
    return state


def load(store: Store, game_id: int) -> GameState:
    """The game now: the newest usable snapshot (pbem.snapshot) and the facts of the
    events that count after it, or of all of them from the start. Inside a caller's
    transaction (a mail, a CLI command that writes), the state is kept as a new
    snapshot when events came after the one used."""
    game = store.game(game_id)
    recorded_with(game["engine_version"], game["rules_version"], load_title(game["title"]))
    marks = store.event_marks(game_id)
    found = snapshot.usable(store.snapshots(game_id), marks)
    start, state = found if found is not None else (0, initial(store, game_id))
    counted = {m["seq"] for m in effective(marks) if m["seq"] > start}
    if counted:
        for event in store.events(game_id, after=start):
            if event["seq"] in counted:
                apply_facts(state, event["facts"])
    if marks and marks[-1]["seq"] != start and store.conn.in_transaction:
        keep_snapshot(store, game_id, marks[-1], state)
    return state


def keep_snapshot(store: Store, game_id: int, last: dict[str, Any], state: GameState) -> None:
    """Keep ``state``, the game after its event ``last`` (seq and hash), as a snapshot."""
    store.put_snapshot(game_id, last["seq"], last["hash"], snapshot.engine_fingerprint(),
                       snapshot.encode(state))


def parse_context(state: GameState) -> ParseContext:
    corps, privates, trains = _symbols(state.rules)
    kind, in_auction = _moment(state)
    return ParseContext(
        corporations=corps,
        privates=privates,
        players=state.names,
        round_kind=kind,
        in_auction=in_auction,
        train_names=list(trains),
        title=state.title,
    )


def _moment(state: GameState) -> tuple[str, bool]:
    """What of the game's moment a reading depends on (parse_context): the round's kind,
    and whether a bid names no private company (between bidders, and in the base
    game's groups)."""
    kind = state.round.get("kind", "auction")
    return (kind if kind in ("auction", "stock", "operating") else "stock",
            bool(state.round.get("auction")) or bool(state.round.get("pending_par"))
            or state.round.get("round") == "groups")


Symbols = tuple[dict[str, str], dict[str, str], tuple[str, ...]]
#: the title's spellings of its companies and its trains' names, by the rules read once
#: (a game's rules are one object for the process: engine.title caches them)
_SYMBOLS: ByIdentity[Symbols] = ByIdentity(1000)


def _symbols(rules: Title) -> Symbols:
    """Every spelling (upper case) of the corporations and private companies -> symbol,
    and the trains' names (a ParseContext's; read-only)."""
    def made() -> Symbols:
        corps = {alias.upper(): c.sym for c in rules.corporations.values()
                 for alias in (c.sym, *c.aliases)}
        privates = {alias.upper(): p.sym for p in rules.privates.values()
                    for alias in (p.sym, *p.aliases)}
        return corps, privates, tuple(t.name for t in rules.trains)

    return _SYMBOLS.get((rules,), None, made)


def resolve_player(state: GameState, name: str) -> str:
    if name.lower() == REFEREE:
        return REFEREE
    for known in state.names:
        if known.lower() == name.lower():
            return known
    raise SetupError(f"There is no player '{name}' in this game; the players are "
                     f"{', '.join(state.names)}.")


# -- acting ------------------------------------------------------------------------------------


def legal_texts(state: GameState, actor: str) -> list[str]:
    texts = []
    for move in legal_moves(state).get(actor, []):
        try:
            texts.append(format_action(move["action"]))
        except Exception:  # a move the notation cannot print yet is simply not suggested
            continue
    return texts


def act(store: Store, game_id: int, actor: str, text: str, *, source: str, now: str,
        state: GameState | None = None, orders: OrderBook | None = None,
        in_place: bool = False, action: dict[str, Any] | None = None) -> ActResult:
    """Apply all commands in ``text`` by ``actor`` atomically, or raise CommandError; then
    carry out the standing orders that are due (``run_orders``).

    ``state``: the game as of its last stored event, when the caller already has it (a
    mail's turn, an importer replaying a long log); a copy of it is used instead of
    rebuilding the game from the store.  ``orders``: likewise the standing orders in
    force (``order_book``), instead of reading them from the store.  The caller vouches
    that they are current; the result holds both as the commands left them.

    ``in_place``: the commands are applied to ``state`` itself, not to a copy (an
    importer sending a long log one command at a time).  When a command is refused,
    ``state`` then holds the commands before it in ``text`` (which are not recorded):
    the state before ``text`` only when the refused command is its first.  After any
    other exception it must not be used.

    ``action``: what ``text``, one command, reads as, when the caller made the text from
    it (format_action) and vouches that the notation reads it back so (an importer's:
    tests/importhelp.commands_as_read checks it); the notation is then not asked, and
    the action is the game's (it may be stored as it is).
    """
    result = ActResult()
    with store.transaction():
        if state is None:
            state = load(store, game_id)
        elif not in_place:  # every change is a decision's state taken whole (Recorder)
            state = state.shell()
        actor = resolve_player(state, actor)
        record = Recorder(store, game_id, source, now, result)
        book = OrderBook(orders.orders) if orders is not None else order_book(store, game_id)
        made = text if action is not None else None  # the caller's format_action(action)
        if action is None:
            ctx = parse_context(state)
            lines = [line for _, line in split_commands(text, ctx)]
            first = _parse(state, actor, lines[0], ctx) if lines else {}
        else:
            lines, first = [text], action
        for number, line in enumerate(lines):
            # the first command reads the game as split; the next, as the one before left it
            action = first if number == 0 else _parse(state, actor, line)
            if action["type"] == "auto":
                _order_command(record, state, book, actor, line, action)
                continue
            before = book.snapshot(state) if book else None
            try:
                decision = decide(state, actor, action)
            except RulesError as exc:
                suggestions = closest(line, legal_texts(state, actor))
                raise CommandError(line, str(exc), suggestions) from exc
            record.command(state, actor, action, decision, text=made)
            if before is not None:
                record.drops(book.changed(before, state, actor))
        run_orders(record, state, book)
        if state.finished:
            store.set_status(game_id, "finished")
    if not result.applied and not result.answers and not result.drops:
        raise CommandError(text.strip(), "There was no command to carry out.", [])
    result.state, result.orders = state, book
    return result


class Recorder:
    """Appends one request's events (commands, standing orders) and collects them."""

    def __init__(self, store: Store, game_id: int, source: str, now: str,
                 result: ActResult) -> None:
        self.store, self.game_id, self.source, self.now = store, game_id, source, now
        self.result = result
        self.seq = store.last_seq(game_id)

    def command(self, state: GameState, actor: str, action: dict[str, Any],
                decision: Decision, source: str | None = None,
                text: str | None = None) -> None:
        """Record ``decision`` of ``action`` (``text``: format_action(action), when the
        caller has it) and make ``state`` (the state decided on) the state it made
        (``decision.state``, not the facts applied again)."""
        facts, log = decision.facts, decision.log
        canonical = text if text is not None else format_action(action)
        self.seq += 1
        self.store.append_event(self.game_id, self.seq, kind="command", command=action,
                                text=canonical, actor=actor, source=source or self.source,
                                received=self.now, facts=[f.to_json() for f in facts],
                                log=log, as_stored=True, hash_later=True)
        assert decision.state is not None
        state.become(decision.state)
        self.result.applied.append(Applied(self.seq, canonical, log, actor,
                                           auto=source is not None))

    def order(self, actor: str, text: str, command: dict[str, Any], log: list[str],
              source: str | None = None) -> int:
        self.seq += 1
        self.store.append_event(self.game_id, self.seq, kind=ORDER_KIND, command=command,
                                text=text, actor=actor, source=source or self.source,
                                received=self.now, facts=[], log=log, as_stored=True,
                                hash_later=True)
        self.result.applied.append(Applied(self.seq, text, log, actor, auto=source is not None,
                                           kind=ORDER_KIND))
        return self.seq

    def drops(self, drops: list[Drop]) -> None:
        for drop in drops:
            self.order(drop.order.player, f"auto dropped: {drop.order.text}",
                       {"type": "auto", "dropped": drop.order.seq, "reason": drop.reason},
                       [drop.note], source=f"auto {drop.order.seq}")
            self.result.drops.append(drop)


def order_book(store: Store, game_id: int) -> OrderBook:
    return OrderBook(current_orders(store.events_of_kind(game_id, (ORDER_KIND,))))


def _order_command(record: Recorder, state: GameState, book: OrderBook, actor: str,
                   line: str, action: dict[str, Any]) -> None:
    """auto (list), auto cancel, auto pass, auto buy ...: an 'order' event, or an answer."""
    mine = book.orders.get(actor)
    if action.get("cancel"):
        if mine is None:
            raise CommandError(line, "You have no standing order to cancel.", [])
        record.order(actor, "auto cancel", {"type": "auto", "cancel": True},
                     [f"{actor} cancels the standing order {mine.text}."])
        del book.orders[actor]
        return
    if not action.get("order"):
        record.result.answers.append(f"Your standing order: {mine.describe()}" if mine else
                                     "You have no standing order (auto pass, auto buy PRR "
                                     "until 60%).")
        return
    try:
        order = new_order(state, actor, action, record.seq + 1)
    except OrderError as exc:
        raise CommandError(line, str(exc), []) from exc
    replaced = f" It replaces {mine.text}." if mine else ""
    record.order(actor, order.text, {"type": "auto", "order": order.to_json()},
                 [f"{actor} sets a standing order: {order.describe()}{replaced}"])
    book.orders[actor] = order


def run_orders(record: Recorder, state: GameState, book: OrderBook) -> None:
    """Carry out the standing orders that are due, one turn after another, until none is:
    each command is its player's, with the source ``auto <seq of the order>``."""
    given = 0
    while book and given < MAX_AUTO_COMMANDS:
        order = book.due(state)
        if order is None:
            return
        commands = book.commands(state, order)
        if isinstance(commands, Drop):
            record.drops([commands])
            continue
        if not commands:  # the player must decide himself (nothing the order may do)
            return
        for action in commands:
            _auto_command(record, state, book, order, action)
            given += 1
        ends_turn = commands[-1]["type"] == "buy_share" and order.player in to_act(state)
        if ends_turn and any(m["action"]["type"] == "pass"
                             for m in legal_moves(state).get(order.player, [])):
            _auto_command(record, state, book, order, {"type": "pass"})  # buy PRR; done
            given += 1


def _auto_command(record: Recorder, state: GameState, book: OrderBook, order: Order,
                  action: dict[str, Any]) -> None:
    before = book.snapshot(state)
    decision = decide(state, order.player, action)  # legal: taken from legal_moves
    log = [f"({order.player}'s standing order {order.text})", *decision.log]
    record.command(state, order.player, action, Decision(decision.facts, log, decision.state),
                   source=f"auto {order.seq}")
    record.drops(book.changed(before, state, order.player))


def _parse(state: GameState, actor: str, line: str,
           ctx: ParseContext | None = None) -> dict[str, Any]:
    """``line`` read on ``state`` (``ctx``: its parse context, when the caller has it)."""
    ctx = ctx or parse_context(state)
    try:
        return parse_command(line, ctx)
    except NotationError:
        pass
    # Not understood: read it again knowing the legal commands, for the suggestions
    # (listing them can take a route search, so only when needed).
    ctx.legal = legal_texts(state, actor)
    try:
        return parse_command(line, ctx)
    except NotationError as exc:
        raise CommandError(line, exc.message, closest(line, ctx.legal)) from exc


def undo(store: Store, game_id: int, to_seq: int, *, actor: str, source: str, now: str) -> int:
    """Append a 'revert to seq N' event; returns its seq."""
    with store.transaction():
        last = store.last_seq(game_id)
        if not 0 <= to_seq < last:
            raise CommandError(f"undo --to {to_seq}", f"Game #{game_id} has events 1 to {last}; "
                               f"revert to a number from 0 to {last - 1}.", [])
        seq = last + 1
        store.append_event(game_id, seq, kind="revert", command=None,
                           text=f"revert to {to_seq}", actor=actor, source=source,
                           received=now, facts=[], log=[f"The game is reverted to event "
                                                        f"{to_seq}."], revert_to=to_seq)
    return seq


# -- auditing ------------------------------------------------------------------------------------


@dataclass
class AuditResult:
    events: int
    problems: list[Problem] = field(default_factory=list)
    #: what the reader should know (the game was recorded under other rules data)
    notes: list[str] = field(default_factory=list)

    @property
    def problem(self) -> str | None:
        """The first problem as a sentence, or None when the record is sound."""
        return str(self.problems[0]) if self.problems else None


#: Event kinds that record something without changing the game (table talk, standing
#: orders, settings): audit checks that they carry no facts. Any kind audit does not
#: know is reported.
RECORD_ONLY_KINDS: frozenset[str] = frozenset(SERVICE_KINDS)


def audit(store: Store, game_id: int) -> AuditResult:
    """Check a game's record: the keyed hash chain, its sealed head, setup and players
    (store.verify_record), then every event again from the state before it: commands
    re-decided (the same facts), talk, orders, settings and undos changing nothing,
    every kind known. Every problem is reported, with its seq; the check goes on after
    one.
    The game's snapshots are checked against the states reached (pbem.snapshot): one
    that differs, or that another engine wrote, is dropped once the events are checked
    (a note says so when it differed). That is audit's only write, to a cache; on a
    read-only database the snapshots stay and a note says so (drop_bad_snapshots)."""
    events, problems = store.verified_events(game_id)
    try:
        state = initial(store, game_id)
    except (SetupError, ValueError, KeyError) as exc:
        problems.append(Problem(game_id, None, f"the game cannot be set up again: {exc}"))
        return AuditResult(len(events), problems)
    game = store.game(game_id)
    notes = recorded_with(game["engine_version"], game["rules_version"], state.rules)
    snapshots = {row["seq"]: row for row in store.snapshots(game_id)}
    bad: list[int] = []  # the seqs of snapshots to drop
    counted: list[dict[str, Any]] = []
    for event in events:
        if event["kind"] == "revert" and _valid_revert(event):
            if event["facts"]:
                problems.append(Problem(game_id, event["seq"], "an undo that changes the game"))
            counted = [e for e in counted if e["seq"] <= event["revert_to"]]
            state = initial(store, game_id)
            for earlier in counted:
                apply_facts(state, earlier["facts"])
            _check_snapshot(game_id, snapshots.get(event["seq"]), state, problems, notes,
                            bad)
            continue
        problem, decision = _audit_event(state, event)
        if decision is not None and decision.state is not None and \
                decision.has_records(event["facts"] or []):
            state = decision.state  # the stored facts' state: the decision's, made by them
        else:
            try:
                stored = apply_facts(state, event["facts"] or [])  # facts of today (upcast)
            except Exception as exc:  # noqa: BLE001 - a stored fact that cannot be applied
                problems.append(Problem(game_id, event["seq"], f"its facts cannot be "
                                        f"applied ({type(exc).__name__}: {exc})"))
                drop_bad_snapshots(store, game_id, bad, notes)
                return AuditResult(len(events), problems, notes)
            if problem is None and decision is not None and not _same_facts(decision, stored):
                problem = f"{_short(event['text'])} gives different facts when decided again"
        if problem:
            problems.append(Problem(game_id, event["seq"], problem))
        counted.append(event)
        _check_snapshot(game_id, snapshots.get(event["seq"]), state, problems, notes,
                            bad)
    drop_bad_snapshots(store, game_id, bad, notes)
    return AuditResult(len(events), problems, notes)


def _same_facts(decision: Decision, stored: list[Fact]) -> bool:
    """Whether a command decided again has its stored facts (read as facts of today):
    the same records. Facts equal field by field have the same records, so they are
    compared first; facts that may differ only in how a value is held (a tuple decided,
    a list read back) are compared as records."""
    return decision.facts == stored or decision.records == [f.to_json() for f in stored]


def _valid_revert(event: dict[str, Any]) -> bool:
    target = event.get("revert_to")
    return isinstance(target, int) and 0 <= target < event["seq"]


def _audit_event(state: GameState, event: dict[str, Any]) -> tuple[str | None, Any]:
    """What is wrong with one event on ``state`` (the state before it), and for a
    command the decision made again (to compare with its facts)."""
    kind = event["kind"]
    if kind == "revert":
        return f"the undo goes back to {event.get('revert_to')!r}, not an earlier event", None
    if is_talk(event) or kind in RECORD_ONLY_KINDS:
        what = "table talk" if is_talk(event) else f"a {kind} event"
        if event["facts"]:
            return f"{what} ({_short(event['text'])}) carries facts that change the game", None
        return None, None
    if kind == "setup":  # recorded as it was set up: its facts are applied, not decided
        return None, None
    if kind != "command":
        return f"an event of unknown kind {kind!r}", None
    try:
        return None, decide(state, event["actor"], event["command"])
    except RulesError as exc:
        return f"{_short(event['text'])} is refused when decided again: {exc}", None
    except Exception as exc:  # noqa: BLE001 - a command the engine cannot read at all
        return f"{_short(event['text'])} cannot be decided again ({type(exc).__name__})", None


def is_talk(event: dict[str, Any]) -> bool:
    """Table talk (``say``): an event without effect on the game, whatever its kind."""
    command = event.get("command")
    return (event["kind"] in ("setup", "talk") and isinstance(command, dict)
            and command.get("type") == "say")


def _short(text: str, width: int = 60) -> str:
    text = visible(str(text))
    return text if len(text) <= width else text[: width - 3] + "..."


def _check_snapshot(game_id: int, row: dict[str, Any] | None, state: GameState,
                    problems: list[Problem], notes: list[str], bad: list[int]) -> None:
    """Compare the snapshot ``row`` (if any) with ``state``, the game after its event;
    its seq goes to ``bad`` (to drop) when it is unsealed (a problem: something else
    wrote the file), was written by another engine (silently) or differs (a note)."""
    if row is None:
        return
    seq = row["seq"]
    if not row["sealed"]:
        bad.append(seq)
        problems.append(Problem(game_id, seq, "the snapshot of the game after this "
                                "event was not written by this server (its seal does not "
                                "hold); it is never read, and audit drops it"))
        return
    if row["engine"] != snapshot.engine_fingerprint():
        bad.append(seq)
        return
    try:
        same = snapshot.decode(row["state"]) == state
    except Exception:  # noqa: BLE001 - unreadable: as good as different
        same = False
    if not same:
        bad.append(seq)
        notes.append(f"The snapshot of the game after event {seq} differed from the game "
                     "rebuilt from its events; audit drops it (it is only a cache: the "
                     "events are the record).")


def drop_bad_snapshots(store: Store, game_id: int, seqs: list[int], notes: list[str]) -> None:
    """Drop the snapshots audit found bad, after the check (audit writes nothing else).
    A database audit may not write (a read-only file, a copy being inspected) keeps
    them, and a note says so: loading never reads an unsealed snapshot or another
    engine's, but would start from one that differs, so run the audit where it may
    write before serving from that file."""
    for seq in seqs:
        try:
            store.drop_snapshots(game_id, seq)
        except sqlite3.OperationalError as exc:
            listed = ", ".join(str(s) for s in seqs)
            notes.append(f"The snapshots after events {listed} could not be dropped ({exc}); "
                         "they are only a cache, but pbem would start from one that "
                         "differed: audit again with write access before serving from "
                         "this file.")
            return


def waiting_for(state: GameState) -> list[str]:
    return to_act(state)
