"""The actions the engine decides: plain dicts with a "type" key.

This module is the contract between the command language (pbem.notation), which
turns what players type into these dicts and prints them back canonically, and
the engine (pbem.engine), which decides them.  Every action is JSON-serialisable.

Symbols are always canonical: corporations by their title symbol ("PRR", "B&O",
"NYNH", "ERIE"), private companies by their symbol ("SV", "CS", "DH", "MH",
"CA", "BO"), players by their name as registered, hexes as "H12", hex sides as
"SW", "W", "NW", "NE", "E", "SE".

Private auction:
  {"type": "buy_private"}                                 buy          (cheapest private)
  {"type": "buy_private", "private": "SV"}                buy SV
  {"type": "bid", "private": "CS", "amount": 45}          bid CS 45
  {"type": "bid", "private": None, "amount": 175}         bid 175      (in an auction)
  {"type": "pass"}                                        pass
Private companies in groups (a title's first round, option privates=groups):
  {"type": "bid", "private": None, "amount": 30}          bid 30       (for the first choice)
  {"type": "take_group", "group": 2}                      take group 2

Stock round (rules 4-5):
  {"type": "par", "corp": "PRR", "price": 82}             par PRR 82
  {"type": "buy_share", "corp": "PRR", "source": None, "count": 1}
                                                          buy PRR      (engine picks: IPO)
  {"type": "buy_share", "corp": "PRR", "source": "pool", "count": 1}   buy PRR pool
  {"type": "buy_share", "corp": "NYC", "source": "ipo", "count": 1}    buy NYC ipo
  {"type": "buy_share", "corp": "NYC", "source": "pool", "count": 3}   buy 3 NYC pool
  {"type": "sell", "sales": [{"corp": "PRR", "count": 2}, {"corp": "NYC", "count": 1}]}
                                                          sell 2 PRR, 1 NYC  (in that order)
  {"type": "exchange", "private": "MH"}                   exchange MH
  {"type": "sell_private", "private": "DH", "to": "Bob", "price": 80}
                                                          sell private DH to Bob for 80
  {"type": "accept"} / {"type": "decline"}                accept / decline (a pending proposal)
  {"type": "pass"}                                        pass   (also "done": ends the turn)

Operating round (issue 3; listed so the language is complete):
  {"type": "lay", "tile": "57", "hex": "H12", "exits": ["SW", "NE"] | None, "with": None | "CS"}
  {"type": "lay", ..., "paths": [["W", "NE"], ["W", "SE"]]}   lay 25 H14 W-NE/W-SE (the track)
  {"type": "token", "hex": "G19", "city": 2 | None, "with": None | "DH"}
  {"type": "run", "routes": None | [{"train": "3", "stops": ["H12", "I15", "J14"]}]}
  {"type": "run", "routes": []}                           run nothing
  {"type": "payout"} / {"type": "withhold"} / {"type": "half"}
  {"type": "buy_train", "train": None | "4" | "D", "source": None | "bank" | "pool" | "NYC",
   "price": None | 150, "trade": None | "5"}
  {"type": "discard", "train": "3"}
  {"type": "bankrupt"}                                    bankrupt (a president who cannot raise
                                                          the money for a forced train purchase)
  {"type": "buy_private", "private": "DH", "from": "Alice", "price": 140}
                                                          buy private DH from Alice for 140
  {"type": "pass"}                                        done / pass
  {"type": "repay", "corp": "NYC"}                        repay NYC first (a title's loans: the
                                                          administrator's order of repayment)

Titles with redemption, price protection, connection runs and tokens on the map:
  {"type": "protect", "corp": None | "MP"} / {"type": "decline"}   (a price-protection offer)
  {"type": "redeem", "corp": "MP"}                        redeem MP (from the open market)
  {"type": "redeem", "corp": "MP", "from": "Bob"}         redeem MP from Bob (Bob answers)
  {"type": "reissue", "corp": "MP"}                       reissue MP
  {"type": "destination", "marker": "place" | "keep"}     destination place / keep
  {"type": "port", ...}, {"type": "cattle", "hex": "E12"} (see pbem.notation.operating)

Referee (actor "referee"; issue 7):
  {"type": "end_game"}                                    end game (now, scored as it stands)
  {"type": "as", "player": "Alice", "action": {...}}      as Alice <command>

Any time (handled by the service, not the engine's turn order):
  {"type": "say", "text": "..."}, {"type": "help", "topic": None | "bid"}, {"type": "show"},
  {"type": "history", "count": 20}, {"type": "notify", "mode": "every" | "round" | "turn"},
  {"type": "undo"}
"""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]

#: Action types the engine decides (the rest are service-level).
ENGINE_TYPES = frozenset(
    {
        "buy_private", "bid", "pass", "par", "buy_share", "sell", "exchange",
        "sell_private", "accept", "decline", "lay", "token", "run", "payout",
        "withhold", "half", "buy_train", "discard", "bankrupt", "protect", "redeem",
        "reissue", "destination", "port", "cattle", "end_game", "as", "take_group",
        "repay",
    }
)
