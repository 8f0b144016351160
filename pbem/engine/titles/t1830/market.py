"""1830's stock market variants (the German rulebook, V-5.1, V-5.2, V-6.2, V-8.0).

* price_drop (V-5.1): how far a sale moves the share value down: one box per share
  (standard, the default), one box per sale whatever its size ("Ein Feld pro Verkauf"),
  one per sale for shareholders and one per share for the president ("bei
  Miteigentümern"), or the stock market reform: one per share until the stock round
  after the last 5-train is bought, one per sale from then on ("Aktienmarktreform").
* share_sales (V-6.2): the shares of one corporation sold together get the same price
  (the default), or one at a time, each after the drop of the one before ("Mehrere
  Aktien nacheinander verkaufen").
* dividend_rise (V-5.2): a dividend moves the share value right only if it is at least
  the share value ("Kursanstieg an Dividende gebunden").
* game_end (V-8.0): the game also ends when a share value reaches the top of the
  market ("Höchstkurs"), after that corporation's turn or at the end of the stock round.

Readings (docs/options.md): every sale counts, forced sales for a train too; a sale is
one block of one corporation's shares in one command (V-6.2 one at a time: each share
is a sale); "the president" is the seller's standing before the sale; the reform starts
with the first stock round that begins after the last 5-train was bought, and from then
on applies in the operating rounds too; the dividend compared with the share value is
the revenue paid out (as in 18xx games that tie the rise to the dividend, 1846).
"""

from __future__ import annotations

from ...context import Ctx
from ...facts import Note
from ...market import rows_down
from ...shares import sale_plan, sell_to_pool
from ...state import GameState, player_holder
from ...trains import left_in_bank

#: notes key: the stock round number from which the stock market reform applies
REFORM = "market_reform_from"
#: the end reason of V-8.0 (the site's name for an end at the top of the market)
TOP_REASON = "stock_market"


def price_drop(state: GameState) -> str:
    return state.options.get("price_drop", "per-share")


def one_at_a_time(state: GameState) -> bool:
    return state.options.get("share_sales", "block") == "one-at-a-time"


def reform_applies(state: GameState) -> bool:
    """The stock market reform is in force: the round is the stock round it starts with
    or later (an operating round's stock round is its ``sr``)."""
    start = state.notes.get(REFORM)
    if start is None:
        return False
    rnd = state.round
    number = rnd.get("number") if rnd.get("kind") == "stock" else rnd.get("sr")
    return number is not None and number >= start


def note_reform(ctx: Ctx) -> None:
    """After each decision: once the last 5-train is sold (in an operating round), the
    reform applies from the next stock round on."""
    state = ctx.state
    if price_drop(state) != "reform" or REFORM in state.notes:
        return
    five = next((t for t in state.rules.trains if t.name == "5"), None)
    if five is None or left_in_bank(state, five) != 0 or state.round.get("kind") != "operating":
        return
    start = state.round["sr"] + 1
    ctx.emit(Note(REFORM, start))
    ctx.log(f"The last 5-train is sold: from stock round {start} on a sale moves the share "
            "value down one box whatever the number of shares (stock market reform, V-5.1).")


def rows_for_sale(state: GameState, seller: str, corp: str, count: int) -> int:
    """How many boxes one sale of ``count`` shares moves the share value down."""
    rule = price_drop(state)
    if rule == "per-sale" or rule == "reform" and reform_applies(state):
        return 1
    if rule == "per-sale-shareholders" and state.corps[corp].certs[0] != player_holder(seller):
        return 1
    return count


def sale_blocks(state: GameState, seller: str, corp: str, count: int) -> list[int]:
    """The sales ``count`` shares make: one block, or one share at a time (V-6.2); a
    20% certificate (V-6.5) whose half cannot be sold (no 10% share in the pool to
    give back in change) is sold whole, its two shares as one sale."""
    if not one_at_a_time(state):
        return [count]
    if count >= 2 and state.rules.has_larger_certificates(corp) and \
            sale_plan(state, seller, corp, 1) is None:
        return [2] + [1] * (count - 2)
    return [1] * count


def sell(ctx: Ctx, seller: str, corp: str, count: int, price_moves: bool = True) -> None:
    """A sale of ``count`` shares to the pool, in one block or one at a time."""
    state = ctx.state
    for size in sale_blocks(state, seller, corp, count):
        sell_to_pool(ctx, seller, corp, size, price_moves=price_moves,
                     rows=rows_for_sale(state, seller, corp, size))


def proceeds(state: GameState, seller: str, corp: str, count: int) -> int:
    """What the sale pays: the share value for each share of a block; one at a time,
    each share the value left by the ones sold before it."""
    price = state.price(corp) or 0
    cell = state.corps[corp].cell
    if not one_at_a_time(state) or cell is None:
        return price * count
    market = state.rules.market
    total, (row, col) = 0, cell
    for size in sale_blocks(state, seller, corp, count):
        found = market.cell(row, col)
        total += (found.price if found else 0) * size
        row, col = rows_down(market, row, col, rows_for_sale(state, seller, corp, size))
    return total


def payout_moves(state: GameState, corp: str, revenue: int) -> int:
    """V-5.2: with dividend_rise=at-least-price a dividend below the share value leaves
    it where it is."""
    if state.options.get("dividend_rise", "always") == "at-least-price" and \
            revenue < (state.price(corp) or 0):
        return 0
    return 1


def ends_at_top(state: GameState) -> bool:
    return state.options.get("game_end", "bank") == "bank-or-top"
