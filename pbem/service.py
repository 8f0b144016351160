"""The application: one request (a CLI call or, later, one email) is one transaction.

Everything here is deterministic given its inputs; the caller supplies the time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine.errors import RulesError, SetupError
from .engine.game import (
    ENGINE_VERSION,
    REFEREE,
    apply_facts,
    decide,
    legal_moves,
    new_game,
    seat_players,
    to_act,
)
from .engine.state import GameState
from .engine.title import load_title
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
from .store import Store
from .store.keys import hash_key, new_player_key


class CommandError(Exception):
    """A command (or one of several) was refused; nothing was recorded."""

    def __init__(self, line: str, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
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


@dataclass
class ActResult:
    applied: list[Applied] = field(default_factory=list)
    state: GameState | None = None


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
    """Record a new game; players are (name, email) in the order given."""
    rules = load_title(title)
    opts, moderation = split_options(dict(options))
    opts.setdefault("seating", seating)
    resolved = rules.resolve_options(opts)
    try:
        moderation = check_options(moderation)
    except ModerationError as exc:
        raise SetupError(str(exc)) from exc
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
            store.set_referee(game_id, referee, hash_key(referee_key))
        for seat, name in enumerate(seated):
            store.add_player(game_id, seat, name, emails[name], hash_key(keys[name]))
        if Moderation.of(moderation).has_deadlines:  # the first decision's deadline
            reschedule(store, game_id, initial(store, game_id), now, "setup")
    return NewGame(game_id, seated, keys, referee_key)


# -- loading ------------------------------------------------------------------------------------


def initial(store: Store, game_id: int) -> GameState:
    game = store.game(game_id)
    seated = [p["name"] for p in store.players(game_id)]
    rules_options, _ = split_options(game["options"])  # the moderation options are not rules
    return new_game(game["title"], seated, game["seed"], rules_options)


def load(store: Store, game_id: int) -> GameState:
    """Rebuild the game by applying the facts of its effective events."""
    state = initial(store, game_id)
    for event in store.effective_events(game_id):
        apply_facts(state, event["facts"])
    return state


def parse_context(state: GameState) -> ParseContext:
    rules = state.rules
    corps: dict[str, str] = {}
    for c in rules.corporations.values():
        for alias in (c.sym, *c.aliases):
            corps[alias.upper()] = c.sym
    privates: dict[str, str] = {}
    for p in rules.privates.values():
        for alias in (p.sym, *p.aliases):
            privates[alias.upper()] = p.sym
    kind = state.round.get("kind", "auction")
    return ParseContext(
        corporations=corps,
        privates=privates,
        players=state.names,
        round_kind=kind if kind in ("auction", "stock", "operating") else "stock",
        in_auction=bool(state.round.get("auction")) or bool(state.round.get("pending_par")),
        train_names=[t.name for t in rules.trains],
    )


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
        state: GameState | None = None) -> ActResult:
    """Apply all commands in ``text`` by ``actor`` atomically, or raise CommandError.

    ``state``: the game as of its last stored event, when the caller already has it (an
    importer replaying a long log); a copy of it is used instead of rebuilding the game
    from the store.  The caller vouches that it is current.
    """
    result = ActResult()
    with store.transaction():
        state = state.clone() if state is not None else load(store, game_id)
        actor = resolve_player(state, actor)
        seq = store.last_seq(game_id)
        for _, line in split_commands(text, parse_context(state)):
            action = _parse(state, actor, line)
            try:
                decision = decide(state, actor, action)
            except RulesError as exc:
                suggestions = closest(line, legal_texts(state, actor))
                raise CommandError(line, str(exc), suggestions) from exc
            canonical = format_action(action)
            seq += 1
            store.append_event(game_id, seq, kind="command", command=action, text=canonical,
                               actor=actor, source=source, received=now,
                               facts=decision.facts, log=decision.log)
            apply_facts(state, decision.facts)
            result.applied.append(Applied(seq, canonical, decision.log))
        if state.finished:
            store.set_status(game_id, "finished")
    if not result.applied:
        raise CommandError(text.strip(), "There was no command to carry out.", [])
    result.state = state
    return result


def _parse(state: GameState, actor: str, line: str) -> dict[str, Any]:
    ctx = parse_context(state)
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
    problem: str | None


def audit(store: Store, game_id: int) -> AuditResult:
    """Verify the hash chain and re-decide every command from the state before it."""
    events = store.events(game_id)
    broken = store.verify_chain(game_id)
    if broken is not None:
        return AuditResult(len(events), f"event {broken}: its hash does not match the chain")
    state = initial(store, game_id)
    effective: list[dict[str, Any]] = []
    for event in events:
        if event["kind"] == "revert":
            effective = [e for e in effective if e["seq"] <= event["revert_to"]]
            state = initial(store, game_id)
            for earlier in effective:
                apply_facts(state, earlier["facts"])
            continue
        if event["kind"] != "command":
            apply_facts(state, event["facts"])
            effective.append(event)
            continue
        try:
            decision = decide(state, event["actor"], event["command"])
        except RulesError as exc:
            return AuditResult(len(events), f"event {event['seq']} ({event['text']}) is refused "
                               f"when decided again: {exc}")
        if decision.facts != event["facts"]:
            return AuditResult(len(events), f"event {event['seq']} ({event['text']}) gives "
                               "different facts when decided again")
        apply_facts(state, event["facts"])
        effective.append(event)
    return AuditResult(len(events), None)


def waiting_for(state: GameState) -> list[str]:
    return to_act(state)
