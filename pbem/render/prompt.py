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
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.game import apply_facts, decide, legal_moves, to_act
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
    #: the example's action, where the prompt looks at what it would do
    action: dict[str, Any] | None = field(default=None, compare=False, repr=False)


def waiting_line(state: GameState, waiting: Sequence[str] | None = None) -> str:
    if state.finished:
        return "The game is over."
    waiting = to_act(state) if waiting is None else list(waiting)
    corp = state.round.get("current") if state.round.get("kind") == "operating" else None
    who = " and ".join(waiting) or "nobody"
    special = special_decision(state)
    if special:
        return f"Waiting for {who} ({special}, {round_name(state)})."
    if corp and waiting == [state.president(corp)]:
        return f"Waiting for {who} ({corp} operates in {round_name(state)})."
    return f"Waiting for {who} ({round_name(state)})."


def special_decision(state: GameState) -> str:
    """What a decision between turns is about ("" for none)."""
    rnd = state.round
    if rnd.get("joined_station"):
        joined = rnd["joined_station"]
        return f"the city of {joined['corp']}'s station on {joined['hex']}"
    if rnd.get("connection"):
        return f"{rnd['connection']['corp']}'s connection run"
    if rnd.get("protection"):
        return f"price protection of {rnd['protection']['corp']}"
    proposal = rnd.get("proposal") or {}
    if proposal.get("kind") == "redeem":
        return f"{proposal['corp']} asks to redeem a share"
    return ""


def decision_lines(state: GameState, viewer: str) -> list[str]:
    """One sentence on the 1870 decision the viewer must make now, if any."""
    rnd = state.round
    text = ""
    sale = rnd.get("protection")
    proposal = rnd.get("proposal") or {}
    conn = rnd.get("connection")
    if sale and sale.get("president") == viewer:
        shares = f"{sale['count']} share{'s' if sale['count'] > 1 else ''}"
        text = (f"{viewer}: you may protect {sale['corp']}: buy the {shares} "
                f"{sale['seller']} sold for {money(sale['amount'])} - protect or decline.")
    elif proposal.get("kind") == "redeem" and proposal.get("answer_by") == viewer:
        corp = proposal["corp"]
        text = (f"{viewer}: {proposal['proposer']} asks you to sell one of your {corp} "
                f"shares to {corp} (a redemption) for {money(proposal['price'])} - accept "
                "or decline.")
    elif conn and state.president(conn["corp"]) == viewer:
        text = connection_sentence(state, viewer, conn)
    elif proposal.get("answer_by") == viewer:
        text = f"{viewer}: {offer_text(proposal, viewer)} - accept or decline."
    return textwrap.wrap(text, WIDTH) if text else []


def offer_text(proposal: dict[str, Any], viewer: str) -> str:
    """"MP offers $40 for MRBC", "Bob offers you SV for $30"."""
    seller, buyer = proposal.get("seller"), proposal.get("buyer")
    thing = proposal.get("private") or (f"{seller}'s {proposal['train']}-train"
                                        if proposal.get("train") else "it")
    price = money(proposal.get("price"))
    if buyer == viewer:
        return f"{seller} offers you {thing} for {price}"
    return f"{buyer} offers {price} for {thing}"


def connection_sentence(state: GameState, viewer: str, conn: dict[str, Any]) -> str:
    corp = conn["corp"]
    cdef = state.rules.corp(corp)
    home = cdef.extra.get("home_name")
    dest = getattr(cdef, "destination", None)
    dest_name = getattr(cdef, "destination_name", None)
    start = f"{home} ({cdef.home})" if home else cdef.home
    goal = f"{dest_name} ({dest})" if dest_name else str(dest)
    text = (f"{viewer}: {corp} can run from {start} to its destination {goal}: its "
            "connection run, once in the game.")
    step = conn.get("step")
    if step == "marker":
        text += " First its destination marker: place it at the destination or keep it."
    elif step == "run":
        text += (" Now one train runs from home to the destination and no further; the "
                 "other trains run as usual.")
    elif step == "dividend" and conn.get("run"):
        text += f" The run earned {money(conn['run'].get('revenue'))}: pay out or withhold."
    return text


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
    return one_mail_turn(state, viewer, result)


def one_mail_turn(state: GameState, viewer: str, found: list[Offer]) -> list[Offer]:
    """In a stock round a buy does not end the turn (the player may still sell): the
    buy example says ``buy PRR; done`` where the turn goes on after it, so one mail is
    one turn; once the player has acted this turn, ``done`` ends it."""
    if state.round.get("kind") != "stock":
        return found
    if state.round.get("turn", {}).get("acted"):
        return [Offer("done", "end your turn") if o.example == "pass" else o for o in found]
    result = []
    for offer in found:
        if offer.action is not None and offer.action.get("type") == "buy_share" and \
                turn_goes_on(state, viewer, offer.action):
            offer = Offer(offer.example + "; done", offer.note, offer.action)
        result.append(offer)
    return result


def turn_goes_on(state: GameState, viewer: str, action: dict[str, Any]) -> bool:
    """Is it still ``viewer``'s turn after ``action``?"""
    try:
        after = state.clone()
        apply_facts(after, decide(state, viewer, action).facts)
    except Exception:  # noqa: BLE001 - a prompt never fails over an example
        return False
    return viewer in to_act(after)


def prompt_text(state: GameState, viewer: str | None, recent: Sequence[str] = ()) -> str:
    """The whole prompt section for ``viewer`` (None: only who must act)."""
    lines = [waiting_line(state)]
    if viewer is not None:
        found = offers(state, viewer)
        if found:
            lines += [""] + decision_lines(state, viewer)
            lines += [f"{viewer}, you may now (one command per line):"]
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
    conn = state.round.get("connection")
    if conn:
        corp = conn["corp"]
    if corp and state.president(corp) == viewer:
        c = state.corps[corp]
        frozen = getattr(c, "frozen", 0)
        cash = money(c.cash) + (f" ({money(frozen)} from reissue usable next OR)"
                                if frozen else "")
        parts.append(f"{corp} has {cash} and trains {' '.join(c.trains) or 'none'}")
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
        first = dict(group[0]["action"])
        if source == "ipo":
            first["source"] = None  # "buy PRR" takes it from the initial offering
        items = []
        for m in group:
            a = m["action"]
            count = f" (1 to {m['max']} shares)" if m.get("max", 1) > 1 else ""
            size = f" {a['percent']}%" if a.get("percent") else ""  # (1830 V-6.5)
            items.append(f"{a['corp']}{size} {money(m.get('price'))}{count}")
        result.append(Offer(text({"action": first}), f"{where}: " + ", ".join(items), first))
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
    joined = state.round.get("joined_station")
    if joined:
        return [Offer(text(moves[0]), f"{joined['corp']}'s station goes into " +
                      join_or([f"city {m['action']['city']}" for m in moves]))]
    return [Offer(text(moves[0]), "station on " + ", ".join(items))]


def runs(state: GameState, moves: list[Move]) -> list[Offer]:
    move = moves[0]
    revenue, routes = move.get("revenue"), move.get("routes")
    conn = state.round.get("connection")
    if revenue is None and not conn:
        revenue, routes = best_run(state)
    if revenue == 0 and not conn:
        return [Offer("run", "no route earns anything yet: the trains run nothing (run "
                      "nothing says the same)")]
    note = "the service runs the best routes"
    if conn:
        note = (f"{conn['corp']}'s connection run (one train from home to its destination and "
                "no further, the others as usual): " + note)
    if revenue is not None:
        note += f": {money(revenue)}"
    if routes:
        note += " (" + "; ".join(routes) + ")"
    first = re.match(r"\s*(\w+: [A-Z]\d+(?:-[A-Z]\d+)+)", routes[0]) if routes else None
    example = first.group(1) if first else example_route(state)
    return [Offer("run", f"{note}; or name the routes, e.g. run {example}")]


def example_route(state: GameState) -> str:
    """How a route of the operating corporation is written, when the engine names none:
    its own first train from its home (never another corporation's track)."""
    conn = state.round.get("connection")
    corp = conn["corp"] if conn else str(state.round.get("current"))
    cdef = state.rules.corp(corp)
    trains = state.corps[corp].trains
    train = trains[0] if trains else state.rules.trains[0].name
    if conn:
        return f"{train}: {cdef.home}-...-{cdef.destination}"
    return f"{train}: {cdef.home}-..."


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
    conn = state.round.get("connection")
    if conn:
        run = conn.get("run") or {}
        earned = f"the connection run earned {money(run['revenue'])}: " if "revenue" in run \
            else ""
        return [Offer(" or ".join(kinds), f"{earned}payout moves the share value right, "
                      "withhold keeps it in the treasury; no half dividend")]
    return [Offer(kinds[0], "or " + join_or(kinds[1:]) if len(kinds) > 1 else "")]


def protects(state: GameState, moves: list[Move]) -> list[Offer]:
    """1870 price protection: buy what was sold at the seller's price, or decline."""
    sale = state.round.get("protection") or {}
    if not sale:
        return plain(state, moves)
    corp, count = sale["corp"], sale["count"]
    shares = f"the {count} {corp} share{'s' if count > 1 else ''}"
    return [Offer(text(moves[0]), f"buy {shares} from the open market for "
                  f"{money(sale['amount'])}: {corp} goes back to {money(sale['price'])} "
                  "(from " + money(state.price(corp)) + ")")]


def destinations(state: GameState, moves: list[Move]) -> list[Offer]:
    """1870 connection run, first step: the destination marker."""
    conn = state.round.get("connection") or {}
    corp = conn.get("corp", "the company")
    dest = getattr(state.rules.corp(corp), "destination", None) if conn else None
    notes = {"place": f"free at the edge of {dest or 'the destination'}: it doubles that "
                      f"city at the end of {corp}'s routes",
             "keep": "on the charter as one more $100 station marker"}
    return [Offer(text(m), notes.get(m["action"].get("marker"), "")) for m in moves]


def redeems(state: GameState, moves: list[Move]) -> list[Offer]:
    """1870: the company buys back one of its shares (the president's whole turn)."""
    result = []
    for m in moves:
        a = m["action"]
        seller = a.get("from")
        where = f"asks {seller} to sell one for" if seller else "from the open market for"
        result.append(Offer(text(m), f"{a['corp']} buys back a share {where} "
                            f"{money(m.get('price'))} (your whole turn)"))
    return result


def reissues(state: GameState, moves: list[Move]) -> list[Offer]:
    result = []
    for m in moves:
        corp = m["action"]["corp"]
        try:
            from pbem.engine.titles.t1870.redemption import new_par

            par = f" at a new par of {money(new_par(state, corp))}"
        except (KeyError, ValueError, TypeError):
            par = ""
        result.append(Offer(text(m), f"{corp}'s redeemed shares go to the initial offering"
                            f"{par}; their money is usable from the next OR (your whole "
                            "turn)"))
    return result


def token_markers(state: GameState, moves: list[Move]) -> list[Offer]:
    """The cattle token and the port: every city it may go on, folded into one line."""
    by_kind: dict[str, list[Move]] = {}
    for m in moves:
        a = m["action"]
        kind = "port closed" if a.get("closed") else ("port open" if a["type"] == "port"
                                                      else "cattle")
        by_kind.setdefault(kind, []).append(m)
    result = []
    for kind, group in by_kind.items():
        places = []
        for m in group:
            a = m["action"]
            place = a["hex"] + (f" city {a['city']}" if a.get("city") else "")
            if place not in places:
                places.append(place)
        result.append(Offer(text(group[0]), marker_note(state, kind, places)))
    return result


def marker_note(state: GameState, kind: str, places: list[str]) -> str:
    from pbem.engine.titles.t1870.tokens import token_private

    sym = token_private(state, "port") or "port company"
    where = ", ".join(places)
    if kind == "cattle":
        return f"the cattle token on {where}"
    if kind == "port open":
        return f"the open port on {where}"
    if state.board.markers.get("port"):
        return f"the closed port replaces the open port on {where} ({sym} closes)"
    return f"the closed port on {where} ({sym} closes)"


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
    if state.round.get("protection"):
        sale = state.round["protection"]
        return [Offer("decline", f"let the sale stand: {sale['corp']} stays at "
                      f"{money(state.price(sale['corp']))}")] if kinds == ["decline"] else \
            [Offer(" or ".join(kinds))]
    proposal = state.round.get("proposal") or {}
    if proposal.get("kind") == "redeem":
        corp = proposal["corp"]
        return [Offer("accept", f"sell one {corp} share to {corp} for "
                      f"{money(proposal['price'])}"),
                Offer("decline", "keep it")]
    note = ""
    if proposal.get("buyer"):
        note = offer_text(proposal, "")
    return [Offer(" or ".join(kinds), note)]


def repays(state: GameState, moves: list[Move]) -> list[Offer]:
    """1830 base game (7.7): the administrator's order of repayment."""
    return [Offer(text(m), f"the money you take in repays {m['action']['corp']}'s loan "
                  "first (any time)") for m in moves]


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
    "protect": protects,
    "destination": destinations,
    "redeem": redeems,
    "reissue": reissues,
    "repay": repays,
    "marker": token_markers,
}
#: Kinds of move shown together on one line.
GROUPS = {"payout": "dividend", "withhold": "dividend", "half": "dividend",
          "accept": "answer", "decline": "answer", "cattle": "marker", "port": "marker"}
