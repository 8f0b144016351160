"""pbem.engine.memo.ByIdentity: answers remembered by the objects they were made from."""

import gc
import weakref

from pbem.engine.memo import ByIdentity


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
