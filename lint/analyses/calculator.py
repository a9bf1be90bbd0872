"""`amdgpu-lint occupancy`: the occupancy calculator, with no assembly.

GCN/CDNA/RDNA targets use analyses/occupancy.py (the engine the kernel report uses). `--arch
terascale` implements the Radeon Compute Profiler's VLIW5/VLIW4 (Radeon HD 5000/6000) formula: wavefronts of 64,
16384 registers per compute unit, at most 8 work-groups per CU, LDS shared per work-group.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model.targets import Target
from .occupancy import (
    Inputs,
    Occupancy,
    largest_lds_for,
    max_sgprs_for,
    max_vgprs_for,
    occupancy,
    size_spread,
    total_vgprs_used,
    what_if_json,
    what_if_range,
)


class CalculatorError(ValueError):
    """Inputs the hardware cannot run (the message says which limit)."""


@dataclass(frozen=True, slots=True)
class Request:
    """Resources the occupancy calculator is asked about."""

    vgprs: int = 1
    agprs: int = 0
    sgprs: int = 0
    lds_bytes: int = 0
    wg_size: tuple[int, int] | None = None  # (smallest, largest) of the launch range
    wave_size: int | None = None
    cumode: bool = False


def gcn_inputs(target: Target, request: Request) -> Inputs:
    """Validate a request against the target and turn it into engine inputs."""
    wave = request.wave_size or target.default_wave_size
    if wave not in target.wave_sizes:
        raise CalculatorError(f"{target.name} does not run wave{wave} (it supports {', '.join(map(str, target.wave_sizes))})")
    if request.cumode and target.major < 10:
        raise CalculatorError(f"{target.name} has no CU mode (it is a gfx10+ feature)")
    if request.vgprs < 0 or request.vgprs > 256:
        raise CalculatorError(f"{request.vgprs} VGPRs: a wave addresses at most 256 architectural VGPRs")
    if request.agprs:
        if not target.has_mai:
            raise CalculatorError(f"{target.name} has no AGPRs")
        if request.agprs > 256:
            raise CalculatorError(f"{request.agprs} AGPRs: a wave addresses at most 256")
    total = total_vgprs_used(target, request.vgprs, request.agprs)
    if total > target.addressable_vgprs:
        raise CalculatorError(f"{total} VGPRs+AGPRs exceed the {target.addressable_vgprs} a wave can address")
    sgpr_limit = target.addressable_sgprs + (6 if target.major < 10 else 2)
    if request.sgprs < 0 or request.sgprs > sgpr_limit:
        raise CalculatorError(f"{request.sgprs} SGPRs: at most {sgpr_limit} on {target.name} (extras included)")
    if request.lds_bytes < 0 or request.lds_bytes > target.lds_per_workgroup:
        raise CalculatorError(f"{request.lds_bytes} bytes of LDS: a work-group may use at most {target.lds_per_workgroup}")
    smallest, largest = request.wg_size or (wave, wave)
    if not 1 <= smallest <= largest <= 1024:
        raise CalculatorError(f"work-groups of {smallest}..{largest}: must be 1 to 1024 work-items, smallest first")
    label = "VGPR" if target.agpr_file is None else ("VGPR+AGPR" if target.agpr_file == "unified" else "VGPR/AGPR")
    return Inputs(total, request.sgprs, request.lds_bytes, largest, wave, request.cumode, label,
                  smallest if smallest < largest else None)


def thresholds(target: Target, inputs: Inputs) -> list[dict]:
    """Per occupancy level: the most VGPRs, SGPRs and LDS bytes that still allow it."""
    rows = []
    for waves in range(target.max_waves_per_simd, 0, -1):
        lds = largest_lds_for(target, replace(inputs, lds_bytes=target.lds_per_workgroup), waves)
        granule = target.lds_alloc_granule
        rows.append({
            "waves_per_simd": waves,
            "max_vgprs": max_vgprs_for(target, waves, inputs.wave_size) or None,
            "max_sgprs": max_sgprs_for(target, waves),
            "max_lds_bytes": None if lds is None else lds // granule * granule,  # whole allocation units
            "llvm_max_lds_bytes": lds,  # LLVM's figure counts raw bytes
        })
    return rows


def gcn_result(target: Target, inputs: Inputs, with_limits: bool) -> dict:
    result: Occupancy = occupancy(target, inputs)
    document = {
        "target": str(target),
        "inputs": {"vgprs": inputs.vgprs, "sgprs": inputs.sgprs, "lds_bytes": inputs.lds_bytes,
                   "wg_size": inputs.wg_size, "wg_size_min": inputs.smallest_wg, "wave_size": inputs.wave_size, "cumode": inputs.cumode},
        **result.to_json(),
        "over_sizes": size_spread(target, inputs).to_json(),
        "max_waves_per_simd": target.max_waves_per_simd,
        "what_if": what_if_json(target, inputs),
        "what_if_range": what_if_range(target),
    }
    if with_limits:
        document["thresholds"] = thresholds(target, inputs)
    return document


# ---------------------------------------------------------------- TeraScale (the Radeon Compute Profiler's formula)

TERASCALE_REGISTERS_PER_CU = 16384
TERASCALE_WAVE = 64
TERASCALE_MAX_WORKGROUPS = 8
TERASCALE_MAX_WG_SIZE = 256


def terascale(registers: int, lds_bytes: int, wg_size: int, max_waves_cu: int = 32, lds_per_cu: int = 32768) -> dict:
    """In-flight wavefronts per CU on VLIW5/VLIW4 (the Radeon Compute Profiler's formula): the minimum of the LDS, GPR and
    work-group limits, each counted in whole work-groups."""
    if not 1 <= wg_size <= TERASCALE_MAX_WG_SIZE:
        raise CalculatorError(f"work-group of {wg_size}: TeraScale allows 1 to {TERASCALE_MAX_WG_SIZE} work-items")
    if lds_bytes > lds_per_cu:
        raise CalculatorError(f"{lds_bytes} bytes of LDS: the CU has {lds_per_cu}")
    if registers < 1 or registers > TERASCALE_REGISTERS_PER_CU // TERASCALE_WAVE:
        raise CalculatorError(f"{registers} registers per work-item: 1 to {TERASCALE_REGISTERS_PER_CU // TERASCALE_WAVE}")
    per_group = -(-wg_size // TERASCALE_WAVE)
    by_lds = (lds_per_cu // lds_bytes) * per_group if lds_bytes else max_waves_cu
    by_gpr = (TERASCALE_REGISTERS_PER_CU // (registers * TERASCALE_WAVE)) // per_group * per_group
    by_groups = min(TERASCALE_MAX_WORKGROUPS * per_group, max_waves_cu // per_group * per_group)
    waves = min(by_lds, by_gpr, by_groups)
    limits = {"LDS": by_lds, "GPR": by_gpr, "work-group size": by_groups}
    return {
        "arch": "terascale",
        "wavefronts_per_cu": waves,
        "occupancy": waves / max_waves_cu,
        "limits": limits,
        "limiter": [name for name, value in limits.items() if value == waves],
    }
