"""``pbem config check``: try both servers and say what works."""

from __future__ import annotations

from dataclasses import asdict

import aiosmtplib

from .config import ConfigError, MailConfig, ServerConfig
from .inbound.imap import Mailbox, MailboxError
from .outbound.transport import connect


def describe_config(config: MailConfig) -> list[str]:
    """The configuration as ``pbem config check`` prints it: every setting but the
    passwords, of which only where they come from is said."""
    lines = [f"service: address {config.address or '-'}, name {config.name}, "
             f"domain {config.mail_domain or '-'}, referee {config.referee or '-'}"]
    for name, server in (("imap", config.imap), ("smtp", config.smtp)):
        lines.append(f"{name}: {server.host or '-'}:{server.port} ({server.security}), user "
                     f"{server.user or '-'}, password {_password_source(server)}")
    limits = ", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
                       for k, v in asdict(config.limits).items())
    lines.append(f"limits: {limits}")
    lines.append(f"database: {config.database or '(the default)'}")
    return lines


def _password_source(server: ServerConfig) -> str:
    if server.password_file:
        return f"from {server.password_file}"
    return "set (not shown)" if server.password else "none"


async def check_servers(config: MailConfig) -> tuple[list[str], bool]:
    lines = [f"service address: {config.address or 'MISSING (service.address)'}"]
    if config.address:
        lines.append(f"reply addresses look like: {config.plus_address(12, 'xxxxxxxx')}")
    ok = bool(config.address)
    for check in (_imap, _smtp):
        line, good = await check(config)
        lines.append(line)
        ok = ok and good
    lines.append("all good" if ok else "something does not work (see above)")
    return lines, ok


async def _imap(config: MailConfig) -> tuple[str, bool]:
    cfg = config.imap
    where = f"imap {cfg.host or '?'}:{cfg.port} ({cfg.security})"
    if not cfg.host:
        return f"{where}: MISSING imap.host", False
    try:
        mailbox = Mailbox(cfg, cfg.secret())
        try:
            await mailbox.open()
            pending = await mailbox.pending()
        finally:
            await mailbox.close()
    except (MailboxError, ConfigError) as exc:
        return f"{where}: FAILED: {exc}", False
    idle = "IDLE" if mailbox.can_idle else f"polling every {cfg.poll_seconds:.0f} s"
    done = f"moved to {cfg.move_to}" if cfg.move_to else f"flagged {mailbox.flag}"
    return (f"{where}: ok, logged in as {cfg.user}, {cfg.mailbox} has UIDVALIDITY "
            f"{mailbox.uidvalidity}, {len(pending)} messages waiting; {idle}; processed "
            f"mail is {done}"), True


async def _smtp(config: MailConfig) -> tuple[str, bool]:
    cfg = config.smtp
    where = f"smtp {cfg.host or '?'}:{cfg.port} ({cfg.security})"
    if not cfg.host:
        return f"{where}: MISSING smtp.host", False
    try:
        client = await connect(config)
        try:
            auth = f"logged in as {cfg.user}" if cfg.user else "no login"
            if client.last_ehlo_response is None:  # no login: nothing has greeted it yet
                await client.ehlo()
            extensions = ", ".join(sorted(client.esmtp_extensions)) or "none"
        finally:
            await client.quit()
    except (aiosmtplib.SMTPException, OSError, ConfigError) as exc:
        return f"{where}: FAILED: {exc}", False
    return f"{where}: ok, {auth}; extensions: {extensions}", True
