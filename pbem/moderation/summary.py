"""The summary of a game so far, for a player who takes a seat over."""

from __future__ import annotations

import textwrap

from .. import service
from ..engine.state import GameState, player_holder
from ..render.report import build_report, report_text
from ..render.tables import money, round_name
from ..store import Store

ROUNDS_SHOWN = 6
WIDTH = 78  # the last rounds of the report; "history" has the rest


def takeover_summary(store: Store, game_id: int, state: GameState, seat: str,
                     person: str) -> str:
    """What the new player of ``seat`` finds: the seat's holdings and the game's last
    rounds (the round report)."""
    game = store.game(game_id)
    intro = (f"You take over the seat {seat} in {game['title']} game #{game_id}, now in "
             f"{round_name(state)}. The seat keeps its name in the game (the record and the "
             "other players' commands use it), its holdings and its history:")
    lines = [*textwrap.wrap(intro, WIDTH),
             *textwrap.wrap(holdings(state, seat), WIDTH, initial_indent="  ",
                            subsequent_indent="  "), "",
             "The game so far, round by round (\"history 50\" lists the moves):", ""]
    report = build_report(service.initial(store, game_id), store.effective_events(game_id))
    lines.append(report_text(report, limit=ROUNDS_SHOWN).rstrip())
    return "\n".join(lines) + "\n"


def holdings(state: GameState, seat: str) -> str:
    """``$412 cash; PRR 30% (president), NYC 10%; privates CA``."""
    holder = player_holder(seat)
    cash = next((p.cash for p in state.players if p.name == seat), 0)
    shares = []
    for sym in state.corps:
        pct = state.percent(sym, holder)
        if pct:
            chief = " (president)" if state.president(sym) == seat else ""
            shares.append(f"{sym} {pct}%{chief}")
    privates = [sym for sym, p in state.privates.items() if p.owner == holder and not p.closed]
    parts = [f"{money(cash)} cash", ", ".join(shares) or "no shares"]
    if privates:
        parts.append("privates " + ", ".join(privates))
    return "; ".join(parts)
