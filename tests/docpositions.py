"""The game positions the guides' mail examples start from (tests/docexamples.py): real
games played through ``service.act`` into a SQLite file, built once per test session and
copied for each example."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from mailtable import NAMES, NOW, Mail, Table, table_config

from pbem import service
from pbem.mail.processing.command_line import carry_out
from pbem.mail.processing.process import Outcome
from pbem.store import open_store, secret_path_for

AUCTION_1830 = [("Ann", "buy"), ("Ben", "buy"), ("Cat", "buy"), ("Dan", "buy"),
                ("Ann", "buy"), ("Ben", "buy")]
#: Ben owns the BO private, so he sets the B&O's par; stock round 1 begins, Cat first.
STOCK_1830 = [*AUCTION_1830, ("Ben", "par B&O 100")]
#: Stock round 1 floats the B&O (Ben) and the PRR (Ben); operating round 1.1 begins with
#: the B&O, which has no train yet.
OPERATING_1830 = [*STOCK_1830, ("Cat", "buy B&O"), ("Dan", "buy B&O"), ("Ann", "buy B&O"),
                  ("Ben", "par PRR 67"), ("Cat", "buy B&O"), ("Dan", "buy PRR"),
                  ("Ann", "buy PRR"), ("Ben", "buy PRR"), ("Cat", "pass"), ("Dan", "pass"),
                  ("Ann", "pass"), ("Ben", "pass")]
#: The B&O and the PRR lay track and buy 2-trains; stock round 2 begins, Cat first.
STOCK2_1830 = [*OPERATING_1830, ("Ben", "lay 57 J14 SW-NE; buy train; buy train; done"),
               ("Ben", "lay 9 H14 W-E; buy train; done")]
#: Everybody passes stock round 2; in operating round 2.1 the B&O (Ben) has two 2-trains
#: and a route.
RUNNING_1830 = [*STOCK2_1830, ("Cat", "pass"), ("Dan", "pass"), ("Ann", "pass"), ("Ben", "pass")]

#: Ann and Ben both bid on the CA; the private companies before it are sold, so the two
#: bidders settle the CA between them (C-2.2.2), the lower bid first: Ann.
BIDDERS_1830 = [("Ann", "bid CA 170"), ("Ben", "bid CA 175"), ("Cat", "buy"), ("Dan", "buy"),
                ("Ann", "buy"), ("Ben", "buy")]

#: The private companies sold; Ann owns the SLSF private, which is the SLSF president's
#: certificate: she sets its par; stock round 1 begins, Cat first.
STOCK_1870 = [("Ann", "buy"), ("Ben", "buy"), ("Cat", "buy"), ("Dan", "buy"), ("Ann", "buy"),
              ("Ann", "par SLSF 100"), ("Ben", "buy")]
#: Cat starts the MP; the SLSF (Ann) lays a tile and buys two 2-trains in operating round
#: 1.1; everybody passes stock round 2; in operating round 2.1 the SLSF can run.
RUNNING_1870 = [*STOCK_1870, ("Cat", "par MP 100"), ("Dan", "pass"), ("Ann", "pass"),
                ("Ben", "pass"), ("Cat", "pass"),
                ("Ann", "lay 57 E12 W-E; buy train; buy train; done"), ("Dan", "pass"),
                ("Ann", "pass"), ("Ben", "pass"), ("Cat", "pass")]

#: Stock round 2 of RUNNING_1870's game: Ben buys a SLSF share and, in his next turn,
#: sells it; Ann, the SLSF's president, is offered price protection (1870 p.13).
PROTECT_1870 = [*RUNNING_1870[:-3], ("Ann", "pass"), ("Ben", "buy SLSF; done"), ("Cat", "pass"),
                ("Dan", "pass"), ("Ann", "pass"), ("Ben", "sell SLSF; done")]

#: The 1830 base game (option game=base): Ann bids for the first choice of a group of
#: private companies, the others pass; Ann chooses first.
BASE_1830 = [("Ann", "bid 30"), ("Ben", "pass"), ("Cat", "pass"), ("Dan", "pass")]

REFEREE = "referee"
REFEREE_ADDRESS = "ref@games.test"

#: name: (title, the moves, the game's options)
POSITIONS: dict[str, tuple[str, list[tuple[str, str]], dict[str, str]]] = {
    "1830-auction": ("1830", [], {}),
    "1830-stock": ("1830", STOCK_1830, {}),
    "1830-bidders": ("1830", BIDDERS_1830, {}),
    "1830-operating": ("1830", OPERATING_1830, {}),
    "1830-stock-2": ("1830", STOCK2_1830, {}),
    "1830-running": ("1830", RUNNING_1830, {}),
    "1830-base": ("1830", BASE_1830, {"game": "base"}),
    "1830-deadlines": ("1830", STOCK_1830, {"deadline": "72h"}),
    "1830-consent": ("1830", STOCK_1830, {"undo": "consent"}),
    "1870-auction": ("1870", [], {}),
    "1870-stock": ("1870", STOCK_1870, {}),
    "1870-running": ("1870", RUNNING_1870, {}),
    "1870-protect": ("1870", PROTECT_1870, {}),
}


def build(folder: Path, name: str) -> Path:
    """Play the position ``name`` into ``folder``/pbem.db and return the file."""
    title, moves, options = POSITIONS[name]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pbem.db"
    store = open_store(path, now=NOW)
    created = service.create_game(store, title, [(n, f"{n.lower()}@players.test")
                                                 for n in NAMES], seed=1, seating="fixed",
                                  options=options, now=NOW, referee=REFEREE_ADDRESS)
    for who, text in moves:  # as `pbem act` does: the game's clock kept on the record
        carry_out(store, created.game_id, who, text, now=NOW)
    store.conn.close()
    return path


class Position(Table):
    """A copy of a built position, to mail commands into (``Table``'s ``send`` and
    ``new_mail``); the name ``referee`` is the game's referee (ref@games.test)."""

    def __init__(self, built: Path, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "pbem.db"
        shutil.copy(built, path)
        shutil.copy(secret_path_for(built), secret_path_for(path))
        self.store = open_store(path, now=NOW)
        self.config = table_config()
        self.game = 1
        self.players = {p["name"]: p for p in self.store.players(self.game)}
        self.seen = len(self.store.conn.execute("SELECT id FROM outbox").fetchall())
        self.uid = 0

    def address(self, name: str) -> str:
        if name != REFEREE:
            return super().address(name)
        game = self.store.game(self.game)
        referee = {"game_id": self.game, "seat": -1, "key_hash": game["referee_key_hash"]}
        return f"pbem+{self.game}.{self.store.reply_code(referee)}@games.test"

    def send(self, name: str, body: str, **kwargs: Any) -> Outcome:
        if name == REFEREE:
            kwargs.setdefault("sender", REFEREE_ADDRESS)
        return super().send(name, body, **kwargs)

    def to(self, name: str, mails: list[Mail]) -> list[Mail]:
        if name == REFEREE:
            return [m for m in mails if m.recipient == REFEREE_ADDRESS]
        return super().to(name, mails)
