"""Dataclasses that write their `__init__` by hand (`init=False`: compiled, it is native code, where the one
`dataclasses` writes stays interpreted) take the fields the stdlib's would, in its order, with its defaults."""

import dataclasses
import importlib
import inspect
import pkgutil

import pytest

import amdgpu_lint
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


def test_the_hot_classes_are_among_them():
    names = {cls.__name__ for cls in HAND_WRITTEN}
    assert {"Statement", "Provenance", "Instruction", "Reg", "KernelContext"} <= names


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
