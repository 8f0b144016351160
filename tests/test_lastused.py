"""pbem.lastused.LastUsed: the bounded store of the values used last that the map
drawings, the pictures, their base64 lines and the maps a mail showed are kept in."""

from __future__ import annotations

from pbem.lastused import LastUsed


def test_the_one_used_longest_ago_goes_beyond_the_size() -> None:
    kept: LastUsed[str, int] = LastUsed(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # a is now the latest
    kept.put("c", 3)
    assert kept.items() == [("a", 1), ("c", 3)]
    assert kept.get("b") is None


def test_a_put_of_a_kept_key_replaces_it_and_makes_it_the_latest() -> None:
    kept: LastUsed[str, int] = LastUsed(3)
    for n, key in enumerate("abc"):
        kept.put(key, n)
    kept.put("a", 10)
    assert kept.values() == [1, 2, 10]
    assert len(kept) == 3
    kept.clear()
    assert len(kept) == 0 and kept.get("a") is None
