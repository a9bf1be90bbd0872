"""Work done in a forked copy of this process (Linux): the copy starts with everything this process holds,
so nothing is sent to it, and it sends back only its result, pickled through a pipe (pickle is imported
only where a copy is made)."""

from __future__ import annotations

import itertools
import os
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class CopyFailed(RuntimeError):
    """The copy raised, or ended without sending its result."""


@dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class _Failed:
    """What a copy sends instead of its result when the work raised."""

    reason: str

    def __init__(self, reason: str) -> None:
        object.__setattr__(self, "reason", reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Failed) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.reason,) == (other.reason,)

    def __hash__(self) -> int:
        return hash((self.reason,))


class ForkedCopy:
    """A copy of this process working out one result."""

    def __init__(self, pid: int, read_end: int):
        self.pid, self.read_end = pid, read_end

    def result(self) -> Any:
        """The copy's result, once it has sent it (the copy has then ended)."""
        import pickle

        try:
            with os.fdopen(self.read_end, "rb") as pipe:
                sent = pickle.load(pipe)
        except EOFError:
            sent = _Failed("it ended without sending its result")
        except Exception as error:  # noqa: BLE001 - a result this process cannot rebuild: worked out here instead
            sent = _Failed(f"its result could not be read ({type(error).__name__}: {error})")
        finally:
            os.waitpid(self.pid, 0)
        if isinstance(sent, _Failed):
            raise CopyFailed(sent.reason)
        return sent

    def alongside(self, work: Callable[[], Any]) -> Any:
        """`work()` in this process while the copy works; if it raises, the copy is ended."""
        try:
            return work()
        except BaseException:
            self.abandon()
            raise

    def abandon(self) -> None:
        """End the copy now: its result is not wanted."""
        import signal

        os.close(self.read_end)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)


def fork_copy(work: Callable[[], Any]) -> ForkedCopy:
    """Start `work` in a forked copy of this process."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _work_and_leave(work, write_end)
    os.close(write_end)
    return ForkedCopy(pid, read_end)


def _work_and_leave(work: Callable[[], Any], write_end: int) -> None:
    """In the copy: do the work, send the result (or why there is none), and end the process at once, whatever
    happens: it must never return into the code that forked it, nor flush what that had written."""
    import pickle

    try:
        try:
            sent = work()
        except BaseException as error:  # noqa: BLE001 - handed to the parent, which raises it
            sent = _Failed(f"{type(error).__name__}: {error}")
        with os.fdopen(write_end, "wb") as pipe:
            pickle.dump(sent, pipe, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        os._exit(0)


def in_two(work: Callable[[list[Any]], list[Any]], items: list[Any], sizes: list[int]) -> list[Any]:
    """`work(items)`, the first half of the items (by their `sizes`) worked out by a forked copy and the rest
    by this process. If the copy fails, this process works out its half too (and fails as it must)."""
    ends = list(itertools.accumulate(sizes))
    half = min(max(1, bisect_left(ends, ends[-1] / 2)), len(items) - 1)
    copy = fork_copy(partial(work, items[:half]))
    second = copy.alongside(partial(work, items[half:]))
    try:
        first = copy.result()
    except CopyFailed:
        first = work(items[:half])
    return first + second
