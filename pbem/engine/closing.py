"""A company closes when its share value token enters the closing section (1870,
Sections of the Stock Market, p.7): its stations and tokens leave the map and the
market, its certificates are removed without compensation, its trains go to the open
market, its treasury to the bank; it is never restarted.  The certificate limit falls
(p.6, shares.certificate_limit)."""

from __future__ import annotations

from .context import Ctx
from .state import BANK, GameState, corp_holder

#: the holder of a closed company's certificates (out of the game)
CLOSED = "closed"


def close_company(ctx: Ctx, corp: str) -> None:
    state = ctx.state
    c = state.corps[corp]
    ctx.log(f"{corp} enters the closing section and closes: its stations leave the map, "
            "its certificates are removed, its trains go to the open market and its "
            "treasury to the bank.")
    for train in list(c.trains):
        ctx.emit("train", name=train, source=corp_holder(corp), dest="pool")
    for sym in state.privates_of(corp_holder(corp)):
        ctx.emit("private_closed", sym=sym)
        ctx.log(f"{sym}, owned by {corp}, closes.")
    ctx.pay(corp_holder(corp), BANK, c.cash)
    ctx.emit("corp_closed", corp=corp)
    from .tokens import settle_destination_markers

    settle_destination_markers(ctx)  # station marker wars: freed city spaces (p.25)


def apply_corp_closed(state: GameState, corp: str) -> None:
    """The closing itself (the applier of the ``corp_closed`` fact)."""
    c = state.corps[corp]
    c.certs = [CLOSED] * len(c.certs)
    c.closed, c.floated, c.funded, c.cell, c.frozen = True, False, False, None, 0
    for stops in state.board.tokens.values():
        for stop in stops:
            while corp in stop:
                stop.remove(corp)
    markers = getattr(state.board, "markers", None)
    if isinstance(markers, dict):
        for key in [k for k, v in markers.items()
                    if k == f"destination:{corp}" or (isinstance(v, dict) and
                                                      v.get("corp") == corp and
                                                      k.startswith("destination"))]:
            del markers[key]
    for name, corps in list(state.over_limit.items()):
        if corp in corps:
            state.over_limit[name] = [x for x in corps if x != corp]


def open_companies(state: GameState) -> int:
    """Public companies still in the game (not closed), for the certificate limit."""
    return sum(1 for c in state.corps.values() if not c.closed)
