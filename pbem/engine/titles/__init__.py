"""Per-title hooks: what the data in rules/<title>/ cannot express."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state import GameState
    from .base import Hooks


def hooks_for(state: GameState) -> Hooks:
    from . import t1830, t1870

    known = {"1830": t1830.HOOKS, "1870": t1870.HOOKS}
    return known[state.title]
