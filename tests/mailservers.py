"""Real mail servers on loopback for the integration tests.

``Dovecot`` runs the Debian dovecot-imapd as a foreground child process with its
own generated configuration, a passwd-file passdb and a Maildir in a temporary
directory, on a free port. ``imap_server()`` gives Dovecot where it is installed,
else pymap in this process (``pbem.mail.embedded.EmbeddedImap``), else skips.
Readiness is awaited on real events (Dovecot's log line, a connection), never
by sleeping.
"""

from __future__ import annotations

import os
import pwd
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.mail.embedded import EmbeddedImap, free_port

PASSWORD = "pbem-secret"
ACCOUNTS = 500


def dovecot_binary() -> str | None:
    found = shutil.which("dovecot") or ("/usr/sbin/dovecot"
                                        if os.path.exists("/usr/sbin/dovecot") else None)
    return found


class Dovecot:
    """dovecot -F with a generated configuration; one user, a tmp Maildir."""

    def __init__(self, user: str = "pbem", password: str = PASSWORD, tls: bool = False) -> None:
        self.host = "127.0.0.1"
        self.port = free_port()
        self.tls = tls
        self.tls_port = free_port() if tls else 0
        self.user = user
        self.password = password
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.log: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()

    def _accounts(self) -> tuple[str, str, int, int]:
        if os.geteuid() == 0:  # dovecot refuses to run its helpers as root
            mail = pwd.getpwnam("dovecot")
            return "dovenull", "dovecot", mail.pw_uid, mail.pw_gid
        me = pwd.getpwuid(os.geteuid()).pw_name
        return me, me, os.geteuid(), os.getegid()

    def _write_config(self) -> Path:
        login_user, internal_user, uid, gid = self._accounts()
        for sub in ("run", "state", "mail", "home"):
            (self.dir / sub).mkdir()
        os.chmod(self.dir, 0o755)
        # Accounts are made up front: Dovecot notices a changed passwd-file only
        # when its modification time moves on, which a fast test can outrun.
        users = [self.user] + [f"{self.user}{i}" for i in range(1, ACCOUNTS + 1)]
        (self.dir / "passwd").write_text("".join(f"{u}:{{PLAIN}}{self.password}\n"
                                                 for u in users))
        if os.geteuid() == 0:
            for sub in ("mail", "home"):
                os.chown(self.dir / sub, uid, gid)
        conf = self.dir / "dovecot.conf"
        conf.write_text(f"""\
base_dir = {self.dir}/run
state_dir = {self.dir}/state
log_path = /dev/stderr
protocols = imap
listen = 127.0.0.1
{self._ssl_settings()}
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{self.dir}/mail/%u
first_valid_uid = 1
default_login_user = {login_user}
default_internal_user = {internal_user}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {self.dir}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={self.dir}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
""")
        return conf

    @property
    def cert(self) -> Path:
        return self.dir / "cert.pem"

    def _ssl_settings(self) -> str:
        if not self.tls:
            return "ssl = no"
        make_certificate(self.cert, self.dir / "key.pem")
        return f"ssl = yes\nssl_cert = <{self.cert}\nssl_key = <{self.dir / 'key.pem'}"

    def start(self, timeout: float = 30.0) -> Dovecot:
        binary = dovecot_binary()
        assert binary is not None
        conf = self._write_config()
        self.proc = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        threading.Thread(target=self._read_log, daemon=True).start()
        self.wait_log("starting up", timeout)
        self._wait_listening(timeout)
        return self

    def _read_log(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            self.log.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def wait_log(self, text: str, timeout: float = 30.0) -> str:
        """Block until Dovecot logs a line containing ``text``."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise TimeoutError(f"dovecot did not log {text!r}: {self.log[-5:]}") from None
            if line is None:
                raise RuntimeError(f"dovecot exited: {self.log[-10:]}")
            if "Fatal" in line or "Error" in line and "configuration" in line:
                raise RuntimeError(f"dovecot failed: {line}")
            if text in line:
                return line

    def _wait_listening(self, timeout: float) -> None:
        # The master binds its listeners before it logs "starting up"; one
        # connection confirms it, and reading the greeting shows the login
        # process answers.
        with socket.create_connection((self.host, self.port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            greeting = sock.recv(200)
            if not greeting.startswith(b"* OK"):
                raise RuntimeError(f"dovecot greeted with {greeting!r}")

    def account(self, number: int) -> Account:
        """Account ``number`` (1 to ACCOUNTS), each with its own empty Maildir."""
        if not 1 <= number <= ACCOUNTS:
            raise ValueError(f"only {ACCOUNTS} accounts")
        return Account(self.host, self.port, f"{self.user}{number}", self.password)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def make_certificate(cert: Path, key: Path) -> None:
    """A self-signed certificate for 127.0.0.1 (openssl's command line tool)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the TLS tests need the openssl command")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True,
                   capture_output=True, timeout=60)


@dataclass
class Account:
    """One mailbox account on a running server (what the tests and the service use)."""

    host: str
    port: int
    user: str
    password: str

    def stop(self) -> None:
        pass


class ImapServers:
    """Hands out fresh mailbox accounts: users of one Dovecot for the whole session,
    or one pymap server per account where Dovecot is absent."""

    def __init__(self, prefer: str = "") -> None:
        self.kind = "dovecot" if prefer != "pymap" and dovecot_binary() else "pymap"
        self.dovecot: Dovecot | None = None
        self.pymaps: list[EmbeddedImap] = []
        self.count = 0

    def account(self) -> Account | EmbeddedImap:
        self.count += 1
        if self.kind == "dovecot" and self.dovecot is None:
            server = Dovecot()
            try:
                self.dovecot = server.start()
            except (OSError, RuntimeError, TimeoutError, KeyError) as exc:
                server.stop()
                warnings.warn(f"Dovecot is installed but did not start ({exc}); "
                              "using pymap instead", stacklevel=2)
                self.kind = "pymap"
        if self.kind == "dovecot" and self.dovecot is not None:
            return self.dovecot.account(self.count)
        try:
            import pymap  # noqa: F401
        except ImportError:
            pytest.skip("neither Dovecot (apt-get install dovecot-imapd) nor pymap "
                        "(pip install pymap) is installed; the IMAP tests need one")
        embedded = EmbeddedImap(f"pbem{self.count}", PASSWORD).start()
        self.pymaps.append(embedded)
        return embedded

    def stop(self) -> None:
        if self.dovecot is not None:
            self.dovecot.stop()
        for server in self.pymaps:
            server.stop()
