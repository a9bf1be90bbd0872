"""`record` makes what `dataclass` makes: the same equality, hash, repr and hashability, for every
combination of options the package uses; `field`, `fields` and `replace` as the `dataclasses` ones."""

import dataclasses
import pickle

import pytest
from amdgpu_lint import records
from amdgpu_lint.records import FrozenInstanceError, field, fields, record, replace

#: each decorator with the `field` it reads
DECORATORS = [(dataclasses.dataclass, dataclasses.field), (record, field)]

OPTIONS = [{}, {"frozen": True}, {"slots": True}, {"frozen": True, "slots": True}, {"slots": True, "eq": False},
           {"slots": True, "unsafe_hash": True}]


@record(frozen=True, slots=True)
class Pickled:
    """A frozen record with slots, as the workers of --jobs send them back."""

    number: int
    text: str


def twins(**options):
    """The same class made by dataclass and by record."""
    made = []
    for decorate, field_of in DECORATORS:
        class Point:
            """A test class."""

            x: int
            label: str = "p"
            tags: tuple = ()
            note: str = field_of(default="", compare=False, hash=False)

        made.append(decorate(**options)(Point))
    return made


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_equality_hash_and_repr_are_dataclass_ones(options):
    expected, actual = twins(**options)
    values = [(1, "a", (2,), "n"), (1, "a", (2,), "other note"), (1, "b", (), "")]
    for first in values:
        for second in values:
            assert (expected(*first) == expected(*second)) == (actual(*first) == actual(*second))
            assert (expected(*first) != expected(*second)) == (actual(*first) != actual(*second))
        assert repr(actual(*first)) == repr(expected(*first))
        if expected.__hash__ is None:
            assert actual.__hash__ is None
        elif expected.__hash__ is object.__hash__:
            assert actual.__hash__ is object.__hash__  # eq=False: compared and hashed by identity
        else:
            assert hash(actual(*first)) == hash(expected(*first))
    assert actual(1) != expected(1)  # another class, whatever the fields
    assert [f.name for f in fields(actual)] == ["x", "label", "tags", "note"]
    assert replace(actual(1), x=2) == actual(2) or options.get("eq") is False


def test_a_frozen_record_refuses_assignment_and_a_repr_may_refer_to_itself():
    point = twins(frozen=True)[1](1)
    with pytest.raises(FrozenInstanceError):
        point.x = 2

    @record
    class Node:
        """A test class."""

        children: list

    node = Node([])
    node.children.append(node)
    assert repr(node).endswith(".Node(children=[...])")


def test_one_field_and_no_field_hash_as_their_tuples():
    @record(frozen=True)
    class One:
        """A test class."""

        value: float

    @record(frozen=True)
    class Empty:
        """A test class."""

    assert hash(One(1.5)) == hash((1.5,)) and hash(Empty()) == hash(())
    nan = float("nan")
    assert One(nan) == One(nan)  # compared as tuples: the same object is equal to itself


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_construction_defaults_and_copies_are_dataclass_ones(options):
    import copy

    made = []
    for decorate, field_of in DECORATORS:
        class Bag:
            """A test class."""

            name: str
            items: list = field_of(default_factory=list)
            count: int = 3
            seen: set = field_of(default_factory=set, init=False)
            limit: int = field_of(default=7, init=False)

        made.append(decorate(**options)(Bag))
    expected, actual = made
    for arguments, keywords in [(("a",), {}), (("a", [1], 4), {}), ((), {"name": "b", "count": 0})]:
        want, got = expected(*arguments, **keywords), actual(*arguments, **keywords)
        assert [getattr(got, f.name) for f in fields(got)] == [getattr(want, f.name) for f in dataclasses.fields(want)]
    assert actual("a").items is not actual("a").items  # a factory's value per instance
    for copied in (copy.copy(actual("c", [2])), copy.deepcopy(actual("c", [2]))):
        assert (copied.name, copied.items, copied.count) == ("c", [2], 3)
    assert pickle.loads(pickle.dumps(Pickled(1, "a"))) == Pickled(1, "a")
    with pytest.raises(TypeError):
        actual()  # a parameter left out, as the compiled __init__ says
    if options.get("frozen"):
        with pytest.raises(FrozenInstanceError):
            del actual("d").name


def test_init_is_compiled_on_the_first_instance_and_post_init_runs():
    @record(frozen=True, slots=True)
    class Pair:
        """A test class."""

        left: int
        right: int = 0

        def __post_init__(self):
            if self.left < 0:
                raise ValueError("negative")

    placeholder = Pair.__init__
    assert Pair(1, 2).right == 2 and Pair.__init__ is not placeholder
    assert Pair.__init__.__qualname__.endswith("Pair.__init__")
    with pytest.raises(ValueError):
        Pair(-1)


def test_fields_the_made_init_would_not_take_are_refused_at_once():
    from dataclasses import KW_ONLY, InitVar

    with pytest.raises(TypeError, match="keyword-only or InitVar"):
        @record
        class Keywords:
            """A test class."""

            first: int
            _: KW_ONLY
            second: int = 0

    with pytest.raises(TypeError, match="keyword-only or InitVar"):
        @record
        class InitOnly:
            """A test class."""

            first: int
            scale: InitVar[int] = 1


def test_a_parameter_without_default_after_one_with_default_is_refused_at_once():
    with pytest.raises(TypeError, match="non-default argument 'second'"):
        @record
        class Wrong:
            """A test class."""

            first: int = 0
            second: int


def test_methods_come_precompiled_for_the_packages_records_and_are_compiled_for_others():
    import subprocess
    import sys
    from pathlib import Path

    from amdgpu_lint.ir import Provenance
    from amdgpu_lint.nodes import Reg

    assert Provenance("k.s", 3).line == 3 and Reg("v", 1) == Reg("v", 1) and hash(Reg("v", 1)) == hash(Reg("v", 1))
    for method in (Provenance.__init__, Reg.__init__, Reg.__eq__, Reg.__hash__):
        assert method.__code__.co_filename.endswith("records_precompiled.py")

    @record(frozen=True, compiled_eq=True)
    class Unlisted:
        """A record whose methods the file does not have."""

        a_field_no_package_record_has: int

    assert Unlisted(1) == Unlisted(1)
    assert Unlisted.__init__.__code__.co_filename == Unlisted.__eq__.__code__.co_filename == "<string>"
    script = Path(__file__).resolve().parent.parent / "scripts" / "gen_record_methods.py"
    run = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr  # the file is what the script writes today


def test_fields_inheritance_slots_and_class_variables_read_as_dataclass_reads_them():
    """What `record` reads without `dataclasses`: base fields first, a `ClassVar` no field, a field's class
    attribute its default (none for a factory), slots for the fields a base does not hold, match arguments."""
    from typing import ClassVar

    made = []
    for decorate, field_of in DECORATORS:
        @decorate
        class Base:
            """A test class."""

            kind: ClassVar[str] = "base"
            first: int
            shared: list = field_of(default_factory=list)

        @decorate(slots=True)
        class Derived(Base):
            """A test class."""

            second: str = "s"
            third: int = field_of(default=3, repr=False)

        made.append((Base, Derived))
    (base, derived), (record_base, record_derived) = made
    assert [(f.name, f.init, f.repr) for f in fields(record_derived)] == [
        (f.name, f.init, f.repr) for f in dataclasses.fields(derived)]
    assert record_derived.__slots__ == derived.__slots__ == ("first", "shared", "second", "third")
    assert record_derived.__match_args__ == derived.__match_args__ == ("first", "shared", "second", "third")
    assert "shared" not in vars(record_base) and record_base.kind == "base"
    assert repr(record_derived(1)).endswith("Derived(first=1, shared=[], second='s')")
    assert repr(derived(1)).endswith("Derived(first=1, shared=[], second='s')")


def test_replace_and_fields_refuse_what_the_dataclasses_ones_refuse():
    @record(frozen=True)
    class Counted:
        """A test class."""

        value: int
        uses: int = field(default=0, init=False)

    changed = replace(Counted(1), value=2)
    assert (changed.value, changed.uses) == (2, 0)
    with pytest.raises(ValueError, match="init=False"):
        replace(Counted(1), uses=1)
    with pytest.raises(TypeError):
        fields(object())
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Shared:
            """A test class."""

            items: list = []  # noqa: RUF012 - what is refused
    with pytest.raises(FrozenInstanceError):
        changed.value = 3
    assert issubclass(records.FrozenInstanceError, AttributeError)
