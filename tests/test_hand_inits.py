"""Dataclasses that write their `__init__` by hand (`init=False`: compiled, it is native code, where the one
`dataclasses` writes stays interpreted, and no method is made by `exec` at import) take the fields the stdlib's
would, in its order, with its defaults; frozen ones writing `__eq__` and `__hash__` compare and hash as the stdlib's
would (the same field tuple: sets of them iterate in the same order), mutable ones unhashable as the stdlib's; and
a `__repr__` written by hand is the stdlib's (operand nodes' text is a key of the analyses, BuildOptions' part of the
result cache's)."""

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil

import amdgpu_lint
import pytest
from amdgpu_lint.model.frozen import frozen_dataclass
from conftest import is_compiled


def _hand_written() -> list[type]:
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(amdgpu_lint.__path__, "amdgpu_lint."):
        if info.name.startswith(("amdgpu_lint.rules.", "amdgpu_lint.lsp", "amdgpu_lint.__main__")):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == info.name and dataclasses.is_dataclass(value)
                    and not value.__dataclass_params__.init):
                found[f"{info.name}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


HAND_WRITTEN = _hand_written()
HAND_COMPARED = [cls for cls in HAND_WRITTEN if "__eq__" in vars(cls)]
HAND_SHOWN = [cls for cls in HAND_WRITTEN if "__repr__" in vars(cls)]


def test_the_hot_classes_are_among_them():
    names = {cls.__name__ for cls in HAND_WRITTEN}
    assert {"Statement", "Provenance", "Instruction", "Reg", "KernelContext"} <= names
    compared = {cls.__name__ for cls in HAND_COMPARED}
    assert {"Statement", "Reg", "Sym", "Target", "InstructionClass", "Provenance"} <= compared
    assert {"Statement", "Reg", "Num", "Target"} <= {cls.__name__ for cls in HAND_SHOWN}


@pytest.mark.parametrize("cls", HAND_WRITTEN, ids=lambda cls: cls.__qualname__)
def test_hand_written_init_takes_the_fields(cls):
    if is_compiled(inspect.getmodule(cls)):
        pytest.skip("a compiled __init__ checks its arguments' types (the pure build runs this)")
    fields = dataclasses.fields(cls)
    assert all(field.init for field in fields)
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [parameter.name for parameter in parameters] == [field.name for field in fields]
    assert all(parameter.kind is parameter.POSITIONAL_OR_KEYWORD for parameter in parameters)
    given = {field.name: object() for field in fields}
    for made in (cls(*given.values()), cls(**dict(reversed(given.items())))):
        assert all(getattr(made, name) is value for name, value in given.items())
    required = {field.name: given[field.name] for field in fields
                if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING}
    first, second = cls(**required), cls(**required)
    for field in fields:
        if field.default is not dataclasses.MISSING:
            value = getattr(first, field.name)
            assert value == field.default and type(value) is type(field.default)
        elif field.default_factory is not dataclasses.MISSING:
            assert getattr(first, field.name) == field.default_factory()
            assert getattr(first, field.name) is not getattr(second, field.name)  # a new one each time


@pytest.mark.parametrize("cls", HAND_COMPARED, ids=lambda cls: cls.__qualname__)
def test_hand_written_eq_and_hash_are_the_stdlib_ones(cls):
    if is_compiled(inspect.getmodule(cls)):
        pytest.skip("a compiled __init__ checks its arguments' types (the pure build runs this)")
    fields = dataclasses.fields(cls)
    given = [object() for _ in fields]
    compared = tuple(value for field, value in zip(fields, given, strict=True) if field.compare)
    made, again = cls(*given), cls(*given)
    assert made == again and not made != again
    for index, field in enumerate(fields):
        other = cls(*given[:index], object(), *given[index + 1 :])
        assert (made == other) is not field.compare and (made != other) is field.compare
    assert made.__eq__(compared) is NotImplemented and made != compared
    if cls.__dataclass_params__.frozen or "__hash__" in vars(cls) and vars(cls)["__hash__"] is not None:
        assert all(field.hash in (None, field.compare) for field in fields)
        assert hash(made) == hash(compared) == hash(again)
    else:
        with pytest.raises(TypeError):
            hash(made)


@pytest.mark.parametrize("cls", HAND_SHOWN, ids=lambda cls: cls.__qualname__)
def test_hand_written_repr_is_the_stdlib_one(cls):
    if is_compiled(inspect.getmodule(cls)):
        pytest.skip("a compiled __init__ checks its arguments' types (the pure build runs this)")
    fields = dataclasses.fields(cls)
    made = cls(*(f"<{field.name}>" for field in fields))
    shown = ", ".join(f"{field.name}={getattr(made, field.name)!r}" for field in fields if field.repr)
    assert repr(made) == f"{cls.__qualname__}({shown})"


FROZEN_BY_HAND = [cls for cls in HAND_WRITTEN if getattr(cls.__setattr__, "__module__", None) == "amdgpu_lint.model.frozen"]


def test_the_value_classes_are_frozen_by_the_shared_methods():
    assert {"Reg", "Statement", "Target", "InstructionClass", "DefUse"} <= {cls.__name__ for cls in FROZEN_BY_HAND}
    with pytest.raises(TypeError):
        frozen_dataclass(slots=True)  # a class that is not frozen, or whose methods dataclasses writes


@pytest.mark.parametrize("cls", FROZEN_BY_HAND, ids=lambda cls: cls.__qualname__)
def test_a_frozen_value_refuses_changes_and_survives_copies(cls):
    """As a frozen dataclass's would: assigning or deleting a field raises FrozenInstanceError; pickling, copying
    and `dataclasses.replace` give an equal value."""
    if is_compiled(inspect.getmodule(cls)):
        pytest.skip("a compiled __init__ checks its arguments' types, and a compiled class does not unpickle")
    fields = dataclasses.fields(cls)
    made = cls(*(f"<{field.name}>" for field in fields))
    first = fields[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, first, "changed")
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(made, first)
    for again in (pickle.loads(pickle.dumps(made)), copy.copy(made), copy.deepcopy(made)):
        assert type(again) is cls and all(getattr(again, f.name) == getattr(made, f.name) for f in fields)
    changed = dataclasses.replace(made, **{first: "changed"})
    assert getattr(changed, first) == "changed" and getattr(made, first) == f"<{first}>"
