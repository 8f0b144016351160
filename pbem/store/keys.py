"""Player secret keys and reply codes, keyed with the server's secret.

A key is 15 characters from an alphabet without look-alikes (no 0/O, 1/I/L),
written in three groups of five (``K7QW3-ZPAH9-MXT4R``): 74 bits. Keys are compared
without regard to case, blanks or dashes, because mail systems and people change
them.

The store keeps ``hmac-sha256$<hex>``: an HMAC of the key under the server's secret
(``secret.py``), not a slow password hash. The keys are random and long, so a slow
hash adds nothing against someone who has the file but not the secret, and it would
let anybody on the internet burn the server's CPU by mailing guessed keys. Checking a
mail costs one HMAC, whatever the number of players.

The reply code in a player's reply address (``pbem+<game>.<code>@domain``) is an HMAC
of the game, the seat and the key hash: as secret as the key, new with every new
key, and not computable from the database alone.

Hashes written before the secret existed (``scrypt$...``, ``pbkdf2_sha256$...``)
never match; such players get new keys (``is_legacy_hash``, see docs/store.md).
"""

from __future__ import annotations

import base64
import hmac
import re
import secrets

from .secret import ServerSecret

KEY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
KEY_LENGTH = 15  # 15 * log2(31) = 74.3 bits
KEY_GROUP = 5
HASH_PREFIX = "hmac-sha256$"
REPLY_CODE_LENGTH = 16  # base32 characters: 80 bits

_SEPARATORS = re.compile(r"[\s\-_]+")


def new_player_key() -> str:
    """A fresh random key such as ``K7QW3-ZPAH9-MXT4R``."""
    key = "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))
    return "-".join(key[i:i + KEY_GROUP] for i in range(0, KEY_LENGTH, KEY_GROUP))


def normalize_key(key: str) -> str:
    """The key as compared: upper case, without blanks and dashes."""
    return _SEPARATORS.sub("", key).upper()


def hash_key(key: str, secret: ServerSecret) -> str:
    """What the store keeps of a key."""
    return HASH_PREFIX + key_digest(key, secret)


def key_digest(key: str, secret: ServerSecret) -> str:
    return secret.mac("key", normalize_key(key))


def digest_matches(digest: str, stored: str) -> bool:
    """True when ``stored`` is the hash whose digest is ``digest`` (constant time)."""
    if not stored.startswith(HASH_PREFIX):
        return False
    return hmac.compare_digest(digest.encode("ascii"),
                               stored[len(HASH_PREFIX):].encode("ascii", "replace"))


def check_key(key: str, stored: str, secret: ServerSecret) -> bool:
    """True when ``key`` is the key whose hash is ``stored``."""
    return digest_matches(key_digest(key, secret), stored)


def is_legacy_hash(stored: str) -> bool:
    """A hash from before the server secret (scrypt or PBKDF2): the key must be replaced."""
    return not stored.startswith(HASH_PREFIX)


def reply_code(secret: ServerSecret, game_id: int, seat: int, key_hash: str) -> str:
    """The code in a player's reply address: lower-case base32, 16 characters."""
    digest = secret.mac_bytes("reply", game_id, seat, key_hash)
    return base64.b32encode(digest).decode("ascii")[:REPLY_CODE_LENGTH].lower()


def reply_code_matches(code: str, secret: ServerSecret, game_id: int, seat: int,
                       key_hash: str) -> bool:
    expected = reply_code(secret, game_id, seat, key_hash)
    return hmac.compare_digest(code.lower().encode("ascii", "replace"), expected.encode("ascii"))
