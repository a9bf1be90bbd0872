"""Scalar values along the simulated path, from kernel arguments given at the command line (`--kernarg NAME=VALUE`).

The path runs the kernel's scalar arithmetic on the SGPRs it can know: loads of named arguments through the
kernarg segment pointer (its user SGPRs from the descriptor), moves, 32-bit adds, subtracts, multiplies, shifts,
logic, min/max and compares, with SCC. Any other instruction that writes an SGPR or SCC makes it unknown. A
conditional branch on a known SCC (`s_cbranch_scc0/1`) then goes the way the kernel would, so a loop whose
counter comes from kernel arguments runs its real trip count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model.ir import Instruction, Kernel
from ...model.nodes import Num, Reg

MASK = 0xFFFFFFFF
_LOADS = {"s_load_dword": 1, "s_load_dwordx2": 2, "s_load_dwordx3": 3, "s_load_dwordx4": 4, "s_load_dwordx8": 8,
          "s_load_dwordx16": 16, "s_load_b32": 1, "s_load_b64": 2, "s_load_b96": 3, "s_load_b128": 4,
          "s_load_b256": 8, "s_load_b512": 16}
_COMPARES = {"eq": lambda a, b: a == b, "lg": lambda a, b: a != b, "gt": lambda a, b: a > b,
             "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b}


def _signed(value: int) -> int:
    return value - (1 << 32) if value & 0x80000000 else value


@dataclass(slots=True)
class Scalars:
    """Known SGPR values (32-bit, unsigned) and SCC as the path runs."""

    kernarg_bytes: dict[int, int]  # byte offset into the kernarg segment -> its value, for the arguments given
    pointer: int | None  # first SGPR of the kernarg segment pointer (None: the kernel does not ask for it)
    values: dict[int, int] = field(default_factory=dict)
    scc: bool | None = None
    pointer_intact: bool = True  # nothing has overwritten the pointer's SGPRs

    def run(self, instruction: Instruction, defs: frozenset) -> None:
        """Execute one instruction: its result where it is one of ours and its inputs are known, else forget
        what it writes."""
        mnemonic, operands = instruction.mnemonic, instruction.operands
        if self.pointer is not None and any(kind == "s" and index in (self.pointer, self.pointer + 1)
                                            for kind, index in defs):
            self.pointer_intact = False
        handled = False
        if mnemonic in _LOADS:
            handled = self._load(operands, _LOADS[mnemonic])
        elif mnemonic.startswith("s_cmp_") and len(operands) == 2:
            handled = self._compare(mnemonic, operands)
        elif len(operands) == 2 and mnemonic == "s_mov_b32":
            handled = self._set(operands[0], self.value(operands[1]), None)
        elif len(operands) == 3:
            handled = self._arithmetic(mnemonic, operands)
        if not handled:
            for kind, index in defs:
                if kind == "s":
                    self.values.pop(index, None)
                elif kind == "scc":
                    self.scc = None

    def value(self, operand) -> int | None:
        """A 32-bit operand's value, if known."""
        if isinstance(operand, Num) and isinstance(operand.value, int):
            return operand.value & MASK
        if isinstance(operand, Reg) and operand.kind == "s" and operand.count == 1:
            return self.values.get(operand.index)
        return None

    def branch(self, mnemonic: str) -> bool | None:
        """Whether an `s_cbranch_scc0/1` is taken, if SCC is known."""
        if self.scc is None or mnemonic not in ("s_cbranch_scc0", "s_cbranch_scc1"):
            return None
        return self.scc == (mnemonic == "s_cbranch_scc1")

    def _set(self, destination, value: int | None, scc: bool | None, sets_scc: bool = False) -> bool:
        if not (isinstance(destination, Reg) and destination.kind == "s" and destination.count == 1):
            return False
        if value is None:
            self.values.pop(destination.index, None)
        else:
            self.values[destination.index] = value & MASK
        if sets_scc:
            self.scc = scc
        return True

    def _load(self, operands, dwords: int) -> bool:
        if len(operands) < 3 or self.pointer is None or not self.pointer_intact:
            return False
        destination, base, offset = operands[:3]
        if not (isinstance(base, Reg) and base.kind == "s" and base.index == self.pointer and base.count == 2
                and isinstance(destination, Reg) and destination.kind == "s" and isinstance(offset, Num)
                and isinstance(offset.value, int)):
            return False
        for dword in range(min(dwords, destination.count)):
            start = offset.value + 4 * dword
            data = [self.kernarg_bytes.get(start + byte) for byte in range(4)]
            if any(part is None for part in data):
                self.values.pop(destination.index + dword, None)
            else:
                self.values[destination.index + dword] = sum(part << (8 * byte) for byte, part in enumerate(data)
                                                             if part is not None)
        return True

    def _compare(self, mnemonic: str, operands) -> bool:
        parts = mnemonic.split("_")  # s, cmp, eq, u32
        if len(parts) != 4 or parts[2] not in _COMPARES or parts[3] not in ("u32", "i32"):
            return False
        a, b = self.value(operands[0]), self.value(operands[1])
        if a is None or b is None:
            self.scc = None
        else:
            if parts[3] == "i32":
                a, b = _signed(a), _signed(b)
            self.scc = _COMPARES[parts[2]](a, b)
        return True

    def _arithmetic(self, mnemonic: str, operands) -> bool:
        operation = mnemonic.replace("_co_", "_")
        a, b = self.value(operands[1]), self.value(operands[2])
        destination = operands[0]
        if operation not in _ARITHMETIC:
            return False
        if a is None or b is None:
            return self._set(destination, None, None, sets_scc=operation != "s_mul_i32")
        result, scc = _ARITHMETIC[operation](a, b)
        return self._set(destination, result, scc, sets_scc=scc is not None)


def _add_u32(a: int, b: int) -> tuple[int, bool | None]:
    return (a + b) & MASK, a + b > MASK


def _sub_u32(a: int, b: int) -> tuple[int, bool | None]:
    return (a - b) & MASK, b > a


def _add_i32(a: int, b: int) -> tuple[int, bool | None]:
    total = _signed(a) + _signed(b)
    return total & MASK, not -(1 << 31) <= total < (1 << 31)


def _sub_i32(a: int, b: int) -> tuple[int, bool | None]:
    total = _signed(a) - _signed(b)
    return total & MASK, not -(1 << 31) <= total < (1 << 31)


def _nonzero(result: int) -> tuple[int, bool | None]:
    return result & MASK, result & MASK != 0


_ARITHMETIC = {
    "s_add_u32": _add_u32, "s_sub_u32": _sub_u32, "s_add_i32": _add_i32, "s_sub_i32": _sub_i32,
    "s_mul_i32": lambda a, b: ((_signed(a) * _signed(b)) & MASK, None),
    "s_lshl_b32": lambda a, b: _nonzero(a << (b & 31)), "s_lshr_b32": lambda a, b: _nonzero(a >> (b & 31)),
    "s_ashr_i32": lambda a, b: _nonzero(_signed(a) >> (b & 31)),
    "s_and_b32": lambda a, b: _nonzero(a & b), "s_or_b32": lambda a, b: _nonzero(a | b),
    "s_xor_b32": lambda a, b: _nonzero(a ^ b),
    "s_min_u32": lambda a, b: (min(a, b), a < b), "s_max_u32": lambda a, b: (max(a, b), a > b),
    "s_min_i32": lambda a, b: (a if _signed(a) < _signed(b) else b, _signed(a) < _signed(b)),
    "s_max_i32": lambda a, b: (a if _signed(a) > _signed(b) else b, _signed(a) > _signed(b)),
}


def kernel_arguments(kernel: Kernel, given: dict[str, int]) -> tuple[Scalars | None, list[str]]:
    """The scalar state a kernel starts with, from the arguments given by name (its metadata's `.args`), and what
    could not be used; None when nothing was given."""
    if not given:
        return None, []
    arguments = {arg.get(".name"): arg for arg in (kernel.metadata or {}).get(".args", []) or []
                 if isinstance(arg, dict) and arg.get(".name")}
    problems = []
    data: dict[int, int] = {}
    for name, value in given.items():
        argument = arguments.get(name)
        if argument is None or not isinstance(argument.get(".offset"), int) or not isinstance(argument.get(".size"), int):
            known = ", ".join(sorted(str(name) for name in arguments)) or "none in its metadata"
            problems.append(f"--kernarg {name}: the kernel has no argument {name} (its arguments: {known})")
            continue
        for byte in range(argument[".size"]):
            data[argument[".offset"] + byte] = (value >> (8 * byte)) & 0xFF
    descriptor = kernel.descriptor or {}
    pointer = None
    if descriptor.get("user_sgpr_kernarg_segment_ptr"):
        pointer = (4 * bool(descriptor.get("user_sgpr_private_segment_buffer"))
                   + 2 * bool(descriptor.get("user_sgpr_dispatch_ptr")) + 2 * bool(descriptor.get("user_sgpr_queue_ptr")))
    else:
        problems.append("--kernarg: the kernel's descriptor does not ask for the kernarg segment pointer, so its "
                        "arguments cannot be followed")
    return Scalars(data, pointer), problems
