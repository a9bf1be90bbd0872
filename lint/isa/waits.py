"""Wait instructions: what each one waits for, and how to write a wait for a target.

Covers `s_waitcnt` (named counters, `&`/`,`/blank separated, or a raw immediate decoded with
each generation's bit layout), the gfx10/11 SOPK forms (`s_waitcnt_vscnt null, n`, ...), and
the gfx12 `s_wait_<counter>` family including the combined `s_wait_loadcnt_dscnt` (gfx1250 adds
`s_wait_xcnt` and `s_wait_asynccnt`). gfx12 still
runs the legacy `s_waitcnt`, whatever its operands, as a wait for every counter (`s_wait_idle`).
"""

from __future__ import annotations

from ..model.nodes import BinOp, Call, Node, Num
from ..model.targets import Target

_NAMED = {"vmcnt", "expcnt", "lgkmcnt", "vscnt"}
_SOPK = {"s_waitcnt_vscnt": "vscnt", "s_waitcnt_vmcnt": "vmcnt", "s_waitcnt_expcnt": "expcnt",
         "s_waitcnt_lgkmcnt": "lgkmcnt"}
_GFX12 = {"loadcnt", "storecnt", "samplecnt", "bvhcnt", "expcnt", "dscnt", "kmcnt", "xcnt", "asynccnt"}


def _bits(value: int, low: int, width: int) -> int:
    return (value >> low) & ((1 << width) - 1)


def decode_raw(value: int, target: Target) -> dict[str, int]:
    """Counts in a raw `s_waitcnt` immediate (facts §2.5 layouts)."""
    if target.major >= 11:
        return {"expcnt": _bits(value, 0, 3), "lgkmcnt": _bits(value, 4, 6), "vmcnt": _bits(value, 10, 6)}
    vmcnt = _bits(value, 0, 4)
    if target.major >= 9:
        vmcnt |= _bits(value, 14, 2) << 4
    lgkm_width = 6 if target.major >= 10 else 4
    return {"vmcnt": vmcnt, "expcnt": _bits(value, 4, 3), "lgkmcnt": _bits(value, 8, lgkm_width)}


def _collect_named(node: Node, found: dict[str, int]) -> bool:
    if isinstance(node, BinOp) and node.op in ("&", ","):
        return _collect_named(node.left, found) and _collect_named(node.right, found)
    if isinstance(node, Call) and node.name.lower() in _NAMED and len(node.args) == 1 and isinstance(node.args[0], Num):
        found[node.name.lower()] = int(node.args[0].value)
        return True
    return False


def wait_counts(mnemonic: str, operands: tuple[Node, ...], target: Target) -> dict[str, int] | None:
    """Counter -> count this instruction waits for (a count at the counter's maximum waits for
    nothing and is left out); None when the instruction is not a memory-counter wait."""
    maxima = target.wait_counter_max
    counts: dict[str, int] = {}
    if mnemonic == "s_waitcnt" and target.major >= 12:
        return {name: 0 for name in maxima}  # deprecated on gfx12: waits for every counter, like s_wait_idle
    if mnemonic == "s_waitcnt":
        if not operands:
            counts = {name: 0 for name in ("vmcnt", "expcnt", "lgkmcnt")}
        elif len(operands) == 1 and isinstance(operands[0], Num):
            counts = decode_raw(int(operands[0].value), target)
        else:
            for operand in operands:
                if not _collect_named(operand, counts):
                    return None
    elif mnemonic in _SOPK:
        if not operands or not isinstance(operands[-1], Num):
            return None
        counts = {_SOPK[mnemonic]: int(operands[-1].value)}
    elif mnemonic.startswith("s_wait_") and target.major >= 12:
        name = mnemonic[len("s_wait_"):]
        value = int(operands[0].value) if operands and isinstance(operands[0], Num) else None
        if value is None:
            return None
        if name in ("loadcnt_dscnt", "storecnt_dscnt"):
            counts = {name.split("_")[0]: _bits(value, 8, 6), "dscnt": _bits(value, 0, 6)}
        elif name in _GFX12:
            counts = {name: value}
        else:
            return None
    elif mnemonic == "s_wait_idle":
        return {name: 0 for name in maxima}
    else:
        return None
    return {name: count for name, count in counts.items() if name in maxima and count < maxima[name]}


def wait_text(counts: dict[str, int], target: Target) -> list[str]:
    """Assembly lines that wait for `counts` on the target (LLVM's spelling)."""
    if target.major >= 12:
        return [f"s_wait_{name} 0x{count:x}" for name, count in sorted(counts.items())]
    lines = []
    named = [f"{name}({counts[name]})" for name in ("vmcnt", "expcnt", "lgkmcnt") if name in counts]
    if named:
        lines.append("s_waitcnt " + " ".join(named))
    if "vscnt" in counts:
        lines.append(f"s_waitcnt_vscnt null, 0x{counts['vscnt']:x}")
    return lines
