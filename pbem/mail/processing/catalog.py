"""Every command of the mail language, as units (units.py). A new mail command is a
unit in a module of this package, added to the list below."""

from __future__ import annotations

from . import absence, game_commands, info, referee, settings, standing, talk, undo
from .units import Catalog

CATALOG = Catalog([
    *game_commands.UNITS,
    *talk.UNITS,
    *info.UNITS,
    *undo.UNITS,
    *absence.UNITS,
    *standing.UNITS,
    *settings.UNITS,
    *referee.UNITS,
])
