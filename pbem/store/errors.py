"""Exceptions of the event store.

Every message is a whole sentence that can be shown to a player or an operator
as it is.
"""

from __future__ import annotations

from ..engine.errors import PbemError


class StoreError(PbemError):
    """Base class: something the store refused or could not do."""


class UnknownGame(StoreError):
    """The game id does not exist."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"There is no game #{game_id}.")


class UnknownPlayer(StoreError):
    """The game has no player in that seat."""

    def __init__(self, game_id: int, seat: int) -> None:
        self.game_id = game_id
        self.seat = seat
        super().__init__(f"Game #{game_id} has no player in seat {seat}.")


class ConcurrencyError(StoreError):
    """Another writer appended the event first; nothing was written."""

    def __init__(self, game_id: int, seq: int) -> None:
        self.game_id = game_id
        self.seq = seq
        super().__init__(
            f"Someone else changed game #{game_id} first (event {seq} already exists); "
            "nothing was recorded. Please look at the game again and resend."
        )


class StoreBusy(StoreError):
    """The database stayed locked by another writer for longer than the busy timeout."""

    def __init__(self) -> None:
        super().__init__(
            "The game database is busy with another change; nothing was recorded. "
            "Please try again in a moment."
        )


class DamagedRecord(StoreError, ValueError):
    """A stored event that no longer reads (its JSON changed outside pbem, or the file
    damaged). A ValueError too: the record's checks read it as a broken row."""

    def __init__(self, game_id: object, seq: object) -> None:
        super().__init__(
            f"Event {seq} of game #{game_id} no longer reads (its stored JSON is damaged): "
            f"the record was changed outside pbem. `pbem audit {game_id}` shows where; "
            "restore the database from a backup.")
