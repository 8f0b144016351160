"""One game state per mail (issue 11): a mail is decided on one state, loaded once, and
every recipient's mail is rendered from the states before and after it."""

from __future__ import annotations

from pathlib import Path

import mailtable
import pytest
from mailtable import Table

from pbem import service


def rebuilds_while(table: Table, monkeypatch: pytest.MonkeyPatch, name: str, body: str) -> int:
    """How many times the game is rebuilt from its events while ``body`` is processed
    (every rebuild starts with service.initial)."""
    count = 0
    initial, process = service.initial, mailtable.process_inbox
    active = False

    def counting_initial(*args: object, **kwargs: object) -> object:
        nonlocal count
        count += active
        return initial(*args, **kwargs)  # type: ignore[arg-type]

    def processing(*args: object, **kwargs: object) -> object:
        nonlocal active
        active = True
        try:
            return process(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            active = False

    monkeypatch.setattr(service, "initial", counting_initial)
    monkeypatch.setattr(mailtable, "process_inbox", processing)
    outcome = table.send(name, body)
    assert outcome.status == "processed", outcome
    return count


def test_a_mail_of_several_commands_rebuilds_the_game_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path)
    table.send("Ben", "auto pass")  # Ben's standing order runs inside Ann's mail
    table.new_mail()
    body = "Hi all!\nsay good luck\nbid CA 170\nhistory 5\nshow"
    assert rebuilds_while(table, monkeypatch, "Ann", body) == 1
    mails = table.new_mail()
    assert {m.recipient for m in mails} >= {"ann@players.test", "ben@players.test"}
    assert service.load(table.store, table.game).round["current"] == "Cat"
