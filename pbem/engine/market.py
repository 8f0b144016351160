"""Share value token movement and the operating order (highest value first).

A market's data may add three things: a ledge (a sale must push a token two rows below
the ledge or it stops on it; left moves never cross it: reading D6 of the title notes
in docs/), moves off the top row (a sold-out company there moves one row down and one
column right, where the market has a ledge), and a closing section (a token entering
it closes the company: the title's Rulebook.close_company).
"""

from __future__ import annotations

from .context import Ctx
from .facts import MarketMove
from .registry import book
from .state import GameState
from .title import Market

#: the ledge needs a sale big enough to push the token this many rows below it (p.8)
LEDGE_PUSH = 2


def cell_down(market: Market, row: int, col: int) -> tuple[int, int]:
    """One box down; at the bottom of a column the token does not move."""
    return (row + 1, col) if market.cell(row + 1, col) else (row, col)


def cell_up(market: Market, row: int, col: int) -> tuple[int, int]:
    """One box up.  At the top: no move, or, in a market with a ledge, one down and one
    right."""
    if row > 0 and market.cell(row - 1, col):
        return (row - 1, col)
    if row == 0 and has_ledge(market) and market.cell(row + 1, col + 1):
        return (row + 1, col + 1)
    return (row, col)


def cell_right(market: Market, row: int, col: int) -> tuple[int, int]:
    """Right one box; at the right end of a row up one box; at the top right no move."""
    if market.cell(row, col + 1):
        return (row, col + 1)
    if row > 0 and market.cell(row - 1, col):
        return (row - 1, col)
    return (row, col)


def cell_left(market: Market, row: int, col: int) -> tuple[int, int]:
    """Left one box; at the left end of a row down one box; else no move.  A token in
    the lower area (below a ledge) does not move left over the ledge: it moves one row down (the
    same price), or stays where there is no box below (reading D6)."""
    here = market.cell(row, col)
    target = market.cell(row, col - 1) if col > 0 else None
    if target is not None and here is not None and here.area == "lower" and target.area != "lower":
        return cell_down(market, row, col)
    if target is not None:
        return (row, col - 1)
    return cell_down(market, row, col)


def has_ledge(market: Market) -> bool:
    return any(c.ledge for c in market.cells.values())


def rows_down(market: Market, row: int, col: int, steps: int) -> tuple[int, int]:
    """Down ``steps`` rows for one sale; a token stops on the ledge unless the sale
    pushes it at least two rows below it (p.8: from $90 two shares stop on the ledge at
    $82, three reach $72)."""
    for done in range(steps):
        here, below = market.cell(row, col), market.cell(row + 1, col)
        if below is None:
            break
        if here is not None and here.ledge and below.area == "lower" \
                and steps - done < LEDGE_PUSH:
            break
        row += 1
    return row, col


def target_cell(market: Market, row: int, col: int, direction: str, steps: int,
                ledge_site: bool = False) -> tuple[int, int]:
    if direction == "down":
        return rows_down(market, row, col, steps)
    for _ in range(steps):
        if direction == "left" and ledge_site:
            row, col = (row, col - 1) if col > 0 and market.cell(row, col - 1) \
                else cell_down(market, row, col)
        elif direction == "right" and ledge_site:
            row, col = right_above_ledge(market, row, col)
        else:
            step = {"up": cell_up, "right": cell_right, "left": cell_left}[direction]
            row, col = step(market, row, col)
    return row, col


def right_above_ledge(market: Market, row: int, col: int) -> tuple[int, int]:
    """Option ledge=site: a right move from the upper area into the lower area goes up
    instead (the same price), so the token stays above the ledge."""
    here, right = market.cell(row, col), market.cell(row, col + 1)
    if here is not None and right is not None and here.area != "lower" \
            and right.area == "lower" and row > 0 and market.cell(row - 1, col):
        return (row - 1, col)
    return cell_right(market, row, col)


def closes_moving(state: GameState, corp: str, direction: str, steps: int = 1) -> bool:
    """Whether moving ``corp``'s token ``steps`` boxes ``direction`` would take it into a
    closing section (as ``move`` would move it)."""
    cell = state.corps[corp].cell
    if cell is None or steps <= 0:
        return False
    market = state.rules.market
    site = state.options.get("ledge") == "site"
    target = market.cell(*target_cell(market, cell[0], cell[1], direction, steps, site))
    return target is not None and state.rules.zone_allows(target.zone, "closes")


def move(ctx: Ctx, corp: str, direction: str, steps: int = 1, close: bool = True) -> None:
    """Move ``corp``'s token ``steps`` boxes ``direction`` (down, up, right, left); a
    token that enters a closing section closes the company (Rulebook.close_company), unless
    ``close`` is False (a sale the president may still protect: protection.settle)."""
    state = ctx.state
    market = state.rules.market
    cell = state.corps[corp].cell
    if cell is None or steps <= 0:
        return
    before = state.price(corp)
    site = state.options.get("ledge") == "site"
    row, col = target_cell(market, cell[0], cell[1], direction, steps, site)
    if (row, col) == tuple(cell):
        ctx.log(f"{corp} share value stays at ${before}.")
        return
    ctx.emit(MarketMove.to(state, corp, row, col))
    ctx.log(f"{corp} share value moves {direction} from ${before} to ${state.price(corp)}.")
    if close and state.rules.zone_allows(state.zone(corp), "closes"):
        book(state).close_company(ctx, corp)


def market_order_key(state: GameState, corp: str) -> tuple[int, int, int, int]:
    """Sort key for 6.0: highest value, then furthest right, then highest row, then top."""
    c = state.corps[corp]
    assert c.cell is not None
    row, col = c.cell
    price = state.price(corp) or 0
    return (-price, -col, row, c.arrival)


def operating_order(state: GameState, corps: list[str]) -> list[str]:
    return sorted(corps, key=lambda sym: market_order_key(state, sym))


def floated_in_order(state: GameState) -> list[str]:
    """The companies that operate, in operating order."""
    return operating_order(state, [s for s, c in state.corps.items()
                                   if c.floated and c.funded and not c.closed])
