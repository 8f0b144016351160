"""The game commands as units: their help. The engine decides them (``service.act``),
so they have no handler here; docs/commands.md has every spelling they accept."""

from __future__ import annotations

from .units import MailCommand

AUCTION, STOCK, OPERATING = "Private auction", "Stock round", "Operating round"

UNITS = [
    MailCommand("bid", AUCTION, "bid CA 170",
                "bid $170 on a private company; in an auction between bidders just bid 175."),
    MailCommand("take", AUCTION, "take group 2",
                "1830 base game: take a private-company group.", listed=False),
    MailCommand("par", STOCK, "par PRR 82",
                "start a corporation at par $82 (the president's certificate; the B&O "
                "private's owner: par B&O 100, without paying)."),
    MailCommand("buy", STOCK, "buy PRR",
                "buy SV in the private auction buys that private at its price (buy alone: "
                "the cheapest); in a stock round buy PRR buys one share from the initial "
                "offering, buy PRR pool one from the bank pool, buy 3 NYC pool several in the "
                "brown zone, buy ERIE 20% the Erie's extra 20% certificate (1830 option "
                "erie_20); a buy ends your turn unless you may still sell (in 1830 from stock "
                "round 2): then done ends it, so buy PRR; done is one turn in one mail (the "
                "your-turn mail shows which).",
                elsewhere=((AUCTION, "buy SV"), (STOCK, "buy PRR pool"))),
    MailCommand("sell", STOCK, "sell 2 PRR",
                "sell shares: sell 2 PRR, or sell 2 PRR, 1 NYC (in that order)."),
    MailCommand("sell private", STOCK, "sell private DH to Bob for 80",
                "offer a private company to another player; Bob must accept.", listed=False),
    MailCommand("exchange", STOCK, "exchange MH",
                "the MH private for an NYC share, also outside your turn."),
    MailCommand("accept", STOCK, "accept",
                "agree to an offer made to you (a private sold to you, a train, a "
                "redemption).", listed=False),
    MailCommand("decline", STOCK, "decline",
                "refuse an offer made to you (or, in 1870, let a share value drop instead "
                "of protecting it).", listed=False),
    MailCommand("protect", STOCK, "protect",
                "1870: buy the shares just sold of your company at the seller's price so its "
                "share value does not drop (or decline).", listed=False),
    MailCommand("redeem", STOCK, "redeem MP",
                "1870, your whole turn: MP buys back one of its shares (from the open market "
                "while it has one; redeem MP from Bob asks Bob).", listed=False),
    MailCommand("reissue", STOCK, "reissue MP",
                "1870, your whole turn: MP offers all its redeemed shares at a new par.",
                listed=False),
    MailCommand("lay", OPERATING, "lay 57 H12 SW-NE",
                "tile 57 on H12 joining SW and NE; lay 57 H12 when only one placement fits; "
                "lay 25 H14 W-NE/W-SE names the track pair by pair where the sides alone fit "
                "two ways."),
    MailCommand("token", OPERATING, "token E19",
                "place a station marker: token E19, or token G19 2 (the second city of the "
                "hex)."),
    MailCommand("run", OPERATING, "run",
                "run the trains: run (the best routes), or run 3: H12-I15-J14, 2: E19-F20; "
                "a ';' followed by a route goes on with the run, any other command after a "
                "';' is a command of its own (run; payout; buy train); run nothing only when "
                "no route earns anything."),
    MailCommand("payout", OPERATING, "payout", "pay the revenue out as dividends."),
    MailCommand("withhold", OPERATING, "withhold", "keep the revenue in the treasury."),
    MailCommand("half", OPERATING, "half", "1870: pay half and keep half.", listed=False),
    MailCommand("buy train", OPERATING, "buy train",
                "buy train (the next from the bank), buy train 4 pool, buy train D trade 5, "
                "buy train 3 from NYC for 150.", also="`buy a 4-train`"),
    MailCommand("discard", OPERATING, "discard 3", "discard a train over the limit.",
                listed=False),
    MailCommand("repay", OPERATING, "repay NYC first",
                "1830 base game, any time: you administer several insolvent companies; the "
                "money you take in repays NYC's loan first (7.7).", listed=False),
    MailCommand("buy private", OPERATING, "buy private DH from Alice for 140",
                "the corporation buys a private company; Alice must accept (unless Alice is "
                "its president).", listed=False),
    MailCommand("bankrupt", OPERATING, "bankrupt",
                "1870: you cannot raise the money for a forced train even by selling all you "
                "may; the game ends.", listed=False),
    MailCommand("destination", OPERATING, "destination place",
                "1870 connection run: destination place (the marker to the destination) or "
                "destination keep (a $100 station).", listed=False),
    MailCommand("port", OPERATING, "port open M20",
                "1870: port open M20, port closed M20, or port close (the Gulf Shipping "
                "Company's port).", listed=False),
    MailCommand("cattle", OPERATING, "cattle E12", "1870: place the cattle token.",
                listed=False),
    MailCommand("pass", STOCK, "pass",
                "pass (or done): end your turn, or drop out of an auction.",
                elsewhere=((AUCTION, "pass"), (OPERATING, "done"))),
]
