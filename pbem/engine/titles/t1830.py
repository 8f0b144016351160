"""1830 hooks: the special effects of CA, BO and MH (appendix, 3.0)."""

from __future__ import annotations

from typing import Any

from ..context import Ctx, require
from ..shares import check_float, check_presidency
from ..state import player_holder
from .base import Hooks


class Hooks1830(Hooks):
    def on_private_bought(self, ctx: Ctx, sym: str, buyer: str) -> None:
        extra = ctx.state.rules.private(sym).extra
        if "free_share" in extra:
            corp = extra["free_share"]
            ctx.move_cert(corp, 1, player_holder(buyer))
            ctx.log(f"{buyer} receives a 10% share of {corp} with {sym}.")
        if "free_president" in extra:
            corp = extra["free_president"]
            ctx.move_cert(corp, 0, player_holder(buyer))
            ctx.log(f"{buyer} receives the {corp} president's certificate with {sym} and "
                    f"must set its par value now.")
            ctx.round_set(pending_par={"player": buyer, "corp": corp})

    def par_free_president(self, ctx: Ctx, action: dict[str, Any]) -> None:
        from ..stock import place_par_token

        corp = ctx.state.round["pending_par"]["corp"]
        require(action.get("corp") in (None, corp), f"Set the par value of {corp} first.")
        place_par_token(ctx, corp, action["price"])
        check_presidency(ctx, corp)
        check_float(ctx, corp)


HOOKS = Hooks1830()
