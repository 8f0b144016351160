"""The one error the command language raises, and its internal cause."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine.errors import PbemError


class NotationError(PbemError, ValueError):
    """A command could not be read.

    ``message`` is a whole sentence for the player, ``text`` what they typed,
    ``suggestions`` canonical commands they may have meant (best first) and
    ``reason`` the part of the message that says what is wrong.
    """

    def __init__(
        self,
        message: str,
        text: str,
        suggestions: Sequence[str] = (),
        reason: str = "",
    ) -> None:
        super().__init__(message)
        self.text = text
        self.suggestions = list(suggestions)
        self.reason = reason or message


class Unclear(Exception):
    """Why one command could not be read; parse_command turns it into a NotationError.

    ``word`` is the word at fault and ``vocabulary`` the words that would fit in
    its place (used to suggest repaired commands); ``suggestions`` are whole
    commands worth proposing.
    """

    def __init__(
        self,
        reason: str,
        *,
        word: str | None = None,
        vocabulary: Sequence[str] = (),
        suggestions: Sequence[str] = (),
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.word = word
        self.vocabulary = list(vocabulary)
        self.suggestions = list(suggestions)
