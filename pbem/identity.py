"""Players' names and addresses, checked before they are stored.

``check_player(name, email, others)`` is the one check for a new game
(``service.create_game``) and for a player who replaces another: it raises
``InvalidPlayer`` with a sentence saying what to change. A name is what the others
read in every mail and type in commands (``sell private MH to Ann``); an address is
what every mail to the player is sent to. So:

- a name is 1 to 24 characters: letters, digits, ``-`` and ``_`` (the engine's rule
  too); the letters of one alphabet only (a Latin name with a Cyrillic ``е`` looks
  like another name); and it must not look like another player's name: names are
  compared by their *skeleton* (NFKC, case folded, Cyrillic and Greek letters that
  look like Latin ones read as those, ``0``/``o``, ``1``/``l``/``i``), so ``Аnn``
  (Cyrillic А) beside ``Ann``, or ``B0b`` beside ``Bob``, is refused;
- an address is empty (no mail: a game played through the CLI) or ``local@domain``,
  at most 254 characters, printable ASCII without
  blanks, quotes, brackets, commas or semicolons, and a domain of letters, digits,
  hyphens and dots (an international domain is written in its ``xn--`` form). A
  line break, a second address or a header smuggled into it is refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .engine.errors import SetupError
from .safe_text import one_line

MAX_NAME = 24
MAX_ADDRESS = 254
MAX_LOCAL = 64

# Letters of other alphabets that look like Latin ones (after NFKC and casefold).
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "д": "d", "е": "e", "ё": "e", "һ": "h", "і": "i",
    "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p",
    "ԛ": "q", "г": "r", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w",
    "ь": "b", "п": "n", "ц": "u", "з": "3",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ζ": "z", "μ": "u",
    # digits and letters that look alike in most fonts
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "_": "-",
})
_SCRIPTS_THAT_MIX_UP = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")
_ADDRESS = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@"
    r"(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


class InvalidPlayer(SetupError):
    """A name or an address that pbem does not store; the message says why."""


def skeleton(name: str) -> str:
    """What a name looks like: names with one skeleton are confused by a reader."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return folded.translate(_LOOKALIKES)


def _scripts(name: str) -> set[str]:
    found = set()
    for ch in unicodedata.normalize("NFKC", name):
        if ch.isalpha():
            word = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
            if word in _SCRIPTS_THAT_MIX_UP:
                found.add(word)
    return found


def check_name(name: str, others: Iterable[str] = ()) -> None:
    """Raise InvalidPlayer unless ``name`` is a usable player name beside ``others``."""
    shown = one_line(name[:40]) + ("..." if len(name) > 40 else "")
    if not name or len(name) > MAX_NAME:
        raise InvalidPlayer(f"The player name '{shown}' is {len(name)} characters long; use "
                            f"1 to {MAX_NAME}.")
    if not name.replace("-", "").replace("_", "").isalnum():
        raise InvalidPlayer(f"'{shown}' is not a usable player name: use letters and digits "
                            "(and - or _).")
    for other in others:
        if other != name and skeleton(other) == skeleton(name):
            raise InvalidPlayer(f"The player name '{shown}' looks like '{one_line(other)}', "
                                "the name of another player; choose a name that reads "
                                "differently.")
    scripts = _scripts(name)
    if len(scripts) > 1:
        raise InvalidPlayer(f"The player name '{shown}' mixes letters of the "
                            f"{' and '.join(s.title() for s in sorted(scripts))} alphabets, "
                            "so it reads like another name; write it in the letters of one "
                            "alphabet.")


def check_address(email: str) -> None:
    """Raise InvalidPlayer unless ``email`` is one plain mail address, or empty (a
    player without mail, as in a game imported from 18xx.games: he plays through
    the CLI and gets no mail)."""
    if email == "":
        return
    shown = one_line(email[:60]) + ("..." if len(email) > 60 else "")
    if len(email) > MAX_ADDRESS:
        raise InvalidPlayer(f"The address '{shown}' is {len(email)} characters long; a mail "
                            f"address has at most {MAX_ADDRESS}.")
    if not _ADDRESS.fullmatch(email):
        raise InvalidPlayer(f"'{shown}' is not a mail address pbem can use: write one address "
                            "like ann@example.org, without a name, blanks, line breaks or "
                            "brackets (an international domain in its xn-- form).")


def check_player(name: str, email: str, others: Iterable[str] = ()) -> None:
    """The name (beside the other players' ``others``) and the address of one player."""
    check_name(name, others)
    check_address(email)


def check_players(players: list[tuple[str, str]]) -> None:
    """Every (name, address) of a new game, each name beside the others."""
    names = [name for name, _ in players]
    for index, (name, email) in enumerate(players):
        check_player(name, email, names[:index])
