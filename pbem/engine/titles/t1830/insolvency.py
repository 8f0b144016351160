"""The 1830 base game's forced train purchase and insolvency (German rulebook,
"Grundspiel" 7.6.2 and 7.7; option game=base), in place of 1830 Classic's forced share
sales and bankruptcy (C-2.3, C-2.4).

7.6.2: a company that must buy a train and cannot pay for it gets from its president
exactly what it lacks for the cheapest train of the bank or the bank pool; when the two
together have not enough, both pay all their money and the company borrows the rest from
the bank.  7.7: a company that owes the bank is insolvent: its president is its
administrator and stays so (no change of president), it pays no dividends, the
administrator may not sell its shares, no other company may buy its only train, and the
money the company and its administrator take in repays the loan at once.  When the loan
is repaid the company is solvent again, and a player holding more of it than the
administrator becomes its president.

Readings (docs/options.md): "all the money the administrator takes in" is every dollar
that comes to the company (its withheld revenue, a train or private company it sells) or
to the administrator (dividends, private revenue, sales of other shares) while the loan
is unpaid: both paid all their money into the train, so what they hold afterwards is what
they took in, and it goes to the bank after each command; a player's money beyond what
the loan still needs stays with the player, the company's stays in its treasury.  A
player who administers several insolvent companies chooses the order in which that money
repays their loans (7.7's note): ``repay NYC first``, at any time, puts NYC first until
its loan is repaid; without such a choice the order is the charter list's.
"""

from __future__ import annotations

from typing import Any

from ...context import Ctx, money, player_cash, require
from ...shares import check_presidency
from ...state import BANK, GameState, corp_holder, player_holder
from ...steps import Moves

#: the citations of the base game's rules
LOAN_RULE = "1830 base game 7.6.2 (German rules)"
RULE = "1830 base game 7.7 (German rules)"


def loans(state: GameState) -> bool:
    """Option forced_train=loan (the base game)."""
    return state.options.get("forced_train", "sales") == "loan"


def insolvent(state: GameState, corp: str) -> bool:
    return state.corps[corp].loan > 0


def borrow(ctx: Ctx, corp: str, price: int) -> None:
    """The company and its president pay all their money; the bank lends the rest of
    ``price`` to the company (7.6.2)."""
    state = ctx.state
    president = state.president(corp)
    assert president is not None
    own = player_cash(state, president)
    lent = price - state.corps[corp].cash - own
    ctx.pay(player_holder(president), corp_holder(corp), own)
    ctx.pay(BANK, corp_holder(corp), lent)
    ctx.corp_set(corp, loan=state.corps[corp].loan + lent)
    ctx.log(f"{president} pays {corp} {money(own)}, all {president}'s money, and {corp} "
            f"borrows {money(lent)} from the bank: {corp} is insolvent, {president} its "
            f"administrator, until the {money(state.corps[corp].loan)} are repaid (7.7).")


def repay(ctx: Ctx) -> None:
    """After each command: the money an insolvent company and its administrator hold
    goes to the bank until the loan is repaid (7.7)."""
    state = ctx.state
    if not any(c.loan > 0 and not c.closed for c in state.corps.values()):
        return  # (the loop below makes no loan: nothing to repay, without the sorting)
    for sym in repayment_order(state, list(state.corps)):
        corp = state.corps[sym]
        if corp.loan <= 0 or corp.closed:
            continue
        administrator = state.president(sym)
        payers = [corp_holder(sym)] + ([player_holder(administrator)] if administrator else [])
        for payer in payers:
            have = corp.cash if payer.startswith("c:") else player_cash(state, payer[2:])
            amount = min(have, corp.loan)
            if amount > 0:
                ctx.pay(payer, BANK, amount)
                ctx.corp_set(sym, loan=corp.loan - amount)
                who = sym if payer.startswith("c:") else payer[2:]
                ctx.log(f"{who} repays {money(amount)} of {sym}'s loan"
                        + (f"; {money(corp.loan)} still owed." if corp.loan else
                           f": {sym} is solvent again."))
        if corp.loan == 0:
            check_presidency(ctx, sym)


def repayment_order(state: GameState, corps: list[str]) -> list[str]:
    """``corps`` in the order their administrators repay them: the one each chose first
    (the highest repay_rank), then the charter order."""
    return sorted(corps, key=lambda sym: -state.corps[sym].repay_rank)


def administered(state: GameState, name: str) -> list[str]:
    """The insolvent companies ``name`` administers, in the order they are repaid."""
    return repayment_order(state, [sym for sym, c in state.corps.items()
                                   if c.loan > 0 and not c.closed
                                   and state.president(sym) == name])


def repay_first(ctx: Ctx, action: dict[str, Any]) -> None:
    """``repay NYC first``: the administrator of several insolvent companies chooses
    which loan the money taken in repays first (7.7's note)."""
    state, actor, corp = ctx.state, ctx.actor, action["corp"]
    require(loans(state), "Only the base game's insolvent companies (option "
            "forced_train=loan) have loans to repay.", RULE)
    require(corp in state.corps and insolvent(state, corp) and
            state.president(corp) == actor,
            f"{actor} administers no insolvent company {corp}.", RULE)
    mine = administered(state, actor)
    require(len(mine) > 1, f"{corp} is the only insolvent company {actor} administers: "
            "its loan is repaid first anyway.", RULE)
    require(mine[0] != corp, f"{corp}'s loan is already repaid first.", RULE)
    ctx.corp_set(corp, repay_rank=state.corps[mine[0]].repay_rank + 1)
    ctx.log(f"{actor} repays {corp}'s loan first from now on (then "
            f"{', '.join(m for m in mine if m != corp)}).")


def repay_moves(state: GameState) -> Moves:
    """Each administrator of several insolvent companies may put another one first."""
    if not loans(state):
        return {}
    moves: Moves = {}
    for name in state.names:
        later = administered(state, name)[1:]
        if later:
            moves[name] = [{"action": {"type": "repay", "corp": sym}} for sym in later]
    return moves


def sale_problem(state: GameState, name: str, corp: str) -> str | None:
    if insolvent(state, corp) and state.president(corp) == name:
        return (f"{corp} is insolvent and {name} is its administrator and may not "
                f"sell its shares until its loan of {money(state.corps[corp].loan)} is repaid.")
    return None


def only_train_problem(state: GameState, seller: str) -> str | None:
    if insolvent(state, seller) and len(state.corps[seller].trains) == 1:
        return f"{seller} is insolvent: no other company may buy its only train."
    return None
