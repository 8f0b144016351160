"""The SQLite event store of pbem (see docs/store.md).

Open it with ``open_store(path)``; everything else is a method of ``Store``.
"""

from .db import BUSY_TIMEOUT_SECONDS, DEFAULT_DB_PATH, Store, connect, default_db_path, open_store
from .errors import ConcurrencyError, StoreBusy, StoreError, UnknownGame, UnknownPlayer
from .events import CONTENT_FIELDS, EVENT_KINDS, SERVICE_KINDS, ZERO_HASH, effective, event_hash
from .games import GAME_STATUSES, NOTIFY_MODES, PLAYER_SETTINGS
from .keys import check_key, hash_key, new_player_key, normalize_key
from .mailqueue import INBOX_STATUSES, OUTBOX_STATUSES, InboxAdded
from .migrations import MIGRATIONS, applied_migrations, apply_migrations
from .record import Problem
from .seats import PLAYER_STATUSES
from .secret import ServerSecret, secret_path_for

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "CONTENT_FIELDS",
    "DEFAULT_DB_PATH",
    "EVENT_KINDS",
    "GAME_STATUSES",
    "INBOX_STATUSES",
    "MIGRATIONS",
    "NOTIFY_MODES",
    "OUTBOX_STATUSES",
    "PLAYER_STATUSES",
    "PLAYER_SETTINGS",
    "SERVICE_KINDS",
    "Problem",
    "ServerSecret",
    "ZERO_HASH",
    "ConcurrencyError",
    "InboxAdded",
    "Store",
    "StoreBusy",
    "StoreError",
    "UnknownGame",
    "UnknownPlayer",
    "applied_migrations",
    "apply_migrations",
    "check_key",
    "connect",
    "default_db_path",
    "effective",
    "event_hash",
    "hash_key",
    "new_player_key",
    "normalize_key",
    "open_store",
    "secret_path_for",
]
