"""Integer expression evaluation with the semantics of LLVM's assembler (64-bit, C division)."""

from __future__ import annotations

from collections.abc import Callable

from .nodes import Abs, BinOp, Call, ListExpr, Node, Num, Reg, RegExpr, SpecialReg, Str, Sym, UnOp

Value = int | float
Lookup = Callable[[str], Value | None]

_MASK = (1 << 64) - 1


class EvalError(Exception):
    """An expression cannot be evaluated to a number (undefined symbol, bad operator, ...)."""

    def __init__(self, message: str, symbol: str | None = None):
        super().__init__(message)
        self.symbol = symbol


def _wrap(value: int) -> int:
    value &= _MASK
    return value - (1 << 64) if value >> 63 else value


def _int(value: Value, op: str) -> int:
    if isinstance(value, float):
        raise EvalError(f"operator '{op}' needs integer operands")
    return value


def _divide(a: int, b: int, op: str) -> int:
    if b == 0:
        raise EvalError("division by zero")
    quotient = abs(a) // abs(b)
    if op == "/":
        return quotient if (a >= 0) == (b >= 0) else -quotient
    remainder = abs(a) - quotient * abs(b)
    return remainder if a >= 0 else -remainder


def binary_op(op: str, a: Value, b: Value) -> Value:
    if op in ("+", "-", "*") and (isinstance(a, float) or isinstance(b, float)):
        return a + b if op == "+" else a - b if op == "-" else a * b
    if op in ("==", "!=", "<>", "<", "<=", ">", ">="):
        result = {
            "==": a == b, "!=": a != b, "<>": a != b,
            "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
        }[op]
        return int(result)
    if op == "&&":
        return int(bool(a) and bool(b))
    if op == "||":
        return int(bool(a) or bool(b))
    x, y = _int(a, op), _int(b, op)
    if op == "+":
        return _wrap(x + y)
    if op == "-":
        return _wrap(x - y)
    if op == "*":
        return _wrap(x * y)
    if op in ("/", "%"):
        return _divide(x, y, op)
    if op == "<<":
        return _wrap(x << (y & 63))
    if op == ">>":
        return _wrap(x >> (y & 63))
    if op == "|":
        return _wrap(x | y)
    if op == "&":
        return _wrap(x & y)
    if op == "^":
        return _wrap(x ^ y)
    raise EvalError(f"unsupported operator '{op}'")


def _align_to(value: int, alignment: int) -> int:
    if alignment <= 0:
        raise EvalError("alignto() needs a positive alignment")
    return -(-value // alignment) * alignment


def _occupancy(args: list[Value]) -> int:
    """`occupancy(max_waves, granule, total_vgprs, generation, initial, sgprs, vgprs)` as LLVM's MC expression."""
    max_waves, granule, total_vgprs, generation, initial, sgprs, vgprs = (_int(arg, "occupancy") for arg in args)
    from .targets import waves_for_sgprs, waves_for_vgprs

    waves = initial
    if sgprs:  # LLVM's generation numbers: 7 is Volcanic Islands (gfx8), 9 is gfx10, where SGPRs stop limiting
        waves = min(waves, max_waves if generation >= 9 else waves_for_sgprs(sgprs, generation >= 7))
    if vgprs:
        if granule <= 0:
            raise EvalError("occupancy() needs a positive VGPR granule")
        waves = min(waves, waves_for_vgprs(vgprs, granule, total_vgprs, max_waves))
    return waves


_FUNCTIONS: dict[str, Callable[[list[Value]], Value]] = {
    "max": lambda args: max(args),
    "min": lambda args: min(args),
    "or": lambda args: int(any(args)),
    "alignto": lambda args: _align_to(_int(args[0], "alignto"), _int(args[1], "alignto")),
    "occupancy": _occupancy,
}
_ARITY = {"alignto": 2, "occupancy": 7, "extrasgprs": 3, "totalnumvgprs": 2}
Functions = dict[str, Callable[[list[Value]], Value]]


def target_functions(target) -> Functions:
    """LLVM's AMDGPU MC expression functions whose value depends on the processor."""
    from .targets import extra_sgprs

    def total_vgprs(args: list[Value]) -> int:
        agprs, vgprs = (_int(arg, "totalnumvgprs") for arg in args)
        if target.agpr_file == "unified":
            return _align_to(vgprs, 4) + agprs if agprs else vgprs
        return max(vgprs, agprs)

    return {
        "extrasgprs": lambda args: extra_sgprs(target, *(bool(_int(arg, "extrasgprs")) for arg in args)),
        "totalnumvgprs": total_vgprs,
    }


def evaluate(node: Node, lookup: Lookup, functions: Functions | None = None) -> Value:
    """Evaluate `node`; `lookup(name)` returns a symbol's value or None when it is undefined;
    `functions` adds the processor's MC expression functions (`target_functions`)."""
    try:
        return _evaluate(node, lookup, functions or {})
    except RecursionError:
        raise EvalError("expression nested too deeply") from None


def _evaluate(node: Node, lookup: Lookup, functions: Functions) -> Value:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Sym):
        value = lookup(node.name)
        if value is None:
            raise EvalError(f"symbol '{node.name}' is not defined", node.name)
        return value
    if isinstance(node, BinOp):
        return binary_op(node.op, _evaluate(node.left, lookup, functions), _evaluate(node.right, lookup, functions))
    if isinstance(node, UnOp):
        value = _evaluate(node.operand, lookup, functions)
        if node.op == "-":
            return -value if isinstance(value, float) else _wrap(-value)
        if node.op == "+":
            return value
        if node.op == "~":
            return _wrap(~_int(value, "~"))
        return int(not value)
    if isinstance(node, Call):
        name = node.name.lower()
        function = functions.get(name) or _FUNCTIONS.get(name)
        if function is None or not node.args:
            raise EvalError(f"'{node.name}(...)' is not a constant expression")
        if name in _ARITY and len(node.args) != _ARITY[name]:
            raise EvalError(f"{name}() takes {_ARITY[name]} arguments")
        return function([_evaluate(arg, lookup, functions) for arg in node.args])
    if isinstance(node, (Reg, RegExpr, SpecialReg)):
        raise EvalError(f"register '{node}' is not a constant expression")
    if isinstance(node, (Str, ListExpr, Abs)):
        raise EvalError("not a constant expression")
    raise EvalError(f"cannot evaluate {type(node).__name__}")
