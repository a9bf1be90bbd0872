"""## What it finds
A register read (RAW) or overwritten (WAW) while a memory operation that writes it may still
be in flight on some path, with the weakest sufficient wait:
- a VMEM load (`global_load`, `buffer_load`, `flat_load`, `image_*`), an SMEM load
  (`s_load`, `s_buffer_load`), an LDS read, an LDS parameter load, or an atomic that returns data
  (an atomic without `glc`/`sc0`/`th:...RETURN` writes no register);
- the data of a store, export or GDS operation overwritten before `expcnt` says it was read
  (reading it is fine), and on gfx1250 an address register overwritten before `xcnt` says it
  was translated (translations retire in order unless SMEM is in flight, the hardware waits for
  earlier translations itself where SMEM and VMEM accesses interleave, and an access known to be
  done was translated: `s_wait_loadcnt` is also a wait for the addresses of the loads it retires);
- LDS written by `buffer_load ... lds` accessed with `ds_*` before `vmcnt` retires the DMA. Each
  DMA retires in order with the loads (before gfx10). Where M0 and the access address are copied
  from one value (`s_mov_b32 m0, s2` / `v_mov_b32 v1, s2`, or constants) their offsets decide;
  only that shows an overlap, an error. Otherwise it is a warning that says why the listing cannot
  tell: the block sets M0 for every DMA still in flight but the access address has another source
  (double-buffered kernels such as aiter's flatmm read one buffer while DMAs fill the other), or
  M0 is set in another block; a partial `vmcnt(N)` wait on the way (a double-buffered prefetch
  the compiler proved safe with alias scopes) is named. In LLVM's own listing (hipcc
  `--save-temps`, `clang -S`, Triton's `.amdgcn`) with no inline asm from the DMA to the access,
  that warning is not given: LLVM counts each DMA and chooses the wait (or none) from the IR's
  alias scopes, which the listing does not show. `ds_permute`, `ds_bpermute` and
  `ds_swizzle` touch no LDS memory and race with no DMA;
- LDS written by this wave (`ds_write`, atomics) still in flight at `s_barrier` when an LDS read
  can follow that barrier before the writes are waited for and another barrier is passed: other
  waves may read the old data;
- loads in flight at a cache invalidation (`buffer_gl0_inv`, `buffer_wbinvl1`, ...);
- in a non-kernel function, registers used before any wait (the caller's loads may still be in
  flight: a callee waits at entry), and returns with loads in flight. A jump to an address the
  function built on every path into it (`s_getpc_b64` + `callee@rel32@lo`, a symbol, a GOT load),
  followed back through copies, labels and SGPRs spilled to VGPR lanes, is a tail call, not a
  return; a jump to the address the function was entered with (`s[30:31]`) is a return.

- `s_sendmsg_rtn_b32/b64` results: the destination (an SGPR, a trap temporary, or EXEC) is written
  when the answer returns, on `lgkmcnt` (gfx12 `kmcnt`);
- in a trap handler (code that returns with `s_rfe`), results still coming into registers at
  `s_rfe`: the interrupted code resumes not knowing to wait for them.

As warnings:
- anything in flight at `s_barrier` (`vmcnt`, `expcnt`, `lgkmcnt`) on gfx6-gfx908, which have no
  back-off barrier: a memory operation that faults (XNACK replay, a memory violation, the debugger)
  while the wave sits in the barrier cannot be handled and the workgroup may hang. LLVM waits for
  every counter there (LLVM 22: gfx600-gfx908 get `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)` as
  needed; gfx90a, gfx94x, gfx950 and gfx10+ have the back-off barrier and get none). No data race
  is implied, and the analysis never assumes the barrier drained anything;
- messages in flight (`s_sendmsg`) at a trap handler's `s_rfe` or `s_endpgm`: wait for them to
  leave the wave (ROCm's handler waits `lgkmcnt(0)` after `sendmsg(MSG_INTERRUPT)`). A kernel may end
  with messages in flight (LLVM's `MSG_DEALLOC_VGPRS` before `s_endpgm`).

The model follows LLVM's SIInsertWaitcnts: loads of one kind retire in order, SMEM does not,
a counter with mixed kinds of events (LDS and SMEM on `lgkmcnt`) or a FLAT access pending needs a
wait of 0, counters saturate at each generation's maximum, and loops are iterated to a fixed
point. On gfx12 the legacy `s_waitcnt` (still assembled) waits for every counter, like
`s_wait_idle`.

Paths that cannot happen are not walked. A branch on an SCC test that repeats an earlier one with
its operands unchanged takes the same outcome (Tensile tests `s_cmp_eq_u32 s5, 0` twice: loads
under the first, their wait under the second). An SGPR compared with constants
(`s_cmp_{eq,lg,lt,le,gt,ge}_{u32,i32}`, `s_cmpk_*`) keeps, on each branch edge, the values that
edge allows until it is written again, as a few ranges; an edge it has no value for is not taken.
Tensile and hipBLASLt guard a prefetch stage with `s_cmp_le_u32 s10, 2` and test the counter
again before the loop (`s_cmp_eq_u32 s10, 1`, `s_cmp_eq_u32 s10, 2`, `s_cmp_le_u32 s10, 3`):
the loop's `vmcnt(1)` is judged only on the paths that issued that stage. Nothing else about
SGPR values is inferred (a counter updated in a loop is unknown after the update, and every SGPR
after a call).

On gfx1250, `s_set_vgpr_msb` selects the bank of the VGPRs the next instructions name (`v5` is v261
under `s_set_vgpr_msb 0x41`): the waits are judged on the registers the mode selects, followed along
every path. Where paths with different modes meet, its VGPRs are not tracked.

FLAT accesses: a listing does not show address spaces, so a `flat_*` access counts as LDS
(needing `lgkmcnt`/`dscnt` too) only when the same kernel or function reads the shared aperture
(`src_shared_base`, `src_shared_limit` or `hwreg(HW_REG_SH_MEM_BASES)`), the only way to build a
generic LDS address. Otherwise it is a global access, as LLVM treats flat-for-global (gfx7/gfx8)
and tgsplit code; its LDS half still counts as an event on `lgkmcnt` (in order from gfx10, as
LLVM counts it), so the counts LLVM chose for flat pointers stay right. An LDS pointer passed in from a caller, or built from the gfx7/gfx8 queue
descriptor's aperture, is not seen.

## Why it matters
The instruction sees the old register contents on some waves, some of the time: a silent data
race. It is the most common bug in hand-written GPU assembly.

## Example
```
global_load_dwordx4 v[4:7], v0, s[0:1]
global_load_dwordx4 v[8:11], v0, s[0:1] offset:16
v_add_f32 v12, v4, v8          ; v[4:7] and v[8:11] may still be loading
```
```
s_sendmsg_rtn_b32 ttmp3, sendmsg(MSG_RTN_GET_DOORBELL)
s_and_b32 ttmp3, ttmp3, 0x3ff  ; the answer may not be back: s_waitcnt lgkmcnt(0) first
```
```
ds_read_b32 v2, v1             ; gfx908
s_barrier                      ; warning: lgkmcnt in flight at a barrier without back-off
```

## How to fix
Insert the wait the message names (`amdgpu-lint check --fix` does it), as late as possible:
`s_waitcnt vmcnt(1)` is enough for the first load when only the second may still be outstanding.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.waitcnt import LDS_DMA_UNPROVEN, LDS_STORE, Need, WaitcntAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa.defuse import format_units
from amdgpu_lint.isa.waits import wait_counts, wait_text
from amdgpu_lint.model.debuglines import llvm_generated
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity
from amdgpu_lint.model.targets import Target

_NOT_PROVEN = ("barrier-drain", "message", *LDS_DMA_UNPROVEN)  # reported as warnings

CODE = "AGL201"
NAME = "missing-wait"
SEVERITY = Severity.ERROR
SUMMARY = "register used while a memory operation on it may still be in flight"
SCOPE = "kernel"
REQUIRES = (WaitcntAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(WaitcntAnalysis)
    target = context.module.target
    if report is None or target is None:  # the analysis is None without a target
        return
    for index, needs in sorted(report.missing.items()):
        races = [need for need in needs if need.access not in _NOT_PROVEN]
        if races:
            yield _finding(context, target, index, races, None)
        for access in _NOT_PROVEN:  # LLVM's barrier policy; LDS DMA regions the listing cannot compare
            unproven = [need for need in needs if need.access == access and not _llvm_chose(context, need, index)]
            if unproven:
                yield _finding(context, target, index, unproven, Severity.WARNING)


def _llvm_chose(context: KernelContext, need: Need, consumer: int) -> bool:
    """An LDS DMA still in flight at an LDS access in LLVM's listing, with no inline asm from the DMA to the access:
    LLVM's wait counting chose to leave it in flight (its alias scopes keep the two apart)."""
    if need.access not in LDS_DMA_UNPROVEN or need.producer is None:
        return False
    instructions = context.kernel.instructions
    return llvm_generated(context.module.sources, (instructions[index].where for index in
                                                   (need.producer, *_between(need.producer, consumer, len(instructions)),
                                                    consumer)))


def _finding(context: KernelContext, target: Target, consumer: int, needs: list[Need],
             severity: Severity | None) -> Diagnostic:
    kernel = context.kernel
    instruction = kernel.instructions[consumer]
    counts: dict[str, int] = {}
    for need in needs:
        counts[need.counter] = min(counts.get(need.counter, need.count), need.count)
    lines = wait_text(counts, target)
    first = min(needs, key=lambda need: (need.producer is None, need.count))
    message = _message(context, target, instruction.mnemonic, needs, first, consumer)
    producer_notes = tuple(
        Note(f"{kernel.instructions[p].mnemonic} issued here", kernel.instructions[p].where.path,
             kernel.instructions[p].where.line, kernel.instructions[p].where.column)
        for p in sorted({need.producer for need in needs if need.producer is not None})
    )
    insertion = " and ".join(f"`{line}`" for line in lines)
    return context.diagnostic(
        instruction.where,
        f"{message}; insert {insertion} before this line",
        kernel=kernel.name,
        notes=producer_notes,
        severity=severity,
        # the analysis goes on as if this wait were made, except for the accesses it cannot prove
        fix=context.insert_before(instruction.where, lines, f"insert {insertion}",
                                  isolated=any(need.access in _NOT_PROVEN for need in needs)),
    )


def _message(context: KernelContext, target: Target, mnemonic: str, needs, first, consumer: int) -> str:
    kernel = context.kernel
    producer = kernel.instructions[first.producer] if first.producer is not None else None
    origin = f"{producer.mnemonic} at {producer.where}" if producer else "the caller's memory operations"
    if first.access == "barrier-lds":
        return (f"s_barrier while LDS written by {origin} may still be in flight: other waves can read stale LDS")
    if first.access == "barrier-drain":
        counters = " and ".join(sorted({need.counter for need in needs}))
        return (f"{target.name} has no back-off barrier: memory operations (last {origin}) are in flight at "
                f"s_barrier on {counters}; if one faults (XNACK replay, a memory violation, the debugger) the wave "
                "cannot leave the barrier to take the trap and the workgroup may hang. LLVM waits for every "
                "counter here; no data race is implied")
    if first.access == "trap-return":
        return (f"s_rfe returns from trap handler '{kernel.name}' while {origin} may still be writing "
                f"{format_units({need.unit for need in needs if need.access == 'trap-return'})}: the interrupted "
                "code resumes not knowing to wait for it")
    if first.access == "message":
        sent = _last_message(context, consumer)
        where = f"{sent.mnemonic} at {sent.where}" if sent is not None else "a message"
        return (f"{mnemonic} in trap handler '{kernel.name}' while {where} may still be going out; wait for "
                "it to leave the wave first, as ROCm's trap handler does after sendmsg(MSG_INTERRUPT)")
    if first.access == "invalidate":
        return f"{mnemonic} invalidates the cache while loads (last {origin}) are in flight"
    if first.access == "return":
        return f"'{kernel.name}' returns while {origin} may still be writing registers (callers assume nothing in flight)"
    same_access = [need for need in needs if need.access == first.access and need.producer == first.producer]
    named = {need.unit for need in same_access if need.unit != LDS_STORE and need.unit[0] != "lds_dma"}
    units = format_units(named)
    plural = len(named) > 1
    if first.unit[0] == "lds_dma":
        verb = "writes" if mnemonic.startswith(("ds_write", "ds_store")) else "reads"
        if first.access in LDS_DMA_UNPROVEN:
            where = ("M0 is set for every LDS DMA in flight" if first.access == "lds-dma-unproven" else
                     "M0 for the LDS DMA is set in another block, so where it writes is not known here")
            return (f"{mnemonic} may {verb[:-1]} LDS that {origin} is still writing; {where}{_partial_wait(context, target, first, consumer)}: "
                    "safe if the address avoids what the DMA writes, which the listing cannot show")
        return f"{mnemonic} {verb} LDS that {origin} may still be writing"
    if producer is None:
        return (f"{units} {'are' if plural else 'is'} used before any wait in function "
                f"'{kernel.name}': {origin} may still be writing it (a callee waits at entry)")
    be = "are" if plural else "is"
    if first.access == "source-overwritten":
        return f"{units} {be} overwritten here but {origin} may still be reading {'them' if plural else 'it'}"
    if first.access == "read":
        return f"{units} {be} read here but may still be loading ({origin})"
    return f"{units} {be} overwritten here but may still be being written ({origin})"


def _last_message(context: KernelContext, consumer: int):
    """The nearest s_sendmsg* before the consumer in the listing (the message still in flight)."""
    instructions = context.kernel.instructions
    return next((instructions[index] for index in range(consumer - 1, -1, -1)
                 if instructions[index].mnemonic.startswith("s_sendmsg")), None)


def _partial_wait(context: KernelContext, target: Target, need: Need, consumer: int) -> str:
    """A wait between the DMA and the access that leaves some operations in flight: a double-buffered prefetch
    keeps the newest DMA going on purpose (where its compiler proved the buffers apart)."""
    if need.producer is None:
        return ""
    instructions = context.kernel.instructions
    for index in _between(need.producer, consumer, len(instructions)):
        instruction = instructions[index]
        counts = wait_counts(instruction.mnemonic, instruction.operands, target) or {}
        if counts.get(need.counter, 0) > 0:
            return (f"; `{instruction.mnemonic}` at line {instruction.where.line} leaves {counts[need.counter]} "
                    f"on {need.counter} in flight on purpose")
    return ""


def _between(producer: int, consumer: int, count: int) -> list[int]:
    """The instructions from `producer` to `consumer` in program order (around the loop when the consumer comes
    first), both left out."""
    if producer < consumer:
        return list(range(producer + 1, consumer))
    return [*range(producer + 1, count), *range(consumer)]
