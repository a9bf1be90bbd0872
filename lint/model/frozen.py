"""`frozen_dataclass`: `dataclasses.dataclass` for the frozen value classes that write their methods by hand
(`init=False`, `eq=False`, with an `__eq__` and `__hash__` of their own).

Type checkers see `dataclasses.dataclass` itself, so `frozen=True` makes assigning to a field a type error, as for any
frozen dataclass. At run time the class is made as a mutable dataclass and given the shared `__setattr__` and
`__delattr__` below, which refuse as `dataclasses` would (`FrozenInstanceError`): `frozen=True` would write those two
methods for every class as source and compile it at import (96 methods in a check: 53M instructions of the 100k-line
check, in both builds). `__setstate__` restores a pickled or copied instance through `object.__setattr__`, as `dataclasses`
does for a frozen class. A module of plain Python in the compiled build: a compiled function set on a class does not
bind to the instance as a method.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass as frozen_dataclass  # noqa: F401  # at run time, the stand-in below


def _refuse_assignment(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _set_state(self: object, state: object) -> None:
    """Unpickling: the default state of an instance, `{name: value}` of its `__dict__`, or `(that or None,
    {name: value} of its slots)`."""
    for part in state if isinstance(state, tuple) else (state,):
        for name, value in (part or {}).items():
            object.__setattr__(self, name, value)


def _frozen_dataclass(**options: bool) -> Callable[[type], type]:
    """`dataclass(**options)` for a class whose instances refuse assignment (`frozen=True` is expected)."""
    if options.get("eq", True) or options.get("init", True) or not options.get("frozen"):
        raise TypeError("frozen_dataclass is for frozen classes that write __init__, __eq__ and __hash__ by hand")

    def wrap(cls: type) -> type:
        # set before `dataclass` runs: with slots it makes a new class from this one's namespace
        cls.__setattr__ = _refuse_assignment  # type: ignore[assignment,method-assign]
        cls.__delattr__ = _refuse_deletion  # type: ignore[assignment,method-assign]
        cls.__setstate__ = _set_state  # type: ignore[attr-defined]
        return dataclass(**{**options, "frozen": False})(cls)

    return wrap


# Not an `else:` of the block above, which mypyc compiles as unreachable.
globals().setdefault("frozen_dataclass", _frozen_dataclass)
