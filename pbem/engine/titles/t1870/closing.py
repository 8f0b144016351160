"""A company closes when its share value token enters the closing section (1870,
Sections of the Stock Market, p.7): its stations and tokens leave the map and the
market, its certificates are removed without compensation, its trains go to the open
market, its treasury to the bank; it is never restarted.  The certificate limit falls
(p.6, shares.certificate_limit, which counts the companies still open)."""

from __future__ import annotations

from ...context import Ctx
from ...facts import CorpClosed, MarkerRemoved, OverLimit, PrivateClosed, StationRemoved, Train
from ...state import BANK, corp_holder
from .tokens import settle_destination_markers


def close_company(ctx: Ctx, corp: str) -> None:
    state = ctx.state
    c = state.corps[corp]
    ctx.log(f"{corp} enters the closing section and closes: its stations leave the map, "
            "its certificates are removed, its trains go to the open market and its "
            "treasury to the bank.")
    for train in list(c.trains):
        ctx.emit(Train(train, corp_holder(corp), "pool"))
    for sym in state.privates_of(corp_holder(corp)):
        ctx.emit(PrivateClosed(sym))
        ctx.log(f"{sym}, owned by {corp}, closes.")
    ctx.pay(corp_holder(corp), BANK, c.cash)
    for coord, stops in sorted(state.board.tokens.items()):
        for stop, corps in enumerate(stops):
            for _ in range(corps.count(corp)):
                ctx.emit(StationRemoved(coord, stop, corp))
    if f"destination:{corp}" in state.board.markers:
        ctx.emit(MarkerRemoved(f"destination:{corp}"))
    for name, corps in sorted(state.over_limit.items()):
        if corp in corps:
            ctx.emit(OverLimit(name, [x for x in corps if x != corp]))
    ctx.emit(CorpClosed(corp))
    settle_destination_markers(ctx)  # station marker wars: freed city spaces (p.25)
