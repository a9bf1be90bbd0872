"""## What it finds
- **error**: LDS above what one work-group may use on the target (64 KiB on most, 160 KiB on
  gfx950, 32 KiB on gfx6): the static allocation (`.group_segment_fixed_size`) plus, for a
  Triton cache entry, the dynamic LDS its `.json` requests at launch (`shared`).
- **warning**: a `ds_*` instruction whose constant offset alone reaches past the LDS the
  kernel allocates, in a kernel whose metadata shows it takes no dynamic LDS: no LDS pointer
  argument, no by-value vector or structure (8 bytes or more, which may hold LDS pointers), and
  code object v5+ hidden arguments without `hidden_dynamic_lds_size`. Without `.amdgpu_metadata`
  (Mesa, PAL, a bare `amdgcn` triple), or with older metadata, an `extern __shared__` array sized
  at launch cannot be ruled out: no finding there.
  Where the launch is known (a Triton entry's `shared`), offsets are judged against static plus launch LDS.

## Why it matters
The dispatch fails for the first; for the second, lanes read or write LDS that belongs to
another work-group's allocation or does not exist, so results depend on scheduling.

## Example
```
ds_read_b32 v1, v0 offset:4096      ; kernel allocates 1024 bytes of LDS
```

## How to fix
Shrink the tile, split it across work-groups, or raise the allocation
(`.amdhsa_group_segment_fixed_size`, or the size of the `__shared__` array).
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.resources import ResourceAnalysis, lds_reach
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL102"
NAME = "lds-budget"
SEVERITY = Severity.ERROR
SUMMARY = "LDS above the work-group limit, or LDS offsets past the allocation"
SCOPE = "kernel"
REQUIRES = (DefUseAnalysis, ResourceAnalysis)

def _allocation_is_known(module_metadata: dict | None, metadata: dict | None) -> bool:
    """Whether the metadata shows the kernel takes no dynamic LDS (sized at launch, beyond the static allocation).

    An LDS pointer argument points into dynamic LDS. A kernel may also use an `extern __shared__` array with no
    argument at all: code object v5 and later metadata (amdhsa.version 1.2 and up) lists the hidden argument
    `hidden_dynamic_lds_size` for such a kernel whenever it lists hidden arguments; earlier versions, or a kernel
    listed without hidden arguments, do not say.
    """
    if not metadata or ".args" not in metadata:
        return False
    args = [arg for arg in metadata[".args"] if isinstance(arg, dict)]
    if any(arg.get(".value_kind") == "dynamic_shared_pointer" or arg.get(".address_space") == "local" or
           _may_hold_lds_pointers(arg) for arg in args):
        return False
    version = (module_metadata or {}).get("amdhsa.version")
    if not isinstance(version, list) or [v for v in version[:2] if isinstance(v, int)] < [1, 2]:
        return False
    hidden = {str(arg.get(".value_kind")) for arg in args if str(arg.get(".value_kind")).startswith("hidden_")}
    return bool(hidden) and "hidden_dynamic_lds_size" not in hidden


def _may_hold_lds_pointers(arg: dict) -> bool:
    """A by-value argument of two or more 32-bit words: a vector or structure, which may hold LDS pointers
    the metadata does not mark (LLVM's ds_read2 tests pass `<2 x ptr addrspace(3)>` by value). One word alone
    is data: LLVM marks a lone LDS pointer argument `dynamic_shared_pointer`."""
    size = arg.get(".size")
    return arg.get(".value_kind") == "by_value" and isinstance(size, int) and size >= 8 and size % 4 == 0


def check(context: KernelContext) -> Iterator[Diagnostic]:
    target = context.module.target
    resources = context.get(ResourceAnalysis)
    if target is None or resources is None:
        return
    kernel = context.kernel
    launch = resources.launch_lds_bytes
    parts = f" ({resources.lds_bytes - launch} static + {launch} requested at launch)" if launch else ""
    if resources.lds_bytes > target.lds_per_workgroup:
        yield context.diagnostic(
            kernel.descriptor_where or kernel.where,
            f"kernel '{kernel.name}' uses {resources.lds_bytes} bytes of LDS per work-group{parts}; "
            f"{target.name} allows {target.lds_per_workgroup}" + (": the launch is refused" if launch else ""),
            kernel=kernel.name,
        )
    if launch is None and not _allocation_is_known(context.module.metadata, kernel.metadata):
        return
    why = f"has {resources.lds_bytes} bytes of LDS{parts}" if launch is not None else (
        f"allocates {resources.lds_bytes} bytes of LDS and its metadata shows no dynamic LDS")
    def_use = context.get(DefUseAnalysis)
    assert def_use is not None  # (None without a target only)
    for instruction, info in zip(kernel.instructions, def_use.per_instruction, strict=True):
        if info.klass.unit != "ds" or info.klass.memory != "lds" or info.klass.kind == "other":
            continue  # ds_swizzle/ds_permute/ds_bpermute: the offset is a pattern, no LDS is read
        reach = lds_reach(instruction.mnemonic, dict(instruction.modifiers))
        if reach is not None and reach > resources.lds_bytes:
            yield context.diagnostic(
                instruction.where,
                f"{instruction.mnemonic} reaches byte {reach - 1} through its offset alone, but kernel '{kernel.name}' {why}",
                kernel=kernel.name,
                severity=Severity.WARNING,
            )
