"""The one error of moderation: a sentence for the player or the referee."""

from __future__ import annotations


class ModerationError(Exception):
    """A moderation command or option was refused; nothing was recorded. The message is a
    whole sentence that can be shown as it is."""
