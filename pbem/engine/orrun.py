"""Running trains and collecting revenue in an operating turn (1830 6.4, 6.5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .context import Ctx, money, require
from .dividends import pay_out, withhold
from .errors import RulesError
from .state import GameState, board_key

RUN_RULE = "1830 6.4"


def revenue_column(state: GameState) -> int:
    assert state.phase is not None
    return state.rules.phase(state.phase).offboard


def train_specs(state: GameState, corp: str) -> list[tuple[str, int | None]]:
    return [(t, state.rules.train(t).distance) for t in state.corps[corp].trains]


_CACHE: dict[tuple[Any, ...], Any] = {}


def _remember(key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
    """Route searches depend only on the board, the corporation, its trains and the
    phase's revenue column: prompts and decisions ask the same question often."""
    if key not in _CACHE:
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = compute()
    return _CACHE[key]


def best(state: GameState, corp: str, trains: list[tuple[str, int | None]] | None = None) -> Any:
    from .routes import best_run

    specs = train_specs(state, corp) if trains is None else trains
    column = revenue_column(state)
    key = ("best", state.title, corp, tuple(specs), column, board_key(state.board))
    return _remember(key, lambda: best_run(state.map, state.board, corp, specs, column))


def has_route(state: GameState, corp: str) -> bool:
    """Whether the corporation has a legal route for some train (6.6.2)."""
    from .routes import has_route as route_exists

    key = ("has_route", state.title, corp, board_key(state.board))
    return bool(_remember(key, lambda: route_exists(state.map, state.board, corp)))


def run_summary(run: Any) -> list[dict[str, Any]]:
    return [
        {"train": r.train, "stops": [f"{c}.{i + 1}" for c, i in r.stops], "revenue": r.revenue}
        for r in run.routes
    ]


def describe_run(run: Any) -> str:
    parts = [f"{r['train']}: {'-'.join(s.split('.')[0] for s in r['stops'])} "
             f"({money(r['revenue'])})" for r in run_summary(run)]
    return "; ".join(parts) if parts else "no route"


def run_trains(ctx: Ctx, corp: str, explicit: list[dict[str, Any]] | None) -> None:
    """Run: the best routes, or the player's routes when legal and (by default) best."""
    from .routes import check_run

    state = ctx.state
    require(state.round["turn"]["run"] is None, f"{corp} has already run its trains.", RUN_RULE)
    specs = train_specs(state, corp)
    if not specs:
        require(not explicit, f"{corp} has no trains to run.", RUN_RULE)
        ctx.round_set(turn={**state.round["turn"], "run": {"revenue": 0, "routes": []},
                            "step": "dividend"})
        ctx.log(f"{corp} has no trains and runs nothing.")
        decide_dividend(ctx, corp, "withhold")
        return
    top = best(state, corp)
    if explicit:
        run = check_run(state.map, state.board, corp, specs, explicit, revenue_column(state))
        if state.options.get("best_run", "required") == "required" and run.total < top.total:
            raise RulesError(f"Those routes earn {money(run.total)}, but {corp} can earn "
                             f"{money(top.total)}: {describe_run(top)}. The best total must be "
                             "run once it is shown.", "1830 6.5")
    else:
        run = top
    ctx.round_set(turn={**state.round["turn"], "run": {"revenue": run.total,
                                                      "routes": run_summary(run)},
                        "step": "dividend"})
    ctx.log(f"{corp} runs for {money(run.total)}: {describe_run(run)}.")
    if run.total == 0:
        decide_dividend(ctx, corp, "withhold")


def decide_dividend(ctx: Ctx, corp: str, how: str) -> None:
    state = ctx.state
    turn = state.round["turn"]
    if turn["run"] is None:
        run_trains(ctx, corp, None)
        turn = state.round["turn"]
        if turn["dividend"] is not None:  # no revenue: already withheld
            require(how == "withhold", f"{corp} has no revenue, so it cannot pay a dividend.",
                    "1830 6.5")
            return
    require(turn["dividend"] is None, f"{corp} has already decided its dividend.", "1830 6.5")
    revenue = turn["run"]["revenue"]
    if how == "payout":
        require(revenue > 0, f"{corp} has no revenue, so it cannot pay a dividend of $0.",
                "1830 6.5")
        pay_out(ctx, corp, revenue)
    elif how == "withhold":
        withhold(ctx, corp, revenue)
    else:
        raise RulesError("In 1830 a corporation pays out or withholds; there is no half "
                         "dividend.", "1830 6.5")
    ctx.round_set(turn={**state.round["turn"], "dividend": how, "step": "trains"})
