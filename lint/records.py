"""`record`: a dataclass whose generated methods cost nothing until they are used.

Python's `dataclass` compiles every method it generates separately, and each compile has a fixed cost
(~150 µs): on the ~80 classes `check` imports that was half of the imports (issue 18: a small file's cold
run). `record` lets `dataclass` read the fields and make nothing else, then adds:
- `__eq__`, `__hash__` and `__repr__` built from the fields' getters, with the results the generated
  methods give: equal when of the same class with equal field tuples, the hash of the field tuple,
  `Name(field=value, ...)`;
- for a frozen record, shared `__setattr__`/`__delattr__` guards that raise `FrozenInstanceError`;
- `__init__` compiled on the class's first instance (what `dataclass` would compile), so a class the
  run never instantiates costs nothing.
A record is a dataclass: `fields`, `replace` and `asdict` work on it.

The shared comparison and hash cost ~30% more a call than compiled ones: classes hashed or compared for
every instruction (the operand nodes, Target) ask for `compiled_eq`, and get the methods `dataclass` would
compile, compiled on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar

T = TypeVar("T")
_FACTORY = object()  # the parameter default of a field made by a default factory


def record(cls: type[T] | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
           unsafe_hash: bool = False, compiled_eq: bool = False) -> Any:
    """`dataclass(cls, frozen=..., slots=..., eq=..., unsafe_hash=...)` with shared repr and frozen guards,
    `__init__` compiled on first use, and shared comparison and hash (compiled on first use with
    `compiled_eq`)."""

    def wrap(cls: type[T]) -> type[T]:
        own = cls.__dict__
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if unsafe_hash and explicit_hash:
            raise TypeError(f"cannot overwrite attribute __hash__ in class {cls.__name__}")
        made = dataclass(cls, slots=slots, init=False, eq=False, repr=False)
        every = fields(made)
        _check_defaults_order(made, every)
        made.__init__ = _init_on_first_use(made, every, frozen, slots)
        if frozen:
            _freeze(made, {f.name for f in every}, slots)
        if "__repr__" not in own:
            made.__repr__ = _repr([f.name for f in every if f.repr])
        compared = [f.name for f in every if f.compare]
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        if eq and "__eq__" not in own:
            made.__eq__ = (_compiled_on_first_use(made, "__eq__", _compiled_eq, compared) if compiled_eq
                           else _eq(_values(compared)))
        if (eq and frozen or unsafe_hash) and not explicit_hash:
            made.__hash__ = (_compiled_on_first_use(made, "__hash__", _compiled_hash, hashed) if compiled_eq
                             else _hash(_values(hashed)))
        elif eq and not explicit_hash:
            made.__hash__ = None  # mutable and compared by value: unhashable, as dataclass makes it
        return made

    return wrap if cls is None else wrap(cls)


def _check_defaults_order(cls: type, every: tuple[Field, ...]) -> None:
    """The `TypeError` dataclass raises for a parameter without a default after one with a default."""
    defaulted = False
    for item in every:
        if not item.init:
            continue
        if item.default is not MISSING or item.default_factory is not MISSING:
            defaulted = True
        elif defaulted:
            raise TypeError(f"non-default argument {item.name!r} follows default argument in {cls.__name__}")


def _init_on_first_use(cls: type, every: tuple[Field, ...], frozen: bool, slots: bool) -> Callable[..., None]:
    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        compiled = _compiled_init(cls, every, frozen, slots)
        cls.__init__ = compiled
        compiled(self, *args, **kwargs)

    return __init__


def _compiled_on_first_use(cls: type, name: str, compile_method: Callable[[list[str]], Callable],
                           names: list[str]) -> Callable:
    def method(self: object, *args: Any) -> Any:
        compiled = compile_method(names)
        setattr(cls, name, compiled)
        return compiled(self, *args)

    method.__name__ = name
    return method


def _compiled(source: str) -> Callable:
    scope: dict[str, Any] = {}
    exec(source, {}, scope)  # noqa: S102 - the source is built from field names only
    return scope.popitem()[1]


def _compiled_eq(names: list[str]) -> Callable[[object, object], bool]:
    mine, theirs = ("".join(f"{side}.{name}," for name in names) for side in ("self", "other"))
    return _compiled(f"def __eq__(self, other):\n if other.__class__ is self.__class__:\n"
                     f"  return ({mine}) == ({theirs})\n return NotImplemented\n")


def _compiled_hash(names: list[str]) -> Callable[[object], int]:
    return _compiled(f"def __hash__(self):\n return hash(({''.join(f'self.{name},' for name in names)}))\n")


def _compiled_init(cls: type, every: tuple[Field, ...], frozen: bool, slots: bool) -> Callable[..., None]:
    """The `__init__` dataclass would make: parameters with their defaults, a factory called when its
    parameter is left out, `__post_init__` called last."""
    names: dict[str, Any] = {"_FACTORY": _FACTORY, "_setattr": object.__setattr__}
    parameters, body = [], []
    for item in every:
        default = f"_default_{item.name}"
        if item.default_factory is not MISSING:
            names[default] = item.default_factory
            if item.init:
                parameters.append(f"{item.name}=_FACTORY")
                value = f"{default}() if {item.name} is _FACTORY else {item.name}"
            else:
                value = f"{default}()"
        elif item.init:
            if item.default is not MISSING:
                names[default] = item.default
                parameters.append(f"{item.name}={default}")
            else:
                parameters.append(item.name)
            value = item.name
        elif slots and item.default is not MISSING:
            names[default] = item.default
            value = default
        else:
            continue  # the class attribute holds its default
        body.append(f"_setattr(self, {item.name!r}, {value})" if frozen else f"self.{item.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = (f"def __make__({', '.join(names)}):\n"
              f" def __init__(self, {', '.join(parameters)}):\n  " + ("\n  ".join(body) or "pass") +
              "\n return __init__\n")
    made = _compiled(source)(*names.values())
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made


def _freeze(cls: type, names: set[str], slots: bool) -> None:
    """Refuse assignment and deletion of fields (and of anything on the class itself), as `frozen=True` does."""

    def __setattr__(self: object, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    cls.__setattr__ = __setattr__
    cls.__delattr__ = __delattr__
    if slots:  # pickle and copy restore slots with setattr: write them past the guard
        cls.__getstate__ = _slot_values
        cls.__setstate__ = _restore_slots


def _slot_values(self: object) -> list[Any]:
    return [getattr(self, item.name) for item in fields(self)]


def _restore_slots(self: object, state: list[Any]) -> None:
    for item, value in zip(fields(self), state):
        object.__setattr__(self, item.name, value)


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
