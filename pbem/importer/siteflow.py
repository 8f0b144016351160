"""What the site does by itself, which pbem asks for: the importer sends pbem those
commands (``pass``, ``done``), the exporter leaves them out.  Both must agree with the
site on when it happens."""

from __future__ import annotations

from ..engine.errors import RulesError
from ..engine.game import decide
from ..engine.operating import PlaceStation
from ..engine.registry import book, rulebook_of
from ..engine.state import GameState

#: the site's phases in which players may buy private companies from each other in a
#: stock round, and the first stock round it allows it in
SITE_PRIVATE_TRADE = {"1830": (frozenset({"2", "3", "4"}), 2),
                      "1870": (frozenset({"2", "3"}), 1)}
#: private companies the site never lets anyone buy (the ``no_buy`` ability)
NO_BUY = {"1830": frozenset({"BO"}), "1870": frozenset({"SLSF"})}


def site_offers_private(state: GameState, player: str) -> bool:
    """Whether the site offers ``player`` to buy another player's private company now: in
    his stock-round turn before any purchase, with money, in the phases the site allows
    it (tobymao/18xx ``BuySellParShares#purchasable_companies``)."""
    phases, first_round = SITE_PRIVATE_TRADE.get(state.title, (frozenset(), 0))
    rnd = state.round
    if rnd.get("kind") != "stock" or state.phase not in phases or \
            rnd.get("number", 0) < first_round or rnd["turn"].get("bought") or \
            state.player(player).cash <= 0:
        return False
    barred = NO_BUY.get(state.title, frozenset())
    return any(p.owner.startswith("p:") and p.owner != f"p:{player}" and not p.closed
               and sym not in barred for sym, p in state.privates.items())


#: moves that do not keep the site from passing for a stock-round player: an exchange of
#: MH is no turn of his, and the site offers a redemption or reissue (1870) only to a
#: player who may also buy or sell (its corporations' actions are not his own)
NOT_HIS_TURN = frozenset({"pass", "exchange", "redeem", "reissue"})


def site_passes_for(state: GameState, player: str) -> bool:
    """The site passes by itself for a stock-round player it offers nothing but a pass
    (asked first whether it offers him a private company: quicker than his moves): none
    of his legal moves (legal_moves) is of a kind other than NOT_HIS_TURN. Asked of the
    round, which stops at the first such move, and of the title's side moves; the
    exchanges legal_moves adds are all of NOT_HIS_TURN."""
    if site_offers_private(state, player):
        return False
    if state.finished:
        return True
    rules = book(state)
    if rules.round(state).offers_other(state, player, NOT_HIS_TURN):
        return False
    return all(m["action"]["type"] in NOT_HIS_TURN
               for m in rules.side_moves(state).get(player, []))


def station_offered(state: GameState, corp: str) -> bool:
    """Whether ``corp`` could place a station now, by its title's station step (1870's
    counts the destination marker kept as one more $100 station marker, p.20): the site
    then waits in its station step for a placement or a pass."""
    step = rulebook_of(state.title).rounds["operating"].step_for("token")
    return isinstance(step, PlaceStation) and bool(step.places(state, corp))


#: 1870: the private company with a tile lay a corporation may still buy (the site
#: keeps the track step open for it in the phases corporations buy private companies)
TILE_LAYING_PRIVATES = {"1870": ("MRBC", frozenset({"2", "3"}))}


def site_track_open(state: GameState, corp: str) -> bool:
    """Whether the site still waits in ``corp``'s track step (for a lay or a pass): no
    tile laid yet, 1870's second yellow tile, or a tile-laying private company it owns
    and has not used, or could still buy (tobymao/18xx ``Tracker#can_lay_tile?``: it
    does not look for a legal placement)."""
    turn = state.round["turn"]
    if state.rules.extra.get("board"):  # 1870: two yellow tiles or one upgrade
        if (turn.get("lays") or []) in ([], ["yellow"]):
            return True
    elif not turn["laid"]:
        return True
    sym, phases = TILE_LAYING_PRIVATES.get(state.title, ("", frozenset()))
    private = state.privates.get(sym)
    if private is None or private.closed:
        return False
    if private.owner == f"c:{corp}":  # its lay, while unused, keeps the step open
        return not private.used and turn.get("home_lay") != "used"
    if not private.owner.startswith("p:") or state.phase not in phases:
        return False
    return state.corps[corp].cash >= -(-state.rules.private(sym).value // 2)


#: 1870: in phase 1 the site offers the MRBC to these corporations (always, while they
#: have its minimum price: tobymao/18xx ``G1870::Step::BuyCompany``)
EARLY_PRIVATE = {"1870": ("MRBC", frozenset({"MP", "SSW"}), "1")}


#: private companies whose ability, while unused and owned by the operating corporation,
#: keeps the site's last step (buying private companies) open for a pass: their owner
#: may use it any time in its turn (the ``owning_corp_or_turn`` abilities)
ANY_TIME_ABILITIES = {"1830": frozenset({"CS"}), "1870": frozenset({"SCC", "GSC"})}


def site_company_step_open(state: GameState, corp: str) -> bool:
    """Whether the site's step for buying private companies waits for ``corp``'s pass:
    in the phases corporations buy them, while a player owns one it may buy for at least
    half its value; in 1870's phase 1, for the MP and SSW and the MRBC; and while it owns
    a private company whose ability it may still use (tobymao/18xx ``BuyCompany#actions``
    with ``blocks``)."""
    if any(state.privates[sym].owner == f"c:{corp}" and not state.privates[sym].closed
           and not state.privates[sym].used
           for sym in ANY_TIME_ABILITIES.get(state.title, frozenset()) if sym in state.privates):
        return True
    cash = state.corps[corp].cash
    sym, buyers, phase = EARLY_PRIVATE.get(state.title, ("", frozenset(), ""))
    if state.phase == phase and sym:
        return corp in buyers and cash >= -(-state.rules.private(sym).value // 2)
    if not state.phase or not state.rules.phase(state.phase).corporations_buy_privates:
        return False
    return any(p.owner.startswith("p:") and not p.closed and cash >= -(-p.price // 2)
               and not state.rules.private(s).extra.get("no_sale_to_corporation")
               for s, p in state.privates.items())


def site_offers_more(state: GameState, player: str, corp: str, source: str) -> bool:
    """After a purchase of ``corp`` from ``source`` in a zone where several shares may be
    bought at once: whether one more could be bought, from either place the game allows
    (the site sells them one by one, so it waits for the player's pass while one more is
    possible).  ``state``: after it."""
    if not state.rules.zone_allows(state.zone(corp), "multi_buy"):
        return False
    sources = ["pool", "ipo"] if state.options.get("brown_buy") == "pool-and-ipo" else ["pool"]
    if source not in sources:
        return False
    return any(_one_more(state, player, corp, where) for where in sources)


def _one_more(state: GameState, player: str, corp: str, source: str) -> bool:
    trial = state.clone()
    trial.round = {**trial.round, "kind": "stock", "current": player, "proposal": None,
                   "protection": None, "turn": {**trial.round.get("turn", {}),
                                                "bought": False, "acted": False}}
    try:
        decide(trial, player, {"type": "buy_share", "corp": corp, "source": source,
                               "count": 1})
    except (RulesError, KeyError):
        return False
    return True
