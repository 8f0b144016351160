"""Player secret keys: short to type, stored only as salted hashes.

A key is 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L),
about 40 bits. Keys are compared without regard to case or surrounding blanks,
because mail systems and people change case in addresses and subjects.

The stored form describes itself:
``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>`` (what ``hash_key`` writes), and
``pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>`` is also accepted.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

KEY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
KEY_LENGTH = 8

_SCRYPT_N = 2**14
_SCRYPT_R = 8
_SCRYPT_P = 1
_DKLEN = 32
_SALT_BYTES = 16


def new_player_key() -> str:
    """A fresh random key such as ``K7QW3ZPA``."""
    return "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))


def normalize_key(key: str) -> str:
    return key.strip().upper()


def _scrypt(key: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        normalize_key(key).encode("utf-8"),
        salt=salt,
        n=n,
        r=r,
        p=p,
        maxmem=64 * 1024 * 1024,
        dklen=_DKLEN,
    )


def hash_key(key: str) -> str:
    """The salted scrypt hash of a key, as a self-describing string."""
    salt = secrets.token_bytes(_SALT_BYTES)
    digest = _scrypt(key, salt, _SCRYPT_N, _SCRYPT_R, _SCRYPT_P)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${salt.hex()}${digest.hex()}"


def check_key(key: str, stored: str) -> bool:
    """True when ``key`` matches the stored hash (constant-time compare).

    A stored value that cannot be parsed never matches.
    """
    parts = stored.split("$")
    try:
        if parts[0] == "scrypt" and len(parts) == 6:
            n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
            salt, expected = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
            actual = _scrypt(key, salt, n, r, p)
        elif parts[0] == "pbkdf2_sha256" and len(parts) == 4:
            iterations = int(parts[1])
            salt, expected = bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
            actual = hashlib.pbkdf2_hmac(
                "sha256", normalize_key(key).encode("utf-8"), salt, iterations, len(expected)
            )
        else:
            return False
    except ValueError:
        return False
    return hmac.compare_digest(actual, expected)
