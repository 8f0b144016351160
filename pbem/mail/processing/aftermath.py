"""After a mail's (or a CLI call's, or a timer's) commands, in the same transaction: the
game's clock on the record, the views every mail of the turn is rendered from, and the
welcome mails of players who took a seat over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...moderation import undo as undo_rules
from ...moderation.clock import reschedule, schedule_of
from ...moderation.describe import DeadlineView
from ...moderation.timecalc import parse_moment
from ...store import Store, effective
from ..config import MailConfig
from ..outbound.notify import Notice
from ..outbound.views import StateViews
from ..outbound.welcome import queue_welcome

if TYPE_CHECKING:
    from .turn import MailTurn


def settle(turn: MailTurn) -> StateViews:
    """Record who must act by when now (if that changed), end the undo requests the game
    moved past, and return the views of the game as the turn left it."""
    store, game_id = turn.store, turn.game_id
    schedule = schedule_of(store, game_id)
    events, last = effective(turn.recorded()), store.last_seq(game_id)  # no facts needed
    lapsed = undo_rules.lapse(store, game_id, schedule, events, source=turn.source,
                              now=turn.now)
    for name, lines in lapsed.tell.items():
        turn.notices.append(Notice("An undo request has lapsed", tuple(lines), (name,)))
    unchanged = store.last_seq(game_id) == last  # the record only grows: read it once
    schedule = reschedule(store, game_id, turn.state, turn.now, turn.source, schedule,
                          events=events if unchanged else None)
    return StateViews(turn.state, DeadlineView(schedule, parse_moment(turn.now)))


def send_welcomes(store: Store, config: MailConfig, turn: MailTurn) -> None:
    """The welcome mail (a new key, the game so far) of each player who took a seat
    over in this turn."""
    for seat, (key, summary) in turn.welcomes.items():
        queue_welcome(store, config, turn.game_id, {seat: key}, turn.now,
                      takeover={seat: summary})
