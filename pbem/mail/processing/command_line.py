"""Commands given at the command line (``pbem act GAME --as NAME "..."``) carried out
exactly as a mail's: the same units, the same undo rule, the referee's commands, the
game's clock on the record; and, where the mail service is configured, the same mails
to the players (queued in the outbox for ``pbem serve`` or ``pbem send``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.game import REFEREE
from ...engine.state import GameState
from ...service import CommandError
from ...store import Store
from ..config import MailConfig
from ..outbound.notify import notify_others
from .aftermath import send_welcomes, settle
from .turn import MailTurn


@dataclass
class TurnResult:
    lines: list[str] = field(default_factory=list)  # what was done, then the answers
    state: GameState | None = None
    waiting: list[str] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)  # new keys not mailed (no mail config)
    mailed: bool = False


def carry_out(store: Store, game_id: int, actor: str, text: str, *, now: str,
              config: MailConfig | None = None, source: str = "cli") -> TurnResult:
    """All the commands of ``text`` for ``actor`` (a player's name, or ``referee``), all
    or none; CommandError (nothing recorded) when one is refused."""
    player, seat = _seat(store, game_id, actor)
    with store.transaction():
        turn = MailTurn.start(store, game_id, player, seat, source, now)
        commands = turn.split(text)
        if not commands:
            raise CommandError(text.strip(), "There was no command to carry out.", [])
        turn.run(commands)
        views = settle(turn)
        result = TurnResult(turn.results + turn.answers, turn.state, list(views.waiting))
        if config is not None:
            send_welcomes(store, config, turn)
            notify_others(store, config, turn.before, turn.state, turn.activity(), now,
                          views, turn.recorded())
            result.mailed = True
        else:
            result.keys = {seat_name: key for seat_name, (key, _) in turn.welcomes.items()}
    return result


def _seat(store: Store, game_id: int, actor: str) -> tuple[str, int]:
    if actor.casefold() == REFEREE:
        return REFEREE, -1
    for player in store.players(game_id):
        if player["name"].casefold() == actor.casefold():
            return str(player["name"]), int(player["seat"])
    names = ", ".join(p["name"] for p in store.players(game_id))
    raise CommandError(actor, f"There is no player '{actor}' in game #{game_id}; the players "
                       f"are {names} (and the referee).", [])
