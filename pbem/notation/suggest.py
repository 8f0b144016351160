"""What a player probably meant: the nearest legal commands, and repaired typos."""

from __future__ import annotations

import difflib
import re

from .lexicon import canonical_verb

_VERB_BONUS = 0.25
_CUTOFF = 0.35
_LONGEST = 200


def closest(text: str, candidates: list[str], n: int = 3, cutoff: float = _CUTOFF) -> list[str]:
    """The candidates (canonical commands) most like ``text``, best first.

    Likeness is difflib's ratio over the lower-cased texts with their numbers masked
    (the typed verb read as its canonical verb: 'done' is 'pass', a misspelt 'biid' is
    'bid') plus a bonus when the candidate has the same verb; candidates scoring below
    ``cutoff`` are left out. Among equally like ones, the numbers nearest the typed
    ones come first, then the lower numbers (par NYC 71, 76, 82 for 'par NYC 75').
    """
    typed = _normal(text)
    verb = _verb(typed, fuzzy=True)
    if verb is not None:
        typed = " ".join([verb, *typed.split(" ")[1:]])
    numbers = _numbers(typed)
    scored: list[tuple[float, int, tuple[int, ...], int, str]] = []
    for index, candidate in enumerate(dict.fromkeys(candidates)):
        wanted = _normal(candidate)
        score = difflib.SequenceMatcher(None, _NUMBER.sub("#", typed),
                                        _NUMBER.sub("#", wanted)).ratio()
        if verb is not None and _verb(wanted) == verb:
            score += _VERB_BONUS
        theirs = _numbers(wanted)
        distance = sum(abs(a - b) for a, b in zip(numbers, theirs, strict=False))
        scored.append((-round(score, 6), distance, theirs, index, candidate))
    scored.sort()
    return [entry[-1] for entry in scored[:n] if -entry[0] >= cutoff]


_NUMBER = re.compile(r"\d+")


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(number) for number in _NUMBER.findall(text)[:4])


def _normal(text: str) -> str:
    return " ".join(text[:_LONGEST].lower().replace("$", " ").replace(",", " ").split())


def _verb(text: str, fuzzy: bool = False) -> str | None:
    first = text.split(" ", 1)[0]
    return canonical_verb(first, fuzzy=fuzzy) if first else None


def replacements(text: str, word: str, vocabulary: list[str], n: int = 3) -> list[str]:
    """``text`` with ``word`` replaced by each of the closest words of the vocabulary."""
    if not word or not vocabulary:
        return []
    by_upper = {entry.upper(): entry for entry in vocabulary}
    close = difflib.get_close_matches(word.upper(), list(by_upper), n=n, cutoff=0.5)
    pattern = re.compile(re.escape(word), re.IGNORECASE)
    return [_replace_once(pattern, text, by_upper[match]) for match in close]


def _replace_once(pattern: re.Pattern[str], text: str, new: str) -> str:
    return pattern.sub(lambda _: new, text, count=1)
