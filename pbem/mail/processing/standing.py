"""Standing orders by mail: ``auto ...`` (pbem/orders.py). The service decides and
records them (``service.act``, as ``pbem act`` does), so this unit only hands the
command on, for the sender or the player the referee acts for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .units import Action, MailCommand

if TYPE_CHECKING:
    from .turn import MailTurn


def auto(turn: MailTurn, command: str, action: Action, actor: str) -> None:
    turn.play([command], actor)


UNITS = [
    MailCommand("auto", "Any time", "auto pass",
                "standing orders, so a turn costs no mail: auto pass passes in each of "
                "your turns for the rest of this private auction or stock round; auto buy "
                "PRR until 60% (or auto buy PRR pool until 60%) buys one PRR share in each "
                "of your turns of this stock round, if you may, and ends the turn, else "
                "passes; auto cancel ends your order, auto alone shows it. An order acts "
                "only at the start of your turn and only with legal commands; it is "
                "dropped, and you are told, when the round ends, when someone else buys or "
                "sells a share of its corporation, or when your cash no longer covers a "
                "share. A new order replaces the old.", ("auto",), auto,
                also="`auto buy PRR until 60%`, `auto cancel`, `auto`"),
]
