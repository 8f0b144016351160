"""TLS and STARTTLS to both servers, certificates verified (a private CA file):
Dovecot with a self-signed certificate, aiosmtpd with TLS and with STARTTLS."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import MailWorld
from mailservers import Dovecot, dovecot_binary, make_certificate

from pbem.mail.embedded import MailSink


@pytest.fixture(scope="module")
def tls_dovecot() -> Iterator[Dovecot]:
    if dovecot_binary() is None:
        pytest.skip("the IMAP TLS test needs Dovecot (apt-get install dovecot-imapd)")
    server = Dovecot(tls=True)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    yield server
    server.stop()


def server_context(tmp: Path) -> tuple[ssl.SSLContext, Path]:
    cert, key = tmp / "smtp-cert.pem", tmp / "smtp-key.pem"
    make_certificate(cert, key)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context, cert


@pytest.mark.parametrize("imap_mode, smtp_mode", [("tls", "starttls"), ("starttls", "tls")])
def test_tls_and_starttls(tmp_path: Path, tls_dovecot: Dovecot, imap_mode: str,
                          smtp_mode: str) -> None:
    context, smtp_cert = server_context(tmp_path)
    account = tls_dovecot.account(1)
    world = MailWorld(tmp_path, account)
    world.sink.stop()
    world.sink = MailSink(account, "pbem", tls=context if smtp_mode == "tls" else None,
                          starttls=context if smtp_mode == "starttls" else None).start()
    bundle = tmp_path / "cas.pem"
    bundle.write_text(tls_dovecot.cert.read_text() + smtp_cert.read_text())
    env = {"PBEM_IMAP_SECURITY": imap_mode, "PBEM_SMTP_SECURITY": smtp_mode,
           "PBEM_IMAP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(world.sink.port),
           "PBEM_IMAP_PORT": str(tls_dovecot.tls_port if imap_mode == "tls"
                                 else tls_dovecot.port),
           "PBEM_IMAP_CA_FILE": str(bundle), "PBEM_SMTP_CA_FILE": str(bundle)}
    try:
        checked = world.cli("config", "check", **env)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert f"({imap_mode}): ok" in checked.stdout and f"({smtp_mode}): ok" in checked.stdout
        untrusted = world.cli("config", "check", **{**env, "PBEM_IMAP_CA_FILE": "",
                                                    "PBEM_SMTP_CA_FILE": ""})
        assert untrusted.returncode == 1 and untrusted.stdout.count(": FAILED:") == 2
        assert "certificate verify failed" in untrusted.stdout
        game = world.new_game()
        sent = world.cli("send", **env)
        assert sent.returncode == 0 and "sent 4" in sent.stdout, sent.stdout + sent.stderr
        assert len(game.inbox("Ann")) == 1
    finally:
        world.close()
