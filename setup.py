"""The wheel carries pbem's data: rules/ (the games), templates/ (the mails) and the
players' guide (``help`` by mail) are top-level in the source tree, so the build copies
them into the package as pbem/_data/ (pbem.engine.rulesdata.package_data finds them
there). Everything else is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: (in the source tree, in pbem/_data/)
DATA = (("rules", "rules"), ("templates", "templates"),
        ("docs/players-guide.md", "players-guide.md"))


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the source tree itself
            return
        target = Path(self.build_lib) / "pbem" / "_data"
        for source, name in DATA:
            if Path(source).is_dir():
                self.copy_tree(source, str(target / name))
            else:
                self.mkpath(str(target))
                self.copy_file(source, str(target / name))


setup(cmdclass={"build_py": BuildWithData})
