"""Mail size (issue 13): a full your-turn mail at most 80 KB with a map picture of at most
60 KB, a compact one at most 8 KB; the picture left out where the player chose so.
Positions: an early 1830 game played by mail, the dense late 1830 board and the 1870
middle game of the render tests (make bench measures an imported late 1870 game too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mailtable import Table
from positions import late_1830, midgame_1870

from bench.bench_mail_size import your_turn_size
from pbem import service
from pbem.mail.outbound.views import MAIL_LIMIT, MAP_IMAGE_LIMIT

COMPACT_LIMIT = 8_000


def early_1830(tmp_path: Path) -> Table:
    table = Table(tmp_path)
    for name, command in [("Ann", "buy SV"), ("Ben", "buy CS"), ("Cat", "buy DH"),
                          ("Dan", "buy MH"), ("Ann", "buy CA"), ("Ben", "buy BO"),
                          ("Ben", "par B&O 100"), ("Cat", "par PRR 67"), ("Dan", "buy B&O")]:
        assert table.send(name, command).status == "processed"
    return table


@pytest.mark.parametrize("position", ["early 1830", "late 1830", "middle 1870"])
def test_your_turn_mails_are_within_their_limits(position: str, tmp_path: Path) -> None:
    if position == "early 1830":
        table = early_1830(tmp_path)
        state, events = service.load(table.store, table.game), table.store.events(table.game)
    else:
        state, events = (late_1830() if position == "late 1830" else midgame_1870()), []
    viewer = state.names[0]
    full = your_turn_size(state, events, "full", viewer)
    compact = your_turn_size(state, events, "compact", viewer)
    assert full.total <= MAIL_LIMIT and 0 < full.image <= MAP_IMAGE_LIMIT, full
    assert compact.total <= COMPACT_LIMIT and compact.image == 0, compact


def test_compact_and_picture_settings_shape_the_mails(tmp_path: Path) -> None:
    table = early_1830(tmp_path)
    table.send("Ann", "mail compact")
    table.send("Ben", "picture off")
    table.new_mail()
    table.send("Ann", "pass")  # Ann passes: updates for all, Ben's turn
    mails = table.new_mail()
    for mail in mails:
        kinds = [p.get_content_type() for p in mail.message.walk()]
        has_map = "MAP (1830;" in mail.text
        if mail.recipient == "ann@players.test":
            assert "Your holdings:" in mail.text and not has_map and "image/png" not in kinds
            assert len(mail.message.as_bytes()) <= COMPACT_LIMIT
        elif mail.recipient == "ben@players.test":
            assert has_map and "image/png" not in kinds  # the text map, no picture
        else:
            assert has_map and "image/png" in kinds
    table.send("Ann", "show")  # compact: show sends the board, the market and the map
    [shown] = table.to("Ann", table.new_mail())
    assert "MAP (1830;" in shown.text and "Par chart:" in shown.text
