"""The mail commands as units: every command the notation reads has a unit with its
help; the mail help and docs/commands.md are made from the units."""

from __future__ import annotations

import pytest
from doctools import ROOT, load_tool

from pbem.mail.processing.catalog import CATALOG
from pbem.mail.processing.units import GROUPS, Catalog, MailCommand
from pbem.notation import HELP_TOPICS, context_for_1830, parse_command
from pbem.notation.lexicon import VERB_OF


def test_every_help_topic_is_a_unit_and_every_unit_a_topic() -> None:
    assert set(CATALOG.by_topic) == set(HELP_TOPICS)


def test_every_verb_reaches_a_unit() -> None:
    assert set(VERB_OF.values()) <= set(CATALOG.by_topic)


@pytest.mark.parametrize("text", ["say hi", "help", "help bid", "show", "history 5",
                                  "notify turn", "undo", "revert to 3", "kick Ann",
                                  "pause", "resume", "deadline 3d",
                                  "replace Ann with new@example.org", "as Ann pass"])
def test_the_mail_commands_are_carried_out_by_their_unit(text: str) -> None:
    action = parse_command(text, context_for_1830("stock", ["Ann", "Ben"]))
    unit = CATALOG.handles(action)
    assert unit is not None and unit.handler is not None


@pytest.mark.parametrize("text", ["buy PRR", "par PRR 82", "pass", "bid CA 170", "run",
                                  "lay 57 H12 SW-NE", "accept"])
def test_game_commands_go_to_the_engine(text: str) -> None:
    action = parse_command(text, context_for_1830("stock", ["Ann", "Ben"]))
    assert CATALOG.handles(action) is None


def test_help_fits_a_mail() -> None:
    texts = [CATALOG.help_text(None)] + [CATALOG.help_text(topic) for topic in HELP_TOPICS]
    for text in texts:
        assert all(len(line) <= 78 for line in text.splitlines()), text
    summary = CATALOG.help_text(None)
    for group in GROUPS:
        assert any(line.startswith(f"{group}:") for line in summary.splitlines())
    assert CATALOG.help_text("bid").startswith("help bid: bid CA 170:")
    assert CATALOG.help_text("no such topic") == summary


def test_a_unit_needs_a_handler_for_the_types_it_names() -> None:
    with pytest.raises(ValueError, match="handler"):
        MailCommand("x", "Any time", "x", "does x", types=("x",))
    with pytest.raises(ValueError, match="group"):
        MailCommand("x", "Sometimes", "x", "does x")
    unit = MailCommand("x", "Any time", "x", "does x")
    with pytest.raises(ValueError, match="two units"):
        Catalog([unit, unit])


def test_docs_commands_is_up_to_date() -> None:
    module = load_tool("make_command_docs")
    written = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert written == module.render(written), "run: python tools/make_command_docs.py"
