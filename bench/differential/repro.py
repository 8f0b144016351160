"""Reproductions: a divergence as the setup and the players' commands up to it (the
shortest prefix of the game that shows it), saved as a small JSON file that
tests/test_differential.py plays again in both engines, compared after every command.

    python -m bench.differential.repro 1870 1 183 tests/data/differential/x.json 0.05 "why"

plays the random game of that title and seed, with the share of probed positions of
the run that found it (the probes draw from the game's random numbers), up to its
command 183 and saves it with a note; the runner saves the same document at each divergence
(bench/.cache/differential/), with the site actions sent besides.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pbem.engine.errors import RulesError
from pbem.engine.game import decide

from .duel import Divergence, Duel
from .players import ScriptedPlayer, new_player
from .probes import KNOWN_DIFFERENCES, known_difference
from .setups import setup_for, setup_of


def replay(oracle: Any, document: dict[str, Any]) -> Divergence | None:
    """Play a reproduction's commands in both engines, compared after every command;
    the last one may be refused, if the site refuses it too (its site actions as they
    were written then, ``last_actions``).  The divergence, or None: they agree.  A last
    command pbem refuses and the site accepts for a reason the probes know
    (probes.KNOWN_DIFFERENCES) is a divergence of kind "known-difference"."""
    given = document["setup"]
    setup = setup_of(given["title"], given["players"], given["seed"],
                     list(given["optional_rules"]))
    commands = document["commands"]
    player = ScriptedPlayer(commands[:-1])
    duel = Duel(oracle, setup, player)
    found = None
    while player.commands and found is None:
        found = duel.step()
    if found is not None:
        return found
    name, action = commands[-1]
    try:
        decide(duel.state, name, action)
    except RulesError as exc:
        site = duel.site_state
        for site_action in document["last_actions"]:
            if not oracle.act(site_action, auto="live").get("ok"):
                return None  # refused by both
        known = known_difference(duel.state, (name, action, document["last_actions"][0]), site)
        return Divergence("known-difference" if known else "refused-by-pbem", len(commands),
                          f"{name}: {action}", [f"pbem refuses: {exc}", "the site accepts "
                                                f"{document['last_actions']}"]
                          + ([f"known: {KNOWN_DIFFERENCES[known]}"] if known else []))
    player.commands.append((name, action))
    return duel.step()


def record(oracle: Any, title: str, seed: int, upto: int, probing: float = 0.05,
           note: str = "") -> dict[str, Any]:
    """The first ``upto`` commands of the random game ``seed`` as a reproduction."""
    duel = Duel(oracle, setup_for(title, seed), new_player(probing))
    duel.play(upto)
    document = duel.document()
    del document["actions"], document["players"], document["settings"]
    document["note"] = note
    return document


def write(document: dict[str, Any], path: Path) -> None:
    """One command a line, so that a reproduction reads (and diffs) well."""
    head = {k: v for k, v in document.items() if k != "commands"}
    lines = ",\n  ".join(json.dumps(c) for c in document["commands"])
    text = json.dumps(head, indent=1)[:-2] + f',\n "commands": [\n  {lines}\n ]\n}}\n'
    json.loads(text)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    from .oracle import start

    title, seed, upto, out = argv[0], int(argv[1]), int(argv[2]), Path(argv[3])
    probing = float(argv[4]) if len(argv) > 4 else 0.05
    note = argv[5] if len(argv) > 5 else ""
    with start() as oracle:
        write(record(oracle, title, seed, upto, probing, note), out)
    print(f"saved {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
