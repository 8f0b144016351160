"""The players' guide (docs/players-guide.md) by mail, in parts: ``help`` lists the parts,
``help stock`` sends one as plain text.

A part is a ``## `` section of the guide whose next line is ``<!-- part: NAME -->``. In the
mail the comments go, a player's mail of an example (a fenced ``mail`` block) is indented
under "You write:", and the service's answer (a ``reply`` block) stands under "pbem
answers:" as the service writes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ...engine.rulesdata import package_data

FILE = "players-guide.md"
_PART = re.compile(r"<!-- part: (\S+) -->")
_COMMENT = re.compile(r"<!--.*?-->")
#: What stands above an example's mail and its answer in the mailed guide.
LABELS = {"mail": "You write:", "reply": "pbem answers:"}


def guide_path() -> Path:
    """The guide: installed with the package, else the source tree's docs/."""
    return package_data(FILE, f"docs/{FILE}")


@dataclass(frozen=True)
class Part:
    name: str  # what follows "help"
    title: str
    text: str  # as mailed: plain text, at most 78 columns


@cache
def parts() -> dict[str, Part]:
    """The guide's parts by name, in the guide's order."""
    found: dict[str, Part] = {}
    sections = re.split(r"^## ", guide_path().read_text(encoding="utf-8"), flags=re.M)[1:]
    for section in sections:
        title, _, body = section.partition("\n")
        named = _PART.match(body.lstrip("\n"))
        if named is not None:
            found[named[1]] = Part(named[1], title.strip(), plain(title.strip(), body))
    return found


def plain(title: str, body: str) -> str:
    """A section of the guide as a mail shows it."""
    lines = [title, "=" * len(title), ""]
    fence: str | None = None
    for line in _COMMENT.sub("", body).strip("\n").splitlines():
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            lines += [LABELS[fence]] if fence in LABELS else [""]
            continue
        lines.append(f"    {line}".rstrip() if fence == "mail" else line)
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def part_names() -> list[str]:
    return list(parts())

