"""18xx.games logs in and out of pbem (issue #7).

``import_log`` creates a pbem game from an 18xx.games export and replays every action
in effect through ``service.act`` (so pbem's engine decides each one and stores it as
events); ``export_game`` writes a pbem game in the site's format.  docs/18xx-games.md
lists where pbem's rules differ from the site's and which option selects which reading.

    sitelog    the file: players, settings, undo/redo resolved, auto actions flattened
    options    the pbem options that give the site's readings and optional rules
    translate  site action -> pbem commands (the title-independent part)
    common     the stock and operating rounds 1830 and 1870 share
    t1830      the 1830 translation
    t1870      the 1870 translation (protection, redemption, connection runs, ...)
    routes     a recorded route as pbem's written stops
    replay     the game creation and the replay through service.act
    check      the outcome against the log's result; a refusal described
    export     a pbem game as a site log (sitenames keeps the site's ids)
    positions  the position before each run (the route tests and bench/routes.py)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..store import Store
from .check import Outcome, describe_refusal, outcome, score_lines
from .export import ExportError, export_game
from .replay import Imported, replay_log
from .sitelog import LogError, SiteLog, read_log
from .translate import Unsupported


def import_log(store: Store, path: str | Path, *, emails: dict[str, str] | None = None,
               to: Any = None, now: str = "") -> tuple[SiteLog, Imported]:
    """Read ``path`` and replay it into a new game of ``store``."""
    log = read_log(path)
    return log, replay_log(store, log, emails=emails, to=to, now=now)


__all__ = [
    "ExportError",
    "Imported",
    "LogError",
    "Outcome",
    "SiteLog",
    "Unsupported",
    "describe_refusal",
    "export_game",
    "import_log",
    "outcome",
    "read_log",
    "score_lines",
]
