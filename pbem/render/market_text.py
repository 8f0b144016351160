"""The stock market as text: the grid with prices, zones and the share value tokens in
their stacking order, the par chart, and the operating order that follows from it."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from pbem.engine.market import operating_order
from pbem.engine.state import GameState
from pbem.engine.title import Cell, Market

from .corps import letters

CELL = 4  # characters per market cell
WIDTH = 78
ZONE_MARKS = {"yellow": "y", "orange": "o", "brown": "b", "green": "g", "closed": "x"}


def cell_mark(cell: Cell) -> str:
    """One character before the tokens: * par, L ledge (1870), zone letter, or blank."""
    if cell.par:
        return "*"
    if getattr(cell, "ledge", False):
        return "L"
    if cell.price == 0:
        return "x"
    return ZONE_MARKS.get(cell.zone, " ")


def stacks(state: GameState) -> dict[tuple[int, int], list[str]]:
    """Market cell -> corporations on it, top of the stack first (lower arrival on top)."""
    here: dict[tuple[int, int], list[str]] = {}
    for sym, corp in sorted(state.corps.items(), key=lambda kv: kv[1].arrival):
        if corp.cell is not None:
            here.setdefault((corp.cell[0], corp.cell[1]), []).append(sym)
    return here


def grid_lines(market: Market, here: Mapping[tuple[int, int], list[str]],
               codes: Mapping[str, str], first: int, last: int) -> list[str]:
    """Columns first..last of the grid: a price line and a mark/token line per row."""
    lines = []
    for row in range(market.n_rows):
        prices, marks = [], []
        for col in range(first, last + 1):
            cell = market.cell(row, col)
            if cell is None:
                prices.append(" " * CELL)
                marks.append(" " * CELL)
                continue
            tokens = "".join(codes.get(s, "?") for s in here.get((row, col), []))
            if len(tokens) > CELL - 1:
                tokens = tokens[: CELL - 2] + "+"
            prices.append(f"{cell.price:>{CELL}}")
            marks.append(f"{cell_mark(cell)}{tokens:<{CELL - 1}}")
        lines += ["".join(prices).rstrip(), "".join(marks).rstrip()]
    return lines


def grid(state: GameState) -> list[str]:
    """The whole grid, split into blocks of columns that fit 78 characters."""
    market = state.rules.market
    codes = letters(state.rules.corporations)
    here = stacks(state)
    blocks = -(-market.n_cols // (WIDTH // CELL))
    per_block = -(-market.n_cols // blocks)
    lines: list[str] = []
    for first in range(0, market.n_cols, per_block):
        last = min(first + per_block, market.n_cols) - 1
        if lines:
            lines.append(f"(columns {first + 1} to {last + 1})")
        lines += grid_lines(market, here, codes, first, last)
    return lines


def market_legend(state: GameState) -> list[str]:
    codes = letters(state.rules.corporations)
    used = [sym for sym, c in state.corps.items() if c.cell is not None]
    text = ("Under each price: * par value, y yellow, o orange, b brown zone"
            + (", L ledge, x closes" if state.title == "1870" else "")
            + "; then the tokens, top of the stack first: "
            + ", ".join(f"{codes[s]}={s}" for s in used) + ".")
    return textwrap.wrap(text if used else text.split(";")[0] + ".", WIDTH)


def stack_lines(state: GameState) -> list[str]:
    """Cells holding several tokens, in words."""
    lines = []
    for (row, col), syms in sorted(stacks(state).items()):
        if len(syms) > 1:
            price = state.rules.market.cells[(row, col)].price
            lines.append(f"${price} (row {row + 1}, column {col + 1}): "
                         + " on top of ".join(syms))
    return textwrap.wrap("Stacks: " + "; ".join(lines), WIDTH) if lines else []


def par_chart(state: GameState) -> list[str]:
    """Par values, each with the corporations parred there."""
    parts = []
    for price in sorted(state.rules.market.par_prices, reverse=True):
        corps = [s for s, c in state.corps.items() if c.par == price]
        parts.append(f"${price}" + (f" {' '.join(corps)}" if corps else ""))
    return textwrap.wrap("Par chart: " + ", ".join(parts), WIDTH)


def order_lines(state: GameState) -> list[str]:
    """The operating order that follows from the market (6.0), floated corporations."""
    floated = [s for s, c in state.corps.items() if c.floated and c.cell is not None]
    if not floated:
        return ["Operating order: no corporation has floated yet."]
    order = operating_order(state, floated)
    operating = state.round.get("kind") == "operating"
    text = ", ".join(f"{s} ${state.price(s)}" + (" (done)" if operating and
                                                  state.corps[s].operated else "")
                     for s in order)
    return textwrap.wrap("Operating order: " + text, WIDTH)


def market_text(state: GameState) -> str:
    lines = ["STOCK MARKET", ""] + grid(state) + [""] + market_legend(state)
    lines += stack_lines(state) + par_chart(state) + order_lines(state)
    return "\n".join(lines)
