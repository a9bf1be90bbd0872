"""## What it finds
- **error**: an instruction uses a register the kernel descriptor does not give the wave:
  a VGPR at or above `.amdhsa_next_free_vgpr`, an AGPR beyond what is left after
  `.amdhsa_accum_offset`, an SGPR at or above `.amdhsa_next_free_sgpr`, or a register the
  hardware does not have at all (v256 before gfx1250, which addresses 1024; s102 on gfx8/gfx9,
  `v[0:999999]`, ...: one error on each line naming one, and no other rule or analysis reads it). On
  gfx90a/gfx94x/gfx950 a
  VGPR at or above `accum_offset` is the storage of the AGPRs: an error when it holds an AGPR
  the kernel uses (a0 up to the highest it names) or may use through a call (counted by LLVM's
  `<kernel>.num_agpr` resource symbol or the metadata's `.agpr_count`; any AGPR without them).
  From gfx10 every wave has the whole SGPR file, whatever
  `.amdhsa_next_free_sgpr` says: only SGPRs the target does not address count there. A code
  object v2 kernel's allocation is its `.amd_kernel_code_t`: the larger of the granulated
  `compute_pgm_rsrc1_vgprs` (or `compute_pgm_rsrc1`) and `workitem_vgpr_count`.
- **warning**: a VGPR at or above `accum_offset` that holds no AGPR the kernel uses (it overlaps nothing, but the
  descriptor gives it to the AGPRs); an SGPR llvm-mc accepts above those the hardware gives the wave (s96-s101
  on gfx802, whose fixed allocation of 96 includes VCC, FLAT_SCRATCH and XNACK_MASK, which may be kept there);
  and a descriptor that declares more registers than the code uses, which costs occupancy, when no metadata
  explains it (LLVM pads on purpose for `amdgpu-waves-per-eu`).

## Why it matters
The hardware allocates registers from the descriptor. A register above the allocation belongs
to another wave or does not exist: results are silently corrupted. An over-declaration
leaves waves unscheduled.

## Example
```
.set NumVgprs, 34                  ; but the MFMA accumulates into a[0:15] after accum_offset 20
.amdhsa_next_free_vgpr NumVgprs    ; 20 + 16 = 36 are needed
```

## How to fix
Raise `.amdhsa_next_free_vgpr/sgpr` (or `.amdhsa_accum_offset`) to cover every register
used, or lower them to what the code uses. With AGPRs in use, raising `accum_offset` also needs
`next_free_vgpr` raised by as much, so the AGPRs keep their room.
"""

from collections.abc import Iterator
from dataclasses import replace

from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.occupancy import resource_limits
from amdgpu_lint.analyses.resources import ResourceAnalysis, kernel_code_allocation
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.ir import Kernel, Provenance
from amdgpu_lint.model.nodes import Reg
from amdgpu_lint.model.targets import Target

CODE = "AGL101"
NAME = "register-budget"
SEVERITY = Severity.ERROR
SUMMARY = "register outside the descriptor's allocation, or an allocation that wastes occupancy"
SCOPE = "kernel"
REQUIRES = (DefUseAnalysis, ResourceAnalysis)


def _limits(context: KernelContext, target: Target) -> dict[str, tuple[int, str]]:
    """Register file -> (first index the wave does not own, why)."""
    descriptor = context.kernel.descriptor
    vgprs = 1024 if target.is_gfx1250 else 256  # gfx1250 addresses 1024 (tuples may cross v255; s_set_vgpr_msb)
    limits: dict[str, tuple[int, str]] = {"v": (vgprs, f"{target.name} has {vgprs} architectural VGPRs"),
                                          "s": (target.addressable_sgprs, f"{target.name} addresses {target.addressable_sgprs} SGPRs")}
    agprs = target.register_files["a"]
    limits["a"] = (agprs, f"{target.name} has {agprs} AGPRs")
    next_vgpr, next_sgpr = descriptor.get("next_free_vgpr"), descriptor.get("next_free_sgpr")
    accum = _accum_offset(context, target)
    if next_vgpr is not None:
        limits["v"] = min(limits["v"], (next_vgpr, f".amdhsa_next_free_vgpr is {next_vgpr}"))
        if accum is not None:
            left = max(next_vgpr - accum, 0)
            limits["a"] = min(limits["a"], (left, f".amdhsa_next_free_vgpr {next_vgpr} - .amdhsa_accum_offset {accum} leaves {left} AGPRs"))
        elif target.agpr_file == "separate":
            limits["a"] = min(limits["a"], (next_vgpr, f".amdhsa_next_free_vgpr is {next_vgpr}"))
    code = context.kernel.kernel_code_t
    if next_vgpr is None and code:
        resources = context.get(ResourceAnalysis)
        assert resources is not None  # (None without a target only)
        allocated, _ = kernel_code_allocation(target, code, resources.wave_size)
        if allocated is not None:
            limits["v"] = min(limits["v"], (allocated, f"its .amd_kernel_code_t allocates {allocated} VGPRs"))
    if next_sgpr is not None and target.major < 10:  # gfx10+ gives every wave the whole SGPR file (LLVM writes 0 there)
        limits["s"] = min(limits["s"], (next_sgpr, f".amdhsa_next_free_sgpr is {next_sgpr}"))
    return limits


def _accum_offset(context: KernelContext, target: Target) -> int | None:
    """Where the AGPRs start in a unified register file (gfx90a/gfx94x/gfx950), if declared."""
    accum = context.kernel.descriptor.get("accum_offset")
    return accum if target.agpr_file == "unified" and accum else None


def check(context: KernelContext) -> Iterator[Diagnostic]:
    target = context.module.target
    def_use = context.get(DefUseAnalysis)
    if target is None or def_use is None:
        return
    if any(info.missing for info in def_use.per_instruction):
        for instruction, info in zip(context.kernel.instructions, def_use.per_instruction, strict=True):
            if info.missing:
                yield context.diagnostic(instruction.where, _missing_message(info.missing, target),
                                         kernel=context.kernel.name)
    limits = _limits(context, target)
    accum = _accum_offset(context, target)
    referenced = context.get(ResourceAnalysis)
    assert referenced is not None  # (None without a target only)
    if (referenced.referenced_vgprs <= limits["v"][0] and (accum is None or referenced.referenced_vgprs <= accum)
            and referenced.referenced_sgprs <= limits["s"][0] and referenced.referenced_agprs <= limits["a"][0]):
        yield from _wasted_occupancy(context, target)  # every register the code names is the wave's own
        return
    offenders: dict[str, list[int]] = {}
    highest: dict[str, int] = {}
    # VGPRs at or above accum_offset the wave owns: (instruction, VGPR), where the AGPRs are stored
    in_agprs: list[tuple[int, int]] = []
    for index, info in enumerate(def_use.per_instruction):
        for kind, number in info.defs | info.uses:
            if kind in limits and number >= limits[kind][0]:
                offenders.setdefault(kind, []).append(index)
                highest[kind] = max(highest.get(kind, 0), number)
            elif kind == "v" and accum is not None and number >= accum:
                in_agprs.append((index, number))
    for kind, indices in offenders.items():
        limit, reason = limits[kind]
        where = context.kernel.instructions[indices[0]].where
        if kind == "s" and limit == target.addressable_sgprs and highest[kind] < target.register_files["s"]:
            yield context.diagnostic(where, _named_sgpr_message(target, highest[kind], indices),
                                     kernel=context.kernel.name, severity=Severity.WARNING)
            continue
        owned = f"the wave owns {kind}0-{kind}{limit - 1}" if limit else f"the wave owns no {kind.upper()}GPRs"
        yield context.diagnostic(where, f"{kind}{highest[kind]} is used but {owned}: {reason}{_more(indices)}",
                                 kernel=context.kernel.name)
    if in_agprs and accum is not None:  # in_agprs is only filled with an accum_offset
        yield from _vgprs_in_agprs(context, in_agprs, accum, _agprs_in_use(context, def_use.per_instruction, referenced))
    yield from _wasted_occupancy(context, target)


def _agprs_in_use(context: KernelContext, per_instruction, resources) -> int | None:
    """How many AGPRs from a0 up the kernel uses, with those of the code it calls (LLVM's `<kernel>.num_agpr`
    resource symbol or the metadata's `.agpr_count` count them); None when it calls code that may use any."""
    if not any(info.klass.unit == "call" for info in per_instruction):
        return resources.referenced_agprs
    name, symbols = context.kernel.name, context.module.symbols
    counted = f"{name}.num_agpr" in symbols or f".L{name}.num_agpr" in symbols or (
        ".agpr_count" in (context.kernel.metadata or {}))
    return resources.agprs if counted else None


def _vgprs_in_agprs(context: KernelContext, in_agprs: list[tuple[int, int]], accum: int,
                    agprs: int | None) -> Iterator[Diagnostic]:
    """VGPRs stored where the AGPRs are: an error for those that share storage with an AGPR the kernel uses (or
    may use through calls), a warning for the rest, which overlap nothing."""
    instructions, name = context.kernel.instructions, context.kernel.name
    shared = [(index, number) for index, number in in_agprs if agprs is None or number - accum < agprs]
    apart = [(index, number) for index, number in in_agprs if agprs is not None and number - accum >= agprs]
    if shared:
        number = max(number for _, number in shared)
        used = "AGPRs it may use through calls" if agprs is None else f"a0-a{agprs - 1}, which the kernel uses"
        yield context.diagnostic(
            instructions[shared[0][0]].where,
            f"v{number} is at or above .amdhsa_accum_offset {accum}, where the AGPRs start: it shares storage with "
            f"a{number - accum}, one of {used}{_more([index for index, _ in shared])}", kernel=name)
    if apart and not shared:
        number = max(number for _, number in apart)
        raised = min(-(-(number + 1) // 4) * 4, 256)
        if agprs:
            room = raised + agprs  # the AGPRs keep their room above the raised offset
            next_vgpr = context.kernel.descriptor.get("next_free_vgpr")
            also = f" and .amdhsa_next_free_vgpr to {room}" if next_vgpr is None or next_vgpr < room else ""
            overlap = (f"; the kernel uses only a0-a{agprs - 1}, so it overlaps none of them: raise "
                       f".amdhsa_accum_offset to {raised}{also}")
        else:
            overlap = f"; the kernel uses no AGPRs, so it overlaps nothing: raise .amdhsa_accum_offset to {raised}"
        yield context.diagnostic(
            instructions[apart[0][0]].where,
            f"v{number} is at or above .amdhsa_accum_offset {accum}, where the AGPRs start{overlap}"
            f"{_more([index for index, _ in apart])}", kernel=name, severity=Severity.WARNING)


#: Register files by operand prefix, for messages.
_FILE_NAMES = {"v": "VGPRs", "a": "AGPRs", "s": "SGPRs", "ttmp": "trap temporaries"}


def _missing_message(missing: tuple[Reg, ...], target: Target) -> str:
    """One line's registers the target does not have, and what it has of their files."""
    kinds = dict.fromkeys(register.kind for register in missing)
    sizes = target.register_files
    has = [f"{kind}0-{kind}{sizes[kind] - 1}" if sizes[kind] else f"no {_FILE_NAMES[kind]}" for kind in kinds]
    names = " and ".join(str(register) for register in missing)
    return f"{names} {'is' if len(missing) == 1 else 'are'} outside {target.name}'s registers ({', '.join(has)})"


def _named_sgpr_message(target: Target, highest: int, indices: list[int]) -> str:
    """An SGPR llvm-mc takes above those the hardware gives the wave (gfx802's s96-s101)."""
    first, last = target.addressable_sgprs, target.register_files["s"] - 1
    return (f"s{highest} is above the {first} SGPRs {target.name} gives a wave: llvm-mc 22 accepts s{first}-s{last} "
            f"there, but the hardware may keep VCC, FLAT_SCRATCH or XNACK_MASK in them (its SGPR init bug fixes the "
            f"allocation at {first}, those included){_more(indices)}")


def _more(indices: list[int]) -> str:
    more = len(set(indices)) - 1
    return f" ({more} more instruction{'s' if more != 1 else ''})" if more else ""


#: What allocates the registers: an .amdhsa_kernel descriptor, or an .amd_kernel_code_t block (code object v2).
_ALLOCATING_FIELDS = {False: ".amdhsa_next_free_vgpr/sgpr",
                      True: "its .amd_kernel_code_t's compute_pgm_rsrc1_vgprs/sgprs and workitem_vgpr_count/wavefront_sgpr_count"}


def _kernel_code_line(kernel: Kernel, vgprs: bool) -> Provenance | None:
    """The `.amd_kernel_code_t` line that allocates the VGPRs (or the SGPRs), else the block's."""
    lines = kernel.kernel_code_where
    fields = ("compute_pgm_rsrc1_vgprs", "workitem_vgpr_count") if vgprs else ("compute_pgm_rsrc1_sgprs", "wavefront_sgpr_count")
    return next((lines[name] for name in (*fields, "compute_pgm_rsrc1", "") if name in lines), None)


def _wasted_occupancy(context: KernelContext, target: Target) -> Iterator[Diagnostic]:
    kernel = context.kernel
    resources = context.get(ResourceAnalysis)
    if resources is None or kernel.metadata or resources.allocated_vgprs is None:
        return
    def_use = context.get(DefUseAnalysis)
    if def_use is None or def_use.banks_unknown:
        return  # gfx1250 modes meet: `v5` may name v261, so the highest VGPR the code uses is not known
    allocated = resources.inputs
    if (allocated.vgprs, allocated.sgprs) == (resources.vgprs, resources.sgprs):
        return  # it allocates what it uses
    used = replace(allocated, vgprs=resources.vgprs, sgprs=resources.sgprs)
    possible = min(resource_limits(target, used).values())  # the waves occupancy() gives
    actual = resources.occupancy.waves_per_simd
    if possible <= actual:
        return
    parts = []
    if resources.allocated_vgprs > resources.vgprs:
        parts.append(f"{resources.allocated_vgprs} VGPRs declared, {resources.vgprs} used")
    if resources.allocated_sgprs and resources.allocated_sgprs > resources.sgprs:
        parts.append(f"{resources.allocated_sgprs} SGPRs declared, {resources.sgprs} used")
    yield context.diagnostic(
        kernel.descriptor_where or _kernel_code_line(kernel, resources.allocated_vgprs > resources.vgprs) or kernel.where,
        f"kernel '{kernel.name}' allocates more registers than it uses ({'; '.join(parts)}): "
        f"occupancy {actual} instead of {possible} waves/SIMD; lower {_ALLOCATING_FIELDS[kernel.descriptor_where is None]}",
        kernel=kernel.name,
        severity=Severity.WARNING,
    )
