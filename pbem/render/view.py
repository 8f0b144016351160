"""The state as plain data for `pbem show --format json` and as simple text tables.

No rules logic here: everything comes from the state or from the engine's answers.
"""

from __future__ import annotations

from typing import Any

from ..engine.game import legal_moves, to_act
from ..engine.shares import certificate_count, certificate_limit
from ..engine.state import IPO, POOL, GameState, holder_name, player_holder


def round_name(state: GameState) -> str:
    rnd = state.round
    kind = rnd.get("kind")
    if state.finished:
        return "game over"
    if kind == "auction":
        return "private auction"
    if kind == "stock":
        return f"stock round {rnd['number']}"
    if kind == "operating":
        return f"operating round {rnd['sr']}.{rnd['index']} (of {rnd['of']})"
    return str(kind)


def state_json(state: GameState, legal_text: Any = None) -> dict[str, Any]:
    rules = state.rules
    players = []
    for p in state.players:
        holder = player_holder(p.name)
        players.append({
            "name": p.name,
            "cash": p.cash,
            "privates": state.privates_of(holder),
            "shares": {c: state.percent(c, holder) for c in state.corps
                       if state.percent(c, holder)},
            "certificates": certificate_count(state, p.name),
            "certificate_limit": certificate_limit(state),
            "priority": p.name == state.priority,
        })
    corps = []
    for sym, c in state.corps.items():
        corps.append({
            "symbol": sym,
            "name": rules.corp(sym).name,
            "president": state.president(sym),
            "treasury": c.cash,
            "par": c.par,
            "price": state.price(sym),
            "market_cell": list(c.cell) if c.cell else None,
            "ipo_percent": state.percent(sym, IPO),
            "pool_percent": state.percent(sym, POOL),
            "floated": c.floated,
            "trains": list(c.trains),
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


def text_tables(state: GameState) -> str:
    """Players, corporations, privates and the bank as fixed-width text."""
    data = state_json(state)
    lines = [f"{state.rules.name} - {data['round']}, phase {state.phase or '1 (auction)'}", ""]
    corps = [c["symbol"] for c in data["corporations"]]
    lines.append("Player        Cash  Certs  " + " ".join(f"{c:>5}" for c in corps) + "  Privates")
    for p in data["players"]:
        mark = "*" if p["priority"] else " "
        shares = " ".join(f"{p['shares'].get(c, 0) or '':>5}" for c in corps)
        lines.append(f"{mark}{p['name']:<11} {p['cash']:>5}  {p['certificates']:>2}/"
                     f"{p['certificate_limit']:<2}  {shares}  {' '.join(p['privates'])}")
    lines.append("")
    lines.append("Corp  President    Par  Price  IPO%  Pool%  Treasury  Floated")
    for c in data["corporations"]:
        if c["par"] is None and c["president"] is None:
            continue
        lines.append(f"{c['symbol']:<5} {c['president'] or '-':<11} {c['par'] or '-':>4} "
                     f"{c['price'] or '-':>6} {c['ipo_percent']:>5} {c['pool_percent']:>6} "
                     f"{c['treasury']:>9}  {'yes' if c['floated'] else 'no'}")
    lines.append("")
    owned = [p for p in data["privates"] if p["owner"] and not p["closed"]]
    unsold = [p for p in data["privates"] if not p["owner"] and not p["closed"]]
    if owned:
        lines.append("Privates: " + ", ".join(f"{p['symbol']} ({p['owner']})" for p in owned))
    if unsold:
        lines.append("For sale: " + ", ".join(f"{p['symbol']} ${p['price']}" for p in unsold))
    lines.append(f"Bank: ${data['bank']}")
    return "\n".join(lines)


def market_text(state: GameState) -> str:
    """The stock market grid with each corporation's token, top of a stack first."""
    market = state.rules.market
    here: dict[tuple[int, int], list[str]] = {}
    for sym, corp in sorted(state.corps.items(), key=lambda kv: kv[1].arrival):
        if corp.cell is not None:
            here.setdefault((corp.cell[0], corp.cell[1]), []).append(sym)
    lines = []
    for row in range(market.n_rows):
        cells = []
        for col in range(market.n_cols):
            cell = market.cell(row, col)
            if cell is None:
                cells.append("    ")
                continue
            zone = {"yellow": "y", "orange": "o", "brown": "b"}.get(cell.zone, " ")
            cells.append(f"{cell.price:>3}{zone}")
        lines.append(" ".join(cells).rstrip())
        for (r, c), syms in sorted(here.items()):
            price = market.cells[(r, c)].price
            if r == row:
                lines.append(f"     at ${price}: {', '.join(syms)} (top first)")
    return "\n".join(lines)
