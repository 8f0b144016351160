"""The examples of the guides (README.md, docs/players-guide.md, docs/referees-guide.md,
docs/operators-guide.md), read from the Markdown and run (tests/test_docs_examples.py).

Two forms, both plain Markdown that reads well as it is:

A player's mail and the answer it gets. An HTML comment names the position the mail is
sent in and the player who sends it (``same`` goes on in the game of the example before);
``to Dan`` checks the mail Dan gets instead of the sender's reply::

    <!-- example: 1830-stock, Cat -->
    ```mail
    Hi all!

    buy B&O
    ```
    ```reply
    Results:
      [1] buy B&O
    ...
    ```

A command-line session: lines starting with ``$ `` are ``pbem`` commands (a trailing
``\\`` goes on in the next line; ``> FILE`` writes the output to a file), the lines below
each its output. All the sessions of one document run in order in one fresh directory
(``./pbem.db``), so a game made in one is there in the next.

In an answer, the lines shown must appear in this order, next to each other, except where
a line ``...`` stands between them (any lines); ``...`` within a line stands for any text.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDES = ("README.md", "docs/players-guide.md", "docs/referees-guide.md",
          "docs/operators-guide.md")

_MARK = re.compile(r"<!-- example: (?P<spec>[^>]*?) -->")
_FENCE = re.compile(r"^```(?P<lang>\S*)\s*$")


@dataclass
class MailExample:
    """A mail sent in a position, and what the answer shows."""

    doc: str
    line: int  # of the ```mail fence, 1-based
    position: str  # a name of docpositions.POSITIONS, or "same"
    sender: str
    body: str
    expected: list[str]
    recipient: str | None = None  # whose mail is checked: the sender's reply by default

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


@dataclass
class Command:
    """One ``$ pbem ...`` line of a session and the output shown below it."""

    line: int
    text: str
    expected: list[str] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return shlex.split(self.text)


@dataclass
class Session:
    doc: str
    line: int
    commands: list[Command]

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(text: str) -> list[tuple[int, str, list[str]]]:
    """Every fenced block: (line of its opening fence, language, its lines)."""
    found: list[tuple[int, str, list[str]]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        found.append((index + 1, opening["lang"], lines[index + 1:end]))
        index = end + 1
    return found


def mail_examples(doc: str) -> list[MailExample]:
    """The mail examples of ``doc`` (a path relative to the repository)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    lines = text.splitlines()
    fenced = blocks(text)
    examples = []
    for number, (line, lang, body) in enumerate(fenced):
        if lang != "mail":
            continue
        spec = _spec_above(lines, line, doc)
        if number + 1 >= len(fenced) or fenced[number + 1][1] != "reply":
            raise ValueError(f"{doc}:{line}: a ```mail block is followed by a ```reply block")
        position, sender, recipient = spec
        examples.append(MailExample(doc, line, position, sender, "\n".join(body) + "\n",
                                    fenced[number + 1][2], recipient))
    return examples


def _spec_above(lines: list[str], fence_line: int, doc: str) -> tuple[str, str, str | None]:
    """The ``<!-- example: POSITION, PLAYER[, to NAME] -->`` just above a ```mail fence."""
    above = lines[fence_line - 2] if fence_line >= 2 else ""
    found = _MARK.search(above)
    if found is None:
        raise ValueError(f"{doc}:{fence_line}: a ```mail block needs "
                         "<!-- example: POSITION, PLAYER --> on the line above")
    parts = [p.strip() for p in found["spec"].split(",")]
    if len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].startswith("to ")):
        raise ValueError(f"{doc}:{fence_line}: write <!-- example: POSITION, PLAYER "
                         "[, to NAME] -->")
    recipient = parts[2][3:].strip() if len(parts) == 3 else None
    return parts[0], parts[1], recipient


def sessions(doc: str) -> list[Session]:
    """The ```console sessions of ``doc``."""
    found = []
    for line, lang, body in blocks((ROOT / doc).read_text(encoding="utf-8")):
        if lang != "console":
            continue
        commands: list[Command] = []
        pending = ""
        for offset, text in enumerate(body):
            if pending or text.startswith("$ "):
                piece = text[2:] if not pending else text.strip()
                pending = f"{pending} {piece}".strip() if pending else piece
                if pending.endswith("\\"):
                    pending = pending[:-1].rstrip()
                    continue
                commands.append(Command(line + 1 + offset, pending))
                pending = ""
            elif commands:
                commands[-1].expected.append(text)
            elif text.strip():
                raise ValueError(f"{doc}:{line}: a session starts with a '$ ' line")
        found.append(Session(doc, line, commands))
    return found


def mismatch(expected: list[str], answer: str) -> str | None:
    """None when ``answer`` shows the ``expected`` lines (in order, adjacent but where a
    ``...`` line stands between them); else what is missing."""
    got = [line.rstrip() for line in answer.splitlines()]
    runs: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            runs.append([])
        else:
            runs[-1].append(line.rstrip())
    start = 0
    for run in (r for r in runs if r):
        at = _find(run, got, start)
        if at is None:
            return "these lines are not in the answer (in this order):\n" + "\n".join(run)
        start = at + len(run)
    return None


def _find(run: list[str], got: list[str], start: int) -> int | None:
    patterns = [_pattern(line) for line in run]
    for at in range(start, len(got) - len(run) + 1):
        if all(p.fullmatch(got[at + i]) for i, p in enumerate(patterns)):
            return at
    return None


def _pattern(line: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(piece) for piece in line.split("...")))
