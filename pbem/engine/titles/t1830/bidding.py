"""1830's auction variants (the German rulebook, V-1.8 "Auktionsvarianten"), for the
auction of 1830 Classic (C-2.2).

* bid_raise: a bid raises the face value or the last bid by at least $5 (★), by $5 or a
  multiple of $5 ("Um Vielfaches von $5 erhöhen"), or by exactly $5 ("In
  $5-Schritten erhöhen").
* auction_pass: a bidder who passes in the auction between bidders may bid again while
  it goes on (★, C-2.2.2 "Passen und später weiterbieten"), or is out of it ("Passen und
  raus").
* bidding: formal (★, "Formelles Bieten": in turn, C-2.2), or free-for-all ("Wildes
  Bieten: Jeder Spieler kann jederzeit bieten. Die Versteigerung endet, wenn alle
  Spieler nicht mehr bieten wollen.").

Reading (docs/options.md): the book's "Aktienrunde" in these two lines is the purchase
of the private companies, and a pass that takes a player out is one in the auction
between the bidders, the only place where the ★ rule lets a player who passed come
back (C-2.2.2).  Free-for-all bidding by mail: the auction between the bidders on a
private company (C-2.2.2) has no turns; after each bid every other bidder still in
answers it, raising or passing, in any order (the mails arrive in some order: the
record's is the order of the bids); a raise asks all the others again (with "pass and
out" only those still in); the leader wins when all the others have passed on his bid.
The buy-bid turns before it keep their seat order (buying the cheapest company needs
turns, and "everybody passed" needs a round of them).
"""

from __future__ import annotations

from ...context import money
from ...state import GameState

MIN_RAISE = 5


def raise_rule(state: GameState) -> str:
    return state.options.get("bid_raise", "at-least-5")


def problem(state: GameState, previous: int, amount: int) -> str | None:
    rule = raise_rule(state)
    if rule == "multiple-of-5" and (amount - previous) % MIN_RAISE:
        return (f"A bid raises by $5 or a multiple of $5: {money(previous + MIN_RAISE)}, "
                f"{money(previous + 2 * MIN_RAISE)}, ... (V-1.8).")
    if rule == "exactly-5" and amount != previous + MIN_RAISE:
        return f"A bid raises by exactly $5: bid {money(previous + MIN_RAISE)} (V-1.8)."
    return None


def step(state: GameState) -> int | None:
    return {"multiple-of-5": MIN_RAISE, "exactly-5": None}.get(raise_rule(state), 1)


def pass_leaves(state: GameState) -> bool:
    return state.options.get("auction_pass", "re-enter") == "out"


def free(state: GameState) -> bool:
    return state.options.get("bidding", "formal") == "free-for-all"
