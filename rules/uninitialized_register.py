"""## What it finds
A kernel instruction reading a register that no path from the kernel entry has written and
that the hardware does not set up: not one of the kernel's user or system SGPRs, not a
work-item ID VGPR, not EXEC. Typically an off-by-one in a `.set` register allocation, a
macro argument naming the wrong register, or a VGPR read before its load.

A plain move of such a register is not reported: the copy holds garbage in turn and is
reported where it is used (saving and restoring a register around a call, or M0 around a
message, uses nothing). Likewise the high half of a `v_mad_u64_u32` addend, which reaches only
the result's high half and carry, and LLVM's flat-scratch setup in a kernel without scratch,
which adds the absent private-segment wave offset SGPR into a flat_scratch nothing uses.

Where an instruction writes only some bytes of a VGPR and keeps the rest (d16 loads, one half;
`v_cvt_pk_fp8_f32`/`v_cvt_pk_bf8_f32`, the half `op_sel` or `.h` picks; `v_cvt_sr_fp8_f32`/
`v_cvt_sr_bf8_f32`, one byte; SDWA `dst_sel` with `dst_unused:UNUSED_PRESERVE`; true16 `.l`/`.h`
destinations; `v_fma_mixlo/mixhi_f16`), the bytes are tracked, and a read known to take given
bytes (store data, MFMA/WMMA A and B sources, true16 and SDWA source halves) of bytes no path
wrote is reported at the read, with a note at the partial write: only never-written bits, or half
written, half garbage. Other writes count as writes of the whole register, other reads as reads
of written bits. In LLVM's own code (its listing, outside inline asm: the test missing-wait uses for
LDS DMA) a register written in part holds an IR value with poison lanes: those reads are not reported.

Such a read is also judged on its first execution: half fresh, half stale is when some of its bytes
come from a partial write on the way to it, and the others are written on no path that reaches it
without running it first: only a write after it, around a loop, reaches them. The first trip reads
those bytes never written, every later one what the trip before left there. Where any write before
the loop or earlier in the trip reaches them on some path (a pad, lo and hi halves merged, a loaded
register's other half, a prologue of a software-pipelined loop), or a trip that writes them may run
before the read's first one (halves filled on alternate trips), the read is not reported.

## Why it matters
The register holds whatever the previous wave left there: results are wrong only sometimes,
and only on some hardware.

## Example
```
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1     ; s[0:1]
  .amdhsa_system_vgpr_workitem_id 0           ; v0 only
...
  v_add_u32 v2, v0, v1        ; v1 was never written
```
A community FP8 kernel packed the fp8 pairs meant for one register into two, with one conversion
each, and consumed each register whole:
```
v_cvt_pk_fp8_f32 v6, v2, v3                  ; bits 15:0 of v6 only
v_cvt_pk_fp8_f32 v7, v4, v5                  ; meant for bits 31:16 of v6
v_mfma_f32_16x16x32_fp8_fp8 v[8:11], v[6:7], v[6:7], 0   ; bits 31:16 of v6 never written
```
The same in a loop that reuses v6 after the read is half fresh, half stale:
```
.Lloop:
  v_cvt_pk_fp8_f32 v6, v2, v3                ; bits 15:0 of v6, this trip
  ...
  v_mfma_f32_16x16x32_fp8_fp8 v[8:11], v[6:7], v[6:7], 0   ; bits 31:16: last trip's address
  v_add_u32 v6, 64, v1                       ; v6 reused whole: the next trip's address
  s_cbranch_scc1 .Lloop
```

## How to fix
Write the register before reading it, or enable the input in the kernel descriptor
(`.amdhsa_system_vgpr_workitem_id 1` provides v1 on targets without packed work-item IDs).
For bytes never written, write the rest of the register (`v_cvt_pk_fp8_f32 v6, v4, v5
op_sel:[0,0,1]` fills bits 31:16; a `_d16_hi` load the high half) or read only what was written
(`global_store_short` for a d16 load's half). For half stale bits, write the rest in the same trip
(convert both halves each trip, or `v_mov_b32 v6, 0` before the conversion) or keep the reuse out of
the register.

Only kernels with an `.amdhsa_kernel` descriptor are checked (their entry state is known; a
function's comes from its caller, a graphics shader's from the pipeline), and only code
reachable from the entry; registers read after a call are not judged.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.initialized import InitializedAnalysis, Uninitialized
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa.defuse import format_units
from amdgpu_lint.model.debuglines import llvm_generated
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity

CODE = "AGL007"
NAME = "uninitialized-register"
SEVERITY = Severity.WARNING
SUMMARY = "register read before any write on every path"
SCOPE = "kernel"
REQUIRES = (InitializedAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    result = context.get(InitializedAnalysis)
    if result is None:
        return
    yield from _bytes_never_written(context, result)
    yield from _bytes_left_from_an_earlier_trip(context, result)
    for index, units in sorted(result.reads.items()):
        instruction = context.kernel.instructions[index]
        message = (f"{format_units(units)} {'is' if len(units) == 1 else 'are'} read by {instruction.mnemonic} "
                   "but never written on any path from the kernel entry")
        copies = result.copied.get(index)
        if copies:
            message += f" ({format_units(copies)} {'holds a value' if len(copies) == 1 else 'hold values'} derived from such a register)"
        yield context.diagnostic(instruction.where, message, kernel=context.kernel.name)


def bit_ranges(byte_mask: int) -> str:
    """Bytes of a 32-bit register as bit ranges: 0b1100 is `31:16`, 0b0101 is `7:0 and 23:16`."""
    ranges, byte = [], 0
    while byte < 4:
        if byte_mask >> byte & 1:
            end = byte
            while end + 1 < 4 and byte_mask >> (end + 1) & 1:
                end += 1
            ranges.append(f"{end * 8 + 7}:{byte * 8}")
            byte = end + 1
        else:
            byte += 1
    return " and ".join(ranges)


def _llvm_generated(context: KernelContext, *indices: int) -> bool:
    instructions = context.kernel.instructions
    return llvm_generated(context.module.sources, (instructions[index].where for index in indices))


def _bytes_never_written(context: KernelContext, result: Uninitialized) -> Iterator[Diagnostic]:
    """Reads of bytes of a register that only narrower writes (d16 loads, fp8 packing, SDWA, true16) reached."""
    instructions = context.kernel.instructions
    for index, reads in sorted(result.partial.items()):
        instruction = instructions[index]
        for unit, wanted, written, writer in reads:
            if _llvm_generated(context, index, writer):
                continue  # a register LLVM wrote in part holds an IR value with poison lanes
            register = format_units((unit,))
            partly = instructions[writer]
            missing, fresh = wanted & ~written, wanted & written
            origin = (f"only bits {bit_ranges(written)} are written ({partly.mnemonic} at line {partly.where.line} "
                      f"writes part of {register} and keeps the rest)")
            if fresh:
                message = (f"{instruction.mnemonic} reads bits {bit_ranges(wanted)} of {register}, but bits "
                           f"{bit_ranges(missing)} are never written on any path from the kernel entry: {origin}; "
                           "the value is half written, half garbage")
            else:
                message = (f"bits {bit_ranges(missing)} of {register} are read by {instruction.mnemonic} but never "
                           f"written on any path from the kernel entry: {origin}")
            yield context.diagnostic(instruction.where, message, kernel=context.kernel.name,
                                     notes=(Note(f"{partly.mnemonic} writes part of {register} here",
                                                 partly.where.path, partly.where.line, partly.where.column),))


def _bytes_left_from_an_earlier_trip(context: KernelContext, result: Uninitialized) -> Iterator[Diagnostic]:
    """Reads that take some bytes fresh from a partial write and the others only from a write after them, around
    a loop: garbage on the first trip, the previous trip's bytes on the others."""
    instructions = context.kernel.instructions
    for index, reads in sorted(result.stale.items()):
        instruction = instructions[index]
        for unit, read, fresh_bytes, fresh_writer, stale_bytes, stale_writer in reads:
            if _llvm_generated(context, index, fresh_writer, stale_writer):
                continue  # LLVM's own code: as for bytes never written
            register = format_units((unit,))
            fresh, stale = instructions[fresh_writer], instructions[stale_writer]
            message = (f"{instruction.mnemonic} reads bits {bit_ranges(read)} of {register} half fresh, half "
                       f"stale: bits {bit_ranges(fresh_bytes)} from {fresh.mnemonic} at line {fresh.where.line} (which "
                       f"writes part of {register} and keeps the rest), bits {bit_ranges(stale_bytes)} only from "
                       f"{stale.mnemonic} at line {stale.where.line}, after this read around a loop: the first trip "
                       "reads them never written, the later ones what the trip before left there")
            notes = (Note(f"{fresh.mnemonic} writes bits {bit_ranges(fresh_bytes)} of {register} here, this trip",
                          fresh.where.path, fresh.where.line, fresh.where.column),
                     Note(f"{stale.mnemonic} writes {register} here, after the read: its bits "
                          f"{bit_ranges(stale_bytes)} reach the read only on the next trip",
                          stale.where.path, stale.where.line, stale.where.column))
            yield context.diagnostic(instruction.where, message, kernel=context.kernel.name, notes=notes)
