"""The memory system a launch's waves share: an L2 in front of DRAM, the device's bandwidth divided among the CUs the
launch occupies.

The model, kept simple on purpose (docs/architecture.md, "The performance model"):
* every vector memory access goes to the L2; a share `hit_rate` of its bytes hits there, the rest comes from DRAM;
* the hit rate follows from the launch's working set W (the distinct bytes it touches: `--working-set`, else the
  bytes it requests, i.e. no reuse assumed) against the bytes R it requests and the L2 size C: the first touch of
  each distinct byte misses, a re-read hits with probability min(1, C / W), so hit = (1 - W/R) x min(1, C/W);
* a load's latency is hit x L2 latency + (1 - hit) x DRAM latency (the device's measured figures);
* the DRAM bandwidth (bytes per cycle at the device's clock) is the rate a streaming kernel sustains on the product
  (machines.json "sustained_dram": published BabelStream figures, ~70-80% of the spec), else the spec peak; it is
  shared evenly by the CUs the launch occupies: a CU's request holds its share of DRAM for missed bytes / share
  cycles, besides the CU's own request rate (the latency table's 32 cycles per 1 KiB);
* not modelled: the vector L1 and the MALL/Infinity Cache, scalar loads (they keep the table's latency), channel
  and bank conflicts in the L2, write combining, clock drops under load, and the time to launch a dispatch."""

from __future__ import annotations

from dataclasses import dataclass

from ...model.devices import Device
from .machine import sustained_dram


@dataclass(frozen=True, slots=True)
class MemorySystem:
    """What one simulated CU sees of the device's memory for one round of a launch."""

    device: str
    bytes_per_cycle: float  # DRAM bandwidth one CU gets (the device's sustained rate over the CUs the launch occupies)
    busy_cus: int  # CUs the launch occupies
    hit_rate: float  # share of requested bytes the L2 serves
    latency: int  # cycles of one vector memory access
    requested: int  # bytes the launch requests (R)
    working_set: int  # distinct bytes it touches (W)
    l2_bytes: int
    dram_gbs: float = 0.0  # the device's DRAM rate the model uses, GB/s
    dram_measured: bool = False  # that rate is a published streaming measurement, not the spec peak

    def dram_cycles(self, request_bytes: int) -> float:
        """Cycles a request of `request_bytes` holds the CU's share of DRAM bandwidth (its L2 misses)."""
        return request_bytes * (1 - self.hit_rate) / self.bytes_per_cycle if self.bytes_per_cycle else 0.0

    def to_json(self) -> dict:
        return {"device": self.device, "dram_bytes_per_cycle_per_cu": round(self.bytes_per_cycle, 3),
                "busy_cus": self.busy_cus, "l2_hit_rate": round(self.hit_rate, 4), "load_latency": self.latency,
                "requested_bytes": self.requested, "working_set_bytes": self.working_set, "l2_bytes": self.l2_bytes,
                "dram_gbs": self.dram_gbs, "dram_rate": "sustained (measured)" if self.dram_measured else "spec peak"}


def hit_rate(requested: int, working_set: int, l2_bytes: int) -> float:
    """The L2's share of the requested bytes (module docstring): compulsory misses on the working set, re-reads hit
    as far as the working set fits."""
    if requested <= 0 or working_set <= 0 or working_set >= requested:
        return 0.0
    return (1 - working_set / requested) * min(1.0, l2_bytes / working_set)


def memory_system(device: Device, busy_cus: int, requested: int, working_set: int | None,
                  fallback_latency: int) -> MemorySystem:
    """The memory one CU of `busy_cus` sees; `fallback_latency` (the latency table's) where the device has no
    measured latencies."""
    touched = requested if working_set is None else working_set
    hit = hit_rate(requested, touched, device.l2_bytes)
    if device.l2_latency and device.dram_latency:
        latency = round(hit * device.l2_latency + (1 - hit) * device.dram_latency)
    else:
        latency = fallback_latency
    sustained = sustained_dram(device.name)
    gbs = sustained.gbs if sustained else device.memory_gbs
    share = gbs * 1000 / device.clock_mhz / max(busy_cus, 1) if device.clock_mhz else 0.0
    return MemorySystem(device.name, share, busy_cus, hit, latency, requested, touched, device.l2_bytes, gbs,
                        sustained is not None)
