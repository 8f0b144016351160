"""1870 hooks: SLSF's president's certificate and MKT's share come with the privates
(Private Companies, p.9-10), as 1830's B&O and C&A do."""

from __future__ import annotations

from typing import Any

from ..context import Ctx
from ..facts import PrivateClosed
from .t1830 import Hooks1830


class Hooks1870(Hooks1830):
    def par_free_president(self, ctx: Ctx, action: dict[str, Any]) -> None:
        """The SLSF private "is the president's certificate of the St. Louis San
        Francisco Railway" (p.10): once its par value is set the player holds that
        certificate, and the private company is no more (no second $140 in his worth,
        no second certificate towards his limit)."""
        state = ctx.state
        corp = state.round["pending_par"]["corp"]
        super().par_free_president(ctx, action)
        for sym, private in state.privates.items():
            extra = state.rules.private(sym).extra
            if extra.get("free_president") == corp and extra.get("is_president_certificate") \
                    and not private.closed:
                ctx.emit(PrivateClosed(sym))
                ctx.log(f"The {sym} private company is now the {corp} president's certificate.")


HOOKS = Hooks1870()
