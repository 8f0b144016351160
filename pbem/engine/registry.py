"""Where the engine finds a title's code: its Rulebook (pbem/engine/titles/base.py): the
rounds as ordered step lists, the rules its data cannot say, and how it cites its
rulebook.

Each title registers its rulebook when its package is imported.  The built-in titles
live in pbem.engine.titles (imported the first time a rulebook is asked for, as
plug-ins are found by their package name); a title defined elsewhere (the test title
in tests/) registers itself with register() and its data with
pbem.engine.rulesdata.register_data().
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .errors import SetupError

if TYPE_CHECKING:
    from .state import GameState
    from .titles.base import Rulebook

#: the package holding the built-in titles
BUILT_IN = "pbem.engine.titles"

_BOOKS: dict[str, Rulebook] = {}


def register(book: Rulebook) -> None:
    _BOOKS[book.title] = book


def rulebook_of(title: str) -> Rulebook:
    """The rulebook of ``title``; SetupError for a title without code."""
    found = _BOOKS.get(title)
    if found is None:
        importlib.import_module(BUILT_IN)
        found = _BOOKS.get(title)
    if found is None:
        raise SetupError(f"pbem has no rules code for the game '{title}'.")
    return found


def book(state: GameState) -> Rulebook:
    """The rulebook of the game ``state`` is a position of."""
    found = _BOOKS.get(state.title)  # (asked several times a decision: no second call)
    return found if found is not None else rulebook_of(state.title)


def cite(state: GameState, key: str) -> str | None:
    """The title's citation for the rule ``key`` names (None: the title has none)."""
    return rulebook_of(state.title).cite(key)
