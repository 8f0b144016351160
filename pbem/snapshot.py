"""Snapshots of game states: kept for speed, never the truth (design, section 3).

A game is its events; rebuilding it applies the facts of every event that counts. A
snapshot is the state after one event (pickled, in the store's ``snapshots`` table) with
that event's hash and the fingerprint of the engine that made it, so that loading a
game applies only the facts after the newest snapshot. One is used only when

* the engine that wrote it is this one: the same ENGINE_VERSION and the same code of
  pbem/engine and data of rules/ (``engine_fingerprint``); any change to either makes
  every snapshot unusable (ignored, then replaced; ``pbem audit`` drops them);
* its seal under the server secret holds (pbem/store/snapshots.py: nothing but this
  server wrote it; a state is unpickled only then);
* its event still has the hash it had (the hash chain up to it unchanged);
* no revert after it goes back before it (then the game is rebuilt from the start).

``pbem audit`` decides every command again and compares each snapshot of the game with
the state it reaches at that event; one that differs is dropped and reported, one whose
seal does not hold is dropped and reported as a problem of the record.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from . import engine
from .engine.game import ENGINE_VERSION
from .engine.rulesdata import rules_dir
from .engine.state import GameState


@cache
def engine_fingerprint() -> str:
    """ENGINE_VERSION and a digest of the engine's code and the rules data: the same
    for two processes exactly when they rebuild games alike."""
    digest = hashlib.sha256(ENGINE_VERSION.encode())
    for root in (Path(engine.__file__).parent, rules_dir()):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".json") and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return f"{ENGINE_VERSION}:{digest.hexdigest()[:20]}"


def encode(state: GameState) -> bytes:
    """The state as stored (a copy without the title's rules and map, which a state
    reads again when it needs them)."""
    return pickle.dumps(state.clone(), protocol=pickle.HIGHEST_PROTOCOL)


def decode(data: bytes) -> GameState:
    state = pickle.loads(data)
    assert isinstance(state, GameState)
    return state


def reverted_before(marks: Sequence[dict[str, Any]], seq: int) -> bool:
    """Does a revert after event ``seq`` go back before it? (Then the events that count
    up to ``seq`` are no longer those a snapshot there was made of.)"""
    return any(m["kind"] == "revert" and m["seq"] > seq and m["revert_to"] < seq
               for m in marks)


def usable(rows: Sequence[dict[str, Any]], marks: Sequence[dict[str, Any]]
           ) -> tuple[int, GameState] | None:
    """The newest usable snapshot of ``rows`` (the store's, newest first) given the
    game's events (``marks``: seq, kind, revert_to, hash): (its seq, the state)."""
    hashes = {m["seq"]: m["hash"] for m in marks}
    for row in rows:
        if not row["sealed"] or row["engine"] != engine_fingerprint() \
                or hashes.get(row["seq"]) != row["hash"] or reverted_before(marks, row["seq"]):
            continue
        try:
            return row["seq"], decode(row["state"])
        except Exception:  # noqa: BLE001 - a snapshot that cannot be read is no snapshot
            continue
    return None
