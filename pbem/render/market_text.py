"""The stock market as text: the grid with prices, zones and the share value tokens in
their stacking order, the par chart, and the operating order that follows from it.

Under each price one mark says what the box is; the tokens (upper-case letters) follow.
Marks are never upper-case letters: ``*`` par value, ``y``/``o``/``g``/``b`` the
yellow, orange, green and brown zones (1870: sections), ``x`` the closing section,
``_`` a box standing on the 1870 ledge (the ledge is the line under it) and ``.`` a box
of the 1870 lower area (below the ledge)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from pbem.engine.market import operating_order
from pbem.engine.memo import ByIdentity
from pbem.engine.state import GameState
from pbem.engine.title import Cell, Market

from .corps import letters
from .stateinfo import field

CELL = 4  # characters per market cell
WIDTH = 78
ZONE_MARKS = {"yellow": "y", "orange": "o", "green": "g", "brown": "b", "closed": "x"}
LEDGE, LOWER = "_", "."


def cell_mark(cell: Cell) -> str:
    """One character before the tokens: * par, zone letter, x closing, _ on the ledge,
    . lower area (1870), or blank.  Never an upper-case letter (those are tokens)."""
    if cell.par:
        return "*"
    if cell.zone in ZONE_MARKS:
        return ZONE_MARKS[cell.zone]
    if cell.price == 0:
        return "x"
    if cell.ledge:
        return LEDGE
    if cell.area == "lower":
        return LOWER
    return " "


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
    while lines and not lines[-1]:
        lines.pop()  # rows with no box in these columns
    return lines


def grid(state: GameState) -> list[str]:
    """The whole grid, split into blocks of columns that fit 78 characters (the last
    grids kept: most moves leave the market's tokens where they were)."""
    market, corporations = state.rules.market, tuple(state.rules.corporations)
    stacked = tuple((cell, tuple(corps)) for cell, corps in stacks(state).items())
    return list(_GRIDS.get((market,), (corporations, stacked),
                           lambda: _grid(market, corporations, stacked)))


#: the last grids drawn, by the title's market and where the tokens stand
_GRIDS: ByIdentity[tuple[str, ...]] = ByIdentity(32)


def _grid(market: Market, corporations: tuple[str, ...],
          stacked: tuple[tuple[tuple[int, int], tuple[str, ...]], ...]) -> tuple[str, ...]:
    codes = letters(corporations)
    here = {cell: list(corps) for cell, corps in stacked}
    blocks = -(-market.n_cols // (WIDTH // CELL))
    per_block = -(-market.n_cols // blocks)
    lines: list[str] = []
    for first in range(0, market.n_cols, per_block):
        last = min(first + per_block, market.n_cols) - 1
        if lines:
            lines.append(f"(columns {first + 1} to {last + 1})")
        lines += grid_lines(market, here, codes, first, last)
    return tuple(lines)


ZONE_NAMES = (("yellow", "y"), ("orange", "o"), ("green", "g"), ("brown", "b"))


def has_sections(market: Market) -> bool:
    """1870's market: a ledge, a lower area and a closing section ("sections")."""
    return any(c.ledge or c.area == "lower" or c.zone == "closed" for c in market.cells.values())


def market_legend(state: GameState) -> list[str]:
    """What each mark under a price means (only the marks this market uses), then the
    token letters of the corporations on the market."""
    market = state.rules.market
    cells = market.cells.values()
    zones = {c.zone for c in cells}
    sections = has_sections(market)
    marks = ["* par value"]
    names = [f"{mark} {zone}" for zone, mark in ZONE_NAMES if zone in zones]
    if names:
        marks.append(", ".join(names) + (" section" if sections else " zone"))
    if sections:
        if "closed" in zones or any(c.price == 0 for c in cells):
            marks.append("x closing section (a token entering it closes the company)")
        if any(c.ledge for c in cells):
            marks.append(f"{LEDGE} on the ledge (the ledge is the line under this box; a sale "
                         "must push a token two rows below it, or the token stops here)")
        if any(c.area == "lower" for c in cells):
            marks.append(f"{LOWER} lower area (below the ledge)")
    codes = letters(state.rules.corporations)
    used = [sym for sym, c in state.corps.items() if c.cell is not None]
    text = "Under each price: " + ", ".join(marks)
    if used:
        text += ("; then the tokens, top of the stack first: "
                 + ", ".join(f"{codes[s]}={s}" for s in used))
    lines = textwrap.wrap(text + ".", WIDTH)
    if sections:
        lines += textwrap.wrap(section_rules(state), WIDTH)
    return lines


def section_rules(state: GameState) -> str:
    """What the coloured sections allow, from the title's zone data (1870, p.7)."""
    said = (("uncounted", "certificates not counted toward the certificate limit"),
            ("over_60", "shares may be held over 60%"),
            ("multi_buy", "in a turn any number of shares from the open market, or one "
                          "from the initial offering"))
    present = {c.zone for c in state.rules.market.cells.values()}
    parts = []
    for rule, meaning in said:
        marks = [mark for zone, mark in ZONE_NAMES
                 if zone in present and state.rules.zone_allows(zone, rule)]
        if marks:
            parts.append(f"{', '.join(marks)}: {meaning}")
    return "In the sections " + "; ".join(parts) + "." if parts else ""


def closed_lines(state: GameState) -> list[str]:
    """1870: companies closed for good are off the market."""
    closed = [s for s, c in state.corps.items() if field(c, "closed", False)]
    if not closed:
        return []
    verb = "has" if len(closed) == 1 else "have"
    return textwrap.wrap(f"Closed: {', '.join(closed)} {verb} closed (token in the closing "
                         "section): off the market, certificates removed.", WIDTH)


def stack_lines(state: GameState) -> list[str]:
    """Cells holding several tokens, in words."""
    lines = []
    for (row, col), syms in sorted(stacks(state).items()):
        if len(syms) > 1:
            price = state.rules.market.cells[(row, col)].price
            lines.append(f"${price} (row {row + 1}, column {col + 1}): "
                         + " on top of ".join(syms))
    return textwrap.wrap("Stacks: " + "; ".join(lines), WIDTH) if lines else []


def wrap_items(head: str, items: list[str]) -> list[str]:
    """``head`` and the items joined by commas, wrapped only between items."""
    glued = [item.replace(" ", "\u00a0") for item in items]
    lines = textwrap.wrap(head + ", ".join(glued), WIDTH)
    return [line.replace("\u00a0", " ") for line in lines]


def par_chart(state: GameState) -> list[str]:
    """Par values, each with the corporations parred there; a reissue's new par may lie
    above the starting pars (1870 Share Reissue, p.18: $110 to $200, above $200 a value of
    the top row), and is listed too.  Closed companies have no par any more."""
    market = state.rules.market
    pars: dict[int, list[str]] = {p: [] for p in market.par_prices}
    for sym, c in state.corps.items():
        if c.par is not None and not field(c, "closed", False):
            mark = " (reissued)" if field(c, "reissued", False) else ""
            pars.setdefault(c.par, []).append(sym + mark)
    parts = [f"${price}" + (f" {', '.join(corps)}" if corps else "")
             for price, corps in sorted(pars.items(), reverse=True)]
    lines = wrap_items("Par chart: ", parts)
    reissue = state.rules.extra.get("reissue")
    if isinstance(reissue, dict) and reissue.get("par_prices"):
        prices = sorted(reissue["par_prices"])
        lines += textwrap.wrap(f"After a reissue the new par may be any of ${prices[0]} to "
                               f"${prices[-1]}, or above ${prices[-1]} the nearest top-row "
                               "value.", WIDTH)
    return lines


def order_lines(state: GameState) -> list[str]:
    """The operating order that follows from the market (6.0), floated corporations."""
    floated = [s for s, c in state.corps.items() if c.floated and c.cell is not None]
    if not floated:
        return ["Operating order: no corporation has floated yet."]
    order = operating_order(state, floated)
    # this round's (the corporation's own "operated" flag says it has ever operated)
    done = set(state.round.get("operated", [])) if state.round.get("kind") == "operating" \
        else set()
    items = [f"{s} ${state.price(s)}" + (" (done)" if s in done else "") for s in order]
    return wrap_items("Operating order: ", items)


def market_text(state: GameState) -> str:
    lines = ["STOCK MARKET", ""] + grid(state) + [""] + market_legend(state)
    lines += stack_lines(state) + closed_lines(state) + par_chart(state) + order_lines(state)
    return "\n".join(lines)
