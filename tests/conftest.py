"""Fixtures for the mail integration tests: a real IMAP server, an SMTP sink, a
configuration file, and the real ``pbem serve`` / ``pbem poll`` processes."""

from __future__ import annotations

import os
import queue
import signal
import smtplib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest

from pbem import service
from pbem.mail.clock import now
from pbem.mail.config import load_config
from pbem.mail.embedded import Delivered, MailSink
from pbem.mail.outbound.welcome import queue_welcome
from pbem.store import Store, open_store

SERVICE = "pbem@games.test"
REFEREE = "referee@games.test"
AUTHSERV = "mx.games.test"
ROOT = Path(__file__).resolve().parents[1]


class ServiceProcess:
    """A real ``python -m pbem ... serve`` (or poll) child process."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "pbem", *args], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
        self.log: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            self.log.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def wait_log(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise TimeoutError(f"service did not log {text!r}: {self.log[-8:]}") from None
            if line is None:
                raise RuntimeError(f"service exited ({self.proc.poll()}): {self.log[-8:]}")
            if text in line:
                return line

    def wait(self, timeout: float = 60.0) -> int:
        return self.proc.wait(timeout)

    def terminate(self, timeout: float = 30.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)


class MailWorld:
    """IMAP server + SMTP sink + database + configuration for one test."""

    def __init__(self, tmp: Path, imap: Any, extra: str = "") -> None:
        self.tmp = tmp
        self.imap = imap
        self.sink = MailSink(imap, "pbem").start()
        self.db = tmp / "pbem.db"
        self.config_path = tmp / "pbem.toml"
        self.write_config(extra)
        self.processes: list[ServiceProcess] = []

    def write_config(self, extra: str = "", imap_port: int | None = None,
                     mailbox: str = "INBOX") -> None:
        self.config_path.write_text(f"""\
[service]
address = "{SERVICE}"
referee = "{REFEREE}"
trusted_authserv_id = "{AUTHSERV}"

[imap]
host = "127.0.0.1"
port = {imap_port or self.imap.port}
security = "plain"
user = "{self.imap.user}"
password = "{self.imap.password}"
mailbox = "{mailbox}"
idle_seconds = 120
poll_seconds = 1
timeout = 10

[smtp]
host = "127.0.0.1"
port = {self.sink.port}
security = "plain"
timeout = 10

[limits]
retry_base_seconds = 0.2
retry_max_seconds = 1

[paths]
database = "{self.db}"
{extra}""")

    def set_limits(self, **limits: int) -> None:
        """Change keys of the configuration's [limits] (see docs/mail-service.md)."""
        lines = "".join(f"{key} = {value}\n" for key, value in limits.items())
        text = self.config_path.read_text()
        self.config_path.write_text(text.replace("[limits]\n", "[limits]\n" + lines, 1))

    @property
    def config(self) -> Any:
        return load_config(self.config_path, {})

    def store(self) -> Store:
        return open_store(self.db, now=now())

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
        env.update({"PBEM_CONFIG": str(self.config_path), "PBEM_DB": str(self.db),
                    "PYTHONPATH": str(ROOT)})
        env.update(extra)
        return env

    # games

    def new_game(self, names: tuple[str, ...] = ("Ann", "Ben", "Cat", "Dan"),
                 options: dict[str, str] | None = None, welcome: bool = True) -> Game:
        store = self.store()
        try:
            created = service.create_game(
                store, "1830", [(n, f"{n.lower()}@players.test") for n in names],
                seed=1830, seating="fixed", options=options or {}, now=now(),
                referee=REFEREE)
            if welcome:
                queue_welcome(store, self.config, created.game_id, created.keys, now())
            players = {p["name"]: p for p in store.players(created.game_id)}
        finally:
            store.close()
        return Game(self, created.game_id, created.keys, players)

    # processes

    def serve(self, **env: str) -> ServiceProcess:
        proc = ServiceProcess(["serve", "-v"], self.env(**env))
        self.processes.append(proc)
        return proc

    def poll_once(self, *args: str, **env: str) -> ServiceProcess:
        proc = ServiceProcess(["poll", "--once", "-v", *args], self.env(**env))
        self.processes.append(proc)
        return proc

    def cli(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        """Run a pbem command in this process (click's runner), with the world's
        configuration in the environment; the result looks like subprocess.run's."""
        from click.testing import CliRunner

        from pbem.cli import main

        environment: dict[str, str | None] = {k: None for k in os.environ
                                              if k.startswith("PBEM_")}
        environment.update(self.env(**env))
        result = CliRunner().invoke(main, list(args), env=environment, catch_exceptions=False)
        return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout,
                                           result.stderr)

    # sending as a player

    def send(self, raw: bytes | EmailMessage, sender: str | None = None,
             recipients: list[str] | None = None) -> None:
        """Submit a mail to the sink over SMTP, as a mail client would."""
        data = raw.as_bytes(policy=SMTP) if isinstance(raw, EmailMessage) else raw
        msg = raw if isinstance(raw, EmailMessage) else None
        mail_from = sender or (str(msg["From"]) if msg is not None else "someone@else.test")
        rcpts = recipients or ([str(msg["To"])] if msg is not None else [SERVICE])
        with smtplib.SMTP(self.sink.host, self.sink.port, timeout=30) as smtp:
            smtp.sendmail(_bare(mail_from), [_bare(r) for r in rcpts], data)

    def close(self) -> None:
        for proc in self.processes:
            if proc.proc.poll() is None:
                proc.proc.kill()
                proc.proc.wait()
        self.sink.stop()


@contextmanager
def fast_key_hashes() -> Iterator[None]:
    """Kept for tests written before issue 15 (other branches use it): key hashes are
    one HMAC now (docs/store.md, "Keys"), so there is nothing left to speed up."""
    yield


def _bare(address: str) -> str:
    from email.utils import parseaddr

    return parseaddr(address)[1] or address


class Game:
    def __init__(self, world: MailWorld, game_id: int, keys: dict[str, str],
                 players: dict[str, dict[str, Any]]) -> None:
        self.world = world
        self.id = game_id
        self.keys = keys
        self.players = players

    def email(self, name: str) -> str:
        return str(self.players[name]["email"])

    def reply_address(self, name: str) -> str:
        store = self.world.store()
        try:
            code = store.reply_code(store.player(self.id, self.players[name]["seat"]))
        finally:
            store.close()
        return f"pbem+{self.id}.{code}@games.test"

    def mail(self, name: str, body: str, *, to: str | None = None, sender: str | None = None,
             subject: str | None = None, headers: dict[str, str] | None = None,
             in_reply_to: str | None = None) -> EmailMessage:
        """A plain mail as the player's mail program would write it."""
        msg = EmailMessage()
        msg["From"] = f"{name} <{sender or self.email(name)}>"
        msg["To"] = to or self.reply_address(name)
        msg["Subject"] = subject or f"Re: [1830 #{self.id}] your turn"
        msg["Message-ID"] = make_msgid(domain="players.test")
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
            msg["References"] = in_reply_to
        for key, value in (headers or {}).items():
            msg[key] = value
        msg.set_content(body)
        return msg

    def inbox(self, name: str) -> list[Delivered]:
        return self.world.sink.mails_to(self.email(name))


@pytest.fixture(scope="session")
def imap_servers() -> Iterator[Any]:
    from mailservers import ImapServers

    servers = ImapServers(os.environ.get("PBEM_TEST_IMAP", ""))
    yield servers
    servers.stop()


@pytest.fixture
def imap_server(imap_servers: Any) -> Iterator[Any]:
    """A fresh mailbox account on a real IMAP server (Dovecot, else pymap)."""
    account = imap_servers.account()
    yield account
    account.stop()


@pytest.fixture
def world(tmp_path: Path, imap_server: Any) -> Iterator[MailWorld]:
    w = MailWorld(tmp_path, imap_server)
    yield w
    w.close()
