"""The state as plain data for `pbem show --format json`, and the older text helpers
(text_tables, market_text) that mail code still imports.

No rules logic here: everything comes from the state or from the engine's answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.game import legal_moves, to_act
from ..engine.shares import certificate_count, certificate_limit
from ..engine.state import IPO, POOL, GameState, holder_name, player_holder
from . import tables as _tables
from .market_text import market_text as _market_text
from .stateinfo import sees_corp_cash, sees_player_cash, tokens_left, worth

round_name = _tables.round_name


def extra_certificates(state: GameState, sym: str) -> dict[str, Any]:
    """1830 V-6.5: where each certificate larger than a share is ("ipo", "pool" or the
    player's name); nothing for a company without one."""
    if not state.rules.has_larger_certificates(sym):
        return {}
    unit = state.rules.ordinary_percent
    found = [{"percent": size, "holder": holder_name(state.corps[sym].certs[i])}
             for i, size in enumerate(state.rules.cert_percents(sym)) if i > 0 and size > unit]
    return {"extra_certificates": found}


def state_json(state: GameState, legal_text: Callable[[dict[str, Any]], str] | None = None,
               viewer: str | None = None) -> dict[str, Any]:
    """The state as JSON-ready data; with ``viewer``, cash the game hides from him is None."""
    rules = state.rules
    players = []
    for p in state.players:
        holder = player_holder(p.name)
        visible = sees_player_cash(state, viewer, p.name)
        players.append({
            "name": p.name,
            "cash": p.cash if visible else None,
            "privates": state.privates_of(holder),
            "shares": {c: state.percent(c, holder) for c in state.corps
                       if state.percent(c, holder)},
            "certificates": certificate_count(state, p.name),
            "certificate_limit": certificate_limit(state),
            "worth": worth(state, p.name) if visible else None,
            "priority": p.name == state.priority,
        })
    corps = []
    for sym, c in state.corps.items():
        corps.append({
            "symbol": sym,
            "name": rules.corp(sym).name,
            "president": state.president(sym),
            "treasury": c.cash if sees_corp_cash(state, viewer, sym) else None,
            "par": c.par,
            "price": state.price(sym),
            "market_cell": list(c.cell) if c.cell else None,
            "ipo_percent": state.percent(sym, IPO),
            "pool_percent": state.percent(sym, POOL),
            "floated": c.floated,
            "operated": c.operated,
            "trains": list(c.trains),
            "tokens_left": tokens_left(state, sym)[0],
            **extra_certificates(state, sym),
        })
    privates = [
        {"symbol": sym, "owner": None if pr.owner == "bank" else holder_name(pr.owner),
         "price": pr.price, "closed": pr.closed, "revenue": rules.private(sym).revenue}
        for sym, pr in state.privates.items()
    ]
    moves = legal_moves(state)
    return {
        "title": state.title,
        "players": players,
        "corporations": corps,
        "privates": privates,
        "bank": state.bank,
        "phase": state.phase,
        "round": round_name(state),
        "round_state": state.round,
        "priority": state.priority,
        "to_act": to_act(state),
        "legal": {
            name: [legal_text(m["action"]) if legal_text else m["action"] for m in ms]
            for name, ms in moves.items()
        },
        "finished": state.finished,
        "result": state.result,
    }


def text_tables(state: GameState, viewer: str | None = None) -> str:
    """Players, corporations, bank and privates as text (see pbem.render.tables)."""
    return _tables.tables_text(state, viewer)


def market_text(state: GameState) -> str:
    """The stock market grid, par chart and operating order (see pbem.render.market_text)."""
    return _market_text(state)
