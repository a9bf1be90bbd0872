"""The machine the performance model runs on, per generation (machines.json): SIMD width, SIMDs per CU
and per WGP, how often a SIMD may issue, how a wave64 passes through a SIMD32; and per product the DRAM bandwidth a
streaming kernel sustains, where a measurement was published."""

from __future__ import annotations

import json
from dataclasses import field
from functools import cache
from pathlib import Path

from ...model.frozen import frozen_dataclass
from ...model.targets import Target


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Machine:
    """One generation's compute unit as the simulator sees it."""

    generation: str
    simd_lanes: int
    simds_per_cu: int
    cus_per_wgp: int  # 1: no WGPs (GCN/CDNA)
    issue_interval: int  # cycles between two issue turns of one SIMD
    wave64_passes: int  # passes a wave64 VALU instruction takes through the SIMD
    mfma_pass_cycles: int  # cycles of one MFMA pass on the matrix pipe
    memory_pipes_per_cu: int  # vector memory / LDS request paths per CU
    #: per ISA generation ("gfx11"), cycles a wave32 WMMA holds the VALU by its operand type (f16, iu8, ...)
    wmma_cycles: dict[str, dict[str, int]] = field(default_factory=dict)
    #: cycles from a VALU's issue until a dependent instruction may read its result, by rate (full, half, quarter,
    #: trans, f64); empty where the issue cadence hides them (GCN/CDNA)
    valu_latency: dict[str, int] = field(default_factory=dict)
    trans_unit: bool = False  # transcendentals run on their own unit: one VALU issue cycle, then the unit's cycles
    #: the first major version (gfx11) on which a VALU waiting for an operand holds its SIMD's VALU unless an
    #: s_delay_alu names the dependency; 0: never (earlier waves just wait)
    delay_alu_from: int = 0
    lds_banks: int = 32  # 4-byte LDS banks one access is spread over

    def __init__(self, generation: str, simd_lanes: int, simds_per_cu: int, cus_per_wgp: int, issue_interval: int,
                 wave64_passes: int, mfma_pass_cycles: int, memory_pipes_per_cu: int,
                 wmma_cycles: dict[str, dict[str, int]] | None = None, valu_latency: dict[str, int] | None = None,
                 trans_unit: bool = False, delay_alu_from: int = 0, lds_banks: int = 32) -> None:
        object.__setattr__(self, "generation", generation)
        object.__setattr__(self, "simd_lanes", simd_lanes)
        object.__setattr__(self, "simds_per_cu", simds_per_cu)
        object.__setattr__(self, "cus_per_wgp", cus_per_wgp)
        object.__setattr__(self, "issue_interval", issue_interval)
        object.__setattr__(self, "wave64_passes", wave64_passes)
        object.__setattr__(self, "mfma_pass_cycles", mfma_pass_cycles)
        object.__setattr__(self, "memory_pipes_per_cu", memory_pipes_per_cu)
        object.__setattr__(self, "wmma_cycles", {} if wmma_cycles is None else wmma_cycles)
        object.__setattr__(self, "valu_latency", {} if valu_latency is None else valu_latency)
        object.__setattr__(self, "trans_unit", trans_unit)
        object.__setattr__(self, "delay_alu_from", delay_alu_from)
        object.__setattr__(self, "lds_banks", lds_banks)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Machine) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.generation, self.simd_lanes, self.simds_per_cu, self.cus_per_wgp, self.issue_interval,
            self.wave64_passes, self.mfma_pass_cycles, self.memory_pipes_per_cu, self.wmma_cycles, self.valu_latency,
            self.trans_unit, self.delay_alu_from, self.lds_banks) == (
            other.generation, other.simd_lanes, other.simds_per_cu, other.cus_per_wgp, other.issue_interval,
            other.wave64_passes, other.mfma_pass_cycles, other.memory_pipes_per_cu, other.wmma_cycles,
            other.valu_latency, other.trans_unit, other.delay_alu_from, other.lds_banks)

    def __hash__(self) -> int:
        return hash((
            self.generation, self.simd_lanes, self.simds_per_cu, self.cus_per_wgp, self.issue_interval,
            self.wave64_passes, self.mfma_pass_cycles, self.memory_pipes_per_cu, self.wmma_cycles, self.valu_latency,
            self.trans_unit, self.delay_alu_from, self.lds_banks))

    def unit(self, cumode: bool) -> str:
        """What one simulated unit is: a CU, or a WGP in gfx10+ WGP mode."""
        return "WGP" if self.cus_per_wgp > 1 and not cumode else "CU"

    def cus(self, cumode: bool) -> int:
        """CUs in one unit."""
        return self.cus_per_wgp if self.unit(cumode) == "WGP" else 1

    def simds(self, cumode: bool) -> int:
        """SIMDs a work-group's waves may run on."""
        return self.simds_per_cu * self.cus(cumode)

    def wmma_issue_cycles(self, target: Target, mnemonic: str) -> int | None:
        """Cycles a wave32 WMMA or SWMMAC holds its SIMD's VALU; None where the table has no figure."""
        if target.is_gfx1250:
            return None
        return self.wmma_cycles.get(f"gfx{target.major}", {}).get(mnemonic.rsplit("_", 1)[-1])

    def holds_valu(self, target: Target) -> bool:
        """Whether a VALU waiting for an operand that no s_delay_alu named holds its SIMD's VALU (gfx11+)."""
        return bool(self.delay_alu_from) and target.major >= self.delay_alu_from

    def memory_pipes(self, cumode: bool) -> int:
        """Vector memory (and LDS) request paths of one unit."""
        return self.memory_pipes_per_cu * self.cus(cumode)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class SustainedDram:
    """The DRAM bandwidth a streaming kernel reaches on one product (a published measurement), with its source."""

    gbs: float  # 10^9 bytes per second
    source: str

    def __init__(self, gbs: float, source: str) -> None:
        object.__setattr__(self, "gbs", gbs)
        object.__setattr__(self, "source", source)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SustainedDram) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.gbs, self.source) == (other.gbs, other.source)

    def __hash__(self) -> int:
        return hash((self.gbs, self.source))


@cache
def _document() -> dict:
    return json.loads((Path(__file__).parent / "machines.json").read_text())


@cache
def _machines() -> dict[str, Machine]:
    document = _document()
    return {name: Machine(name, **{key: value for key, value in fields.items()
                                   if key not in ("targets", "source", "wmma_source", "issue_source")})
            for name, fields in document["generations"].items()}


def machine_for(target: Target) -> Machine:
    """The machine of the target's generation: RDNA (gfx10+) or GCN/CDNA."""
    return _machines()["rdna" if target.major >= 10 else "gcn"]


def sustained_dram(device: str) -> SustainedDram | None:
    """The measured streaming bandwidth of the product named `device` (machines.json "sustained_dram"); None where
    no measurement was found and the spec peak stands."""
    found = _document()["sustained_dram"]["devices"].get(device)
    return SustainedDram(float(found["gbs"]), found["source"]) if found else None
