"""Expression evaluation follows LLVM MC: GNU precedence, 64-bit wrap, C division."""

import pytest
from amdgpu_lint.model.expr import EvalError, evaluate
from amdgpu_lint.frontend.syntax import parse_expressions


def value(text, symbols=None):
    (node,) = parse_expressions(text)
    return evaluate(node, (symbols or {}).get)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3", 7),
        ("(1 << 5) | 3", 35),
        ("1 + 2 | 4", 7),  # | binds tighter than + in GNU as: 1 + (2 | 4)
        ("8 >> 1 + 1", 5),  # shifts bind tighter than +: (8 >> 1) + 1
        ("-7 / 2", -3),
        ("-7 % 2", -1),
        ("7 / -2", -3),
        ("~0", -1),
        ("!0", 1),
        ("3 == 3", 1),
        ("3 <> 3", 0),
        ("2 < 3 && 3 < 2", 0),
        ("0 || 5", 1),
        ("1 << 64", 1),  # shift count is taken modulo 64
        ("0x7fffffffffffffff + 1", -(1 << 63)),
        ("max(3, 9, 4)", 9),
        ("min(3, 9, 4)", 3),
        ("alignto(13, 8)", 16),
        ("or(0, 0, 2)", 1),
        ("010", 8),
    ],
)
def test_values(text, expected):
    assert value(text) == expected


def test_symbols():
    assert value("vgprA + 4 * 2", {"vgprA": 10}) == 18


@pytest.mark.parametrize("text", ["1 / 0", "undefined_sym + 1", "v0 + 1", "foo(1)"])
def test_errors(text):
    with pytest.raises(EvalError):
        value(text)


def test_undefined_symbol_is_named():
    with pytest.raises(EvalError) as error:
        value("vgprX + 1")
    assert error.value.symbol == "vgprX"
