"""Running trains and collecting revenue in an operating turn (routes and revenue,
dividends; the title's rulebook gives the revenue modifiers and the dividends it knows
besides paying out and withholding)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import Any, TypeVar

from .board.legs import forget_ways
from .board.localtrack import LocalTrack
from .board.map import BoardState, Map
from .board.routegraph import RouteGraph, StopKey
from .board.search import Run, TrainSpec, beats, best_run
from .board.search import has_route as route_exists
from .board.track import TrackGraph
from .board.track import fewest_stops as walk_fewest_stops
from .board.written import check_run
from .context import Ctx, money, require
from .dividends import pay_out, withhold
from .errors import RulesError
from .memo import ByWhatWasRead
from .registry import book, cite
from .state import GameState, board_key


def revenue_column(state: GameState) -> int:
    assert state.phase is not None
    return state.rules.phase(state.phase).offboard


def running(state: GameState, corp: str) -> list[str]:
    """The trains that run in ``corp``'s next run: its own, and those made obsolete that
    run once more (a title's delayed rusting, Corporation.rusting)."""
    c = state.corps[corp]
    return [*c.trains, *c.rusting]


def train_specs(state: GameState, corp: str) -> list[TrainSpec]:
    return [(t, state.rules.train(t).reach) for t in running(state, corp)]


_CACHE: dict[tuple[Any, ...], Any] = {}


def remember(key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
    """Route searches depend only on the board, the corporation, its trains and the
    phase's revenue column: prompts and decisions ask the same question often."""
    if key not in _CACHE:
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = compute()
    return _CACHE[key]


def forget_runs() -> None:
    """Empty the caches of remember(), route_graph(), track_graph(), local_track(),
    fewest_stops() and the written legs' ways (a benchmark timing a whole replay starts
    from nothing, as a new process does)."""
    _CACHE.clear()
    _GRAPHS.clear()
    _TRACKS.clear()
    _LOCAL.clear()
    _FEWEST.clear()
    forget_ways()


def position_key(board_map: Map, board: BoardState) -> tuple[Any, ...]:
    """What the track searches of a position depend on, for caches: the map (the
    options' reading of it: maps_for keeps each for the life of the process), the tiles,
    the stations and the markers."""
    try:  # a set of each marker's items as they are (scalars): no sorting, no text
        markers: Any = frozenset((k, tuple(v.items())) for k, v in board.markers.items())
    except TypeError:  # a value that is not hashable
        markers = repr(sorted((k, sorted(v.items())) for k, v in board.markers.items()))
    return (id(board_map), board_key(board), markers)


_GRAPHS: dict[tuple[Any, ...], RouteGraph] = {}
_TRACKS: dict[tuple[Any, ...], TrackGraph] = {}
_LOCAL: dict[tuple[Any, ...], LocalTrack] = {}
Track = TypeVar("Track", TrackGraph, LocalTrack)


def _per_position(cache: dict[tuple[Any, ...], Track], board_map: Map, board: BoardState,
                  make: Callable[[Map, BoardState], Track]) -> Track:
    """make(board_map, board), remembered for the same position (the last 16)."""
    key = position_key(board_map, board)
    found = cache.get(key)
    if found is None:
        if len(cache) >= 16:
            cache.clear()
        found = cache[key] = make(board_map, board)
    return found


def track_graph(board_map: Map, board: BoardState) -> TrackGraph:
    """The position's TrackGraph, remembered for the same position (the track searches of
    laying, placing stations and running share it)."""
    return _per_position(_TRACKS, board_map, board, TrackGraph)


def local_track(board_map: Map, board: BoardState) -> LocalTrack:
    """The position's LocalTrack (its hexes' track read as walks come to them),
    remembered for the same position: the walks of its questions share what they read."""
    return _per_position(_LOCAL, board_map, board, LocalTrack)


_FEWEST: ByWhatWasRead[str, int | None] = ByWhatWasRead(512)


def fewest_stops(board_map: Map, board: BoardState, start: StopKey,
                 goals: Collection[StopKey], corp: str, most: int | None) -> int | None:
    """track.fewest_stops on the position (a walk reading the hexes it comes to, without
    a TrackGraph of the position), remembered with the hexes it read: asked again where
    those hexes have the same tiles and stations (and the company's destination marker
    is where it was), it is the same answer without a walk (a title's connection rule
    may ask it for every company after every turn, when one hex at most has changed)."""
    marker = board.markers.get(f"destination:{corp}")
    key = (start, tuple(sorted(goals)), corp, most, repr(marker))
    tiles, tokens = board.tiles, board.tokens

    def looks(coord: str) -> Hashable:
        """The hex's tile and stations."""
        stops = tokens.get(coord)
        return tiles.get(coord), tuple(map(tuple, stops)) if stops else ()

    return _FEWEST.get(
        (board_map,), key, looks,
        lambda read: walk_fewest_stops(board_map, board, start, goals, corp, most, read))


def route_graph(board_map: Map, board: BoardState, corp: str, column: str | int,
                values: Mapping[StopKey, int] | None = None, *,
                whole: bool = False, near: frozenset[StopKey] | None = None) -> RouteGraph:
    """RouteGraph(...), remembered for the same position, company, column and stop values:
    a company's run, the check of its written routes and a title's connection runs search
    the same graph."""
    key = (position_key(board_map, board), corp, column,
           tuple(sorted((values or {}).items())), whole, near)
    found = _GRAPHS.get(key)
    if found is None:
        if len(_GRAPHS) >= 16:  # about 0.4 MB each on a late, full board
            _GRAPHS.clear()
        found = _GRAPHS[key] = RouteGraph(board_map, board, corp, column, values,
                                          track_graph(board_map, board), whole, near)
    return found


def revenue_rules(state: GameState, corp: str) -> Any:
    """The company's revenue modifiers (board.search.RevenueRules), None when it has
    none: the title's (tokens on the map that change a city's value, a destination
    counted twice)."""
    rules = book(state).revenue_rules(state, corp)
    return rules if rules is not None and (rules.values or rules.end_bonus) else None


def rules_key(rules: Any) -> tuple[Any, ...]:
    if rules is None:
        return ()
    return (tuple(sorted(rules.values.items())), tuple(sorted(rules.end_bonus.items())))


def best(state: GameState, corp: str, trains: list[tuple[str, int | None]] | None = None) -> Any:
    specs = train_specs(state, corp) if trains is None else trains
    column = revenue_column(state)
    rules = revenue_rules(state, corp)
    return remember(_run_key("best", state, corp, specs, column, rules),
                    lambda: best_run(state.map, state.board, corp, specs, column, rules,
                                     route_graph))


def _run_key(kind: str, state: GameState, corp: str, specs: Sequence[Any],
             column: str | int, rules: Any) -> tuple[Any, ...]:
    return (kind, state.title, corp, tuple(specs), column, board_key(state.board),
            rules_key(rules))


def can_earn_more(state: GameState, corp: str, total: int) -> bool:
    """Whether the company's trains can earn more than ``total``, which a legal run of
    theirs earns (the written routes): best(state, corp).total > total, known without
    finding the best run when a best run was not asked for before."""
    specs = train_specs(state, corp)
    column = revenue_column(state)
    rules = revenue_rules(state, corp)
    known = _CACHE.get(_run_key("best", state, corp, specs, column, rules))
    if known is not None:
        return bool(known.total > total)
    return bool(remember((*_run_key("beats", state, corp, specs, column, rules), total),
                         lambda: beats(state.map, state.board, corp, specs, column, total,
                                       rules, route_graph)))


def has_route(state: GameState, corp: str) -> bool:
    """Whether the corporation has a legal route for some train (6.6.2)."""
    key = ("has_route", state.title, corp, board_key(state.board))
    return bool(remember(key, lambda: route_exists(state.map, state.board, corp)))


def run_summary(run: Any) -> list[dict[str, Any]]:
    return [
        {"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops], "revenue": r.revenue}
        for r in run.routes
    ]


def describe_run(run: Any) -> str:
    parts = [f"{r['train']}: {'-'.join(s.split('.')[0] for s in r['stops'])} "
             f"({money(r['revenue'])})" for r in run_summary(run)]
    return "; ".join(parts) if parts else "no route"


def written_run(state: GameState, corp: str, explicit: list[dict[str, Any]]) -> Run:
    """The routes the president wrote, checked by the route rules and realised."""
    try:
        return check_run(state.map, state.board, corp, train_specs(state, corp), explicit,
                         revenue_column(state), revenue_rules(state, corp),
                         lambda key: cite(state, key), route_graph,
                         near_only=state.options.get("best_run", "required") != "required",
                         local=local_track)
    except RulesError as exc:
        exc.rule = exc.rule or cite(state, "route")
        raise


def run_trains(ctx: Ctx, corp: str, explicit: list[dict[str, Any]] | None) -> None:
    """Run: the best routes, or the player's routes when legal and (by default) best;
    obsolete trains that ran once more are gone then."""
    run_routes(ctx, corp, explicit)
    gone = ctx.state.corps[corp].rusting
    if gone:
        ctx.corp_set(corp, rusting=[])
        ctx.log(f"{corp}'s obsolete {', '.join(gone)}-train{'s' if len(gone) > 1 else ''} "
                f"{'have' if len(gone) > 1 else 'has'} run for the last time.")


def run_routes(ctx: Ctx, corp: str, explicit: list[dict[str, Any]] | None) -> None:
    state = ctx.state
    require(state.round["turn"]["run"] is None, f"{corp} has already run its trains.",
            cite(state, "run"))
    specs = train_specs(state, corp)
    if not specs:
        require(not explicit, f"{corp} has no trains to run.", cite(state, "run"))
        ctx.round_set(turn={**state.round["turn"], "run": {"revenue": 0, "routes": []},
                            "step": "dividend"})
        ctx.log(f"{corp} has no trains and runs nothing.")
        decide_dividend(ctx, corp, "withhold")
        return
    if explicit is not None and not explicit:
        run_nothing(ctx, corp, best(state, corp))
        return
    if explicit:
        run = written_run(state, corp, explicit)
        if state.options.get("best_run", "required") == "required" and \
                can_earn_more(state, corp, run.total):
            top = best(state, corp)
            raise RulesError(f"Those routes earn {money(run.total)}, but {corp} can earn "
                             f"{money(top.total)}: {describe_run(top)}. The best total must be "
                             "run once it is shown.", cite(state, "best_run"))
    else:
        run = best(state, corp)
    ctx.round_set(turn={**state.round["turn"], "run": {"revenue": run.total,
                                                      "routes": run_summary(run)},
                        "step": "dividend"})
    ctx.log(f"{corp} runs for {money(run.total)}: {describe_run(run)}.")
    if run.total == 0:
        decide_dividend(ctx, corp, "withhold")


def run_nothing(ctx: Ctx, corp: str, top: Any) -> None:
    """'run nothing' with trains: only when they have no route worth anything, or with
    option best_run=free.  A corporation must run its trains for the best revenue (6.4:
    "the combination of routes with the highest revenue should be chosen"; 6.5 note: "the
    highest revenue route must be taken"; elsewhere the president "is then required to
    run" a higher route pointed out); its president may then withhold the revenue (6.5)."""
    state = ctx.state
    if top.total > 0 and state.options.get("best_run", "required") == "required":
        rule = cite(state, "run")
        raise RulesError(f"{corp} has a route ({describe_run(top)}): a corporation must run "
                         f"its trains for the best revenue, here {money(top.total)}. Its "
                         "president may then keep the revenue in the treasury (withhold) "
                         "instead of paying it out.", rule)
    ctx.round_set(turn={**state.round["turn"], "run": {"revenue": 0, "routes": []},
                        "step": "dividend"})
    ctx.log(f"{corp} runs nothing.")
    decide_dividend(ctx, corp, "withhold")


def decide_dividend(ctx: Ctx, corp: str, how: str) -> None:
    """``how``: payout, withhold, or another dividend the title knows (Rulebook.
    pay_dividend)."""
    state = ctx.state
    rule = cite(state, "dividend")
    turn = state.round["turn"]
    if turn["run"] is None:
        run_trains(ctx, corp, None)
        turn = state.round["turn"]
        if turn["dividend"] is not None:  # no revenue: already withheld
            require(how == "withhold", f"{corp} has no revenue, so it cannot pay a dividend.",
                    rule)
            return
    require(turn["dividend"] is None, f"{corp} has already decided its dividend.", rule)
    revenue = turn["run"]["revenue"]
    if how == "payout":
        require(revenue > 0, f"{corp} has no revenue, so it cannot pay a dividend of $0.", rule)
        pay_out(ctx, corp, revenue)
    elif how == "withhold":
        withhold(ctx, corp, revenue)
    else:
        book(state).pay_dividend(ctx, corp, how, revenue)
    ctx.round_set(turn={**state.round["turn"], "dividend": how, "step": "trains"})
    book(state).after_dividend(ctx, corp)
    if state.corps[corp].closed:  # withheld into a closing section
        ctx.log(f"{corp} has closed and operates no further.")
