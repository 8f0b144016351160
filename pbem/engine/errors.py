"""Errors the engine raises: each carries a sentence a player can act on."""

from __future__ import annotations


class RulesError(Exception):
    """A command the rules do not allow now.

    ``message`` is a complete sentence for the player; ``rule`` names the rule
    (e.g. "1830 5.1") when one forbids it; ``suggestions`` lists legal commands
    close to what was asked, filled in by whoever knows the legal moves.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.suggestions: list[str] = []

    def __str__(self) -> str:
        if self.rule:
            return f"{self.message} (rule {self.rule})"
        return self.message


class NotImplementedRule(RulesError):
    """A rule pbem cannot carry out yet: refused, never done wrongly."""


class SetupError(Exception):
    """A game cannot be created as asked (players, options)."""
