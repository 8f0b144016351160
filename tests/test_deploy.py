"""What the operator's guide ships and shows is what pbem runs with: the systemd unit
(contrib/pbem.service) and the configuration file of docs/operators-guide.md."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from docexamples import ROOT, blocks

from pbem.mail.config import from_mapping, require_mail

UNIT = ROOT / "contrib" / "pbem.service"
GUIDE = "docs/operators-guide.md"


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Section.Key`` -> its values, in order (a key may be given more than once)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def test_the_unit_runs_pbem_serve_as_the_guide_says() -> None:
    unit = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert unit["Service.ExecStart"] == ["/usr/local/bin/pbem serve"]
    assert unit["Service.User"] == ["pbem"] and unit["Service.Restart"] == ["always"]
    assert "PBEM_CONFIG=/etc/pbem/pbem.toml" in unit["Service.Environment"]
    assert "PBEM_DB=/var/lib/pbem/pbem.db" in unit["Service.Environment"]
    assert unit["Install.WantedBy"] == ["multi-user.target"]
    guide = (ROOT / GUIDE).read_text(encoding="utf-8")
    assert "contrib/pbem.service" in guide and "/usr/local/bin" in guide


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd)")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """systemd-analyze verify, with ExecStart pointing at this pbem (it checks that the
    command exists)."""
    pbem = Path(sys.executable).with_name("pbem")
    if not pbem.exists():
        pytest.skip(f"no pbem command beside {sys.executable}")
    unit = tmp_path / "pbem.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("/usr/local/bin/pbem", str(pbem)),
                    encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_the_guides_configuration_is_valid() -> None:
    (toml,) = [lines for _, lang, lines in blocks((ROOT / GUIDE).read_text(encoding="utf-8"))
               if lang == "toml"]
    config = from_mapping(tomllib.loads("\n".join(toml)), source=GUIDE)
    require_mail(config, imap=True, smtp=True)
    assert config.database == "/var/lib/pbem/pbem.db"
    assert config.imap.password_file == "/etc/pbem/imap-password"
