"""The engine's public face: create, decide, apply, rebuild, and list legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .context import Ctx, require
from .ending import end_game, note_bank_break
from .errors import RulesError, SetupError
from .facts import Fact, PrivateClosed, Record
from .registry import book, cite
from .shares import check_float, check_presidency, may_exceed_share_limit, ordinary_indexes
from .state import IPO, POOL, GameState, initial_state, player_holder
from .title import Title, load_title, load_title_for
from .upcast import read_fact

#: the engine version a new game records; 2: facts are typed and versioned, and carry
#: what their decision worked out (pbem.engine.facts, pbem.engine.upcast)
ENGINE_VERSION = "2"

@dataclass
class Decision:
    facts: list[Fact]
    log: list[str] = field(default_factory=list)
    #: the state the facts make of the state decided on (the decision's own copy, which
    #: nothing but the facts changed): a caller may take it instead of applying them
    state: GameState | None = None

    @property
    def records(self) -> list[Record]:
        """The facts as they are stored (JSON)."""
        return [f.to_json() for f in self.facts]

    def has_records(self, records: list[Record]) -> bool:
        """Whether ``records`` are the facts as stored (``self.records == records``)."""
        return len(records) == len(self.facts) and \
            all(f.is_record(r) for f, r in zip(self.facts, records, strict=True))


#: The referee's name as an actor (no player may take it, check_players).
REFEREE = "referee"
#: Actions only the referee sends.
REFEREE_ONLY = frozenset({"end_game", "as"})


def format_referee(action: dict[str, Any]) -> str:
    return "end the game" if action["type"] == "end_game" else "act for another player"


def referee_decide(state: GameState, action: dict[str, Any]) -> Decision:
    """The referee's commands: ``as Alice <command>`` (decided as Alice's), and
    ``end game``: the game ends now (an 18xx.games game ended by hand), everybody scored
    as for a normal end (cash, shares at market value, privates at face value)."""
    kind = action["type"]
    if kind == "as":
        inner = action["action"]
        if inner["type"] in REFEREE_ONLY:
            raise RulesError("The referee acts for a player with a player's command.")
        return decide(state, action["player"], inner)
    if kind == "end_game":
        ctx = Ctx(state.clone(), REFEREE)
        ctx.log("The referee ends the game.")
        end_game(ctx, "manual")
        return Decision(ctx.facts, ctx.lines, ctx.state)
    raise RulesError("The referee may end the game (end game) or act for a player "
                     "(as Alice <command>); other commands are the players'.")


def seat_players(names: list[str], seed: int, seating: str) -> list[str]:
    """Seat order: as given ("fixed"), or shuffled by the game's seed ("random", C-2.1)."""
    order = list(names)
    if seating == "random":
        random.Random(seed).shuffle(order)
    return order


def check_players(title: str, names: list[str], options: dict[str, str] | None = None) -> None:
    rules = load_title_for(title, options or {})
    if not rules.engine_support:
        raise SetupError(f"pbem cannot run {title} games yet: its rules are still being "
                         "built.")
    if not rules.min_players <= len(names) <= rules.max_players:
        raise SetupError(f"{title} is for {rules.min_players} to {rules.max_players} players, "
                         f"not {len(names)}.")
    lowered = [n.lower() for n in names]
    if len(set(lowered)) != len(lowered):
        raise SetupError("Each player needs a different name.")
    reserved = {s.lower() for s in rules.corporations} | {s.lower() for s in rules.privates}
    for name in names:
        if not name or not name.replace("-", "").replace("_", "").isalnum():
            raise SetupError(f"'{name}' is not a usable player name: use letters and digits.")
        if name.lower() in reserved or name.lower() in {"bank", "pool", "ipo", "referee"}:
            raise SetupError(f"'{name}' is a name used by the game; choose another player name.")


def new_game(title: str, seated: list[str], seed: int, options: dict[str, str]) -> GameState:
    """The state before the first command, players in seat order (the first has priority)."""
    resolved = load_title(title).resolve_options(options)
    check_players(title, seated, resolved)
    state = initial_state(title, seated, seed, resolved)
    state.round = book(state).first_round(state)
    return state


def decide(state: GameState, actor: str, action: dict[str, Any]) -> Decision:
    """The facts ``action`` by ``actor`` produces, or a RulesError saying why not.

    ``state`` is not changed.
    """
    if state.finished:
        raise RulesError("The game is over.")
    if actor == REFEREE:
        return referee_decide(state, action)
    if action["type"] in REFEREE_ONLY:
        raise RulesError(f"Only the referee may {format_referee(action)}.")
    if actor not in state.names:
        raise RulesError(f"{actor} is not a player in this game.")
    ctx = Ctx(state.clone(), actor)
    if action["type"] == "exchange":
        exchange(ctx, action["private"])
    elif action["type"] in book(state).side_actions:
        book(state).side_action(ctx, action)
    else:
        book(state).round(state).decide(ctx, action)
    book(state).after_decision(ctx)
    note_bank_break(ctx)
    return Decision(ctx.facts, ctx.lines, ctx.state)


def apply_facts(state: GameState, facts: Iterable[Fact | Mapping[str, Any]]) -> list[Fact]:
    """Apply facts in order: facts as a decision made them, or stored records (JSON,
    written by this pbem or an older one: read and upcast against the state just
    before each).  Returns the facts applied, as facts of today."""
    applied: list[Fact] = []
    for item in facts:
        for fact in [item] if isinstance(item, Fact) else read_fact(state, item):
            fact.apply(state)
            applied.append(fact)
    return applied


def recorded_with(engine_version: str, rules_version: str, rules: Title) -> list[str]:
    """Read the versions a game was recorded with when it is loaded: a game recorded by
    a newer engine cannot be read (SetupError); a game recorded under other rules data
    is read (its facts say what happened), and the notes returned say so, for the
    audit (a command decided again may differ for that reason)."""
    try:
        recorded = int(engine_version)
    except ValueError:
        raise SetupError(f"The game was recorded by an engine of version '{engine_version}', "
                         "which this pbem does not know.") from None
    if recorded > int(ENGINE_VERSION):
        raise SetupError(f"The game was recorded by a newer pbem (engine version {recorded}; "
                         f"this one is {ENGINE_VERSION}): upgrade pbem to read it.")
    if rules_version != rules.rules_version:
        return [f"The game was recorded under the {rules.title} rules data "
                f"'{rules_version}'; they are now '{rules.rules_version}'."]
    return []


def exchange(ctx: Ctx, sym: str) -> None:
    """A private company exchanged for a 10% share its data names (exchange_for), in
    one's stock-round turn or between turns."""
    state, actor = ctx.state, ctx.actor
    private = state.privates.get(sym)
    corp = state.rules.private(sym).extra.get("exchange_for") if private else None
    require(private is not None and corp is not None, f"{sym} cannot be exchanged for a share.")
    assert private is not None and corp is not None
    require(private.owner == player_holder(actor) and not private.closed,
            f"You do not own {sym}.")
    require(state.round["kind"] != "auction", f"{sym} can be exchanged once the private "
            "auction is over.", cite(state, "private_abilities"))
    holder = player_holder(actor)
    pct = state.percent(corp, holder) + state.rules.ordinary_percent
    require(pct <= state.rules.player_share_limit or may_exceed_share_limit(state, corp),
            f"You already hold {pct - 10}% of {corp}.", cite(state, "private_abilities"))
    source = IPO if ordinary_indexes(state, corp, IPO) else POOL
    indexes = ordinary_indexes(state, corp, source)
    require(bool(indexes), f"There is no {corp} share in the initial offering or the bank pool.",
            cite(state, "private_abilities"))
    ctx.move_cert(corp, indexes[0], holder)
    ctx.emit(PrivateClosed(sym))
    ctx.log(f"{actor} exchanges {sym} for a 10% share of {corp}; {sym} closes.")
    check_presidency(ctx, corp)
    check_float(ctx, corp)


def exchange_moves(state: GameState) -> dict[str, list[dict[str, Any]]]:
    moves: dict[str, list[dict[str, Any]]] = {}
    if state.round.get("kind") == "auction" or state.finished:
        return moves
    for sym, private in state.privates.items():
        if private.closed or not private.owner.startswith("p:"):
            continue
        if "exchange_for" not in state.rules.private(sym).extra:
            continue
        actor = private.owner[2:]
        try:
            decide(state, actor, {"type": "exchange", "private": sym})
        except RulesError:
            continue
        moves.setdefault(actor, []).append({"action": {"type": "exchange", "private": sym}})
    return moves


def legal_moves(state: GameState) -> dict[str, list[dict[str, Any]]]:
    """For each player who may act now, the moves they may make.

    A move is ``{"action": {...}}`` plus, where an amount or count is free, ``min``
    and ``max``, and where money changes hands, ``price``.
    """
    if state.finished:
        return {}
    moves = book(state).round(state).legal(state)
    for found in (exchange_moves(state), book(state).side_moves(state)):
        for name, extra in found.items():
            moves.setdefault(name, []).extend(extra)
    return moves


def to_act(state: GameState) -> list[str]:
    """The players the game is waiting for (not counting optional out-of-turn moves)."""
    if state.finished:
        return []
    return list(book(state).round(state).legal(state))


def rebuild(state: GameState, fact_lists: Iterable[Iterable[Fact | Mapping[str, Any]]]
            ) -> GameState:
    """Apply the stored facts of each event in order to a fresh state."""
    for facts in fact_lists:
        apply_facts(state, facts)
    return state
