"""The configuration file and environment variables; the mail templates."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.config import ConfigError, load_config
from pbem.mail.outbound.templates import fill, wrap

EXAMPLE = """\
[service]
address = "pbem@example.org"
trusted_authserv_id = "mx.example.org"

[imap]
host = "imap.example.org"
user = "pbem"
password_file = "{secret}"

[smtp]
host = "smtp.example.org"
port = 587
security = "starttls"

[limits]
replies_per_address_per_day = 20
"""


def test_file_and_environment(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    path = tmp_path / "pbem.toml"
    path.write_text(EXAMPLE.format(secret=secret))
    config = load_config(path, {"PBEM_SMTP_USER": "mailer", "PBEM_SMTP_PASSWORD": "pw",
                                "PBEM_IMAP_PORT": "10993"})
    assert config.imap.secret() == "s3cret"
    assert config.imap.port == 10993 and config.imap.security == "tls"
    assert config.smtp.port == 587 and config.smtp.user == "mailer"
    assert config.limits.replies_per_address_per_day == 20
    assert config.plus_address(12, "abc") == "pbem+12.abc@example.org"


def test_environment_only(tmp_path: Path) -> None:
    config = load_config(None, {"PBEM_CONFIG": str(tmp_path / "missing.toml"),
                                "PBEM_ADDRESS": "games@example.net",
                                "PBEM_IMAP_HOST": "127.0.0.1", "PBEM_IMAP_SECURITY": "plain"})
    assert config.mail_domain == "example.net" and config.imap.security == "plain"


@pytest.mark.parametrize("text, message", [
    ('[imap]\nhost = "mail.example.org"\nsecurity = "plain"\n', "only for a loopback"),
    ('[imap]\nsecurity = "ssl"\n', "must be one of"),
    ('[imap]\nhots = "x"\n', "unknown key 'hots'"),
    ('[mail]\n', "unknown section"),
    ('[imap]\nport = "many"\n', "must be a int"),
    ("[imap\n", "not valid TOML"),
])
def test_mistakes_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path, {})


def test_templates_wrap_prose_and_keep_blocks(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("Hello $name, $long\n$board_section\n$empty_section\nBye\n")
    text = fill(tmp_path, "t.txt", {"name": "Ann", "long": "word " * 40,
                                    "board_section": "x" * 95, "empty_section": ""})
    lines = text.splitlines()
    assert all(len(line) <= 78 for line in lines if not line.startswith("x"))
    assert "x" * 95 in lines and lines[-1] == "Bye"
    assert wrap("    " + "y " * 60)[1].startswith("      ")
