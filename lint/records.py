"""`record`: a dataclass whose `__eq__`, `__hash__` and `__repr__` are shared functions, not compiled code.

Python 3.11's `dataclass` compiles every generated method separately, and each compile has a fixed cost:
on the ~90 classes `check` imports, compiling `__eq__`, `__hash__` and `__repr__` was a fifth of the
start-up (issue 18: a small file's cold run). `record` lets `dataclass` make `__init__` (and a frozen
class's guards) and adds comparison, hash and repr built from the fields' getters, with the results the
generated methods give: equal when of the same class with equal field tuples, the hash of the field tuple,
`Name(field=value, ...)`. A record is a dataclass: `fields`, `replace` and `asdict` work on it.

The shared methods cost ~30% more a call than compiled ones: classes hashed or compared for every
instruction (the operand nodes, Target) stay plain dataclasses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar

T = TypeVar("T")


def record(cls: type[T] | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
           unsafe_hash: bool = False) -> Any:
    """`dataclass(cls, frozen=..., slots=..., eq=..., unsafe_hash=...)` with shared comparison, hash and repr."""

    def wrap(cls: type[T]) -> type[T]:
        own = cls.__dict__
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if unsafe_hash and explicit_hash:
            raise TypeError(f"cannot overwrite attribute __hash__ in class {cls.__name__}")
        made = dataclass(cls, frozen=frozen, slots=slots, eq=False, repr=False)
        every = fields(made)
        if "__repr__" not in own:
            made.__repr__ = _repr([f.name for f in every if f.repr])
        if eq and "__eq__" not in own:
            made.__eq__ = _eq(_values([f.name for f in every if f.compare]))
        if (eq and frozen or unsafe_hash) and not explicit_hash:
            made.__hash__ = _hash(_values([f.name for f in every if (f.compare if f.hash is None else f.hash)]))
        elif eq and not explicit_hash:
            made.__hash__ = None  # mutable and compared by value: unhashable, as dataclass makes it
        return made

    return wrap if cls is None else wrap(cls)


def _values(names: list[str]) -> Callable[[object], tuple]:
    """The tuple of the named attributes (attrgetter gives a bare value for one name)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda item: (get(item),)
    return lambda item: ()


def _eq(values: Callable[[object], tuple]) -> Callable[[object, object], bool]:
    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[object], tuple]) -> Callable[[object], int]:
    def __hash__(self: object) -> int:
        return hash(values(self))

    return __hash__


def _repr(names: list[str]) -> Callable[[object], str]:
    @recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__
