"""Answers to ``help`` and ``help <topic>`` by mail (docs/commands.md has the full text)."""

from __future__ import annotations

TOPICS: dict[str, str] = {
    "bid": "bid CA 170: bid $170 on a private company; in an auction between bidders "
           "just bid 175.",
    "buy": "buy SV (private auction: at its price); buy PRR, buy PRR pool, buy 3 NYC pool "
           "(stock round); buy train, buy train 4 pool (operating round).",
    "pass": "pass (or done): end your turn, or drop out of an auction.",
    "take": "take group 2: 1830 base game, take a private-company group.",
    "par": "par PRR 82: start a corporation at par $82 (BO owner: par B&O 100).",
    "sell": "sell 2 PRR, or sell 2 PRR, 1 NYC (in that order).",
    "sell private": "sell private DH to Bob for 80: Bob must accept.",
    "exchange": "exchange MH: the MH private for an NYC share, also outside your turn.",
    "accept": "accept: agree to an offer made to you.",
    "decline": "decline: refuse an offer made to you.",
    "lay": "lay 57 H12 SW-NE: tile 57 on H12 joining SW and NE; lay 57 H12 when only one "
           "placement fits; lay 25 H14 W-NE/W-SE names the track pair by pair where the "
           "sides alone fit two ways.",
    "token": "token E19, or token G19 2 (the second city of the hex).",
    "run": "run (the best routes), or run 3: H12-I15-J14, 2: E19-F20; run nothing only "
           "when no route earns anything.",
    "payout": "payout: pay the revenue out as dividends.",
    "withhold": "withhold: keep the revenue in the treasury.",
    "half": "half: 1870, pay half and keep half.",
    "buy train": "buy train, buy train 4 pool, buy train D trade 5, "
                 "buy train 3 from NYC for 150.",
    "discard": "discard 3: discard a train over the limit.",
    "buy private": "buy private DH from Alice for 140: Alice must accept.",
    "protect": "protect (or decline): 1870, buy the shares just sold of your company at "
               "the seller's price so its share value does not drop.",
    "redeem": "redeem MP, or redeem MP from Bob: 1870, your whole turn; MP buys back one "
              "of its shares (from the open market while it has one).",
    "reissue": "reissue MP: 1870, your whole turn; MP offers all its redeemed shares at a "
               "new par.",
    "destination": "destination place, or destination keep: 1870 connection run, the "
                   "destination marker to the destination or kept as a $100 station.",
    "port": "port open M20, port closed M20, or port close: 1870, the Gulf Shipping "
            "Company's port.",
    "cattle": "cattle E12: 1870, place the cattle token.",
    "say": "say <text>: table talk, mailed to all players and kept in the history.",
    "help": "help, or help <command>: this help.",
    "show": "show: the board, the market and the holdings now.",
    "history": "history 20: the last 20 events of the game.",
    "notify": "notify every (each move), notify round (one digest a round), notify turn "
              "(only your own turns).",
    "undo": "undo: take back your last command (by the game's undo rule).",
    "referee": "The referee uses the pbem command line: pbem act, pbem undo, pbem audit.",
}
for _referee in ("as", "revert", "replace", "pause", "resume", "deadline", "kick"):
    TOPICS[_referee] = TOPICS["referee"]

GENERAL = """\
Write one command per line at the top of your reply (or several on a line,
separated by ";"). All commands of a mail are carried out together or not at
all. The "your turn" mail lists what you may do now, ready to copy.
Private auction: buy SV, bid CA 170, pass.
Stock round: par PRR 82, buy PRR, buy PRR pool, sell 2 PRR, exchange MH, pass.
Operating round: lay 57 H12 SW-NE, token E19, run, payout, withhold,
buy train, done.
Any time: help <command>, show, history 20, say <text>, undo, accept,
decline, notify every|round|turn, key XXXXXXXX.
A line "end" stops reading."""


def help_text(topic: str | None) -> str:
    if topic and topic in TOPICS:
        return f"help {topic}: {TOPICS[topic]}"
    return GENERAL
