"""The server's secret: a random key kept in a file outside the database.

Everything that must not be computable from the database alone is keyed with it
(HMAC-SHA256): the hashes of the players' keys, the codes in their reply addresses,
the events' hash chain and the seals over each game's chain head and players. A copy
of the database without this file can be read but not played from, and cannot be
changed without ``pbem audit`` noticing.

The file holds 64 hex digits and a newline and is created with mode 0600 beside the
database (``<database>.secret``) unless ``$PBEM_SECRET_FILE`` names another place.
The database records the secret's fingerprint, so a missing or wrong file is
refused with a sentence instead of silently starting a new record. Back the file up
once, apart from the database backups: it never changes.
"""

from __future__ import annotations

import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from .errors import StoreError

SECRET_BYTES = 32
SECRET_SUFFIX = ".secret"


class ServerSecret:
    """HMAC-SHA256 under the server's key, one purpose word per use."""

    def __init__(self, key: bytes, path: Path | None = None) -> None:
        if len(key) < 16:
            raise StoreError("The server secret is too short (at least 16 bytes).")
        self._key = key
        self.path = path

    def __repr__(self) -> str:  # never the key itself
        return f"ServerSecret(path={str(self.path)!r}, fingerprint={self.fingerprint!r})"

    def mac(self, purpose: str, *parts: object) -> str:
        """Hex HMAC of the purpose and the parts (joined unambiguously)."""
        return self.mac_bytes(purpose, *parts).hex()

    def mac_bytes(self, purpose: str, *parts: object) -> bytes:
        message = "\x1f".join([purpose, *(str(p) for p in parts)]).encode("utf-8")
        return hmac.digest(self._key, message, "sha256")  # hmac.new's digest, in one call

    @property
    def fingerprint(self) -> str:
        """What the database records to recognise its secret (says nothing of the key)."""
        return self.mac("fingerprint")[:32]


def random_secret() -> ServerSecret:
    """A fresh secret that lives only in memory (an in-memory database)."""
    return ServerSecret(secrets.token_bytes(SECRET_BYTES))


def secret_path_for(db_path: str | os.PathLike[str],
                    environ: Mapping[str, str] | None = None) -> Path:
    """``$PBEM_SECRET_FILE`` when set, else ``<database>.secret`` beside the database."""
    env = os.environ if environ is None else environ
    named = env.get("PBEM_SECRET_FILE")
    return Path(named) if named else Path(os.fspath(db_path) + SECRET_SUFFIX)


def read_secret(path: Path) -> ServerSecret:
    """The secret in ``path``; StoreError with a sentence when it cannot be used."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise StoreError(
            f"The server secret {path} is missing, but this database was written with one. "
            "Restore the file from your backup (or point $PBEM_SECRET_FILE at it); without "
            "it the players' keys and the game records cannot be checked.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"The server secret {path} cannot be read: {exc}.") from exc
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise StoreError(f"The server secret {path} is not 64 hex digits.") from None
    _tighten(path)
    return ServerSecret(key, path)


def create_secret(path: Path) -> ServerSecret:
    """Write a new random secret to ``path`` (mode 0600; never over an existing file)."""
    key = secrets.token_bytes(SECRET_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    # written whole under another name, then linked into place: a process that opens
    # the database at the same moment finds no file or the whole file, never half
    scratch = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(key.hex() + "\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(scratch, path)
        except FileExistsError:
            return read_secret(path)  # another process made it first
    finally:
        scratch.unlink(missing_ok=True)
    return ServerSecret(key, path)


def private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if it does not exist; make it 0600 if it is
    readable by others (the database and its backups hold the games and the mail)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        _tighten(path)
        return
    os.close(fd)


def _tighten(path: Path) -> None:
    try:
        info = path.stat()
        if info.st_mode & 0o077 and info.st_uid == os.getuid():
            path.chmod(info.st_mode & 0o700)
    except OSError:
        pass
