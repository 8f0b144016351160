"""pbem.engine.memo: answers remembered by the objects they were made from (ByIdentity),
and with what they read (ByWhatWasRead)."""

import gc
import weakref

from pbem.engine.memo import ByIdentity, ByWhatWasRead


class Unhashable:
    """Like a title's rules: holds a dict, equal copies are other objects."""

    def __init__(self, value: int) -> None:
        self.data = {"value": value}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unhashable) and other.data == self.data

    __hash__ = None  # type: ignore[assignment]


def test_an_answer_is_made_once_per_object_and_key() -> None:
    memo: ByIdentity[int] = ByIdentity(10)
    made: list[int] = []
    thing = Unhashable(1)

    def make() -> int:
        made.append(1)
        return thing.data["value"] * 10

    assert memo.get((thing,), "k", make) == 10
    assert memo.get((thing,), "k", make) == 10
    assert made == [1]
    assert memo.get((thing,), "other", make) == 10
    assert made == [1, 1]


def test_an_equal_copy_is_another_object() -> None:
    memo: ByIdentity[str] = ByIdentity(10)
    first, copy = Unhashable(1), Unhashable(1)
    assert first == copy
    assert memo.get((first,), None, lambda: "first") == "first"
    assert memo.get((copy,), None, lambda: "copy") == "copy"


def test_the_objects_are_kept_so_their_ids_stay_theirs() -> None:
    memo: ByIdentity[str] = ByIdentity(10)
    thing = Unhashable(1)
    held = weakref.ref(thing)
    memo.get((thing,), None, lambda: "answer")
    del thing
    gc.collect()
    assert held() is not None  # no other object can take its id while it is remembered


def test_a_full_memo_forgets_everything() -> None:
    memo: ByIdentity[int] = ByIdentity(2)
    things = [Unhashable(i) for i in range(3)]
    for i, thing in enumerate(things):
        memo.get((thing,), None, lambda i=i: i)  # type: ignore[misc]
    made: list[int] = []

    def make() -> int:
        made.append(1)
        return 99

    assert memo.get((things[0],), None, make) == 99  # forgotten when the third came
    assert made == [1]


def test_by_what_was_read_answers_again_while_what_it_read_looks_the_same() -> None:
    memo: ByWhatWasRead[str, int] = ByWhatWasRead(limit=8)
    board = {"A1": "tile 7", "B2": "tile 8", "C3": "tile 9"}
    made: list[int] = []

    def walk(read: set[str]) -> int:  # reads A1 and B2 only
        read.update(("A1", "B2"))
        made.append(1)
        return len(made)

    owner = object()
    assert memo.get((owner,), "leg", board.get, walk) == 1
    board["C3"] = "tile 23"  # not read: the same answer, not made again
    assert memo.get((owner,), "leg", board.get, walk) == 1
    board["B2"] = "tile 16"  # read: made again
    assert memo.get((owner,), "leg", board.get, walk) == 2
    assert memo.get((owner,), "leg", board.get, walk) == 2
    assert memo.get((object(),), "leg", board.get, walk) == 3  # another object
    memo.clear()
    assert memo.get((owner,), "leg", board.get, walk) == 4


def test_by_what_was_read_forgets_all_when_full() -> None:
    memo: ByWhatWasRead[str, str] = ByWhatWasRead(limit=2)
    owner = object()
    def named(read: set[str]) -> str:
        return "answer"

    for key in ("a", "b", "c"):
        memo.get((owner,), key, lambda place: None, named)
    assert len(memo._found) == 1
