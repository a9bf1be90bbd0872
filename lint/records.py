"""`record`: a dataclass whose generated methods cost nothing until they are used.

Python's `dataclass` compiles every method it generates separately, and each compile has a fixed cost
(~100 µs): on the ~80 classes `check` imports that was half of the imports (issue 18: a small file's cold
run); importing `dataclasses` itself (with `inspect`, `ast`, `dis` and `tokenize`) was another 8% of a
small file's run. `record` reads the fields as `dataclass` does (`field`, `fields`, `replace` and
`FrozenInstanceError` here stand for the module's) and adds:
- `__eq__`, `__hash__` and `__repr__` built from the fields' getters, with the results the generated
  methods give: equal when of the same class with equal field tuples, the hash of the field tuple,
  `Name(field=value, ...)`;
- for a frozen record, shared `__setattr__`/`__delattr__` guards that raise `FrozenInstanceError`;
- `__init__` made on the class's first instance (what `dataclass` would compile).

The shared comparison and hash cost ~30% more a call than compiled ones: classes hashed or compared for
every instruction (the operand nodes, Target) ask for `compiled_eq`, and get the methods `dataclass` would
compile, made on first use.

A method is made from its source text: the function `records_precompiled.py` defined for that very text
(written by scripts/gen_record_methods.py, loaded from bytecode like any module), else compiled then.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

_FACTORY = object()  # the parameter default of a field made by a default factory


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # no default (nor default factory)


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class Field:
    """One field of a record, as `dataclasses.Field` describes it."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "hash", "compare", "metadata", "kw_only")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, hash: bool | None,  # noqa: A002
                 compare: bool, metadata: Any, kw_only: Any):
        self.name = ""
        self.default, self.default_factory, self.init, self.repr = default, default_factory, init, repr
        self.hash, self.compare, self.metadata, self.kw_only = hash, compare, metadata, kw_only

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,  # noqa: A002
          hash: bool | None = None, compare: bool = True, metadata: Any = None, kw_only: Any = MISSING) -> Any:  # noqa: A002
    """`dataclasses.field` for records."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def fields(class_or_instance: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order."""
    try:
        return class_or_instance.__record_fields__
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None


def replace(obj: T, /, **changes: Any) -> T:
    """A new record like `obj` with `changes` (`dataclasses.replace`)."""
    for item in fields(obj):
        if not item.init:
            if item.name in changes:
                raise ValueError(f"field {item.name} is declared with init=False, it cannot be specified with replace()")
        elif item.name not in changes:
            changes[item.name] = getattr(obj, item.name)
    return obj.__class__(**changes)
#: the source of every method a record makes (what scripts/gen_record_methods.py precompiles)
METHOD_SOURCES: set[str] = set()


def record(cls: type[T] | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True,
           unsafe_hash: bool = False, compiled_eq: bool = False) -> Any:
    """`dataclass(cls, frozen=..., slots=..., eq=..., unsafe_hash=...)` with shared repr and frozen guards,
    `__init__` made on first use, and shared comparison and hash (made on first use with `compiled_eq`)."""

    def wrap(cls: type[T]) -> type[T]:
        own = cls.__dict__
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if unsafe_hash and explicit_hash:
            raise TypeError(f"cannot overwrite attribute __hash__ in class {cls.__name__}")
        every = _read_fields(cls)
        made = _with_slots(cls, every) if slots else cls
        made.__record_fields__ = every
        if "__match_args__" not in own:
            made.__match_args__ = tuple(item.name for item in every if item.init)
        _check_fields(made, every)
        init_source, defaults = _init_source(made, every, frozen, slots)
        made.__init__ = _on_first_use(made, "__init__", init_source, defaults)
        if frozen:
            _freeze(made, {f.name for f in every}, slots)
        if "__repr__" not in own:
            made.__repr__ = _repr([f.name for f in every if f.repr])
        compared = [f.name for f in every if f.compare]
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        if eq and "__eq__" not in own:
            made.__eq__ = _compiled_eq(made, compared) if compiled_eq else _eq(_values(compared))
        if (eq and frozen or unsafe_hash) and not explicit_hash:
            made.__hash__ = _compiled_hash(made, hashed) if compiled_eq else _hash(_values(hashed))
        elif eq and not explicit_hash:
            made.__hash__ = None  # mutable and compared by value: unhashable, as dataclass makes it
        return made

    return wrap if cls is None else wrap(cls)


def _read_fields(cls: type) -> tuple[Field, ...]:
    """The fields of `cls` as `dataclass` reads them: its bases' record fields, then its annotations in order
    (a `ClassVar` is no field); a field's class attribute becomes its default (none with a factory)."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        found.update((item.name, item) for item in base.__dict__.get("__record_fields__", ()))
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else repr(annotation)
        if "ClassVar" in text:
            continue
        if "KW_ONLY" in text or "InitVar" in text:
            raise TypeError(f"{cls.__name__}: a record takes no keyword-only or InitVar fields")
        default = cls.__dict__.get(name, MISSING)
        item = default if isinstance(default, Field) else field(default=default)
        item.name = name
        if isinstance(default, Field):
            if item.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, item.default)
        if item.default is not MISSING and type(item.default).__hash__ is None:
            raise ValueError(f"mutable default {type(item.default)} for field {name} is not allowed: use default_factory")
        found[name] = item
    return tuple(found.values())


def _with_slots(cls: type, every: tuple[Field, ...]) -> type:
    """`cls` made again with a slot per field it does not inherit one for (what `dataclass(slots=True)` does)."""
    namespace = dict(cls.__dict__)
    inherited = {name for base in cls.__mro__[1:-1] for name in _slots_of(base)}
    namespace["__slots__"] = tuple(item.name for item in every if item.name not in inherited)
    for item in every:
        namespace.pop(item.name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _slots_of(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _check_fields(cls: type, every: tuple[Field, ...]) -> None:
    """The `TypeError` dataclass raises for a parameter without a default after one with a default, and
    one for what the `__init__` made here does not take (keyword-only fields)."""
    if any(item.kw_only is True for item in every):
        raise TypeError(f"{cls.__name__}: a record takes no keyword-only or InitVar fields")
    defaulted = False
    for item in every:
        if not item.init:
            continue
        if item.default is not MISSING or item.default_factory is not MISSING:
            defaulted = True
        elif defaulted:
            raise TypeError(f"non-default argument {item.name!r} follows default argument in {cls.__name__}")


def _init_source(cls: type, every: tuple[Field, ...], frozen: bool, slots: bool) -> tuple[str, dict[str, Any]]:
    """The source of a maker of the `__init__` dataclass would compile (parameters with their defaults, a
    factory called when its parameter is left out, `__post_init__` called last), and what it is made with."""
    values: dict[str, Any] = {"_FACTORY": _FACTORY, "_setattr": object.__setattr__}
    parameters, body = [], []
    for item in every:
        default = f"_default_{item.name}"
        if item.default_factory is not MISSING:
            values[default] = item.default_factory
            if item.init:
                parameters.append(f"{item.name}=_FACTORY")
                value = f"{default}() if {item.name} is _FACTORY else {item.name}"
            else:
                value = f"{default}()"
        elif item.init:
            if item.default is not MISSING:
                values[default] = item.default
                parameters.append(f"{item.name}={default}")
            else:
                parameters.append(item.name)
            value = item.name
        elif slots and item.default is not MISSING:
            values[default] = item.default
            value = default
        else:
            continue  # the class attribute holds its default
        body.append(f"_setattr(self, {item.name!r}, {value})" if frozen else f"self.{item.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = (f"def __make__({', '.join(values)}):\n"
              f" def __init__(self, {', '.join(parameters)}):\n  " + ("\n  ".join(body) or "pass") +
              "\n return __init__\n")
    return source, values


def _compiled_eq(cls: type, names: list[str]) -> Callable[[object, object], bool]:
    """The `__eq__` dataclass would compile, made on first use."""
    mine, theirs = ("".join(f"{side}.{name}," for name in names) for side in ("self", "other"))
    source = (f"def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n"
              f"   return ({mine}) == ({theirs})\n  return NotImplemented\n return __eq__\n")
    return _on_first_use(cls, "__eq__", source, {})


def _compiled_hash(cls: type, names: list[str]) -> Callable[[object], int]:
    """The `__hash__` dataclass would compile, made on first use."""
    source = f"def __make__():\n def __hash__(self):\n  return hash(({''.join(f'self.{n},' for n in names)}))\n return __hash__\n"
    return _on_first_use(cls, "__hash__", source, {})


def _on_first_use(cls: type, name: str, source: str, values: dict[str, Any]) -> Callable:
    """A stand-in that makes the method from `source` on its first call and puts it in its place."""
    METHOD_SOURCES.add(source)

    def method(self: object, *args: Any, **kwargs: Any) -> Any:
        made = maker(source)(*values.values())
        made.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, made)
        return made(self, *args, **kwargs)

    method.__name__ = name
    return method


def maker(source: str) -> Callable[..., Callable]:
    """The `__make__` function `source` defines: precompiled when records_precompiled.py has this text."""
    global _PRECOMPILED
    if _PRECOMPILED is None:
        try:
            from .records_precompiled import MAKERS as _PRECOMPILED
        except ImportError:  # absent: scripts/gen_record_methods.py writes it
            _PRECOMPILED = {}
    made = _PRECOMPILED.get(source)
    if made is None:
        scope: dict[str, Any] = {}
        exec(source, {}, scope)  # noqa: S102 - the source is built from field names only
        made = scope["__make__"]
    return made


_PRECOMPILED: dict[str, Callable[..., Callable]] | None = None


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
