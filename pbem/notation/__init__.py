"""The command language: what players type <-> engine actions.

Parse leniently, print strictly::

    ctx = context_for_1830("stock", ["Alice", "Bob"])
    parse_command("buy 3 nyc from the pool", ctx)
    # {'type': 'buy_share', 'corp': 'NYC', 'source': 'pool', 'count': 3}
    format_action(_)   # 'buy 3 NYC pool'

docs/commands.md describes the language for players.
"""

from .context import ParseContext, context_for_1830, context_for_1870
from .errors import NotationError
from .lexicon import HELP_TOPICS
from .parser import ParsedCommand, parse_command, parse_commands, split_commands
from .printer import format_action
from .suggest import closest
from .words import SIDES

#: Action types this language reads that pbem.engine.actions does not list yet
#: (referee commands).
PROPOSED_TYPES = frozenset(
    {"revert", "replace", "pause", "resume", "deadline", "kick"}
)

__all__ = [
    "HELP_TOPICS",
    "PROPOSED_TYPES",
    "SIDES",
    "NotationError",
    "ParseContext",
    "ParsedCommand",
    "closest",
    "context_for_1830",
    "context_for_1870",
    "format_action",
    "parse_command",
    "parse_commands",
    "split_commands",
]
