"""## What it finds
A kernel whose metadata and kernel descriptor (or code) disagree on what it needs:
- **error**: LDS the metadata gives the work-group below what the descriptor declares: a code
  object v2 `.amd_amdgpu_hsa_metadata`'s `GroupSegmentFixedSize` against `.amd_kernel_code_t`'s
  `workgroup_group_segment_byte_size`, or `.amdgpu_metadata`'s `.group_segment_fixed_size`
  against `.amdhsa_group_segment_fixed_size` (the message adds how far the `ds_*` offsets reach).
  The finding is on the metadata line.
- **warning**: metadata that asks for more LDS than the descriptor, or counts more VGPRs or
  SGPRs (`.vgpr_count`/`.sgpr_count`, v2 `NumVGPRs`/`NumSGPRs`) than the descriptor allocates.

## Why it matters
The descriptor is what the hardware reads (registers), the metadata is what the HIP and OpenCL
runtimes read: they size a launch's LDS from the metadata's group segment size. Metadata that
says 0 bytes for a kernel whose code uses 7,040 gives its work-groups no LDS of their own: they
overwrite each other's, and the results depend on scheduling. LLVM writes both from one
computation, so a disagreement comes from hand-edited or copied metadata.

## Example
```
.amd_kernel_code_t
  workgroup_group_segment_byte_size = 7040
.end_amd_kernel_code_t
...
.amd_amdgpu_hsa_metadata
{ Version: [ 1, 0 ],
  Kernels:
    - { Name: k, SymbolName: 'k@kd',
        CodeProps: { GroupSegmentFixedSize: 0, KernargSegmentSize: 8 } }   ; says 0
}
.end_amd_amdgpu_hsa_metadata
```

## How to fix
Make the metadata say what the descriptor and the code use (here `GroupSegmentFixedSize: 7040`),
or generate both from one set of `.set` symbols.
"""

import re
from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.resources import ResourceAnalysis, kernel_code_allocation, lds_reach
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.frontend.metadata import v3_key_position
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.ir import Kernel, Module, Provenance

CODE = "AGL107"
NAME = "metadata-mismatch"
SEVERITY = Severity.ERROR
SUMMARY = "metadata that disagrees with the kernel descriptor or the code on LDS or registers"
SCOPE = "kernel"
REQUIRES = (DefUseAnalysis, ResourceAnalysis)
_METADATA_BLOCK = re.compile(r"^[ \t]*\.amdgpu_metadata[ \t]*$", re.MULTILINE)


def _lds_reach(context: KernelContext) -> tuple[int, Provenance | None]:
    """The furthest byte (exclusive) a `ds_*` offset reaches alone, and where."""
    furthest, where = 0, None
    def_use = context.get(DefUseAnalysis)
    assert def_use is not None  # (None without a target only)
    for instruction, info in zip(context.kernel.instructions, def_use.per_instruction, strict=True):
        if info.klass.unit != "ds" or info.klass.memory != "lds" or info.klass.kind == "other":
            continue
        reach = lds_reach(instruction.mnemonic, dict(instruction.modifiers))
        if reach is not None and reach > furthest:
            furthest, where = reach, instruction.where
    return furthest, where


def _metadata_line(module: Module, kernel: Kernel, key: str) -> Provenance | None:
    """The line of `key` in the kernel's `.amdgpu_metadata` entry in the linted file (else its descriptor's line).
    Read from the file's text, so it is the same whether the block has been reached yet or not."""
    source = module.sources.get(module.path)
    found = _METADATA_BLOCK.search(source.text) if source is not None else None
    if source is None or found is None:
        return kernel.descriptor_where
    block_line = source.text.count("\n", 0, found.start()) + 1
    end = source.text.find(".end_amdgpu_metadata", found.end())  # the block alone: not the code after it
    position = v3_key_position(source.text[found.end():end if end >= 0 else None], kernel.name, key)
    if position is None:
        return kernel.descriptor_where
    return Provenance(module.path, block_line + position[0], position[1])


def _line(where: Provenance | None) -> str:
    return f" (line {where.line})" if where is not None else ""


def check(context: KernelContext) -> Iterator[Diagnostic]:
    kernel, module = context.kernel, context.module
    if module.target is None:
        return
    props = module.code_props_v2.get(kernel.name)
    if props is not None:
        yield from _v2(context, props)
    elif kernel.metadata and kernel.descriptor_where is not None:
        yield from _v3(context)


def _lds_findings(context: KernelContext, said: int, where: Provenance, what: str, declared: int | None,
                  declared_as: str) -> Iterator[Diagnostic]:
    kernel = context.kernel
    reach, reach_where = _lds_reach(context)
    if declared is None:
        return  # the code alone cannot tell static LDS from LDS sized at launch (the lds-budget rule's question)
    if declared > said:
        code = f"; a ds_* offset{_line(reach_where)} reaches byte {reach - 1}" if reach > said else ""
        yield context.diagnostic(
            where, f"kernel '{kernel.name}': the metadata's {what} is {said}, but {declared_as} is {declared}{code}: "
            "the runtime sizes each work-group's LDS from the metadata, so work-groups overlap in LDS", kernel=kernel.name)
    elif declared < said:
        yield context.diagnostic(
            where, f"kernel '{kernel.name}': the metadata's {what} is {said}, but {declared_as} is {declared}: the "
            "runtime gives each work-group the larger figure, which costs occupancy", kernel=kernel.name,
            severity=Severity.WARNING)


def _v2(context: KernelContext, props: dict[str, tuple[int, Provenance]]) -> Iterator[Diagnostic]:
    kernel = context.kernel
    code = kernel.kernel_code_t or {}
    if "GroupSegmentFixedSize" in props:
        said, where = props["GroupSegmentFixedSize"]
        yield from _lds_findings(context, said, where, "GroupSegmentFixedSize", code.get("workgroup_group_segment_byte_size"),
                                 ".amd_kernel_code_t's workgroup_group_segment_byte_size")
    if not code:
        return
    target = context.module.target
    resources = context.get(ResourceAnalysis)
    assert target is not None and resources is not None
    vgprs, sgprs = kernel_code_allocation(target, code, resources.wave_size)
    for key, allocated, kind in (("NumVGPRs", vgprs, "VGPRs"), ("NumSGPRs", sgprs, "SGPRs")):
        if key in props and allocated is not None and props[key][0] > allocated:
            yield context.diagnostic(
                props[key][1], f"kernel '{kernel.name}': the metadata's {key} is {props[key][0]}, but its "
                f".amd_kernel_code_t allocates {allocated} {kind}", kernel=kernel.name, severity=Severity.WARNING)


def _v3(context: KernelContext) -> Iterator[Diagnostic]:
    kernel, module = context.kernel, context.module
    metadata, descriptor = kernel.metadata or {}, kernel.descriptor
    said = metadata.get(".group_segment_fixed_size")
    if isinstance(said, int):
        yield from _lds_findings(context, said, _metadata_line(module, kernel, ".group_segment_fixed_size") or kernel.where,
                                 ".group_segment_fixed_size", descriptor.get("group_segment_fixed_size"),
                                 ".amdhsa_group_segment_fixed_size")
    resources = context.get(ResourceAnalysis)
    assert resources is not None  # (None without a target only)
    counts = [(".vgpr_count", "next_free_vgpr", resources.allocated_vgprs, "VGPRs")]
    if module.target is not None and module.target.major < 10:  # from gfx10 every wave has the whole SGPR file
        counts.append((".sgpr_count", "next_free_sgpr", resources.allocated_sgprs, "SGPRs"))
    for key, directive, allocated, kind in counts:
        count = metadata.get(key)
        if isinstance(count, int) and allocated is not None and count > allocated:
            yield context.diagnostic(
                _metadata_line(module, kernel, key) or kernel.where,
                f"kernel '{kernel.name}': the metadata's {key} is {count}, but the descriptor allocates {allocated} "
                f"{kind} (.amdhsa_{directive}{' and the reserved SGPRs' if kind == 'SGPRs' else ''})",
                kernel=kernel.name, severity=Severity.WARNING)
