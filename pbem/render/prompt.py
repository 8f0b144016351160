"""The prompt: who must act, and for the recipient every legal command now, grouped
compactly with a ready-to-copy example and the numbers that matter; then what happened
since the recipient's last turn.

All commands come from the engine's legal-move listing (pbem.engine.game.legal_moves)
and are printed by the notation (format_action); nothing here decides what is legal.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine.game import legal_moves, to_act
from pbem.engine.state import GameState
from pbem.notation import format_action

from .stateinfo import sees_player_cash
from .tables import money, round_name

WIDTH = 78
EXAMPLE = 22  # width of the example column

Move = dict[str, Any]


@dataclass(frozen=True)
class Offer:
    """One line of the prompt: an example command and what else it may be."""

    example: str
    note: str = ""


def waiting_line(state: GameState, waiting: Sequence[str] | None = None) -> str:
    if state.finished:
        return "The game is over."
    waiting = to_act(state) if waiting is None else list(waiting)
    corp = state.round.get("current") if state.round.get("kind") == "operating" else None
    who = " and ".join(waiting) or "nobody"
    if corp and waiting == [state.president(corp)]:
        return f"Waiting for {who} ({corp} operates in {round_name(state)})."
    return f"Waiting for {who} ({round_name(state)})."


def offers(state: GameState, viewer: str, moves: Sequence[Move] | None = None) -> list[Offer]:
    """The viewer's legal moves folded into a few lines."""
    if moves is None:
        moves = legal_moves(state).get(viewer, [])
    groups: dict[str, list[Move]] = {}
    for move in moves:
        kind = move["action"]["type"]
        groups.setdefault(GROUPS.get(kind, kind), []).append(move)
    result: list[Offer] = []
    for kind, group in groups.items():
        result += SUMMARIES.get(kind, plain)(state, group)
    return result


def prompt_text(state: GameState, viewer: str | None, recent: Sequence[str] = ()) -> str:
    """The whole prompt section for ``viewer`` (None: only who must act)."""
    lines = [waiting_line(state)]
    if viewer is not None:
        found = offers(state, viewer)
        if found:
            lines += ["", f"{viewer}, you may now (one command per line):"]
            lines += offer_lines(found)
            lines += context_lines(state, viewer)
        elif not state.finished:
            lines.append(f"{viewer}, you have nothing to do now.")
    if recent:
        lines += ["", "Since your last turn:" if viewer else "Recently:"]
        for line in recent:
            lines += textwrap.wrap(line, WIDTH, initial_indent="  ",
                                   subsequent_indent="    ") or [""]
    return "\n".join(lines)


def offer_lines(found: list[Offer]) -> list[str]:
    lines = []
    for offer in found:
        head = f"  {offer.example:<{EXAMPLE}}"
        if not offer.note:
            lines.append(head.rstrip())
            continue
        if len(offer.example) > EXAMPLE:
            lines.append(f"  {offer.example}")
            head = " " * (EXAMPLE + 2)
        lines += textwrap.wrap(offer.note, WIDTH, initial_indent=head + " ",
                               subsequent_indent=" " * (EXAMPLE + 5),
                               break_on_hyphens=False)
    return lines


def context_lines(state: GameState, viewer: str) -> list[str]:
    parts = []
    if sees_player_cash(state, viewer, viewer):
        parts.append(f"you have {money(state.player(viewer).cash)}")
    corp = state.round.get("current") if state.round.get("kind") == "operating" else None
    if corp and state.president(corp) == viewer:
        c = state.corps[corp]
        parts.append(f"{corp} has {money(c.cash)} and trains {' '.join(c.trains) or 'none'}")
    return textwrap.wrap("(" + "; ".join(parts) + ")", WIDTH) if parts else []


# -- one summary per kind of move -----------------------------------------------------------------


def text(move: Move) -> str:
    try:
        return format_action(move["action"])
    except (ValueError, KeyError):
        return str(move["action"].get("type", "?"))


def plain(state: GameState, moves: list[Move]) -> list[Offer]:
    """Anything without a summary of its own: each command, with its price if any."""
    return [Offer(text(m), f"costs {money(m['price'])}" if "price" in m else range_note(m))
            for m in moves]


def range_note(move: Move) -> str:
    if "min" in move and "max" in move:
        return f"{move['min']} to {move['max']}"
    return ""


def join_or(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def pars(state: GameState, moves: list[Move]) -> list[Offer]:
    """par PRR 67 ... folded into: corporations x prices, with what it costs."""
    by_prices: dict[tuple[int, ...], list[str]] = {}
    costs: dict[tuple[str, int], int | None] = {}
    for m in moves:
        a = m["action"]
        costs[(a["corp"], a["price"])] = m.get("price")
    corps = list(dict.fromkeys(a for a, _ in costs))
    for corp in corps:
        prices = tuple(sorted(p for c, p in costs if c == corp))
        by_prices.setdefault(prices, []).append(corp)
    result = []
    for prices, group in by_prices.items():
        paid = {costs[(c, p)] for c in group for p in prices}
        if paid == {None}:
            cost = "(no payment)"
        elif all(costs[(c, p)] == 2 * p for c in group for p in prices):
            cost = "(costs twice par)"
        else:
            cost = "(costs " + ", ".join(money(costs[(group[0], p)]) for p in prices) + ")"
        example = f"par {group[0]} {prices[-1]}"
        who = f"{'|'.join(group)} at " if len(group) > 1 else "at "
        result.append(Offer(example, f"{who}{join_or([str(p) for p in prices])} {cost}"))
    return result


def bids(state: GameState, moves: list[Move]) -> list[Offer]:
    return [Offer(text(m), f"at least {money(m.get('min'))}" + (
        f", at most {money(m['max'])}" if "max" in m else "")) for m in moves]


def buy_shares(state: GameState, moves: list[Move]) -> list[Offer]:
    """buy PRR / buy PRR pool, one line per source, every corporation with its price."""
    by_source: dict[str, list[Move]] = {}
    for m in moves:
        by_source.setdefault(m["action"].get("source") or "ipo", []).append(m)
    result = []
    for source, group in by_source.items():
        where = "from the bank pool" if source == "pool" else "from the initial offering"
        items = []
        for m in group:
            a = m["action"]
            count = f" (1 to {m['max']} shares)" if m.get("max", 1) > 1 else ""
            items.append(f"{a['corp']} {money(m.get('price'))}{count}")
        result.append(Offer(text(group[0]), f"{where}: " + ", ".join(items)))
    return result


def sells(state: GameState, moves: list[Move]) -> list[Offer]:
    items = []
    for m in moves:
        sale = m["action"]["sales"][0]
        most = m.get("max", sale["count"])
        items.append(f"{sale['corp']} 1" + (f" to {most}" if most > 1 else ""))
    first = moves[0]["action"]["sales"][0]["corp"]
    note = "shares of " + ", ".join(items)
    if len(moves) > 1:
        second = moves[1]["action"]["sales"][0]["corp"]
        note += f"; several at once: sell 1 {first}, 1 {second}"
    return [Offer(f"sell 1 {first}", note)]


def lays(state: GameState, moves: list[Move]) -> list[Offer]:
    """lay 57 H12 SW-NE: one line per hex with every tile and the exits it may have."""
    by_hex: dict[str, list[Move]] = {}
    for m in moves:
        by_hex.setdefault(m["action"]["hex"], []).append(m)
    result = []
    for coord, group in by_hex.items():
        tiles: dict[str, list[str]] = {}
        for m in group:
            exits = tiles.setdefault(str(m["action"]["tile"]), [])
            text_exits = "-".join(m["action"].get("exits") or [])
            if text_exits not in exits:
                exits.append(text_exits)
        cost = group[0].get("price")
        where = coord + (f" (terrain {money(cost)})" if cost else "")
        listed = "; ".join(f"{t} {' | '.join(e)}" for t, e in tiles.items())
        result.append(Offer(text(group[0]), f"{where}: {listed}"))
    return result


def tokens(state: GameState, moves: list[Move]) -> list[Offer]:
    items = []
    for m in moves:
        a = m["action"]
        city = f" city {a['city']}" if a.get("city") else ""
        cost = f" {money(m['price'])}" if "price" in m else ""
        items.append(f"{a['hex']}{city}{cost}")
    return [Offer(text(moves[0]), "station on " + ", ".join(items))]


def runs(state: GameState, moves: list[Move]) -> list[Offer]:
    move = moves[0]
    revenue, routes = move.get("revenue"), move.get("routes")
    if revenue is None:
        revenue, routes = best_run(state)
    note = "the service runs the best routes"
    if revenue is not None:
        note += f": {money(revenue)}"
    if routes:
        note += " (" + "; ".join(routes) + ")"
    first = re.match(r"\s*(\w+: [A-Z]\d+(?:-[A-Z]\d+)+)", routes[0]) if routes else None
    example = first.group(1) if first else "2: H12-H10"
    return [Offer("run", f"{note}; or name the routes, e.g. run {example}")]


def best_run(state: GameState) -> tuple[int | None, list[str]]:
    """The engine's best run for the operating corporation, while the run move does not
    carry it (see docs/rendering.md)."""
    corp = str(state.round.get("current"))
    try:
        from pbem.engine import orrun

        best = orrun.best(state, corp)
        described = orrun.describe_run(best)
    except Exception:  # the engine cannot tell (yet): the prompt shows no number
        return None, []
    return getattr(best, "total", None), [described] if described else []


def dividends(state: GameState, moves: list[Move]) -> list[Offer]:
    kinds = [m["action"]["type"] for m in moves]
    return [Offer(kinds[0], "or " + join_or(kinds[1:]) if len(kinds) > 1 else "")]


def buy_trains(state: GameState, moves: list[Move]) -> list[Offer]:
    result = []
    for m in moves:
        a = m["action"]
        source = a.get("source") or "bank"
        what = f"a {a.get('train')}-train from the {'bank pool' if source == 'pool' else source}"
        if a.get("trade"):
            what += f", trading in a {a['trade']}"
        cost = f" for {money(m['price'])}" if m.get("price") is not None else ""
        if "min" in m:
            cost = f" for {money(m['min'])} to {money(m['max'])}"
        result.append(Offer(text(m), what + cost))
    return result


def discards(state: GameState, moves: list[Move]) -> list[Offer]:
    trains = [str(m["action"]["train"]) for m in moves]
    return [Offer(text(moves[0]), "a train over the limit: " + join_or(trains))]


def answers(state: GameState, moves: list[Move]) -> list[Offer]:
    kinds = [m["action"]["type"] for m in moves]
    proposal = state.round.get("proposal") or {}
    note = f"the offer of {proposal.get('buyer')}" if proposal.get("buyer") else ""
    return [Offer(" or ".join(kinds), note)]


SUMMARIES: dict[str, Callable[[GameState, list[Move]], list[Offer]]] = {
    "par": pars,
    "bid": bids,
    "buy_share": buy_shares,
    "sell": sells,
    "lay": lays,
    "token": tokens,
    "run": runs,
    "dividend": dividends,
    "buy_train": buy_trains,
    "discard": discards,
    "answer": answers,
}
#: Kinds of move shown together on one line.
GROUPS = {"payout": "dividend", "withhold": "dividend", "half": "dividend",
          "accept": "answer", "decline": "answer"}
