"""1870 connection runs (Connection Run, p.22-23).

After every company's turn, and at the start of every operating round (a company closed
in the stock round may have opened a connection), each company not yet connected is
checked: can it run one of its trains from its home station to its destination?  The
company that just operated goes first, then the others in share price order; each
eligible company makes its connection run at once, in that order, and only once in the
game:

1. ``destination place`` (the marker goes free to the edge of the destination hex and
   doubles the destination for this company at the end of a route) or ``destination
   keep`` (it stays on the charter as a $100 station marker).  A company with a station
   at its destination already keeps it without being asked.
2. ``run``: one train runs from home to the destination, not beyond either; the other
   trains run normally.
3. ``payout`` (the token moves right) or ``withhold`` (it does not move); never half.

Round key ``connection`` (operating round): ``corp`` making its run, ``step`` (marker,
run, dividend), ``run`` (the run once made), ``queue`` (the companies after it).
Corporation fields: ``destination_marker`` ("placed"/"kept") and
``destination_reached`` (the run is done).
"""

from __future__ import annotations

from typing import Any

from ...board.map import tile_at
from ...board.search import RevenueRules, best_connection_run, earns
from ...context import Ctx, money, require
from ...dividends import pay_out, withhold
from ...ending import end_game
from ...errors import RulesError
from ...market import operating_order
from ...operating import next_corporation
from ...orrun import (
    describe_run,
    fewest_stops,
    remember,
    revenue_column,
    revenue_rules,
    route_graph,
    rules_key,
    run_summary,
    track_graph,
    train_specs,
    written_run,
)
from ...state import GameState, board_key
from .finish import ends_after_turn, note_400
from .tokens import place_destination_marker

RULE = "1870 Connection Run, p.22-23"

#: end bonuses that make the route search look for home-to-destination routes only: a
#: route from home (3 units) to the destination (1 unit) scores 4 units, any other
#: route less; a unit is far above any revenue
UNIT = 1 << 24
HOME_BONUS, DESTINATION_BONUS = 3 * UNIT, UNIT
CONNECTED = HOME_BONUS + DESTINATION_BONUS


# -- who is eligible -----------------------------------------------------------------------------


def home_stop(state: GameState, corp: str) -> tuple[str, int] | None:
    """The company's station on its home hex (the starting city), if placed."""
    home = state.rules.corp(corp).home
    for index, corps in enumerate(state.board.tokens.get(home, [])):
        if corp in corps:
            return (home, index)
    return None


def destination_stops(state: GameState, corp: str) -> list[tuple[str, int]]:
    dest = state.rules.corp(corp).destination
    if dest is None:
        return []
    tile, _ = tile_at(state.map, state.board, dest)
    return [(dest, i) for i in range(len(tile.stops))]


def has_station_at_destination(state: GameState, corp: str) -> bool:
    dest = state.rules.corp(corp).destination
    return any(corp in corps for corps in state.board.tokens.get(dest or "", []))


def may_connect(state: GameState, corp: str) -> bool:
    """A company that could make a connection run if its track allows it."""
    c = state.corps[corp]
    return (state.rules.corp(corp).destination is not None and not c.destination_reached
            and not c.closed and c.floated and c.cell is not None and bool(c.trains)
            and home_stop(state, corp) is not None)


def _search_rules(state: GameState, corp: str) -> Any:
    """The company's revenue rules with the home and destination end bonuses added."""
    real = revenue_rules(state, corp)
    values = dict(real.values) if real is not None else {}
    end_bonus = dict(real.end_bonus) if real is not None else {}
    home = home_stop(state, corp)
    assert home is not None
    end_bonus[home] = end_bonus.get(home, 0) + HOME_BONUS
    for stop in destination_stops(state, corp):
        end_bonus[stop] = end_bonus.get(stop, 0) + DESTINATION_BONUS
    return RevenueRules(values, end_bonus)


def connection_possible(state: GameState, corp: str, train: tuple[str, int | None]) -> bool:
    """Whether ``train`` can run from home to the destination: whether it has a route
    scoring CONNECTED or more with the home and destination end bonuses (exactly the
    routes from home to the destination do), asked of the search with that threshold
    rather than by finding its best route."""
    rules = _search_rules(state, corp)
    column = revenue_column(state)
    key = ("connectable", state.title, corp, train, column, board_key(state.board),
           rules_key(rules))
    return bool(remember(key, lambda: earns(state.map, state.board, corp, train[1], column,
                                            CONNECTED, rules, route_graph)))


def longest_train(state: GameState, corp: str) -> tuple[str, int | None]:
    specs = [(t, state.rules.train(t).distance) for t in state.corps[corp].trains]
    return max(specs, key=lambda s: 1 << 30 if s[1] is None else s[1])


def eligible(state: GameState, corp: str) -> bool:
    """Whether ``corp`` can run one of its trains from home to its destination now (a
    longer train runs every route a shorter one does).  Option ``connection_check=track``
    (18xx.games in early 2021): whether a train of any length could, i.e. whether track
    joins them."""
    if not may_connect(state, corp):
        return False
    destinations = destination_stops(state, corp)
    train = longest_train(state, corp)
    if state.options.get("connection_check", "train") == "track":
        train = (train[0], None)
    home = home_stop(state, corp)
    assert home is not None  # may_connect
    if isinstance(train[1], int):
        # no walk from home to the destination, or none short enough for the train
        # (the cheapest questions first)
        if fewest_stops(state.map, state.board, home, destinations, corp, train[1]) is None:
            return False
    elif not any(stop in track_graph(state.map, state.board).region_stops(corp)
                 for stop in destinations):
        return False  # its stations' track does not touch the destination
    # the search decides (its reach first, a necessary condition like the bound, refused
    # one of the 20 companies that got this far on the 1870 logs of 18xx.games, and cost
    # about as much as the search)
    return connection_possible(state, corp, train)


def eligible_in_order(state: GameState, first: str | None) -> list[str]:
    """Eligible companies: ``first`` (the one that just operated) if it is, then the
    others in share price order (p.23)."""
    if not state.phase:
        return []
    others = operating_order(state, [s for s in state.corps if s != first and may_connect(
        state, s)])
    order = ([first] if first is not None and may_connect(state, first) else []) + others
    return [s for s in order if eligible(state, s)]


# -- the connection run -------------------------------------------------------------------------


def connection_run(state: GameState, corp: str) -> Any:
    """The best run with one train from home to the destination and the others around
    it (routes.Run), exact (routes.best_connection_run), or None."""
    home = home_stop(state, corp)
    if home is None:
        return None
    best: Any = None
    for destination in destination_stops(state, corp):
        found = best_connection_run(state.map, state.board, corp, train_specs(state, corp),
                                    revenue_column(state), home, destination,
                                    revenue_rules(state, corp))
        if found is not None and (best is None or found.total > best.total):
            best = found.run
    return best


def check_written(state: GameState, corp: str, explicit: list[dict[str, Any]]) -> Any:
    """Routes the president wrote: legal, and one of them from home to the destination
    without going beyond either."""
    run = written_run(state, corp, explicit)
    home, dests = home_stop(state, corp), destination_stops(state, corp)
    ends = [{r.stops[0], r.stops[-1]} for r in run.routes]
    require(any(home in e and any(d in e for d in dests) for e in ends),
            f"In the connection run one train must run from {corp}'s home "
            f"{state.rules.corp(corp).home} to its destination "
            f"{state.rules.corp(corp).destination_name} and no further.", RULE)
    return run


# -- the flow in the operating round -------------------------------------------------------------


def after_turn(ctx: Ctx, corp: str) -> None:
    """A company has finished its turn: the $400 finish, then connection runs, then the
    next company.  With connection_after_closing=later (18xx.games) none after the turn
    of a company that closed in it: they wait for the next company's turn or the next
    operating round."""
    if ends_after_turn(ctx.state):
        end_game(ctx, "400")
        return
    if ctx.state.corps[corp].closed and checked_later(ctx.state):
        start_queue(ctx, [])
        return
    start_queue(ctx, eligible_in_order(ctx.state, corp))


def checked_later(state: GameState) -> bool:
    """Option connection_after_closing=later (18xx.games): eligibility is not checked
    after the turn of a company that closed during it (its token entered the closing
    section at its dividend); the connection is noticed after the next company's turn,
    or at the start of the next operating round ("If the connection is not noticed when
    it is first made, the run is made when it is noticed", p.23).  The site's
    ``Game#close_corporation`` ends the turn with ``force_next_entity!``, which skips
    the turn's last step, ``CheckConnection``; the next turn's first ``CheckConnection``
    lists companies only at the round's first company."""
    return state.options.get("connection_after_closing", "at-once") == "later"


def at_round_start(ctx: Ctx) -> None:
    """The start of an operating round: connections opened in the stock round (p.23)."""
    start_queue(ctx, eligible_in_order(ctx.state, None))


def start_queue(ctx: Ctx, queue: list[str]) -> None:
    if not queue:
        if ctx.state.round.get("connection"):
            ctx.round_set(connection=None)
        next_corporation(ctx)
        return
    corp, rest = queue[0], queue[1:]
    state = ctx.state
    c = state.rules.corp(corp)
    ctx.round_set(connection={"corp": corp, "step": "marker", "run": None, "queue": rest})
    ctx.log(f"{corp} can run from {c.home} to its destination {c.destination_name} "
            f"({c.destination}): its connection run ({state.president(corp)}).")
    if has_station_at_destination(state, corp):
        set_marker(ctx, corp, False)


def next_in_queue(ctx: Ctx) -> None:
    """The next company of the queue that is still eligible, or the next company to
    operate."""
    state = ctx.state
    queue = [s for s in state.round["connection"]["queue"] if eligible(state, s)]
    start_queue(ctx, queue)


def set_marker(ctx: Ctx, corp: str, place: bool) -> None:
    """The destination marker: placed at the destination, or kept as a $100 station
    marker (tokens.place_destination_marker)."""
    state = ctx.state
    place_destination_marker(ctx, corp, place)
    ctx.round_set(connection={**state.round["connection"], "step": "run"})


def decide(ctx: Ctx, action: dict[str, Any]) -> None:
    state = ctx.state
    conn = state.round["connection"]
    corp = conn["corp"]
    president = state.president(corp)
    require(ctx.actor == president, f"{corp} is making its connection run; its president "
            f"{president} acts now, not {ctx.actor}.", RULE)
    kind = action["type"]
    if kind == "destination":
        require(conn["step"] == "marker", f"{corp} has already decided about its destination "
                "marker.", RULE)
        marker = action.get("marker") or "place"
        require(marker in ("place", "keep"), "Write destination place or destination keep.",
                RULE)
        set_marker(ctx, corp, marker == "place")
    elif kind == "run":
        require_marker(state, corp)
        run(ctx, corp, action.get("routes"))
    elif kind in ("payout", "withhold"):
        require_marker(state, corp)
        if state.round["connection"]["run"] is None:
            run(ctx, corp, None)
        dividend(ctx, corp, kind)
    elif kind == "half":
        raise RulesError("A connection run is paid out in full or withheld, never as a half "
                         "dividend.", RULE)
    else:
        raise RulesError(f"{corp} is making its connection run: destination place or "
                         "destination keep, then run, then payout or withhold.", RULE)


def require_marker(state: GameState, corp: str) -> None:
    require(state.round["connection"]["step"] != "marker", f"{corp} first places its "
            "destination marker at the destination (destination place) or keeps it as a "
            "$100 station marker (destination keep).", RULE)


def run(ctx: Ctx, corp: str, explicit: list[dict[str, Any]] | None) -> None:
    state = ctx.state
    conn = state.round["connection"]
    require(conn["run"] is None, f"{corp} has already made its connection run.", RULE)
    if explicit and state.options.get("best_run", "required") != "required":
        top = written_connection(state, corp, explicit)
    else:
        top = best_connection(state, corp)
    if explicit and state.options.get("best_run", "required") == "required":
        written = check_written(state, corp, explicit)
        if written.total < top.total:
            raise RulesError(f"Those routes earn {money(written.total)}, but {corp} can earn "
                             f"{money(top.total)}: {describe_run(top)}. The best total must be "
                             "run once it is shown.", "1870 Operate Trains, p.21")
        top = written
    ctx.round_set(connection={**conn, "step": "dividend",
                              "run": {"revenue": top.total, "routes": run_summary(top)}})
    ctx.log(f"{corp}'s connection run earns {money(top.total)}: {describe_run(top)}.")


def best_connection(state: GameState, corp: str) -> Any:
    """connection_run(state, corp), refused when there is none."""
    top = connection_run(state, corp)
    if top is None:
        raise RulesError(f"{corp} can no longer run from home to its destination.", RULE)
    return top


def written_connection(state: GameState, corp: str, explicit: list[dict[str, Any]]) -> Any:
    """The written connection run when no best run is compared (option best_run=free):
    a legal one is a run from home to the destination, so connection_run is not None
    and the best run need not be searched; it is searched only when the written one is
    refused, for the same sentence as before (no run at all is refused first)."""
    try:
        return check_written(state, corp, explicit)
    except RulesError:
        best_connection(state, corp)
        raise


def dividend(ctx: Ctx, corp: str, how: str) -> None:
    state = ctx.state
    revenue = state.round["connection"]["run"]["revenue"]
    if how == "payout" and revenue > 0:
        pay_out(ctx, corp, revenue)
    else:
        require(how == "withhold", f"{corp}'s connection run earns nothing to pay out.", RULE)
        withhold(ctx, corp, revenue, moves=False)
    ctx.corp_set(corp, destination_reached=True)
    note_400(ctx, corp)
    if ends_after_turn(state):
        ctx.round_set(connection=None)
        end_game(ctx, "400")
        return
    next_in_queue(ctx)


def legal(state: GameState) -> dict[str, list[dict[str, Any]]]:
    conn = state.round["connection"]
    corp = conn["corp"]
    president = state.president(corp)
    assert president is not None
    moves: list[dict[str, Any]]
    if conn["step"] == "marker":
        moves = [{"action": {"type": "destination", "marker": m}} for m in ("place", "keep")]
    elif conn["step"] == "run":
        top = connection_run(state, corp)
        described = {"revenue": top.total, "routes": [describe_run(top)]} if top else {}
        moves = [{"action": {"type": "run", "routes": None}, **described}]
    elif conn["run"]["revenue"] > 0:
        moves = [{"action": {"type": "payout"}}, {"action": {"type": "withhold"}}]
    else:
        moves = [{"action": {"type": "withhold"}}]
    return {president: moves}
