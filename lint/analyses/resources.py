"""Registers, LDS and scratch a kernel uses and declares, and the occupancy they give.

Two numbers matter (llvm-amdgpu-facts.md §1.4): what the code uses (LLVM's `.set
<kernel>.num_vgpr` symbols and the metadata's `.vgpr_count/.sgpr_count`, or the highest
register the instructions reference) and what the descriptor allocates
(`.amdhsa_next_free_vgpr/sgpr` plus the reserved extras). Occupancy uses the larger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.expr import EvalError, evaluate, target_functions
from ..model.ir import Kernel, Module
from ..model.nodes import Num
from ..model.targets import Target, extra_sgprs, xnack_reserved
from .defuse import NO_REGISTERS, DefUseAnalysis, register_extent
from .manager import Analysis, AnalysisManager
from .occupancy import Inputs, Occupancy, occupancy, total_vgprs_used

#: `.max_flat_workgroup_size` LLVM writes when the source sets no bound.
UNBOUNDED_WG_SIZE = 1024
_UNPINNED = "not pinned: LLVM's figure, the most waves over the range; pass --wg-size to pin it"
_UNPINNED_RANGE = "a range: LLVM's figure, the most waves over it"


@dataclass(slots=True, repr=False, init=False, eq=False)
class KernelResources:
    """Registers, LDS and scratch a kernel uses and declares."""

    wave_size: int
    cumode: bool
    # referenced by the instructions (highest index + 1)
    referenced_vgprs: int
    referenced_agprs: int
    referenced_sgprs: int
    uses_vcc: bool
    uses_flat_scratch: bool
    # usage, in LLVM's meanings
    arch_vgprs: int
    agprs: int
    vgprs: int  # TotalNumVgprs: unified on gfx90a+, max(arch, agpr) on gfx908
    sgprs: int  # TotalNumSgprs: numbered SGPRs plus VCC / FLAT_SCRATCH / XNACK extras
    # what the descriptor allocates (None without an .amdhsa_kernel block)
    allocated_vgprs: int | None
    allocated_sgprs: int | None
    accum_offset: int | None
    lds_bytes: int  # per work-group: the static allocation plus what the launch requests
    launch_lds_bytes: int | None  # of those, the dynamic LDS the launch requests (None: not known)
    scratch_bytes: int
    wg_size: int
    wg_size_source: str
    inputs: Inputs
    occupancy: Occupancy
    usage_source: str  # where the usage figures came from

    def __init__(self, wave_size: int, cumode: bool, referenced_vgprs: int, referenced_agprs: int,
                 referenced_sgprs: int, uses_vcc: bool, uses_flat_scratch: bool, arch_vgprs: int, agprs: int,
                 vgprs: int, sgprs: int, allocated_vgprs: int | None, allocated_sgprs: int | None,
                 accum_offset: int | None, lds_bytes: int, launch_lds_bytes: int | None, scratch_bytes: int,
                 wg_size: int, wg_size_source: str, inputs: Inputs, occupancy: Occupancy, usage_source: str) -> None:
        self.wave_size = wave_size
        self.cumode = cumode
        self.referenced_vgprs = referenced_vgprs
        self.referenced_agprs = referenced_agprs
        self.referenced_sgprs = referenced_sgprs
        self.uses_vcc = uses_vcc
        self.uses_flat_scratch = uses_flat_scratch
        self.arch_vgprs = arch_vgprs
        self.agprs = agprs
        self.vgprs = vgprs
        self.sgprs = sgprs
        self.allocated_vgprs = allocated_vgprs
        self.allocated_sgprs = allocated_sgprs
        self.accum_offset = accum_offset
        self.lds_bytes = lds_bytes
        self.launch_lds_bytes = launch_lds_bytes
        self.scratch_bytes = scratch_bytes
        self.wg_size = wg_size
        self.wg_size_source = wg_size_source
        self.inputs = inputs
        self.occupancy = occupancy
        self.usage_source = usage_source

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KernelResources) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.wave_size, self.cumode, self.referenced_vgprs, self.referenced_agprs, self.referenced_sgprs,
            self.uses_vcc, self.uses_flat_scratch, self.arch_vgprs, self.agprs, self.vgprs, self.sgprs,
            self.allocated_vgprs, self.allocated_sgprs, self.accum_offset, self.lds_bytes, self.launch_lds_bytes,
            self.scratch_bytes, self.wg_size, self.wg_size_source, self.inputs, self.occupancy, self.usage_source) == (
            other.wave_size, other.cumode, other.referenced_vgprs, other.referenced_agprs, other.referenced_sgprs,
            other.uses_vcc, other.uses_flat_scratch, other.arch_vgprs, other.agprs, other.vgprs, other.sgprs,
            other.allocated_vgprs, other.allocated_sgprs, other.accum_offset, other.lds_bytes, other.launch_lds_bytes,
            other.scratch_bytes, other.wg_size, other.wg_size_source, other.inputs, other.occupancy, other.usage_source)

    @property
    def wg_sizes(self) -> str:
        """The launch's work-group size, or its range "smallest..largest"."""
        smallest = self.inputs.smallest_wg
        return f"{smallest}..{self.wg_size}" if smallest < self.wg_size else f"{self.wg_size}"


def _symbol(module: Module, name: str) -> int | None:
    value = module.symbols.get(name)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        functions = target_functions(module.target) if module.target else None
        result = evaluate(value, lambda key: _symbol(module, key), functions)
    except (EvalError, RecursionError):
        return None
    return result if isinstance(result, int) else None


def _kernel_symbol(module: Module, kernel: str, field: str) -> int | None:
    for prefix in (kernel, f".L{kernel}"):
        value = _symbol(module, f"{prefix}.{field}")
        if value is not None:
            return value
    return None


def _work_group_size(module: Module, kernel: Kernel) -> tuple[int, int, str]:
    """The launch's range of flat work-group sizes (smallest, largest) and where it comes from.
    Unpinned, LLVM's occupancy is the most over [1, largest] (llvm-amdgpu-facts.md §1.3b)."""
    options = module.options
    if options is not None and options.wg_size:
        smallest, largest = options.wg_size
        return smallest, largest, "--wg-size" if smallest == largest else f"--wg-size; {_UNPINNED_RANGE}"
    metadata = kernel.metadata or {}
    required = metadata.get(".reqd_workgroup_size")
    if isinstance(required, list) and len(required) == 3 and all(isinstance(v, int) and v > 0 for v in required):
        size = required[0] * required[1] * required[2]
        return size, size, ".reqd_workgroup_size"
    bound = metadata.get(".max_flat_workgroup_size")
    if isinstance(bound, int) and 0 < bound <= UNBOUNDED_WG_SIZE:
        return 1, bound, f".max_flat_workgroup_size; {_UNPINNED}"
    return 1, UNBOUNDED_WG_SIZE, _UNPINNED


#: (bit offset, mask) of the granulated VGPR and SGPR counts in COMPUTE_PGM_RSRC1, for an
#: `.amd_kernel_code_t` that gives the whole word (`compute_pgm_rsrc1 = ...`).
_RSRC1_VGPRS, _RSRC1_SGPRS = (0, 0x3F), (6, 0xF)
#: SGPRs per granulated block in COMPUTE_PGM_RSRC1 (LLVM's getSGPREncodingGranule, gfx6-gfx9).
_SGPR_ENCODING_GRANULE = 8


def kernel_code_allocation(target: Target, fields: dict[str, int | None], wave: int) -> tuple[int | None, int | None]:
    """The VGPRs and SGPRs an `.amd_kernel_code_t` block allocates (None where it says nothing): the larger
    of the granulated COMPUTE_PGM_RSRC1 count and `workitem_vgpr_count`/`wavefront_sgpr_count` (both
    count VCC and the other reserved SGPRs). From gfx10 every wave has the whole SGPR file."""
    word = fields.get("compute_pgm_rsrc1")
    vgpr_blocks = fields.get("compute_pgm_rsrc1_vgprs")
    sgpr_blocks = fields.get("compute_pgm_rsrc1_sgprs")
    if word is not None:
        vgpr_blocks = (word >> _RSRC1_VGPRS[0]) & _RSRC1_VGPRS[1] if vgpr_blocks is None else vgpr_blocks
        sgpr_blocks = (word >> _RSRC1_SGPRS[0]) & _RSRC1_SGPRS[1] if sgpr_blocks is None else sgpr_blocks
    vgpr_counts = [fields.get("workitem_vgpr_count")]
    if vgpr_blocks is not None:
        vgpr_counts.append((vgpr_blocks + 1) * target.vgpr_encoding_granule(wave))
    sgpr_counts = [fields.get("wavefront_sgpr_count")]
    if sgpr_blocks is not None:
        sgpr_counts.append((sgpr_blocks + 1) * _SGPR_ENCODING_GRANULE)
    vgprs = max((count for count in vgpr_counts if count), default=None)
    sgprs = max((count for count in sgpr_counts if count), default=None) if target.major < 10 else None
    return vgprs, sgprs


_WIDTH = re.compile(r"_(?:[bfiu]|tr_b)(8|16|32|64|96|128)")


def _access_bytes(mnemonic: str) -> int:
    widths = [int(w) for w in _WIDTH.findall(mnemonic)]
    return max(widths) // 8 if widths else 4


def lds_reach(mnemonic: str, modifiers: dict) -> int | None:
    """Highest byte (exclusive) the constant offsets reach, for a zero address register."""
    size = _access_bytes(mnemonic)
    if any(key in modifiers for key in ("offset0", "offset1")):
        scale = size * (64 if "st64" in mnemonic else 1)
        slots = [modifiers.get(key) for key in ("offset0", "offset1")]
        values = [v.value for v in slots if isinstance(v, Num) and isinstance(v.value, int)]
        return max(values) * scale + size if values else None
    offset = modifiers.get("offset")
    if isinstance(offset, Num) and isinstance(offset.value, int):
        return offset.value + size
    return None


class ResourceAnalysis(Analysis):
    """Usage, allocation and occupancy of one kernel; None when the target is unknown."""

    name = "resources"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> KernelResources | None:
        module = manager.module
        target = module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None:
            return None
        highest_v, highest_a, highest_s, uses_vcc, uses_flat = NO_REGISTERS
        for shared in def_use.facts:  # a loop: compiled, it reads each extent in place (a set of them made each anew)
            v, a, s, vcc, flat = register_extent(shared)
            highest_v, highest_a, highest_s = max(highest_v, v), max(highest_a, a), max(highest_s, s)
            uses_vcc, uses_flat = uses_vcc or vcc, uses_flat or flat
        metadata = kernel.metadata or {}
        descriptor = kernel.descriptor
        name = kernel.name
        source = "instructions"
        arch = _kernel_symbol(module, name, "num_vgpr")
        if arch is not None:
            source = "LLVM resource symbols"
        arch = max(arch or 0, highest_v)
        agprs = _kernel_symbol(module, name, "num_agpr")
        agprs = max(agprs if agprs is not None else metadata.get(".agpr_count", 0) or 0, highest_a)
        vgprs = metadata.get(".vgpr_count")
        if not isinstance(vgprs, int):
            vgprs = total_vgprs_used(target, arch, agprs)
        else:
            source = "metadata" if source == "instructions" else source
        sgprs = metadata.get(".sgpr_count")
        if not isinstance(sgprs, int):
            numbered = max(_kernel_symbol(module, name, "numbered_sgpr") or 0, highest_s)
            vcc = bool(_kernel_symbol(module, name, "uses_vcc")) or uses_vcc
            flat = bool(_kernel_symbol(module, name, "uses_flat_scratch")) or uses_flat
            sgprs = numbered + extra_sgprs(target, vcc, flat, xnack_reserved(target))
        allocated_vgprs = descriptor.get("next_free_vgpr")
        allocated_sgprs = None
        if descriptor.get("next_free_sgpr") is not None:
            allocated_sgprs = descriptor["next_free_sgpr"] + extra_sgprs(
                target,
                bool(descriptor.get("reserve_vcc", 1)),
                bool(descriptor.get("reserve_flat_scratch", 1)) and 7 <= target.major <= 10 and not target.is_gfx94_plus,
                bool(descriptor.get("reserve_xnack_mask", xnack_reserved(target))),
            )
        wave = def_use.wave_size
        if kernel.kernel_code_t and allocated_vgprs is None and allocated_sgprs is None:
            allocated_vgprs, allocated_sgprs = kernel_code_allocation(target, kernel.kernel_code_t, wave)
        code = kernel.kernel_code_t or {}
        lds = metadata.get(".group_segment_fixed_size",
                           descriptor.get("group_segment_fixed_size", code.get("workgroup_group_segment_byte_size"))) or 0
        launch_lds = module.options.launch_lds if module.options is not None else None
        lds += launch_lds or 0
        scratch = metadata.get(".private_segment_fixed_size", descriptor.get("private_segment_fixed_size", 0)) or 0
        cumode = target.major >= 10 and not (
            metadata.get(".workgroup_processor_mode", descriptor.get("workgroup_processor_mode", 1)))
        wg_min, wg_size, wg_source = _work_group_size(module, kernel)
        label = "VGPR" if target.agpr_file is None else ("VGPR+AGPR" if target.agpr_file == "unified" else "VGPR/AGPR")
        inputs = Inputs(max(vgprs, allocated_vgprs or 0), max(sgprs, allocated_sgprs or 0), lds, wg_size, wave, cumode, label,
                        wg_min if wg_min < wg_size else None)
        return KernelResources(
            wave, cumode, highest_v, highest_a, highest_s, uses_vcc, uses_flat,
            arch, agprs, vgprs, sgprs, allocated_vgprs, allocated_sgprs, descriptor.get("accum_offset"),
            lds, launch_lds, scratch, wg_size, wg_source, inputs, occupancy(target, inputs), source,
        )

