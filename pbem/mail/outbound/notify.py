"""Who hears what after a mail changed a game: "your turn", updates, digests, talk,
game over, and the referee's requests. Everything is queued in the outbox of the
caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.state import GameState
from ...render.recent import RECENT_LIMIT, quiet, since_last_turn, visible_to
from ...render.tables import holdings_text, round_key
from ...store import Store
from ..config import MailConfig
from .compose import Outgoing, queue_mail, subject_for
from .templates import shorten, wrap_paragraph
from .views import (
    GameView,
    StateViews,
    history_text,
    thread_key,
)


@dataclass(frozen=True)
class Talk:
    """Table talk of one mail: to everybody, or only to the players named."""

    speaker: str
    text: str
    to: tuple[str, ...] = ()


@dataclass(frozen=True)
class Notice:
    """A short mail about the running of the game (an absence, a referee's change, a
    passed deadline, an undo request): ``to`` names seats, ``REFEREE`` for the referee
    and ``EVERYONE`` for every player and the referee."""

    subject: str  # after the game's tag
    lines: tuple[str, ...]
    to: tuple[str, ...]
    but: tuple[str, ...] = ()  # seats left out (a new player: his welcome says it)


EVERYONE = "*"
TO_REFEREE = "referee"


@dataclass
class Activity:
    """What one mail did, as the other players hear of it."""

    game_id: int
    player: str  # the sender ("" when nobody sent it: the clock)
    happened: list[str] = field(default_factory=list)  # the game's changes, as log lines
    talk: list[Talk] = field(default_factory=list)
    undo_requests: list[str] = field(default_factory=list)
    changed: bool = False
    notices: list[Notice] = field(default_factory=list)
    turns_only: bool = False  # only "your turn" mails (the notices told the others)
    #: lines for a player's next mail (a standing order of his dropped); a player who
    #: gets no other mail gets them alone
    notes: dict[str, list[str]] = field(default_factory=dict)


NOTIFY_PHRASES = {"every": "after every move", "round": "once a round", "turn": "on your turns"}


def board_block(view: GameView) -> str:
    return f"The game now ({view.round}):\n\n{view.board}\n\nStock market:\n{view.market}\n"


def board_section(views: StateViews, player: dict[str, Any],
                  view: GameView | None = None) -> str:
    """The game in a mail to ``player``: all of it (mail full: holdings of everybody,
    market, map), or his own holdings (mail compact; ``show`` sends the rest)."""
    name = player["name"]
    if player.get("mail") == "compact":
        return (f"Your holdings:\n{holdings_text(views.state, name)}\n"
                '(Write "show" for the board, the market and the map.)\n')
    return board_block(view or views.view(name))


def prompt_block(view: GameView) -> str:
    if not view.prompt:
        return ""
    return "What you can do now:\n" + view.prompt + "\n"


def greeting(player: dict[str, Any]) -> str:
    """The name a mail greets: the seat's, or who plays it for the seat."""
    person = player.get("person")
    return f"{person} (seat {player['name']})" if person else str(player["name"])


def deadline_block(views: StateViews, player: dict[str, Any]) -> str:
    """The "Deadlines:" section of a mail to ``player`` ("" when the game has none)."""
    if views.deadlines is None:
        return ""
    viewer = None if player.get("seat", 0) < 0 else player["name"]
    lines = views.deadlines.lines(viewer, player.get("tz"))
    if not lines:
        return ""
    body = "\n".join(wrap_paragraph(line, indent="  ") for line in lines)
    return f"Deadlines:\n{body}\n"


def game_mail(config: MailConfig, game: dict[str, Any], player: dict[str, Any],
              views: StateViews, template: str, purpose: str, values: dict[str, object],
              subject: str | None = None) -> Outgoing:
    """A mail of ``game`` to ``player`` about the game in ``views``, in the thread of its
    current round; it says the deadlines as they stand."""
    base: dict[str, object] = {"player": greeting(player), "title": game["title"],
                               "game": game["id"], "round": views.round,
                               "service_name": config.name,
                               "deadline_section": deadline_block(views, player)}
    base.update(values)
    return Outgoing(
        recipient=player["email"], template=template, values=base,
        subject=subject or subject_for(game["title"], game["id"], views.situation),
        purpose=purpose, game_id=game["id"], thread=thread_key(views.state),
        picture=player.get("picture", "on") != "off",
        reply_for=player if player["key_hash"] else None,
    )


def happened_block(lines: Sequence[str], title: str = "What happened:") -> str:
    if not lines:
        return ""
    body = "\n".join(wrap_paragraph(line, indent="  ") for line in lines)
    return f"{title}\n{body}\n"


SINCE_TITLE = "Since your last turn:"
#: Where a player finds what the recap leaves out of a long absence.
MORE_HINT = 'the command "history 50" lists the last 50 moves'


#: Lines of "Since your last turn" in a compact mail (a full one: RECENT_LIMIT).
COMPACT_RECENT = 24


def recent_lines(events: Sequence[dict[str, Any]], player: str | dict[str, Any]) -> list[str]:
    """What happened since the player's last turn (pbem.render.recent), bounded: fewer
    lines for a player who chose compact mail; ``events``: every stored event of the game
    (``store.events``); ``player``: his row (or his name)."""
    row = player if isinstance(player, dict) else {"name": player}
    limit = COMPACT_RECENT if row.get("mail") == "compact" else RECENT_LIMIT
    return since_last_turn(events, row["name"], limit=limit, more=MORE_HINT)


def since_block(lines: Sequence[str]) -> str:
    return happened_block(lines, SINCE_TITLE)


def notify_others(store: Store, config: MailConfig, before: GameState, after: GameState,
                  run: Activity, now: str, views: StateViews | None = None,
                  events: Sequence[dict[str, Any]] | None = None) -> None:
    """Queue the mails the other players get after ``run`` (the sender gets the reply),
    all rendered from ``after`` (``views``: its renderings, made once; ``events``: every
    stored event of the game, facts unread, when the caller has them: MailTurn.recorded)."""
    views = views or StateViews(after)
    game = store.game(run.game_id)
    # a seat the referee removed is played by the service: its player hears no more
    players = [p for p in store.players(run.game_id) if p.get("status") != "kicked"]
    if run.talk:
        _talk(store, config, game, players, views, run, now)
    if run.undo_requests:
        _undo_request(store, config, game, after, run, now)
    for notice in run.notices:
        queue_notice(store, config, game, players, views, notice, now, skip=run.player)
    if not run.changed:
        return
    if events is None:
        events = store.events(run.game_id, facts=False)  # the recaps read no facts
    if after.finished:
        for player in players:
            recent = [] if player["name"] == run.player else recent_lines(events, player)
            queue_mail(store, config, game_over_mail(config, game, player, after, run, recent,
                                                     views), now)
        return
    new_round = round_key(before) != round_key(after)
    for player in players:
        if player["name"] == run.player:
            continue
        out = _for_player(store, config, game, player, views, run, new_round,
                          recent_lines(events, player))
        notes = run.notes.get(player["name"], [])
        if out is not None:
            out.values["notes_section"] = notes_block(notes)
        elif notes:
            out = game_mail(config, game, player, views, "player-order-dropped.txt", "order",
                            {"notes_section": notes_block(notes)},
                            subject_for(game["title"], game["id"],
                                        "Your standing order is dropped"))
        if out is not None:
            queue_mail(store, config, out, now)


def notes_block(notes: Sequence[str]) -> str:
    return "\n".join(wrap_paragraph(note) for note in notes) + "\n" if notes else ""


def _for_player(store: Store, config: MailConfig, game: dict[str, Any], player: dict[str, Any],
                views: StateViews, run: Activity, new_round: bool,
                recent: list[str]) -> Outgoing | None:
    """The mail ``player`` gets after ``run``, if any. ``recent``: what happened since
    his last turn, which takes the place of the mail's own events (they are its end):
    under the commands of a "your turn" (where the renderer puts it), at the top of an
    update. A round digest stays as it is."""
    name = player["name"]
    waiting = views.waiting
    if run.turns_only and name not in waiting:
        return None
    if name in waiting:
        return your_turn_mail(config, game, player, views, recent)
    mode = player["notify"]
    if mode == "every" or (mode == "round" and new_round):
        happened = (since_block(recent) if mode == "every" else
                    happened_block(round_digest(store, run.game_id, name),
                                   "What happened this round:"))
        return game_mail(config, game, player, views, "player-update.txt", "upd", {
            "waiting": ", ".join(waiting) or "nobody",
            "notify_mode": NOTIFY_PHRASES[mode],
            "happened_section": happened,
            "board_section": board_section(views, player)})
    return None


def your_turn_mail(config: MailConfig, game: dict[str, Any], player: dict[str, Any],
                   views: StateViews, recent: Sequence[str]) -> Outgoing:
    """The "your turn" mail: the commands, what happened since the player's last turn
    (``recent``, under the commands where the prompt shows it), and the game (all of it,
    or his holdings in a compact mail)."""
    view = views.view(player["name"], recent)
    shown = SINCE_TITLE in view.prompt  # not when there are no commands to show
    return game_mail(config, game, player, views, "player-your-turn.txt", "turn", {
        "happened_section": "" if shown else since_block(recent),
        "prompt_section": prompt_block(view),
        "board_section": board_section(views, player, view)})


def round_digest(store: Store, game_id: int, viewer: str | None = None) -> list[str]:
    """The log of the events since the round before the current one began, as ``viewer``
    may see them."""
    events = [e for e in store.effective_events(game_id) if visible_to(e, viewer)]
    starts = [i for i, e in enumerate(events)
              if any(f.get("f") == "round_new" for f in e["facts"])]
    first = starts[-2] + 1 if len(starts) >= 2 else 0
    lines: list[str] = []
    for event in events[first:]:
        if quiet(event):
            continue
        lines.append(f"{event['actor'] or '-'}: {event['text']}")
        lines.extend(f"      {line}" for line in event["log"])
    return lines


def queue_notice(store: Store, config: MailConfig, game: dict[str, Any],
                 players: list[dict[str, Any]], views: StateViews, notice: Notice,
                 now: str, skip: str = "") -> None:
    """One short mail per recipient of ``notice`` (but ``skip``, the sender: his answer
    says it)."""
    for player in notice_recipients(game, players, notice.to):
        if player["name"] in (skip, *notice.but):
            continue
        out = game_mail(config, game, player, views, "game-notice.txt", "note",
                        {"notice_section": "\n".join(wrap_paragraph(line)
                                                       for line in notice.lines) + "\n"},
                        subject_for(game["title"], game["id"], notice.subject))
        queue_mail(store, config, out, now)


def notice_recipients(game: dict[str, Any], players: list[dict[str, Any]],
                      names: Sequence[str]) -> list[dict[str, Any]]:
    """The players (and the referee, as a player-like dict) a notice goes to, each once."""
    wanted = {n.casefold() for n in names}
    everyone = EVERYONE in wanted
    chosen = [p for p in players if (everyone or p["name"].casefold() in wanted)
              and p.get("status") != "kicked"]
    referee = referee_recipient(game)
    if referee is not None and (everyone or TO_REFEREE in wanted):
        chosen.append(referee)
    return chosen


def tell_referee(store: Store, config: MailConfig, game: dict[str, Any], subject: str,
                 lines: list[str], now: str) -> None:
    """A short mail to the game's referee (none without one): dead letters, rejected
    mails, a policy that could not finish."""
    referee = referee_recipient(game)
    if referee is None:
        return
    text = "\n".join(wrap_paragraph(line) for line in lines) + "\n"
    out = Outgoing(recipient=referee["email"], template="game-notice.txt",
                   values={"player": "referee", "title": game["title"], "game": game["id"],
                           "service_name": config.name, "notice_section": text,
                           "deadline_section": ""},
                   subject=subject_for(game["title"], game["id"], subject), purpose="ref",
                   game_id=game["id"])
    queue_mail(store, config, out, now)


def referee_recipient(game: dict[str, Any]) -> dict[str, Any] | None:
    """The game's referee as a recipient (seat -1), or None without one."""
    if not game.get("referee"):
        return None
    return {"game_id": game["id"], "seat": -1, "name": TO_REFEREE, "person": None,
            "email": game["referee"], "key_hash": game.get("referee_key_hash") or "",
            "notify": "every", "status": "playing", "tz": None}


def game_over_mail(config: MailConfig, game: dict[str, Any], player: dict[str, Any],
                   state: GameState, run: Activity, recent: Sequence[str] = (),
                   views: StateViews | None = None) -> Outgoing:
    """The final scores, and what happened since ``player``'s last turn (``recent``;
    without it, as for the player whose mail ended the game, the mail's own events)."""
    views = views or StateViews(state)
    result = state.result or {}
    scores = result.get("scores", {})
    rows = [f"    {name:<12} ${value}" for name, value in
            sorted(scores.items(), key=lambda kv: -kv[1])]
    winners = result.get("winners", [])
    subject_text = "Game over: " + (" and ".join(winners) + (" wins" if len(winners) == 1
                                                              else " win") if winners else "")
    return game_mail(config, game, player, views, "player-game-over.txt", "over", {
        "reason": str(result.get("reason", "")),
        "scores_section": "\n".join(rows),
        "happened_section": since_block(recent) if recent else happened_block(run.happened),
        "board_section": board_section(views, player)},
        subject=subject_for(game["title"], game["id"], subject_text))


def _talk(store: Store, config: MailConfig, game: dict[str, Any], players: list[dict[str, Any]],
          views: StateViews, run: Activity, now: str) -> None:
    """One mail to each player who hears some of the mail's talk (private talk only its
    addressees), and, under the game's option private_talk=referee, a copy of the
    private talk to the referee."""
    for player in players:
        if player["name"] == run.player:
            continue
        heard = [t for t in run.talk if not t.to or player["name"] in t.to]
        if heard:
            queue_mail(store, config, _talk_mail(config, game, player, views, run.player,
                                                 heard), now)
    private = [t for t in run.talk if t.to]
    referee = game.get("referee")
    if private and referee and views.state.options.get("private_talk") == "referee":
        copy = {"name": "the referee", "email": referee, "seat": -1, "key_hash": ""}
        out = _talk_mail(config, game, copy, views, run.player, private)
        out.reply_for = out.reply_to = None  # the referee answers by the command line
        queue_mail(store, config, out, now)


def _talk_mail(config: MailConfig, game: dict[str, Any], player: dict[str, Any],
               views: StateViews, speaker: str, heard: list[Talk]) -> Outgoing:
    private = all(t.to for t in heard)
    says = "says to you" if private and player["seat"] >= 0 else "says"
    subject = subject_for(game["title"], game["id"],
                          f"{speaker} {says}: {shorten(heard[0].text, 40)}")
    text = "\n\n".join(wrap_paragraph(_heard_line(t), indent="    ") for t in heard)
    return game_mail(config, game, player, views, "player-talk.txt", "talk",
                     {"speaker": speaker, "talk_section": text}, subject)


def _heard_line(talk: Talk) -> str:
    return f"(to {', '.join(talk.to)}) {talk.text}" if talk.to else talk.text


def _undo_request(store: Store, config: MailConfig, game: dict[str, Any], state: GameState,
                  run: Activity, now: str) -> None:
    out = Outgoing(
        recipient=game["referee"], template="referee-undo-request.txt",
        values={"player": run.player, "title": game["title"], "game": game["id"],
                "rule": run.undo_requests[0], "service_name": config.name,
                "history_section": history_text(store, game["id"], 10)},
        subject=subject_for(game["title"], game["id"], f"{run.player} asks to undo"),
        purpose="ref", game_id=game["id"], thread=thread_key(state))
    queue_mail(store, config, out, now)
