"""One game played in both engines: pbem decides every move (bots pick among its legal
moves), the exporter writes each command as the site's actions, the oracle takes them,
and the two states are compared after every command.

A ``Duel`` holds pbem's state, the exporter (which keeps the site's names: certificate,
train and tile ids) and one oracle game.  ``play`` runs it to the end or to the first
divergence.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from pbem.engine.errors import RulesError
from pbem.engine.facts import CorpClosed
from pbem.engine.game import apply_facts, decide, legal_moves, new_game
from pbem.engine.state import GameState
from pbem.importer.export import Exporter, ExportError
from pbem.importer.options import site_rules
from pbem.notation import format_action

from .defects import closing_late, protection_after_presidency_lost, redemption_list_fails
from .setups import Setup
from .stale import StaleGraph
from .view import (
    ahead,
    differences,
    oracle_view,
    pbem_view,
    settle,
)

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]

#: refusals explained by a defect of the site's engine: the game ends there, uncompared
SITE_DEFECTS = frozenset({"site-stale-graph", "site-redemption-list", "site-closing-late",
                          "site-protection-presidency-lost"})


@dataclass
class Divergence:
    """The first place where the engines part: what was done, and what differs."""

    kind: str  # "refused-by-site", "state", "export", "refused-by-pbem"
    index: int  # the command's number in the game
    command: str
    detail: list[str]
    site_actions: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> str:
        head = f"{self.kind} at command {self.index} ({self.command})"
        return head + "".join(f"\n    {d}" for d in self.detail[:12])


@dataclass
class Outcome:
    setup: Setup
    commands: int = 0
    site_actions: int = 0
    compared: int = 0  # states compared (after every command, once both have settled)
    probes: int = 0  # moves tried in both engines without playing them (players.py)
    finished: bool = False
    reason: str | None = None
    phase: str | None = None
    divergence: Divergence | None = None
    seconds: float = 0.0
    oracle_seconds: float = 0.0
    #: what the game went through (action types, phases, endings): bots.py's reach
    seen: dict[str, int] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)  # the site actions sent
    #: the players' commands in order, [player, action] (formalities left out): what
    #: a ScriptedPlayer (players.py) plays again
    commands_played: list[list[Any]] = field(default_factory=list)

    def see(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1


def connections(auto_actions: list[dict[str, Any]]) -> list[list[str]]:
    """The 1870 connection runs a site action's auto actions start (empty checks left
    out: the site checks after many actions, the exporter writes only where one starts
    or a turn ends)."""
    return [list(a.get("corporations") or []) for a in auto_actions
            if a.get("type") == "destination_connection" and a.get("corporations")]


class Duel:
    """One game of ``setup`` played by ``player`` (players.py) in pbem and the oracle."""

    def __init__(self, oracle: Any, setup: Setup, player: Any) -> None:
        self.oracle = oracle
        self.player = player
        self.rng = random.Random(f"moves-{setup.title}-{setup.seed}")
        names = NAMES[:setup.players]
        self.state: GameState = new_game(setup.title, names, setup.seed, setup.options)
        self.ids = {n: i + 1 for i, n in enumerate(names)}
        game = {"id": setup.seed, "title": setup.title, "options": self.state.options,
                "seed": setup.seed}
        seats = [{"name": n, "seat": i} for i, n in enumerate(names)]
        self.exporter = Exporter(game, seats, self.state.clone())
        self.outcome = Outcome(setup)
        self.players = [{"id": self.ids[n], "name": n} for n in names]
        self.optional_rules = site_rules(setup.title, self.state.options)
        answer = oracle.new(setup.title, self.players, optional_rules=self.optional_rules)
        if not answer.get("ok"):
            raise RuntimeError(f"the oracle cannot start the game: {answer.get('error')}")
        self.site_state = answer["state"]
        self.site_log: list[str] = []  # the oracle's last log lines (for people)
        self.pbem_log: list[str] = []  # pbem's last commands and log lines
        self.written: list[dict[str, Any]] = []  # the site actions of the last command
        self.stale = StaleGraph()  # the site's graph after a company closed (stale.py)
        #: the site actions of the current command and the connection runs each started
        self.connections_made: list[tuple[dict[str, Any], list[list[str]]]] = []
        #: the current step (command and catch-up): pbem's state before it while a price
        #: protection waits, the companies it closed, the site's log lines (defects.py)
        self.step_before: GameState | None = None
        self.closed_now: list[str] = []
        self.step_log: list[str] = []
        self.step_action: dict[str, Any] = {}

    def play(self, limit: int = 4000) -> Outcome:
        started = time.perf_counter()
        out = self.outcome
        while not self.state.finished and out.commands < limit and out.divergence is None \
                and not self.site_gave_up():
            out.divergence = self.step()
        out.finished = self.state.finished
        out.reason = (self.state.result or {}).get("reason")
        if out.divergence is not None and out.divergence.kind in SITE_DEFECTS:
            out.reason, out.divergence = out.divergence.kind, None
        elif self.site_gave_up():
            out.reason = "site-dnf" if self.site_state.get("finished") else "site-stuck"
        out.phase = self.state.phase
        out.seconds = time.perf_counter() - started
        if out.finished:
            out.see(f"end:{out.reason}")
        out.see(f"phase:{self.state.phase}")
        return out

    def site_gave_up(self) -> bool:
        """The site ends a game that reaches its 100th turn (stock round 100) as "did not
        finish" (``Game::Base#process_action``: a guard of its own, no rule), and can
        get stuck: a player to act who has no action, so that it takes none from anybody
        ("No step found"; 1870 seed 1009: the last company of a stock round's remaining
        player closed after the price protection was declined, and the round waits for
        a player who has passed).  The game is left there, not compared."""
        site = self.site_state
        if site.get("finished"):
            return site.get("game_end_reason") == "dnf"
        return bool(site.get("acting")) and site.get("actions") == []

    def document(self) -> dict[str, Any]:
        """The game so far as a reproduction: the setup and the players' commands (a
        ScriptedPlayer plays them again), and the site actions sent as an 18xx.games
        log."""
        setup = self.outcome.setup
        return {"title": setup.title, "players": self.players,
                "settings": {"optional_rules": self.optional_rules, "seed": setup.seed},
                "setup": {"title": setup.title, "players": setup.players, "seed": setup.seed,
                          "optional_rules": list(setup.optional_rules)},
                "commands": self.outcome.commands_played,
                "last_actions": [dict(a) for a in self.written],
                "actions": [dict(a) for a in self.outcome.log]}

    def step(self) -> Divergence | None:
        out = self.outcome
        found = self.player.probe(self)  # moves tried in both engines, not played
        if found is not None:
            return found
        name, action = self.player.choose(self.state, self.rng)
        out.commands += 1
        out.commands_played.append([name, action])
        out.see(action["type"])
        text = f"{name}: {format_action(action)}"
        self.connections_made = []
        rnd = self.state.round
        self.step_before = self.state.clone() if rnd.get("protection") or \
            rnd.get("protection_queue") else None
        self.closed_now, self.step_log, self.step_action = [], [], action
        found = self.command(name, action, text)
        if found is None:
            found = self.catch_up(text)
        return found or self.connections_differ(text) or self.compare(text)

    def connections_differ(self, text: str) -> Divergence | None:
        """The 1870 connection runs the site started after each site action of this
        command against those the exporter wrote there, once pbem has caught up (a turn
        the site ends at its dividend, pbem ends with the president's "done", whose
        connection the exporter writes on the dividend)."""
        for site_action, made in self.connections_made:
            expected = connections(site_action.get("auto_actions") or [])
            if made != expected:
                return Divergence("connection", self.outcome.commands, text,
                                  [f"after {site_action['type']} the site starts the "
                                   f"connection runs of {made or 'nobody'}, pbem of "
                                   f"{expected or 'nobody'}"], self.written)
        return None

    def command(self, name: str, action: dict[str, Any], text: str,
                why: str = "") -> Divergence | None:
        """Decide ``action`` in pbem, write it as site actions, send them to the oracle."""
        out = self.outcome
        before = self.state.clone() if self.stale.stations or \
            action["type"] in ("redeem", "accept") else None
        try:
            decision = decide(self.state, name, action)
        except RulesError as exc:
            kind = "refused-by-pbem" if why else "bot"
            return Divergence(kind, out.commands, text, [f"pbem refuses {why or 'its own move'}"
                                                         f": {exc}"])
        try:
            written = self.exporter.step(name, action, decision.facts)
        except ExportError as exc:
            apply_facts(self.state, decision.facts)
            return Divergence("export", out.commands, text, [str(exc)])
        apply_facts(self.state, decision.facts)
        self.pbem_log = (self.pbem_log + [f"[{name}: {format_action(action)}]"] +
                         decision.log)[-300:]
        self.written = written
        for site_action in written:
            t = time.perf_counter()
            sent = {k: v for k, v in site_action.items() if k != "auto_actions"}
            answer = self.oracle.act(sent, auto="live")
            out.oracle_seconds += time.perf_counter() - t
            out.site_actions += 1
            out.log.append(site_action)
            if not answer.get("ok"):
                kind = self.site_defect(before, name, action, site_action,
                                        str(answer.get("error")))
                return Divergence(kind, out.commands, text,
                                  [f"the site refuses {site_action}: {answer.get('error')}"]
                                  + ([f"(pbem's {why})"] if why else []), written)
            self.stale.sent(site_action)
            self.site_state = answer["state"]
            self.site_log = (self.site_log + answer.get("log", []))[-300:]
            self.step_log += answer.get("log", [])
            self.connections_made.append(
                (site_action, connections(answer.get("auto_actions") or [])))
        self.stale.note(decision.facts)
        self.closed_now += [f.corp for f in decision.facts if isinstance(f, CorpClosed)]
        return None

    def site_defect(self, before: GameState | None, name: str, action: dict[str, Any],
                    site_action: dict[str, Any], error: str) -> str:
        """The kind of a site's refusal: a defect of its engine that explains it
        (stale.py, defects.py), else "refused-by-site"."""
        if before is None:
            return "refused-by-site"
        if self.stale.explains(before, name, action, site_action, error):
            return "site-stale-graph"
        if redemption_list_fails(before, site_action, error):
            return "site-redemption-list"
        return "refused-by-site"

    def catch_up(self, text: str) -> Divergence | None:
        """Do in pbem what the site has done by itself: pass for a stock-round player who
        can only pass, end the turn of a corporation the site has moved on from."""
        for _ in range(12):
            formality = self.formality()
            if formality is None:
                return None
            name, why = formality
            found = self.command(name, {"type": "pass"}, text, why)
            if found is not None:
                return found
        return None

    def formality(self) -> tuple[str, str] | None:
        """(player, why) of the pass pbem still waits for where the site has gone on."""
        state, site = self.state, self.site_state
        if state.finished or self.site_gave_up():
            return None
        rnd = state.round
        acting = site.get("acting") or {}
        if rnd.get("kind") == "stock" and not rnd.get("proposal") and not rnd.get("protection"):
            current = rnd["current"]
            elsewhere = site["round"]["kind"] != "stock" or site["round"]["turn"] != rnd["number"] \
                or site.get("finished")
            # the site went round the table (the others passed) back to him: 1870 seed
            # 7021, Ann's sale ended her turn on the site, then everybody passed
            around = any(line.startswith(f"{n} ") and line.endswith("passes")
                         for line in self.step_log for n in self.ids if n != current)
            if (elsewhere or around or acting != {"type": "player", "id": self.ids[current]}) \
                    and self.exporter.only_pass(current):
                return current, "the pass the site made for a player who can only pass"
        if rnd.get("kind") == "operating" and rnd.get("current") and not any(
                rnd.get(k) for k in ("proposal", "discards", "connection", "protection")):
            corp = rnd["current"]
            here = site["round"]
            moved_on = here["kind"] != "operating" or here.get("number") != rnd["index"] \
                or here.get("turn") != rnd["sr"] or site.get("finished") \
                or str(site.get("step")).startswith("Connection")  # its connection run
            if (moved_on or acting != {"type": "corporation", "id": corp}) and not (
                    acting.get("type") == "player" and site.get("step") == "BuyTrain"):
                president = state.president(corp)
                if president is not None:
                    return president, f"done: the site has ended {corp}'s turn"
        return None

    def certificate_differences(self) -> list[str]:
        """The exporter's site certificate ids against the oracle's (a difference makes
        a later sale or purchase name a certificate the holder does not have)."""
        found = []
        names = {str(i): n for n, i in self.ids.items()}
        for c in self.site_state["corporations"]:
            if self.state.corps[c["id"]].par is None:
                continue
            for share, where in c["certificates"].items():
                if where.startswith("player:"):
                    where = "p:" + names[where.split(":", 1)[1]]
                elif where == "treasury":
                    where = "ipo"
                ours = self.exporter.certs.holder_of(share)
                if ours != where:
                    found.append(f"certificates.{share}: exporter {ours} != site {where}")
        return found

    def acting_detail(self) -> list[str]:
        """What each side offers now (for people reading a divergence of who acts)."""
        moves = legal_moves(self.state)
        offered = {n: sorted({m["action"]["type"] for m in ms}) for n, ms in moves.items()}
        site = self.site_state
        return [f"pbem offers {offered}",
                f"the site offers {site.get('acting')} {site.get('actions')} "
                f"(step {site.get('step')})"]

    def compare(self, text: str) -> Divergence | None:
        if self.site_gave_up():
            return None
        if self.state.round.get("pending_par"):
            return None  # the site sells the next privates with one bid before the par
        state = ahead(self.state, self.site_state)
        ours = settle(pbem_view(state, self.ids), state, self.ids)
        theirs = oracle_view(self.state, self.site_state)
        if self.state.finished and theirs.get("finished"):
            for view in (ours, theirs):  # over in both: pbem may have opened the next
                view.pop("round", None)  # round first (the $400 finish reached in a
                view.pop("acting", None)  # stock round ends the game at the next one)
        found = differences(ours, theirs) + self.certificate_differences()
        if any(f.startswith("acting") for f in found):
            found += self.acting_detail()
        if found and self.step_before is not None and closing_late(
                self.step_before, self.state, self.closed_now, self.step_log):
            return Divergence("site-closing-late", self.outcome.commands, text, found)
        if found and self.step_before is not None and protection_after_presidency_lost(
                self.step_before, self.step_action):
            return Divergence("site-protection-presidency-lost", self.outcome.commands, text,
                              found)
        if found:
            return Divergence("state", self.outcome.commands, text, found, self.written)
        self.outcome.compared += 1
        return None
