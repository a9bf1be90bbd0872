"""`Remembered`: a bounded table of results by key, for what is worked out once per distinct text or
instruction and reused (parsed statements, shared instruction facts)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Generic, TypeVar  # noqa: TC004  # at run time, the stand-ins below

    K = TypeVar("K")
    V = TypeVar("V")


class _Generic:
    """`typing.Generic` as a run sees it: subscripting gives a plain base."""

    def __class_getitem__(cls, _parameters: object) -> type:
        return object


# Generic for type checkers only: a run need not import typing. Not an `else:` of the block above, which mypyc
# compiles as unreachable.
globals().setdefault("Generic", _Generic)
globals().setdefault("K", None)
globals().setdefault("V", None)


class Remembered(Generic[K, V]):
    """At most 2 * `kept` entries in two generations: when the newer is full it becomes the older one (the
    older is dropped), and an entry found in the older moves back to the newer. What is in use stays;
    memory does not grow with the number of distinct keys (a million-line file has ~160k distinct lines)."""

    def __init__(self, kept: int):
        self.kept = kept
        self.newer: dict[K, V] = {}
        self.older: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self.newer) + len(self.older)

    def get(self, key: K) -> V | None:
        found = self.newer.get(key)
        if found is None:
            found = self.older.pop(key, None)
            if found is not None:
                self.add(key, found)
        return found

    def add(self, key: K, value: V) -> V:
        if len(self.newer) >= self.kept:
            self.older, self.newer = self.newer, {}
        self.newer[key] = value
        return value
