"""Default hooks: a title overrides only what differs."""

from __future__ import annotations

from typing import Any

from ..context import Ctx


class Hooks:
    def on_private_bought(self, ctx: Ctx, sym: str, buyer: str) -> None:
        """A player bought a private company from the bank (auction)."""

    def par_free_president(self, ctx: Ctx, action: dict[str, Any]) -> None:
        """A player who received a president's certificate free sets its par value."""
        raise NotImplementedError
