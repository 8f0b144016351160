"""The wheel an operator installs (docs/operators-guide.md) carries the games, the mail
templates and the players' guide, and pbem runs from it away from the source tree."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from doctools import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(ROOT)], capture_output=True, text=True, cwd=out)
    assert build.returncode == 0, build.stderr
    (found,) = out.glob("pbem-*.whl")
    return found


def test_the_wheel_carries_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for source, name in (("rules", "rules"), ("templates", "templates")):
        for path in (ROOT / source).rglob("*"):
            if path.is_file():
                assert f"pbem/_data/{name}/{path.relative_to(ROOT / source)}" in names
    assert "pbem/_data/players-guide.md" in names
    assert not any(name.startswith(("tests/", "bench/", "rules/")) for name in names)


def test_pbem_plays_from_the_unpacked_wheel(wheel: Path, tmp_path: Path) -> None:
    """Unpacked elsewhere, with the source tree out of the path: a game is made and shown,
    and the mail templates and the guide are the wheel's."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    work = tmp_path / "work"
    work.mkdir()
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def pbem(*args: str) -> str:
        done = subprocess.run([sys.executable, "-P", "-m", "pbem", *args], capture_output=True,
                              text=True, cwd=work, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert pbem("new", "1870", "--player", "Ann:ann@example.org", "--player",
                "Ben:ben@example.org", "--player", "Cat:cat@example.org").strip() == "1"
    assert "Waiting for" in pbem("show", "1")
    where = subprocess.run(
        [sys.executable, "-P", "-c", "import pbem.mail.config as c, pbem.mail.processing.guide "
         "as g; print(c.TEMPLATES_DIR); print(g.guide_path()); print(len(g.parts()))"],
        capture_output=True, text=True, cwd=work, env=env, check=True).stdout.split()
    assert where[0] == str(site / "pbem" / "_data" / "templates")
    assert where[1] == str(site / "pbem" / "_data" / "players-guide.md")
    assert int(where[2]) >= 8
