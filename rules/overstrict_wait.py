"""## What it finds
A wait with a lower count than needed: every register read or written before the next wait on
that counter (in the same basic block) comes from operations that a larger count already
retires. The message names the sufficient count. A wait followed by an atomic, a barrier, a
call, cache maintenance or an access with coherence bits (`glc`, `sc0`, `scope:`, ...) is left
alone: LLVM's memory model drains everything there. So is a count that retires an LDS DMA
(`buffer_load ... lds`) before an LDS access: the listing may not show which DMA the access
touches, and a compiler chooses that count with its alias scopes; and on gfx1250 an `s_wait_xcnt`
before a write to EXEC, which the accesses still being translated read (LLVM waits there).

## Why it matters
`vmcnt(0)` in a software-pipelined loop waits for the prefetch of the *next* iteration too:
on CDNA that is hundreds of cycles per wave that the pipelining was meant to hide.

## Example
```
global_load_dwordx4 v[0:3], ...     ; this iteration's data
global_load_dwordx4 v[4:7], ...     ; next iteration's prefetch
s_waitcnt vmcnt(0)                  ; vmcnt(1) is enough
v_mfma_... v[0:3] ...
```

A wait in a macro or `.rept` body gets one finding for its source line, with a count every
expansion can take, and none when some expansion needs the count as written.

On gfx12 the legacy `s_waitcnt` (still assembled, e.g. in ROCr's blit kernels) waits for every
counter whatever its operands; it is reported once per kernel.

## How to fix
Use the count the message gives; on gfx12, the `s_wait_<counter>` instructions.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.cfg import CFGAnalysis, ControlFlowGraph
from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.waitcnt import State, WaitcntAnalysis, WaitFacts, wait_facts
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa import absent_mnemonics
from amdgpu_lint.isa.defuse import DefUse
from amdgpu_lint.isa.waits import wait_text
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.ir import Instruction

CODE = "AGL203"
NAME = "overstrict-wait"
SEVERITY = Severity.INFO
SUMMARY = "wait count lower than the uses need"
SCOPE = "kernel"
REQUIRES = (CFGAnalysis, DefUseAnalysis, WaitcntAnalysis)


def _block_end(cfg: ControlFlowGraph, index: int) -> tuple[int, bool]:
    """(end of the instruction's block, whether the block ends the program)."""
    block = cfg.blocks[cfg.block_of[index]]
    last = block.terminator
    return cfg.starts[block.index] + len(block.instructions), last is not None and last.mnemonic.startswith("s_endpgm")


_ORDERING_BITS = frozenset(("glc", "sc0", "sc1", "dlc", "nt", "scope", "th"))
_MEMORY_UNITS = ("vmem", "smem", "ds")  # InstructionClass.is_memory: only these can order memory
_EXEC = frozenset((("exec", 0), ("exec", 1)))


def _orders_memory(instruction: Instruction, info: DefUse) -> bool:
    """Atomics, cache maintenance and accesses with coherence bits: LLVM's memory model waits
    for everything before them, whatever registers they use."""
    if info.klass.unit == "vmem" and info.klass.kind in ("atomic", "cache"):
        return True
    return info.klass.is_memory and any(name in _ORDERING_BITS for name, _ in instruction.modifiers)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(WaitcntAnalysis)
    target = context.module.target
    if report is None or target is None:  # the analysis is None without a target
        return
    kernel = context.kernel
    def_use = context.get(DefUseAnalysis)
    assert def_use is not None  # (None without a target only)
    facts = [shared.waits or wait_facts(shared, instruction, target)  # (the wait analysis made them all)
             for shared, instruction in zip(def_use.facts, def_use.instructions, strict=True)]
    cfg = context.get(CFGAnalysis)
    if target.major >= 12 and "s_waitcnt" not in absent_mnemonics(target):  # gfx1250 has none: unknown-instruction
        yield from _legacy_waits(context)
    better_at: dict[int, dict[str, int | None]] = {}
    for index, state in sorted(report.states_before.items()):
        instruction = kernel.instructions[index]
        if instruction.mnemonic == "s_waitcnt" and target.major >= 12:
            continue
        better_at[index] = _better_counts(context, index, facts[index].counts or {}, state, _block_end(cfg, index),
                                          def_use.per_instruction, facts)
    # a wait in a macro or .rept body is one source line for all its expansions: advise only a
    # count every expansion can take
    lines: dict[tuple[str, int], list[int]] = {}
    for index in better_at:
        where = kernel.instructions[index].where
        lines.setdefault((where.path, where.line), []).append(index)
    for indices in lines.values():
        better = _common(better_at[index] for index in indices)
        if not better:
            continue
        instruction = kernel.instructions[indices[0]]
        counts = facts[indices[0]].counts or {}
        replacement = {name: count for name, count in {**counts, **better}.items() if count is not None}
        waits = wait_text(replacement, target)
        advice = (" and ".join(f"`{line}`" for line in waits) + " is enough") if waits else (
            "nothing before the next wait needs it: remove it")
        yield context.diagnostic(
            instruction.where,
            f"{instruction.mnemonic} waits for more than the following instructions need; {advice}",
            kernel=kernel.name,
        )


def _better_counts(context: KernelContext, index: int, counts: dict[str, int], state: State,
                   end_and_final: tuple[int, bool], def_use: list[DefUse], facts: list[WaitFacts]) -> dict[str, int | None]:
    """Counter -> the count that is enough here (None: nothing before the next wait needs it)."""
    kernel = context.kernel
    end, final = end_and_final
    better: dict[str, int | None] = {}
    for name, count in counts.items():
        counter = state[name]
        if counter.out_of_order or not counter.regs:
            continue
        needed, closed = None, final
        regs = counter.regs
        # the count that retires every LDS DMA in flight (each writes LDS the listing may not locate)
        dma_count = min((entry[0] for unit, entry in regs.items() if unit[0] == "lds_dma"), default=None)
        for later in range(index + 1, end):
            counts_later = facts[later].counts
            if counts_later and name in counts_later:
                closed = True
                break
            info = def_use[later]
            unit = info.klass.unit
            if unit in ("barrier", "call", "return") or (
                    unit in _MEMORY_UNITS and _orders_memory(kernel.instructions[later], info)):
                needed = 0  # the wait may be a release for this access, not a register wait
                break
            if name == "xcnt" and "translation" in counter.types and not _EXEC.isdisjoint(info.defs):
                needed = 0  # VMEM accesses read EXEC: LLVM waits for their translation before writing it
                break
            if dma_count is not None and unit == "ds" and info.klass.memory == "lds" and info.klass.kind != "other":
                # an LDS access while LDS DMAs are in flight: the listing may not show which of them it
                # touches (a compiler chose the count with its alias scopes), so no looser count is advised
                needed = dma_count if needed is None else min(needed, dma_count)
            for registers in (info.uses, info.defs):
                for register in registers:
                    entry = regs.get(register)
                    if entry is not None:
                        needed = entry[0] if needed is None else min(needed, entry[0])
        if closed and (needed is None or needed > count):
            better[name] = needed
    return better


def _common(instances) -> dict[str, int | None]:
    """The relaxations every instance allows: per counter the strictest of them."""
    common: dict[str, int | None] | None = None
    for better in instances:
        if common is None:
            common = dict(better)
            continue
        common = {name: (value if common[name] is None else common[name] if value is None else min(value, common[name]))
                  for name, value in better.items() if name in common}
    return common or {}


def _legacy_waits(context: KernelContext) -> Iterator[Diagnostic]:
    """gfx12 still runs the deprecated `s_waitcnt`, as a wait for every counter: said once per kernel."""
    legacy = [instruction for instruction in context.kernel.instructions if instruction.mnemonic == "s_waitcnt"]
    if legacy:
        more = f" ({len(legacy) - 1} more in '{context.kernel.name}')" if len(legacy) > 1 else ""
        yield context.diagnostic(
            legacy[0].where,
            "on gfx12 the legacy s_waitcnt waits for every counter, stores and samples included (like "
            f"s_wait_idle), whatever its operands; name the counters with s_wait_loadcnt, s_wait_dscnt, ...{more}",
            kernel=context.kernel.name,
        )
