"""Hostile-input fuzz of what reads players' mail: the command parser (and the engine
deciding what it reads), the MIME reader, and whole mails through processing.

    python -m bench.fuzz --examples 100000 [--target commands,mime,mails] [--seed 1]
                         [--json FILE] [--minutes M]

Each target makes examples by mutating a corpus with a seeded random generator (so a
finding can be replayed from its seed and number) and checks that nothing but the
expected answers come out:

- ``commands``: command texts (the canonical texts of legal moves in 1830 and 1870
  positions reached by self-play, the mail commands, and mutations of them: bytes
  and characters inserted, removed, repeated, swapped, control characters, huge
  numbers, long runs, random tokens). ``split_commands``, ``parse_command`` and, for
  what parses, the engine's ``decide``: a finding is any exception but
  ``NotationError`` and ``RulesError``.
- ``mime``: raw mails (tests/mail_samples and generated ones: nested multiparts,
  encodings, charsets, encoded words) mutated at the byte level and in their
  structure. ``parse_message``, ``command_lines``, routing and junk rules: a finding
  is any exception (they never raise) or an example taking more than a second of CPU.
- ``mails``: whole mails into a real store (a temporary SQLite file) with games of
  1830 and 1870, through ``store_message`` and ``process_inbox``: from a player
  (reply address, key line), forged (stranger, wrong key, two From addresses),
  with mutated command texts, hostile MIME and control characters. A finding is a
  dead letter, an exception, a game whose record fails the audit, or a mail's game
  state that differs from the rebuild of its record (checked every 100 mails); every
  game is audited when it ends or is replaced (games are replaced after 250 events,
  so that each mail's rebuild stays cheap) and at the end. The maps' PNG pictures
  are not drawn and commits are not synced to the disk (what is fuzzed is reading and
  deciding; the text renderings and the SVG map are made).

Prints the counts and the findings (each with its seed, number and input) and
writes them as JSON with ``--json``. Not part of ``make bench``: run it alone,
``nice -n 10``; 100,000 examples of each target take hours (on a busy machine, run
the ``mails`` target as several processes with different seeds). ``--minutes`` or
SIGTERM ends a target early, with its counts, findings and final audits.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "tests" / "mail_samples"

from pbem import service  # noqa: E402
from pbem.bots import pick  # noqa: E402
from pbem.engine.errors import RulesError  # noqa: E402
from pbem.engine.game import apply_facts, decide, legal_moves, new_game  # noqa: E402
from pbem.engine.state import GameState  # noqa: E402
from pbem.notation import NotationError, format_action, parse_command, split_commands  # noqa: E402

MAIL_COMMANDS = ["say hello all", "say to Ben: hi", "help", "help bid", "show", "history 5",
                 "history 20", "notify every", "notify turn", "notify round", "undo", "end",
                 "key ABCDE-FGHJK-MNPQR", "pass", "done"]
CONTROL = ["\x00", "\x07", "\x1b[2J", "\x1b]0;t\x07", "\r", "\r\n", "\x0b", "\x7f", "\x85",
           "\u202e", "\u2028", "\ufeff", "\u200b", "\t"]
ODD = ["$", "@", "#", "%", ";", ";;", ":", "=", "-", "--", ">", "<", "'", '"', "\\", "/", "..",
       "0", "-1", "99999999999999999999", "1e9", "NaN", "½", "Ⅻ", "٣", "PRR", "B&O", "NYNH",
       "CA", "SV", "2", "6", "D", "H12", "Z99", "referee", "Ann", "Аnn", "x" * 300]


@dataclass
class Finding:
    target: str
    seed: int
    number: int
    kind: str
    detail: str
    example: str


@dataclass
class Report:
    target: str
    examples: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    reported: int = 0  # the findings already shown in a progress line


# -- mutations ---------------------------------------------------------------------------------


def mutate_text(rng: random.Random, text: str, vocabulary: list[str]) -> str:
    """Up to four random edits of ``text`` (none now and then: valid input matters too)."""
    for _ in range(rng.choice([0, 1, 1, 2, 3, 4])):
        text = rng.choice(_TEXT_EDITS)(rng, text, vocabulary)
    return text


def _insert(rng: random.Random, text: str, vocab: list[str]) -> str:
    at = rng.randint(0, len(text))
    piece = rng.choice([rng.choice(CONTROL), rng.choice(ODD), rng.choice(vocab),
                        chr(rng.randint(0, 0x2FFF)), " "])
    return text[:at] + piece + text[at:]


def _delete(rng: random.Random, text: str, vocab: list[str]) -> str:
    if not text:
        return text
    a = rng.randrange(len(text))
    return text[:a] + text[a + rng.randint(1, 8):]


def _repeat(rng: random.Random, text: str, vocab: list[str]) -> str:
    if not text:
        return text
    a = rng.randrange(len(text))
    b = min(len(text), a + rng.randint(1, 12))
    return text[:b] + text[a:b] * rng.choice([2, 3, 50, 500]) + text[b:]


def _swap_tokens(rng: random.Random, text: str, vocab: list[str]) -> str:
    words = text.split(" ")
    if len(words) > 1:
        i, j = rng.randrange(len(words)), rng.randrange(len(words))
        words[i], words[j] = words[j], words[i]
    return " ".join(words)


def _replace_token(rng: random.Random, text: str, vocab: list[str]) -> str:
    words = text.split(" ")
    words[rng.randrange(len(words))] = rng.choice(vocab + ODD)
    return " ".join(words)


def _number(rng: random.Random, text: str, vocab: list[str]) -> str:
    words = text.split(" ")
    words[rng.randrange(len(words))] = str(rng.choice([0, -1, 1, 7, 10**rng.randint(1, 40),
                                                        -(10**rng.randint(1, 40))]))
    return " ".join(words)


def _join(rng: random.Random, text: str, vocab: list[str]) -> str:
    return text + rng.choice(["; ", "\n", ";", " ; ", "\n\n", ";;"]) + rng.choice(vocab)


def _case(rng: random.Random, text: str, vocab: list[str]) -> str:
    return rng.choice([text.upper(), text.lower(), text.swapcase(), text.title()])


def _random(rng: random.Random, text: str, vocab: list[str]) -> str:
    return "".join(chr(rng.choice([rng.randint(32, 126), rng.randint(0, 0x10FFFF)]))
                   for _ in range(rng.randint(0, 40))).encode("utf-8", "replace").decode(
                       "utf-8", "replace")


_TEXT_EDITS: list[Callable[[random.Random, str, list[str]], str]] = [
    _insert, _insert, _delete, _repeat, _swap_tokens, _replace_token, _replace_token, _number,
    _join, _case, _random]


# -- positions -----------------------------------------------------------------------------------


def positions(rng: random.Random, count: int = 12) -> list[GameState]:
    """1830 and 1870 positions reached by random legal play, early and late."""
    found = []
    for index in range(count):
        title = "1830" if index % 3 else "1870"
        names = ["Ann", "Ben", "Cat", "Dan"][:3 + index % 2]
        state = new_game(title, names, rng.randrange(2**31), {})
        for _ in range(rng.choice([0, 10, 40, 120, 300, 600])):
            if state.finished:
                break
            name, action = pick(state, rng)
            apply_facts(state, decide(state, name, action).facts)
        found.append(state)
    return found


def corpus(states: list[GameState]) -> list[str]:
    texts = list(MAIL_COMMANDS)
    for state in states:
        for moves in legal_moves(state).values():
            for move in moves[:40]:
                try:
                    texts.append(format_action(move["action"]))
                except Exception:  # noqa: BLE001 - a move the notation cannot print
                    continue
    return sorted(set(texts))


# -- target: commands -------------------------------------------------------------------------


def fuzz_commands(seed: int, examples: int) -> Report:
    rng = random.Random(seed)
    states = positions(rng)
    texts = corpus(states)
    vocab = sorted({w for t in texts for w in t.split()})
    report = Report("commands")
    contexts = [(s, service.parse_context(s)) for s in states]
    for number in _numbers(examples):
        text = mutate_text(rng, rng.choice(texts), vocab)
        state, ctx = rng.choice(contexts)
        started = time.perf_counter()
        try:
            outcome = _one_command(state, ctx, text, rng)
        except Exception as exc:  # noqa: BLE001 - the finding
            outcome = "crash"
            report.findings.append(Finding("commands", seed, number, type(exc).__name__,
                                           _trace(exc), repr(text)[:500]))
        _count(report, outcome, time.perf_counter() - started)
    return report


def _one_command(state: GameState, ctx: Any, text: str, rng: random.Random) -> str:
    pieces = split_commands(text, ctx)
    outcome = "empty"
    for _, piece in pieces[:5]:
        try:
            action = parse_command(piece, ctx)
        except NotationError:
            outcome = "not understood"
            continue
        actors = list(state.names) + ["referee"]
        try:
            decide(state.clone() if rng.random() < 0.01 else state, rng.choice(actors), action)
            outcome = "decided"
        except RulesError:
            outcome = "refused by the rules"
    return outcome


# -- target: mime ----------------------------------------------------------------------------------


def mime_corpus() -> list[bytes]:
    mails = [p.read_bytes() for p in sorted(SAMPLES.glob("*.eml"))]
    mails += [_nested(depth, enc) for depth in (1, 3, 8, 39, 41, 200)
              for enc in ("7bit", "base64", "quoted-printable")]
    mails.append(b"From: =?utf-8?b?QW5u?= <ann@x.test>\r\nSubject: =?koi8-r?q?=F0=D2?=\r\n"
                 b"Content-Type: text/html; charset=utf-16\r\n\r\n"
                 + "<p>buy SV</p><blockquote>pass</blockquote>".encode("utf-16"))
    return mails


def _nested(depth: int, encoding: str) -> bytes:
    body = "buy SV\r\nsay hi\r\n"
    if encoding == "base64":
        import base64
        body = base64.encodebytes(body.encode()).decode()
    elif encoding == "quoted-printable":
        body = "buy=20SV=\r\n\r\nsay hi=3D\r\n"
    inner = (f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: "
             f"{encoding}\r\n\r\n{body}\r\n")
    for level in range(depth):
        inner = (f"Content-Type: multipart/mixed; boundary=\"b{level}\"\r\n\r\n--b{level}\r\n"
                 f"{inner}--b{level}--\r\n")
    return (b"From: Ann <ann@players.test>\r\nTo: pbem+1.abc@games.test\r\nSubject: "
            b"Re: [1830 #1] x\r\nMIME-Version: 1.0\r\n" + inner.encode())


def mutate_bytes(rng: random.Random, raw: bytes) -> bytes:
    for _ in range(rng.randint(1, 6)):
        raw = rng.choice(_BYTE_EDITS)(rng, raw)
    return raw


def _flip(rng: random.Random, raw: bytes) -> bytes:
    if not raw:
        return raw
    at = rng.randrange(len(raw))
    return raw[:at] + bytes([rng.randrange(256)]) + raw[at + 1:]


def _cut(rng: random.Random, raw: bytes) -> bytes:
    return raw[:rng.randint(0, len(raw))]


def _dup(rng: random.Random, raw: bytes) -> bytes:
    if not raw:
        return raw
    a = rng.randrange(len(raw))
    b = min(len(raw), a + rng.randint(1, 400))
    return raw[:b] + raw[a:b] * rng.choice([2, 10, 200]) + raw[b:]


_HEADERS = [b"From: ann@players.test <evil@evil.test>", b"From: a@x.test, b@y.test",
            b"Content-Type: multipart/mixed; boundary=", b"Content-Type: text/plain; charset=\"",
            b"Content-Type: multipart/alternative; boundary=\"b0\"",
            b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: x-uuencode",
            b"Subject: =?utf-8?q?=1B[2J?= =?bogus?b?!!!?=", b"Subject: [1830 #1 key ABCDE]",
            b"Auto-Submitted: no", b"References: " + b"<a@b> " * 2000,
            b"Delivered-To: pbem+1.zzzz@games.test", b"Content-Disposition: attachment",
            b"Message-ID: <" + b"x" * 5000 + b">", b"X-Long: " + b"y" * 100_000,
            b"Content-Type: message/rfc822", b"\x00\x00: \xff\xfe"]


def _header(rng: random.Random, raw: bytes) -> bytes:
    lines = raw.split(b"\r\n")
    at = rng.randint(0, min(len(lines), 30))
    lines.insert(at, rng.choice(_HEADERS))
    return b"\r\n".join(lines)


def _boundary(rng: random.Random, raw: bytes) -> bytes:
    at = rng.randint(0, len(raw))
    piece = rng.choice([b"\r\n--b0\r\n", b"\r\n--b0--\r\n", b"\r\n--\r\n", b"\r\n\r\n",
                        b"\r\nContent-Type: multipart/mixed; boundary=b9\r\n\r\n--b9\r\n"])
    return raw[:at] + piece * rng.choice([1, 5, 300]) + raw[at:]


_BYTE_EDITS: list[Callable[[random.Random, bytes], bytes]] = [
    _flip, _flip, _cut, _dup, _header, _header, _boundary]


def fuzz_mime(seed: int, examples: int) -> Report:
    from pbem.mail.inbound.junk import authentication_failure, classify
    from pbem.mail.inbound.mime import parse_message
    from pbem.mail.inbound.replies import command_lines
    from pbem.mail.inbound.routing import (
        find_plus_address,
        key_line,
        referenced_ids,
        subject_key,
        subject_tag,
    )

    rng = random.Random(seed)
    mails = mime_corpus()
    report = Report("mime")
    for number in _numbers(examples):
        raw = mutate_bytes(rng, rng.choice(mails))
        started = time.process_time()  # CPU time: the machine may be busy with others
        try:
            mail = parse_message(raw)
            text = command_lines(mail.body_text)
            key_line(list(text.lines))
            find_plus_address(mail, "pbem", "games.test")
            subject_tag(mail.subject)
            subject_key(mail.subject)
            referenced_ids(mail)
            classify(mail)
            authentication_failure(mail, "mx.games.test")
            outcome = ("not read" if mail.unreadable else
                       "no sender" if not mail.from_addr else f"{len(text.lines)} lines"
                       if len(text.lines) < 3 else "3+ lines")
        except Exception as exc:  # noqa: BLE001 - the finding
            outcome = "crash"
            report.findings.append(Finding("mime", seed, number, type(exc).__name__,
                                           _trace(exc), repr(raw[:600])))
        elapsed = time.process_time() - started
        if elapsed > 1.0:
            report.findings.append(Finding("mime", seed, number, "slow",
                                           f"{elapsed:.1f} s of CPU for {len(raw):,} bytes",
                                           repr(raw[:600])))
        _count(report, outcome, elapsed)
    return report


# -- target: whole mails ---------------------------------------------------------------------------


class Tables:
    """Games in a real store; new ones replace the games that end or grow long (so a
    mail's rebuild stays cheap); each game is audited when it is replaced."""

    def __init__(self, rng: random.Random, directory: Path) -> None:
        from pbem.mail.config import Limits, MailConfig
        from pbem.store import open_store

        self.rng = rng
        self.store = open_store(directory / "fuzz.db", now=_now(0))
        # no fsync at each mail's commit: what is fuzzed is reading and deciding (the
        # soak kills the service to test durability)
        self.store.conn.execute("PRAGMA synchronous = OFF")
        self.config = MailConfig(address="pbem@games.test", referee="ref@games.test",
                                 trusted_authserv_id="mx.games.test",
                                 limits=Limits(replies_per_address_per_day=10**9,
                                               rejections_per_address_per_day=10**9,
                                               stranger_mails_per_sender_per_hour=10**9,
                                               stranger_mails_per_hour=10**9,
                                               max_mail_bytes=512 * 1024))
        self.games: list[int] = []
        self.states: dict[int, tuple[int, GameState]] = {}  # game -> (seq, state) seen
        self.uid = 0
        for index in range(6):
            self.games.append(self.new(index))

    def new(self, index: int) -> int:
        title = "1830" if index % 3 else "1870"
        names = ["Ann", "Ben", "Cat", "Dan"][:3 + index % 2]
        created = service.create_game(self.store, title, [(n, f"{n.lower()}@players.test")
                                                          for n in names],
                                      seed=self.rng.randrange(2**31), seating="fixed",
                                      options={}, now=_now(0))
        return created.game_id

    def state(self, game_id: int) -> GameState:
        """The game now (rebuilt only when its record moved on)."""
        seq = self.store.last_seq(game_id)
        seen = self.states.get(game_id)
        if seen is None or seen[0] != seq:
            seen = (seq, service.load(self.store, game_id))
            self.states[game_id] = seen
        return seen[1]

    def retire(self, limit: int = 250) -> list[int]:
        """Replace the games that ended or have more than ``limit`` events; their ids."""
        retired = []
        for i, game_id in enumerate(self.games):
            if (self.store.game(game_id)["status"] == "finished"
                    or self.store.last_seq(game_id) > limit):
                retired.append(game_id)
                self.games[i] = self.new(self.rng.randrange(6))
        return retired


def fuzz_mails(seed: int, examples: int) -> Report:
    import pbem.mail.outbound.views as views
    from pbem.mail.processing.process import process_inbox, store_message

    assert callable(views.map_picture)  # what is replaced must be there
    views.map_picture = lambda parts, zoom, colours: None  # no PNG (see above): the SVG goes
    rng = random.Random(seed)
    report = Report("mails")
    vocab_states = positions(rng, 6)
    texts = corpus(vocab_states)
    vocab = sorted({w for t in texts for w in t.split()})
    mimes = mime_corpus()
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as tmp:
        tables = Tables(rng, Path(tmp))
        for number in _numbers(examples):
            game_id = rng.choice(tables.games)
            raw, note = _mail(tables, game_id, rng, texts, vocab, mimes)
            tables.uid += 1
            started = time.perf_counter()
            when = _now(number)
            try:
                inbox_id, _ = store_message(tables.store, "INBOX", 1, tables.uid, raw, when,
                                            max_bytes=tables.config.limits.max_mail_bytes)
                outcome = process_inbox(tables.store, tables.config, inbox_id, when)
                status = outcome.status
                if status == "dead":
                    report.findings.append(Finding("mails", seed, number, "dead letter",
                                                   outcome.note[:1500], repr(raw[:800])))
                elif outcome.state is not None and number % 100 == 0:
                    _check_rebuild(tables, outcome.game_id or game_id, outcome.state, report,
                                   seed, number, raw)
                if number % 200 == 0:
                    for retired in tables.retire():
                        _check_game(tables, retired, report, seed, number)
            except Exception as exc:  # noqa: BLE001 - the finding
                status = "crash"
                report.findings.append(Finding("mails", seed, number, type(exc).__name__,
                                               _trace(exc), repr(raw[:800])))
            _count(report, f"{note}: {status}", time.perf_counter() - started)
        for game_id in tables.games:
            _check_game(tables, game_id, report, seed, examples)
        report.outcomes["games audited"] = len(tables.store.game_ids())
        problems = tables.store.verify_games()
        if problems:
            report.findings.append(Finding("mails", seed, examples, "audit", str(problems[0]),
                                           "(the list of games)"))
        tables.store.close()
    return report


def _check_game(tables: Tables, game_id: int, report: Report, seed: int, number: int) -> None:
    problems = service.audit(tables.store, game_id).problems
    if problems:
        report.findings.append(Finding("mails", seed, number, "audit",
                                       "; ".join(str(p) for p in problems[:5]),
                                       f"game #{game_id}"))


def _check_rebuild(tables: Tables, game_id: int, state: GameState, report: Report,
                   seed: int, number: int, raw: bytes) -> None:
    if service.load(tables.store, game_id) != state:
        report.findings.append(Finding("mails", seed, number, "rebuild differs",
                                       f"game #{game_id}", repr(raw[:800])))


def _mail(tables: Tables, game_id: int, rng: random.Random, texts: list[str],
          vocab: list[str], mimes: list[bytes]) -> tuple[bytes, str]:
    """A mail to game ``game_id``, and what kind of mail it is."""
    players = tables.store.players(game_id)
    player = rng.choice(players)
    kind = rng.choices(["player", "key line", "forged", "stranger", "mime"],
                       [60, 10, 10, 10, 10])[0]
    if kind == "mime":
        return mutate_bytes(rng, rng.choice(mimes)), kind
    state = tables.state(game_id) if rng.random() < 0.4 else None
    if state is not None and not state.finished:
        name, action = pick(state, rng)  # a legal move now and then, so games go on
        player = next(p for p in players if p["name"] == name) if name in [
            p["name"] for p in players] else player
        body = format_action(action)
        if rng.random() < 0.3:
            body = mutate_text(rng, body, vocab)
    else:
        body = "\n".join(mutate_text(rng, rng.choice(texts), vocab)
                         for _ in range(rng.randint(1, 4)))
    msg = EmailMessage()
    code = tables.store.reply_code(player)
    msg["From"] = {"stranger": "Eve <evil@evil.test>",
                   "forged": f"{player['name']} <{player['email']}>"}.get(
                       kind, f"{player['name']} <{player['email']}>")
    msg["To"] = (f"pbem+{game_id}.{code}@games.test" if kind in ("player", "stranger")
                 else "pbem@games.test")
    msg["Subject"] = rng.choice([f"Re: [1830 #{game_id}] your turn", f"[1870 #{game_id}]",
                                 f"Re: [1830 #{game_id}] \x1b[31m", "hello"])
    msg["Message-ID"] = f"<fuzz.{tables.uid}.{rng.randrange(10**9)}@players.test>"
    if kind == "key line":
        body = f"key {rng.choice(['ABCDE-FGHJK-MNPQR', 'x', code])}\n{body}"
    msg.set_content(body + rng.choice(["", "\n-- \nAnn", "\n\nOn Monday, pbem wrote:\n> show"]))
    return msg.as_bytes(policy=SMTP), kind


# -- running -------------------------------------------------------------------------------


def _now(number: int) -> str:
    # a minute per mail, so the daily caps and the hourly rate limits move on
    from datetime import UTC, datetime, timedelta

    moment = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=number)
    return moment.isoformat(timespec="seconds")


PROGRESS_EVERY = 5000
#: when a run stops early (``--minutes``, SIGTERM): monotonic time, and whether asked to
_STOP = {"at": float("inf"), "asked": False}


def _numbers(examples: int) -> Iterator[int]:
    """0, 1, ... ``examples - 1``, unless the run's time is up or it was asked to stop:
    then the target ends early and its counts, findings and final audits are kept."""
    for number in range(examples):
        if _STOP["asked"] or time.monotonic() >= _STOP["at"]:
            return
        yield number


def _ask_to_stop(signum: int, frame: object) -> None:
    _STOP["asked"] = True


def _count(report: Report, outcome: str, elapsed: float) -> None:
    report.examples += 1
    report.seconds += elapsed
    report.slowest = max(report.slowest, elapsed)
    report.outcomes[outcome] += 1
    if report.examples % PROGRESS_EVERY == 0:
        _progress(report)


def _progress(report: Report) -> None:
    """A line on stderr now and then, with the findings since the last one: a long run
    stopped early still tells how far it went and what it found."""
    kinds = Counter(f.kind for f in report.findings)
    print(f"{report.target}: {report.examples} examples, {len(report.findings)} findings "
          f"{dict(kinds)}", file=sys.stderr, flush=True)
    for finding in report.findings[report.reported:report.reported + 5]:
        print(f"  finding #{finding.number} {finding.kind}: {finding.detail[-300:]}\n"
              f"    {finding.example[:300]}", file=sys.stderr, flush=True)
    report.reported = len(report.findings)


def _trace(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc, limit=6))[-1500:]


TARGETS: dict[str, Callable[[int, int], Report]] = {
    "commands": fuzz_commands, "mime": fuzz_mime, "mails": fuzz_mails}


def run(targets: list[str], seed: int, examples: int) -> Iterator[Report]:
    for name in targets:
        started = time.perf_counter()
        report = TARGETS[name](seed, examples)
        report.seconds = round(time.perf_counter() - started, 1)
        yield report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--target", default="commands,mime,mails")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this many minutes (SIGTERM stops too), keeping the "
                        "counts, findings and final audits")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _ask_to_stop)
    if args.minutes is not None:
        _STOP["at"] = time.monotonic() + args.minutes * 60
    reports = []
    for report in run(args.target.split(","), args.seed, args.examples):
        kinds = Counter(f.kind for f in report.findings)
        print(f"{report.target}: {report.examples} examples in {report.seconds} s "
              f"(slowest {report.slowest:.3f} s); {len(report.findings)} findings "
              f"{dict(kinds)}", flush=True)
        for outcome, count in report.outcomes.most_common():
            print(f"    {count:>7}  {outcome}")
        for finding in report.findings[:20]:
            print(f"  finding #{finding.number} {finding.kind}: {finding.detail[-300:]}\n"
                  f"    {finding.example[:300]}")
        reports.append(report)
    if args.json:
        data = [asdict(r) | {"outcomes": dict(r.outcomes)} for r in reports]
        args.json.write_text(json.dumps(data, indent=1, default=str) + "\n")
    return 1 if any(r.findings for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
