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
from .identity import check_address, check_players
from .notation import (
    NotationError,
    ParseContext,
    closest,
    format_action,
    parse_command,
    split_commands,
)
from .safe_text import visible
from .store import Problem, Store
from .store.keys import new_player_key


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
    opts = dict(options)
    opts.setdefault("seating", seating)
    resolved = rules.resolve_options(opts)
    names = [name for name, _ in players]
    emails = dict(players)
    seated = seat_players(names, seed, resolved["seating"])
    new_game(title, seated, seed, resolved)  # validates players and options
    keys = {name: new_player_key() for name in seated}
    with store.transaction():
        game_id = store.create_game(title, resolved, seed, ENGINE_VERSION, rules.rules_version,
                                    now, referee)
        for seat, name in enumerate(seated):
            store.add_player(game_id, seat, name, emails[name], store.key_hash(keys[name]))
    return NewGame(game_id, seated, keys)


# -- loading ------------------------------------------------------------------------------------


def initial(store: Store, game_id: int) -> GameState:
    game = store.game(game_id)
    seated = [p["name"] for p in store.players(game_id)]
    return new_game(game["title"], seated, game["seed"], game["options"])


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
    problems: list[Problem] = field(default_factory=list)

    @property
    def problem(self) -> str | None:
        """The first problem as a sentence, or None when the record is sound."""
        return str(self.problems[0]) if self.problems else None


def audit(store: Store, game_id: int) -> AuditResult:
    """Check a game's record: the keyed hash chain, its sealed head, setup and players
    (store.verify_record), then every event again from the state before it: commands
    re-decided (the same facts), talk and undos changing nothing, every kind known.
    Every problem is reported, with its seq; the check goes on after one."""
    events = store.events(game_id)
    problems = store.verify_record(game_id)
    try:
        state = initial(store, game_id)
    except (SetupError, ValueError, KeyError) as exc:
        problems.append(Problem(game_id, None, f"the game cannot be set up again: {exc}"))
        return AuditResult(len(events), problems)
    effective: list[dict[str, Any]] = []
    for event in events:
        problem = _audit_event(state, event, effective)
        if problem:
            problems.append(Problem(game_id, event["seq"], problem))
        if event["kind"] == "revert" and _valid_revert(event):
            effective = [e for e in effective if e["seq"] <= event["revert_to"]]
            state = initial(store, game_id)
            for earlier in effective:
                apply_facts(state, earlier["facts"])
            continue
        try:
            apply_facts(state, event["facts"] or [])
        except Exception as exc:  # noqa: BLE001 - a stored fact that cannot be applied
            problems.append(Problem(game_id, event["seq"], f"its facts cannot be applied "
                                    f"({type(exc).__name__}: {exc})"))
            return AuditResult(len(events), problems)
        effective.append(event)
    return AuditResult(len(events), problems)


#: Event kinds that record something without changing the game (table talk, a
#: player's settings...): audit checks that they carry no facts. A new kind of this
#: sort is added here with the store's EVENT_KINDS; any other kind audit does not
#: know is reported.
RECORD_ONLY_KINDS: set[str] = {"talk"}


def _valid_revert(event: dict[str, Any]) -> bool:
    target = event.get("revert_to")
    return isinstance(target, int) and 0 <= target < event["seq"]


def _audit_event(state: GameState, event: dict[str, Any],
                 effective: list[dict[str, Any]]) -> str | None:
    """What is wrong with one event decided again on ``state``, or None."""
    kind = event["kind"]
    if kind == "revert":
        if not _valid_revert(event):
            return f"the undo goes back to {event.get('revert_to')!r}, not an earlier event"
        return "an undo that changes the game" if event["facts"] else None
    if is_talk(event):
        if event["facts"]:
            return f"table talk ({_short(event['text'])}) carries facts that change the game"
        if event["actor"] not in state.names:
            return f"table talk by {event['actor']!r}, who is not a player"
        return None
    if kind in RECORD_ONLY_KINDS:
        if event["facts"]:
            return f"a {kind} event ({_short(event['text'])}) carries facts that change the game"
        return None
    if kind != "command":
        return f"an event of unknown kind {kind!r}"
    try:
        decision = decide(state, event["actor"], event["command"])
    except RulesError as exc:
        return f"{_short(event['text'])} is refused when decided again: {exc}"
    except Exception as exc:  # noqa: BLE001 - a command the engine cannot read at all
        return f"{_short(event['text'])} cannot be decided again ({type(exc).__name__})"
    if decision.facts != event["facts"]:
        return f"{_short(event['text'])} gives different facts when decided again"
    return None


def is_talk(event: dict[str, Any]) -> bool:
    """Table talk (``say``): an event without effect on the game, whatever its kind."""
    command = event.get("command")
    return (event["kind"] in ("setup", "talk") and isinstance(command, dict)
            and command.get("type") == "say")


def _short(text: str, width: int = 60) -> str:
    text = visible(str(text))
    return text if len(text) <= width else text[: width - 3] + "..."


def waiting_for(state: GameState) -> list[str]:
    return to_act(state)
