"""An 18xx.games game log: players, settings, and the actions in effect.

The file format is described in the fixtures' README (../shared/fixtures/README.md
in the project's workspace): ``actions`` holds every action ever submitted,
including the ones later taken back by ``undo``; ``effective_actions`` resolves
undo and redo exactly as the site does and flattens each action's ``auto_actions``
right after it.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SiteAction = dict[str, Any]

#: Types that change nothing in the game (their effects, if any, are auto actions).
INERT_TYPES = frozenset({"program_buy_shares", "program_share_pass", "program_disable",
                         "program_close_pass", "program_independent_mines",
                         "program_harzbahn_draft_pass", "program_merger_pass", "log"})
CHAT_TYPES = frozenset({"message", "log"})


class LogError(Exception):
    """The file is not a usable 18xx.games log."""


@dataclass(frozen=True)
class SitePlayer:
    key: str  # the id as a string, or the name when players have no id
    name: str


@dataclass
class SiteLog:
    title: str
    players: list[SitePlayer]
    optional_rules: list[str]
    actions: list[SiteAction]
    result: dict[str, int]
    end_reason: str | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    def result_by_key(self) -> dict[str, int]:
        """``result`` keyed by player key, whether the file keys it by id or by name."""
        by_name = {p.name: p.key for p in self.players}
        return {by_name.get(k, k): int(v) for k, v in self.result.items()}


def read_log(path: str | Path) -> SiteLog:
    with open(path, encoding="utf-8") as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as exc:
            raise LogError(f"{path} is not JSON: {exc}") from None
    return parse_log(data)


def parse_log(data: dict[str, Any]) -> SiteLog:
    if not isinstance(data, dict) or "actions" not in data or "players" not in data:
        raise LogError("not an 18xx.games game export (it needs 'players' and 'actions')")
    players = [SitePlayer(str(p["id"]) if p.get("id") is not None else str(p["name"]),
                          str(p.get("name", p.get("id"))))
               for p in data["players"]]
    settings = data.get("settings") or {}
    return SiteLog(
        title=str(data.get("title", "")),
        players=players,
        optional_rules=list(settings.get("optional_rules") or []),
        actions=list(data["actions"]),
        result={str(k): int(v) for k, v in (data.get("result") or {}).items()},
        end_reason=data.get("game_end_reason"),
        raw=data,
    )


def effective_actions(actions: list[SiteAction]) -> list[SiteAction]:
    """The actions in effect, in file order (undo/redo resolved as the site does)."""
    effective: list[int] = []  # positions in ``actions``
    undone: list[list[int]] = []
    ids = {a.get("id"): i for i, a in enumerate(actions)}
    for pos, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            if target is None:  # the last action in effect that is not a chat message
                last = next((i for i in reversed(effective)
                             if actions[i].get("type") not in CHAT_TYPES), None)
                if last is None:
                    raise LogError(f"action {action.get('id')}: undo with nothing to undo")
                effective.remove(last)
                group = [last]
            else:
                if target != 0 and target not in ids:
                    raise LogError(f"action {action.get('id')}: undo to unknown action {target}")
                # ``effective`` is in file order: the actions after the target are its end
                cut = bisect_right(effective, -1 if target == 0 else ids[target])
                group = [i for i in effective[cut:] if actions[i].get("type") not in CHAT_TYPES]
                effective[cut:] = [i for i in effective[cut:]
                                   if actions[i].get("type") in CHAT_TYPES]
            undone.append(group)
        elif kind == "redo":
            if not undone:
                raise LogError(f"action {action.get('id')}: redo with nothing to redo")
            effective = sorted(effective + undone.pop())
        else:
            effective.append(pos)
            if kind not in CHAT_TYPES:
                undone.clear()
    return [actions[i] for i in effective]


def flatten(actions: list[SiteAction]) -> list[SiteAction]:
    """Each action followed by its auto actions; an auto action carries its parent's id
    under ``parent`` (auto actions have no id of their own)."""
    flat: list[SiteAction] = []
    for action in actions:
        flat.append(action)
        for auto in action.get("auto_actions") or []:
            flat.append({**auto, "parent": action.get("id"), "auto": True})
    return flat
