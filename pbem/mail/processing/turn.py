"""One mail's turn at a game: the game state is loaded once, and every command of the
mail is decided on it, in order.

``MailTurn.start`` rebuilds the game from its events (the only rebuild of an
ordinary mail); game commands go to ``service.act`` with that state, which returns
the state after them; the mail commands' units (``catalog.py``) work on it too.
Only an undo rebuilds again (the game goes back to an earlier event). The reply and
every notification are rendered from ``before`` and ``state`` (see process.py).

``run`` raises ``CommandError`` at the first refusal; the caller runs it inside a
savepoint and calls ``rollback``, so a refused mail changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import service
from ...engine.game import REFEREE
from ...engine.state import GameState
from ...notation import NotationError, ParseContext, parse_command, split_commands
from ...notation.lexicon import canonical_verb
from ...service import CommandError
from ...store import Store
from ..outbound.notify import EVERYONE, Activity, Notice, Talk
from .catalog import CATALOG
from .undo import answers_undo
from .units import Action, MailCommand

PAUSED = ("The game is paused by the referee: until it resumes only the referee's "
          "commands are taken (help, show, history, list and say still work); nothing "
          "was done.")


@dataclass
class MailTurn:
    """What one mail does to a game, and what it found."""

    store: Store
    game_id: int
    player: str  # the sender
    seat: int
    source: str  # the mail's Message-ID
    now: str
    before: GameState  # as the mail found the game
    state: GameState  # after what the mail has done so far
    results: list[str] = field(default_factory=list)  # for the sender: what was done
    answers: list[str] = field(default_factory=list)  # for the sender: help, show, ...
    happened: list[str] = field(default_factory=list)  # for the others: the game's changes
    talk: list[Talk] = field(default_factory=list)
    undo_requests: list[str] = field(default_factory=list)
    #: for a player, lines his next mail of this turn carries (a standing order dropped)
    notes: dict[str, list[str]] = field(default_factory=dict)
    new_keys: dict[str, str] = field(default_factory=dict)  # key new: player -> the key
    changed: bool = False  # the game changed (the others hear of it)
    notices: list[Notice] = field(default_factory=list)  # short mails about the running
    announced: list[str] = field(default_factory=list)  # the referee's changes, told to all
    welcomes: dict[str, tuple[str, str]] = field(default_factory=dict)  # seat: (key, summary)
    paused: bool = False  # the game was paused when the mail came
    #: the game's stored events as far as read (``recorded``)
    _recorded: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(cls, store: Store, game_id: int, player: str, seat: int, source: str,
              now: str) -> MailTurn:
        before = service.load(store, game_id)
        paused = store.game(game_id)["status"] == "paused"
        return cls(store, game_id, player, seat, source, now, before, before.clone(),
                   paused=paused)

    @property
    def by_referee(self) -> bool:
        """The sender is the game's referee (not a seat)."""
        return self.player == REFEREE

    def sender_address(self) -> str:
        """The sender's address of record (the referee's for the referee)."""
        if self.by_referee:
            return str(self.store.game(self.game_id).get("referee") or "")
        return str(self.store.player(self.game_id, self.seat)["email"])

    def sender_tz(self) -> str | None:
        if self.by_referee:
            return None
        return self.store.player(self.game_id, self.seat).get("tz")

    def check_open(self, command: str) -> None:
        """Refuse a command that changes the game while the referee has paused it."""
        if self.paused and not self.by_referee:
            raise CommandError(command, PAUSED, [])

    def announce(self, *lines: str) -> None:
        """Tell every player and the referee what the referee changed (each line a
        sentence beginning "The referee")."""
        self.announced.extend(lines)

    @property
    def context(self) -> ParseContext:
        return service.parse_context(self.state)

    def split(self, text: str) -> list[str]:
        """The commands of the text, one per item (lines, and ';' within a line)."""
        return [command for _, command in split_commands(text, self.context)]

    def greetings(self, commands: list[str]) -> tuple[list[str], list[str]]:
        """(the lines before the first command that are plainly not commands, the rest).

        ``Hi all!`` above ``bid CA 170`` is a greeting, not a refused command: a line
        counts as one when it is not understood and its first word is no command,
        not even misspelt (``biid CA 170`` is a command, refused with a hint)."""
        ctx = self.context
        for index, command in enumerate(commands):
            if not _plainly_not_a_command(command, ctx):
                return commands[:index], commands[index:]
        return list(commands), []

    def run(self, commands: list[str]) -> None:
        """Carry out the commands in order: runs of game commands at once through
        ``service.act``, the others by their units. Raises CommandError at the first
        refusal."""
        batch: list[str] = []
        for command in commands:
            action = self._mail_action(command)
            if action is None:
                self.check_open(command)
                batch.append(command)
                continue
            self.play(batch)
            batch = []
            unit = CATALOG.handles(action)
            assert unit is not None and unit.handler is not None
            if unit.changes_game:
                self.check_open(command)
            unit.handler(self, command, action, self.player)
        self.play(batch)

    def _mail_action(self, command: str) -> Action | None:
        """The action of a command a unit carries out, else None (game commands are read
        by ``service.act`` in the state they apply to)."""
        try:
            action = parse_command(command, self.context)
        except NotationError:
            return None
        if answers_undo(self, action, self.player):
            return {"type": "undo_answer", "answer": action["type"]}
        return action if CATALOG.handles(action) is not None else None

    def unit_for(self, action: Action) -> MailCommand | None:
        """The mail command's unit that carries ``action`` out (None: a game command)."""
        return CATALOG.handles(action)

    def play(self, batch: list[str], actor: str | None = None) -> None:
        """Game commands (and standing orders), decided on the current state and
        recorded; then the standing orders that are due are carried out."""
        if not batch:
            return
        actor = actor or self.player
        result = service.act(self.store, self.game_id, actor, "\n".join(batch),
                             source=self.source, now=self.now, state=self.state)
        assert result.state is not None
        self.state = result.state
        self.answers.extend(result.answers)
        for applied in result.applied:
            if applied.kind != "command":  # a standing order set, cancelled or dropped
                if applied.actor == actor and not applied.auto:
                    self.results.append(f"[{applied.seq}] {applied.text}")
                    self.results.extend(f"      {line}" for line in applied.log)
                continue
            self.changed = True
            who = "" if applied.actor == actor and not applied.auto else f"{applied.actor}: "
            self.results.append(f"[{applied.seq}] {who}{applied.text}")
            self.results.extend(f"      {line}" for line in applied.log)
            self.happened.append(f"{applied.actor}: {applied.text}")
            self.happened.extend(f"      {line}" for line in applied.log)
        for drop in result.drops:
            self.notes.setdefault(drop.order.player, []).append(drop.note)

    def recorded(self) -> list[dict[str, Any]]:
        """Every stored event of the game in seq order, reverts included, their facts
        left unread (``Store.events(facts=False)``): read once per mail, later calls
        read only the events recorded since (the record only grows)."""
        after = self._recorded[-1]["seq"] if self._recorded else 0
        self._recorded.extend(self.store.events(self.game_id, after=after, facts=False))
        return self._recorded

    def reload(self) -> None:
        """Rebuild the state from the store (after an undo took the game back)."""
        self.state = service.load(self.store, self.game_id)

    def rollback(self) -> None:
        """After a refusal (the savepoint undid every write): the game as it was, and
        only the answers (help, show ...) kept for the reply."""
        answers = self.answers
        fresh = MailTurn(self.store, self.game_id, self.player, self.seat, self.source,
                         self.now, self.before, self.before.clone(), paused=self.paused)
        self.__dict__.update(fresh.__dict__)
        self.answers = answers

    def activity(self) -> Activity:
        """What the other players hear of this mail."""
        notices = list(self.notices)
        if self.announced:
            subject = self.announced[0].split(":")[0].rstrip(".")
            notices.insert(0, Notice(_short(subject), tuple(self.announced), (EVERYONE,),
                                     tuple(self.welcomes)))
        return Activity(self.game_id, self.player, list(self.happened), list(self.talk),
                        list(self.undo_requests), self.changed, notices,
                        notes={name: list(lines) for name, lines in self.notes.items()
                               if name != self.player})


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 3].rsplit(" ", 1)[0] + "..."


def _plainly_not_a_command(line: str, ctx: ParseContext) -> bool:
    try:
        parse_command(line, ctx)
    except NotationError:
        first = line.split(maxsplit=1)[0].strip(".,:;!?") if line.split() else ""
        return canonical_verb(first, fuzzy=True) is None and first.lower() not in ("as", "say")
    return False
