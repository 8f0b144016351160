"""The append-only, hash-chained event stream of each game.

Each event's hash is an HMAC under the server's secret (``secret.py``) of the hash
before it and the event's content; the game's chain head (how many events, the last
hash) is kept sealed in ``chain_heads`` (``record.py``), so a deleted last event, a
deleted stream or a rehashed chain all show in ``pbem audit``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

from .base import StoreBase, canonical_json
from .errors import ConcurrencyError, DamagedRecord, StoreError
from .secret import ServerSecret

#: command: a game command (facts); revert: an undo; setup: facts without a command;
#: talk: table talk; order: a standing order set, cancelled or dropped; setting: a
#: player's setting changed; moderation: the running of the game (deadlines,
#: reminders, expiries, absences, seats, the referee's clock: docs/moderation.md).
#: talk, order, setting and moderation events have no facts.
EVENT_KINDS = ("command", "revert", "setup", "talk", "order", "setting", "moderation")
#: Kinds that are not part of the game: a revert does not take them back.
SERVICE_KINDS = ("talk", "order", "setting", "moderation")
ZERO_HASH = "0" * 64
# Every column except prev_hash and hash, in table order.
CONTENT_FIELDS = (
    "game_id",
    "seq",
    "kind",
    "command",
    "text",
    "actor",
    "source",
    "received",
    "facts",
    "log",
    "revert_to",
)
_JSON_COLUMNS = ("command", "facts", "log")
_COLUMNS = (*CONTENT_FIELDS, "prev_hash", "hash")
_SORTED_CONTENT = tuple(sorted(CONTENT_FIELDS))
_PREV, _HASH = _COLUMNS.index("prev_hash"), _COLUMNS.index("hash")
_INSERT = (f"INSERT INTO events ({', '.join(_COLUMNS)}) "
           f"VALUES ({', '.join('?' for _ in _COLUMNS)})")
#: Every column in table order, the facts (most of an event's bytes) read as an empty
#: list, for reads that need none.
_WITHOUT_FACTS = ", ".join("'[]' AS facts" if column == "facts" else column
                           for column in (*CONTENT_FIELDS, "prev_hash", "hash"))


def decode_event(row: Mapping[str, Any]) -> dict[str, Any]:
    """A stored row with its JSON columns (command, facts, log) decoded."""
    return _decoded(dict(row))


def _decoded(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` (a row of our own) with its JSON columns decoded in place."""
    for column in _JSON_COLUMNS:
        if event[column] is not None:
            try:
                event[column] = stored_json(event[column])
            except ValueError as exc:
                raise DamagedRecord(event.get("game_id"), event.get("seq")) from exc
    return event


_DECODER = json.JSONDecoder()


def stored_json(text: str) -> Any:
    """``json.loads(text)`` in half the time for JSON as the store writes it
    (``canonical_json``: nothing around the value); anything else as ``json.loads``
    reads it, or raises."""
    try:
        value, end = _DECODER.raw_decode(text)
    except (ValueError, TypeError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def event_hash(prev_hash: str, event: Mapping[str, Any], secret: ServerSecret) -> str:
    """HMAC-SHA256 under the server secret of ``prev_hash`` and the canonical JSON of the
    decoded content fields (``ServerSecret.mac("event", prev_hash, json)``)."""
    content = {field: event[field] for field in CONTENT_FIELDS}
    return secret.mac("event", prev_hash, canonical_json(content))


def content_json(event: Mapping[str, Any], row: Mapping[str, Any],
                 written: Mapping[str, Any]) -> str:
    """``canonical_json`` of the content fields of ``event`` (what event_hash hashes),
    made without encoding its JSON columns again where that would give their stored
    text: ``row`` is the stored row, ``written`` the values its JSON columns were
    encoded from. A value read back equal to the one written (string keys only, lists
    not tuples) encodes to the same text again; any other is encoded anew."""
    parts = []
    for name in _SORTED_CONTENT:
        value = event[name]
        if name in written and value is not None and value == written[name]:
            text = row[name]
        else:
            text = _scalar_json(value)
        parts.append(f'"{name}":{text}')
    return "{" + ",".join(parts) + "}"


#: a key of a JSON object that may have been written from a number, true, false or null
#: (JSON writes every key as a string: such a key reads back as a string)
_KEY_NOT_FROM_TEXT = re.compile(r'[{,]"(?:[-0-9]|(?:true|false|null)")')


def written_content_json(row: Mapping[str, Any], written: Mapping[str, Any]) -> str:
    """What ``event_hash`` hashes for a row the store is writing (``row``: its JSON
    columns as canonical_json wrote them from ``written``): the content decoded. Where
    every key of every JSON object in it was a string (no key text that a number, true,
    false or null may have been written as), the decoded values encode to the stored
    texts again, so the stored texts are that content (``stored_content_json``, as
    broken_links reads it); else the row is decoded and encoded (``content_json``)."""
    if not any(row[name] is not None and _KEY_NOT_FROM_TEXT.search(row[name])
               for name in _JSON_COLUMNS):
        return stored_content_json(row)
    return content_json(decode_event(row), row, written)


def _scalar_json(value: Any) -> str:
    """``canonical_json(value)``, quicker for a str, an int or None."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    return canonical_json(value)


def effective(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The events that count, in order: a revert to N drops every kept event after N.

    Revert events themselves are not returned. Reverts compose: each acts on
    what the earlier ones left.
    """
    kept: list[dict[str, Any]] = []
    for event in events:
        if event["kind"] == "revert":
            target = event["revert_to"]
            kept = [e for e in kept if e["seq"] <= target]
        else:
            kept.append(dict(event))
    return kept


def _check_event(game_id: int, seq: int, kind: str, revert_to: int | None) -> None:
    if kind not in EVENT_KINDS:
        raise StoreError(
            f"An event cannot be of kind {kind!r}; use one of {', '.join(EVENT_KINDS)}."
        )
    if kind == "revert":
        if revert_to is None or not 0 <= revert_to < seq:
            raise StoreError(
                f"A revert in game #{game_id} must go back to an earlier event "
                f"(0 to {seq - 1}), not {revert_to}."
            )
    elif revert_to is not None:
        raise StoreError(f"Only a revert event has a revert_to, not a {kind} event.")


class EventsMixin(StoreBase):
    def append_event(
        self,
        game_id: int,
        seq: int,
        *,
        kind: str,
        command: Mapping[str, Any] | None,
        text: str,
        actor: str | None,
        source: str | None,
        received: str,
        facts: list[Any],
        log: list[str],
        revert_to: int | None = None,
        as_stored: bool = False,
        hash_later: bool = False,
    ) -> dict[str, Any]:
        """Append event ``seq`` (the caller's last seen seq + 1) and return it decoded
        (``as_stored``: the row as stored, its JSON columns as text, for a writer that
        has the event already and needs nothing of it decoded: service.Recorder).

        ``hash_later``, for a writer that needs nothing of the row returned (Recorder):
        in an ``appending`` block the event is hashed when it is written, with the
        others (``_hash_events``: the same hash, a third of the time among the engine's
        work), so the row returned has ``hash`` None, and ``prev_hash`` None too when
        the event before is not hashed yet.

        Raises ``ConcurrencyError`` and writes nothing when ``seq`` already
        exists, i.e. another writer appended first.
        """
        _check_event(game_id, seq, kind, revert_to)
        appending = game_id in self._heads
        # in an ``appending`` block it writes nothing yet: no savepoint of its own
        with nullcontext() if self._heads.get(game_id) else self.transaction():
            last_seq, prev_hash = self._head(game_id)
            if prev_hash is None and not hash_later:  # the one before is not hashed yet
                self._hash_events(self._unwritten)
                last_seq, prev_hash = self._head(game_id)
            if seq <= last_seq:
                raise ConcurrencyError(game_id, seq)
            if seq != last_seq + 1:
                raise StoreError(
                    f"Game #{game_id} has {last_seq} events, so the next one is "
                    f"{last_seq + 1}, not {seq}; nothing was recorded."
                )
            row: dict[str, Any] = {
                "game_id": game_id,
                "seq": seq,
                "kind": kind,
                "command": None if command is None else canonical_json(command),
                "text": text,
                "actor": actor,
                "source": source,
                "received": received,
                "facts": canonical_json(facts),
                "log": canonical_json(log),
                "revert_to": revert_to,
                "prev_hash": prev_hash,
            }
            row["hash"] = None  # hashed when written (_hash_events)
            if not (appending and hash_later):
                row["hash"] = self.secret.mac("event", prev_hash, written_content_json(row, {
                    "command": command, "facts": facts, "log": log}))
            values = [row[column] for column in _COLUMNS]
            if appending:  # written with the others (StoreBase.conn, _write_through)
                self._unwritten.append(values)
                self._heads[game_id] = (seq, row["hash"])
            else:
                self._insert_events([values], self.conn)
                self.seal_game(game_id)
        return row if as_stored else decode_event(row)

    def _hash_events(self, rows: list[list[Any]]) -> None:
        """Hash the rows appended with ``hash_later`` (their hash None), in order: each
        from the one before it (its ``prev_hash``, None when that one was hashed here
        too) and its content as written (``written_content_json``; without the values
        the JSON was written from, which only its rare slower way reads: it decodes the
        texts instead, the same content). The heads held get their hashes."""
        last: dict[int, str] = {}
        for values in rows:
            if values[_HASH] is None:
                if values[_PREV] is None:
                    values[_PREV] = last[values[0]]
                row = dict(zip(_COLUMNS, values, strict=True))
                values[_HASH] = self.secret.mac("event", values[_PREV],
                                                written_content_json(row, {}))
            last[values[0]] = values[_HASH]
        for game_id, hash_ in last.items():
            held = self._heads.get(game_id)
            if held is not None and held[1] is None:
                self._heads[game_id] = (held[0], hash_)

    def _insert_events(self, rows: list[list[Any]], conn: sqlite3.Connection) -> None:
        if not rows:
            return
        try:
            conn.executemany(_INSERT, rows)
        except sqlite3.IntegrityError as exc:  # only if someone bypassed BEGIN IMMEDIATE
            raise ConcurrencyError(rows[0][0], rows[0][1]) from exc

    @contextmanager
    def appending(self, game_id: int) -> Iterator[None]:
        """A transaction (``transaction()``: a savepoint inside another) in which many
        events of the game are appended: each is chained from the last one's seq and
        hash kept in memory, and the chain head is sealed once, when the block ends,
        instead of after every event (an import appends hundreds). The events are
        kept in memory and written together (``StoreBase._write_through``) when the
        transaction ends or before anything else uses the connection: everything reads
        them in the block as usual."""
        with self.transaction():
            self._require_game(game_id)
            if game_id in self._heads:  # already in one: that block seals
                yield
                return
            self._heads[game_id] = None
            try:
                yield
                self.seal_game(game_id)
            finally:
                del self._heads[game_id]

    def _head(self, game_id: int) -> tuple[int, str | None]:
        """The seq and hash of the game's last event ((0, ZERO_HASH) before the first; the
        hash None while that event is kept unhashed: ``hash_later``)."""
        held = self._heads.get(game_id)
        if held is not None:
            return held
        if game_id not in self._heads:
            self._require_game(game_id)
        last = self._row(
            "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            [game_id],
        )
        return (last["seq"], last["hash"]) if last else (0, ZERO_HASH)

    def events(self, game_id: int, *, after: int = 0, facts: bool = True
               ) -> list[dict[str, Any]]:
        """Every event of the game in seq order, JSON decoded (reverts included); only
        those after seq ``after``; without ``facts`` each event's facts are left unread
        (an empty list: what the mails' recaps read needs none, and reading them is most
        of the time)."""
        self._require_game(game_id)
        columns = "*" if facts else _WITHOUT_FACTS
        rows = self._rows(f"SELECT {columns} FROM events WHERE game_id = ? AND seq > ? "
                          "ORDER BY seq", [game_id, after])
        return [_decoded(row) for row in rows]

    def last_seq(self, game_id: int) -> int:
        """The seq of the last event, 0 when the game has none."""
        held = self._heads.get(game_id)
        if held is not None:
            return held[0]
        self._require_game(game_id)
        row = self._row(
            "SELECT COALESCE(MAX(seq), 0) AS last FROM events WHERE game_id = ?", [game_id]
        )
        assert row is not None
        return int(row["last"])

    def events_of_kind(self, game_id: int, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
        """The game's events of these kinds, in seq order, JSON decoded."""
        self._require_game(game_id)
        marks = ", ".join("?" for _ in kinds)
        rows = self._rows(
            f"SELECT * FROM events WHERE game_id = ? AND kind IN ({marks}) ORDER BY seq",
            [game_id, *kinds],
        )
        return [decode_event(row) for row in rows]

    def effective_events(self, game_id: int) -> list[dict[str, Any]]:
        """The events a rebuild applies: reverted suffixes and revert events left out."""
        return effective(self.events(game_id))

    def verify_chain(self, game_id: int) -> int | None:
        """None when the hash chain is intact, else the first seq whose hash or prev_hash
        is wrong (a deleted event shows as a wrong prev_hash on the one after it).
        The chain alone cannot show that the last events were removed: the sealed
        chain head can (``verify_record``)."""
        broken = self.broken_links(game_id)
        return broken[0] if broken else None

    def broken_links(self, game_id: int) -> list[int]:
        """Every seq whose hash or prev_hash does not follow from the events before it
        and the server secret, in order."""
        self._require_game(game_id)
        rows = self._rows("SELECT * FROM events WHERE game_id = ? ORDER BY seq", [game_id])
        return broken_links(rows, self.secret)


def broken_links(rows: list[dict[str, Any]], secret: ServerSecret) -> list[int]:
    """The seqs of stored event rows (in seq order) whose links are wrong: a row's hash
    must be event_hash of its prev_hash and its content decoded.

    Most rows are checked from their stored text: the JSON columns as stored, the other
    fields encoded as canonical_json encodes them (``stored_content_json``). Where the
    store wrote the row, that is the very text event_hash hashes (canonical_json of a
    value it wrote and read back is the stored text), so the HMAC matches and the row
    need not be decoded and encoded again. Where it does not match, the row is checked as
    the definition says (decoded, encoded again): the stored text of a command whose
    keys were numbers, say, is not the canonical text of what it decodes to, and a row
    changed by hand matches neither. A row whose stored text matched but whose decoded
    text would not is one hashed over a text the store never hashes: only the holder of
    the server secret could have written it."""
    broken: list[int] = []
    expected_prev = ZERO_HASH
    for row in rows:
        if row["prev_hash"] != expected_prev or not _hash_holds(row, secret):
            broken.append(int(row["seq"]))
        expected_prev = row["hash"]
    return broken


def _hash_holds(row: Mapping[str, Any], secret: ServerSecret) -> bool:
    """Whether the row's hash is its content's (broken_links: the stored text first)."""
    try:
        if row["hash"] == secret.mac("event", row["prev_hash"], stored_content_json(row)):
            return True
    except (ValueError, TypeError):  # a field JSON cannot write: try it decoded
        pass
    try:
        return bool(row["hash"] == event_hash(row["prev_hash"], decode_event(row), secret))
    except (ValueError, TypeError):  # JSON columns that no longer decode
        return False


def stored_content_json(row: Mapping[str, Any]) -> str:
    """The content fields of a stored event row as one JSON object, sorted, its JSON
    columns (command, facts, log) as stored: canonical_json of the decoded content when
    those texts are canonical, as the store writes them."""
    parts = []
    for name in _SORTED_CONTENT:
        value = row[name]
        text = value if name in _JSON_COLUMNS and value is not None else _scalar_json(value)
        parts.append(f'"{name}":{text}')
    return "{" + ",".join(parts) + "}"
