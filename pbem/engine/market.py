"""Share value token movement (1830 4.5) and the operating order (6.0)."""

from __future__ import annotations

from .context import Ctx
from .state import GameState
from .title import Market


def cell_down(market: Market, row: int, col: int) -> tuple[int, int]:
    """One box down; at the bottom of a column the token does not move."""
    return (row + 1, col) if market.cell(row + 1, col) else (row, col)


def cell_up(market: Market, row: int, col: int) -> tuple[int, int]:
    return (row - 1, col) if row > 0 and market.cell(row - 1, col) else (row, col)


def cell_right(market: Market, row: int, col: int) -> tuple[int, int]:
    """Right one box; at the right end of a row up one box; at the top right no move."""
    if market.cell(row, col + 1):
        return (row, col + 1)
    return cell_up(market, row, col)


def cell_left(market: Market, row: int, col: int) -> tuple[int, int]:
    """Left one box; at the left end of a row down one box; else no move."""
    if col > 0 and market.cell(row, col - 1):
        return (row, col - 1)
    return cell_down(market, row, col)


def move(ctx: Ctx, corp: str, direction: str, steps: int = 1) -> None:
    """Move ``corp``'s token ``steps`` boxes ``direction`` (down, up, right, left)."""
    state = ctx.state
    market = state.rules.market
    cell = state.corps[corp].cell
    if cell is None:
        return
    row, col = cell
    before = state.price(corp)
    step = {"down": cell_down, "up": cell_up, "right": cell_right, "left": cell_left}[direction]
    for _ in range(steps):
        row, col = step(market, row, col)
    if (row, col) != tuple(cell):
        ctx.emit("market", corp=corp, row=row, col=col)
        ctx.log(f"{corp} share value moves {direction} from ${before} to ${state.price(corp)}.")
    else:
        ctx.log(f"{corp} share value stays at ${before}.")


def market_order_key(state: GameState, corp: str) -> tuple[int, int, int, int]:
    """Sort key for 6.0: highest value, then furthest right, then highest row, then top."""
    c = state.corps[corp]
    assert c.cell is not None
    row, col = c.cell
    price = state.price(corp) or 0
    return (-price, -col, row, c.arrival)


def operating_order(state: GameState, corps: list[str]) -> list[str]:
    return sorted(corps, key=lambda sym: market_order_key(state, sym))
