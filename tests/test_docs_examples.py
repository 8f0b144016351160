"""Every example of the guides gives the answer the guide shows (issue 17).

The players' mails are sent into real games (SQLite files played through the service, the
mail processed as ``pbem serve`` processes it) and the answer mailed back is compared
with the guide's; the command-line sessions run ``pbem`` on a database in a fresh
directory. The forms are described in tests/docexamples.py.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from docexamples import GUIDES, ROOT, MailExample, Session, mail_examples, mismatch, sessions
from docpositions import POSITIONS, Position, build
from doctools import load_tool

from pbem.cli import main
from pbem.engine.title import load_title
from pbem.mail.processing import guide
from pbem.notation.lexicon import GUIDE_PARTS, HELP_TOPICS

MAILS = [example for doc in GUIDES if (ROOT / doc).exists() for example in mail_examples(doc)]
SESSIONS = {doc: sessions(doc) for doc in GUIDES if (ROOT / doc).exists()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each position the examples use, played once."""
    folder = tmp_path_factory.mktemp("positions")
    used = {e.position for e in MAILS if e.position != "same"}
    return {name: build(folder / name, name) for name in sorted(used)}


def test_the_guides_have_examples() -> None:
    for doc in ("README.md", "docs/players-guide.md"):
        assert any(e.doc == doc for e in MAILS) or SESSIONS.get(doc), doc
    assert all(e.position in POSITIONS or e.position == "same" for e in MAILS), \
        [e.where for e in MAILS if e.position not in POSITIONS and e.position != "same"]


def chains(examples: list[MailExample]) -> list[list[MailExample]]:
    """The examples in runs: one starting from a position, and those going on from it
    (``same``), so each run is one game and the runs may go in parallel."""
    runs: list[list[MailExample]] = []
    for example in examples:
        if example.position == "same":
            assert runs, f"{example.where}: 'same' needs an example before it"
            runs[-1].append(example)
        else:
            runs.append([example])
    return runs


@pytest.mark.parametrize("run", chains(MAILS), ids=lambda run: run[0].where)
def test_every_mail_example_gets_the_answer_shown(run: list[MailExample],
                                                  built: dict[str, Path],
                                                  tmp_path: Path) -> None:
    """The examples of one run in order, in a copy of its position."""
    game = Position(built[run[0].position], tmp_path)
    failures = [f"{example.where}: {problem}" for example in run
                if (problem := _check_mail(game, example))]
    assert not failures, "\n\n".join(failures)


def _check_mail(game: Position, example: MailExample) -> str | None:
    game.send(example.sender, example.body)
    mails = game.new_mail()
    reader = example.recipient or example.sender
    mine = game.to(reader, mails)
    if not mine:
        return f"no mail to {reader}; mails went to {[m.recipient for m in mails]}"
    answer = "\n\n".join(m.text for m in mine)
    problem = mismatch(example.expected, answer)
    if problem is None:
        return None
    shown = "\n\n".join(m.text.split("\nThe game now")[0] for m in mine)
    return f"{problem}\n--- the mail to {reader} (up to the game's tables) ---\n{shown}"


@pytest.mark.parametrize("doc", sorted(SESSIONS))
def test_every_session_gives_the_output_shown(doc: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if not SESSIONS[doc]:
        pytest.skip(f"{doc} has no command-line session")
    monkeypatch.chdir(tmp_path)
    for name in ("PBEM_DB", "PBEM_SECRET_FILE", "PBEM_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    failures = [problem for session in SESSIONS[doc] for problem in _run(session)]
    assert not failures, "\n\n".join(failures)


def _run(session: Session) -> list[str]:
    runner = CliRunner()
    failures = []
    for command in session.commands:
        words = command.words
        target = None
        if ">" in words:
            at = words.index(">")
            words, target = words[:at], words[at + 1]
        if not words or words[0] != "pbem":
            failures.append(f"{session.doc}:{command.line}: only pbem commands are run "
                            f"here: {command.text}")
            continue
        result = runner.invoke(main, words[1:], prog_name="pbem", catch_exceptions=False)
        if target is not None:
            Path(target).write_text(result.stdout, encoding="utf-8")
        output = result.stderr if target is not None else result.output
        problem = mismatch(command.expected, output)
        if result.exit_code != 0 and not any(line.strip() for line in command.expected):
            problem = f"exit {result.exit_code} and the guide shows no error"
        if problem:
            failures.append(f"{session.doc}:{command.line}: $ {shlex.join(words)}\n{problem}"
                            f"\n--- output ---\n{output}")
    return failures



# -- the players' guide by mail (help, help <part>) --------------------------------------

#: The whole mail of a compact-mode answer (text, HTML and headers), as tests/test_mail_size.py
COMPACT_LIMIT = 8_000


def test_the_guide_parts_are_the_ones_help_accepts() -> None:
    assert guide.part_names() == list(GUIDE_PARTS)
    assert not set(GUIDE_PARTS) & set(HELP_TOPICS), "a part would hide a command's help"


def test_help_lists_the_parts_of_the_guide(built: dict[str, Path], tmp_path: Path) -> None:
    game = Position(built["1830-stock"], tmp_path)
    game.send("Cat", "help")
    text = game.to("Cat", game.new_mail())[0].text.replace("\r\n", "\n")
    listed = " ".join(text.split("The players' guide, in parts:")[1].split("\n\n")[0].split())
    assert listed == ", ".join(f"help {name}" for name in GUIDE_PARTS) + "."


def test_help_sends_each_part_of_the_guide_in_a_compact_mail(built: dict[str, Path],
                                                            tmp_path: Path) -> None:
    game = Position(built["1830-stock"], tmp_path)
    game.send("Cat", "mail compact")
    game.new_mail()
    for name, part in guide.parts().items():
        assert all(len(line) <= 78 for line in part.text.splitlines()), name
        assert "<!--" not in part.text and "```" not in part.text, name
        game.send("Cat", f"help {name}")
        (mail,) = game.to("Cat", game.new_mail())
        assert part.text.strip() in mail.text.replace("\r\n", "\n"), name
        assert len(mail.message.as_bytes()) <= COMPACT_LIMIT, (name, len(mail.message.as_bytes()))


def test_the_generated_parts_of_the_guides_are_up_to_date() -> None:
    """The mail help's summary in the players' guide; every option of both games, in one
    line each, in the referee's (tools/make_command_docs.py)."""
    module = load_tool("make_command_docs")
    guide_text = module.GUIDE_DOC.read_text(encoding="utf-8")
    assert guide_text == module.render(guide_text, module.GUIDE_DOC, module.GUIDE_PARTS), \
        "run: python tools/make_command_docs.py"
    written = module.REFEREE_DOC.read_text(encoding="utf-8")
    assert written == module.render(written, module.REFEREE_DOC, module.OPTION_PARTS), \
        "run: python tools/make_command_docs.py"
    for title in ("1830", "1870"):
        for key in load_title(title).options:
            assert f"| `{key}` |" in written, (title, key)
