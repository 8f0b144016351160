"""Errors pbem raises for a person to read: each carries a complete sentence.

``PbemError`` is the base of every such error (the engine's, the command language's,
the service's): ``message`` is the sentence, ``str()`` may add context.  Whoever
catches one shows its text; nothing was recorded.
"""

from __future__ import annotations


class PbemError(Exception):
    """An error with a sentence for a player, a referee or an operator."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RulesError(PbemError):
    """A command the rules do not allow now.

    ``rule`` names the rule (the title's citation, pbem.engine.registry.cite) when one
    forbids it, as the game's title cites it; ``suggestions`` lists legal commands
    close to what was asked, filled in by whoever knows the legal moves.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.suggestions: list[str] = []

    def __str__(self) -> str:
        if self.rule:
            return f"{self.message} (rule {self.rule})"
        return self.message


class AmbiguousError(RulesError):
    """A command that fits the rules in more than one way (a tile that can lie several
    ways, a route whose cities can be read several ways): the message says how to name
    the one meant."""


class NotImplementedRule(RulesError):
    """A rule pbem cannot carry out yet: refused, never done wrongly."""


class SetupError(PbemError):
    """A game cannot be created or read as asked (players, options, versions)."""
