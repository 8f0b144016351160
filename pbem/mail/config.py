"""The mail service's configuration: one TOML file plus environment variables.

``load_config(path, environ)`` reads the file (optional: everything can come
from the environment) and then applies the ``PBEM_*`` variables on top, so a
secret never has to be written into the file. docs/mail-service.md lists every
key and variable.
"""

from __future__ import annotations

import ipaddress
import os
import ssl
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from ..engine.rulesdata import package_data

SECURITY_MODES = ("tls", "starttls", "plain")
DEFAULT_CONFIG_PATH = "pbem.toml"
TEMPLATES_DIR = package_data("templates")


class ConfigError(Exception):
    """The configuration is incomplete or wrong; the message says what to fix."""


@dataclass(frozen=True)
class ServerConfig:
    """How to reach one mail server (IMAP or SMTP)."""

    host: str = ""
    port: int = 0
    security: str = "tls"
    user: str = ""
    password: str = field(default="", repr=False)  # never printed or logged
    password_file: str = ""
    timeout: float = 30.0
    ca_file: str = ""  # trust this CA (or self-signed certificate) too

    def ssl_context(self) -> ssl.SSLContext:
        """Certificates are verified: against the system's CAs, or ``ca_file``."""
        return ssl.create_default_context(cafile=self.ca_file or None)

    def secret(self) -> str:
        """The password, read from ``password_file`` when one is named."""
        if self.password_file:
            try:
                return Path(self.password_file).read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise ConfigError(f"cannot read the password file {self.password_file}: "
                                  f"{exc.strerror or exc}") from exc
        return self.password

    @property
    def loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


@dataclass(frozen=True)
class ImapConfig(ServerConfig):
    port: int = 993
    mailbox: str = "INBOX"
    processed_flag: str = "$PbemProcessed"
    move_to: str = ""
    idle: bool = True
    idle_seconds: float = 300.0
    poll_seconds: float = 60.0


@dataclass(frozen=True)
class SmtpConfig(ServerConfig):
    port: int = 465


@dataclass(frozen=True)
class Limits:
    replies_per_address_per_day: int = 50
    #: notices of a refused mail to one address of record: counted apart from the
    #: replies, so forged mail cannot use the replies up
    rejections_per_address_per_day: int = 1
    #: mails from addresses that are nobody's address of record, read in an hour
    stranger_mails_per_sender_per_hour: int = 10
    stranger_mails_per_hour: int = 200
    #: a larger mail is not fetched whole nor read (a short refusal to a player)
    max_mail_bytes: int = 5 * 1024 * 1024
    lines_per_mail: int = 50
    retry_base_seconds: float = 60.0
    retry_max_seconds: float = 6 * 3600.0
    max_attempts: int = 12


@dataclass(frozen=True)
class MailConfig:
    address: str = ""
    name: str = "pbem"
    domain: str = ""
    referee: str = ""
    trusted_authserv_id: str = ""
    database: str = ""
    templates: str = ""
    imap: ImapConfig = field(default_factory=ImapConfig)
    smtp: SmtpConfig = field(default_factory=SmtpConfig)
    limits: Limits = field(default_factory=Limits)
    source: str = ""

    @property
    def local_part(self) -> str:
        return self.address.split("@", 1)[0].split("+", 1)[0].lower()

    @property
    def mail_domain(self) -> str:
        return (self.domain or self.address.rpartition("@")[2]).lower()

    def plus_address(self, game_id: int, tag: str) -> str:
        """``pbem+<game>.<tag>@domain``: the reply address of one player of one game."""
        return f"{self.local_part}+{game_id}.{tag}@{self.mail_domain}"

    @property
    def templates_dir(self) -> Path:
        return Path(self.templates) if self.templates else TEMPLATES_DIR


# -- reading -----------------------------------------------------------------------------------

_ENV_TOP = {
    "PBEM_ADDRESS": "address",
    "PBEM_NAME": "name",
    "PBEM_DOMAIN": "domain",
    "PBEM_REFEREE": "referee",
    "PBEM_TRUSTED_AUTHSERV_ID": "trusted_authserv_id",
    "PBEM_DB": "database",
    "PBEM_TEMPLATES": "templates",
}
_ENV_SERVER = ("host", "port", "security", "user", "password", "password_file", "timeout",
               "ca_file")


def load_config(path: str | os.PathLike[str] | None = None,
                environ: Mapping[str, str] | None = None) -> MailConfig:
    """The configuration from ``path`` (default ``$PBEM_CONFIG`` or ./pbem.toml, which
    may be missing) with the environment variables applied on top, checked."""
    env = os.environ if environ is None else environ
    file = Path(path or env.get("PBEM_CONFIG") or DEFAULT_CONFIG_PATH)
    data: dict[str, Any] = {}
    if file.exists():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file} is not valid TOML: {exc}") from exc
    elif path is not None:
        raise ConfigError(f"there is no configuration file {file}")
    config = from_mapping(data, source=str(file) if file.exists() else "environment")
    return check(apply_environment(config, env))


def from_mapping(data: Mapping[str, Any], source: str = "") -> MailConfig:
    """A MailConfig from the TOML tables ``[service]``, ``[imap]``, ``[smtp]``,
    ``[limits]``, ``[paths]``; unknown keys are refused (they are usually typos)."""
    known = {"service", "imap", "smtp", "limits", "paths"}
    for key in data:
        if key not in known:
            raise ConfigError(f"unknown section [{key}]; the sections are "
                              f"{', '.join(sorted(known))}")
    service = _section(data, "service", ("address", "name", "domain", "referee",
                                         "trusted_authserv_id"))
    paths = _section(data, "paths", ("database", "templates"))
    return MailConfig(
        **service, **paths, source=source,
        imap=_build(ImapConfig, _section(data, "imap", _names(ImapConfig)), "imap"),
        smtp=_build(SmtpConfig, _section(data, "smtp", _names(SmtpConfig)), "smtp"),
        limits=_build(Limits, _section(data, "limits", _names(Limits)), "limits"),
    )


def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _section(data: Mapping[str, Any], name: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(f"[{name}] must be a table")
    for key in table:
        if key not in allowed:
            raise ConfigError(f"unknown key {key!r} in [{name}]; the keys are "
                              f"{', '.join(allowed)}")
    return dict(table)


def _build(cls: type, values: dict[str, Any], section: str) -> Any:
    types = {f.name: f.type for f in fields(cls)}
    converted = {k: _convert(v, str(types[k]), f"{section}.{k}") for k, v in values.items()}
    return cls(**converted)


def _convert(value: Any, kind: str, where: str) -> Any:
    try:
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        if kind == "bool":
            if isinstance(value, str):
                if value.lower() not in ("1", "0", "true", "false", "yes", "no"):
                    raise ValueError(value)
                return value.lower() in ("1", "true", "yes")
            return bool(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where} must be a {kind}, not {value!r}") from exc
    return str(value)


def apply_environment(config: MailConfig, env: Mapping[str, str]) -> MailConfig:
    """Override with ``PBEM_ADDRESS``, ``PBEM_IMAP_HOST``, ``PBEM_SMTP_PASSWORD_FILE``, ..."""
    top = {attr: env[var] for var, attr in _ENV_TOP.items() if env.get(var)}
    imap = _server_env(config.imap, "PBEM_IMAP_", env, "imap")
    smtp = _server_env(config.smtp, "PBEM_SMTP_", env, "smtp")
    changes: dict[str, Any] = {**top, "imap": imap, "smtp": smtp}
    return replace(config, **changes)


def _server_env(server: Any, prefix: str, env: Mapping[str, str], section: str) -> Any:
    names = _ENV_SERVER + (("mailbox",) if isinstance(server, ImapConfig) else ())
    values = {n: env[prefix + n.upper()] for n in names if env.get(prefix + n.upper())}
    types = {f.name: str(f.type) for f in fields(server)}
    return replace(server, **{k: _convert(v, types[k], f"{section}.{k}")
                              for k, v in values.items()})


def check(config: MailConfig) -> MailConfig:
    """Refuse what cannot work; the message names the key to set."""
    for name, server in (("imap", config.imap), ("smtp", config.smtp)):
        if server.security not in SECURITY_MODES:
            raise ConfigError(f"{name}.security must be one of {', '.join(SECURITY_MODES)}, "
                              f"not {server.security!r}")
        if server.security == "plain" and server.host and not server.loopback:
            raise ConfigError(f"{name}.security = \"plain\" sends the password unencrypted; it is "
                              f"allowed only for a loopback host, not {server.host}")
    if config.address and "@" not in config.address:
        raise ConfigError(f"service.address must be a mail address, not {config.address!r}")
    if config.limits.lines_per_mail < 1:
        raise ConfigError("limits.lines_per_mail must be at least 1")
    if config.limits.max_mail_bytes < 64 * 1024:
        raise ConfigError("limits.max_mail_bytes must be at least 65536 (64 KiB)")
    return config


def require_mail(config: MailConfig, *, imap: bool = False, smtp: bool = False) -> None:
    """Raise ConfigError naming what is missing for a command that needs the servers."""
    missing = []
    if not config.address:
        missing.append("service.address (PBEM_ADDRESS)")
    if imap and not config.imap.host:
        missing.append("imap.host (PBEM_IMAP_HOST)")
    if smtp and not config.smtp.host:
        missing.append("smtp.host (PBEM_SMTP_HOST)")
    if missing:
        raise ConfigError("the configuration lacks " + ", ".join(missing) +
                          f" (read from {config.source or 'the environment'})")
