"""Devices (a product's processor, compute units, clock and memory system) and launches (a grid of work-groups on
one).

Each product's `source` says where its figures come from, by the source numbers of the project's performance-model
facts (README, "Predicting a launch"): [S5] ROCm GPU specifications, [S6] ROCm microarchitecture pages (a: MI300,
b: MI250, c: MI350), [S8]/[S9] LLVM's and Mesa ACO's latency models, [S15] mt4g pointer-chase measurements (a: MI210,
b: MI300X), [S26] product-spec reports; [unv] general knowledge no source read confirms, [est] our derivation."""

from __future__ import annotations

from .frozen import frozen_dataclass

MIB = 1 << 20


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Device:
    """A GPU product: its processor, compute units, and what the performance model needs of its memory system.
    `memory_gbs` is the DRAM bandwidth one dispatch can use (one GCD of a two-die MI250/MI250X); `l2_bytes` the L2 one
    CU sees (one XCD's on MI300/MI350); latencies are in shader cycles, 0 where nothing measured them."""

    name: str
    processor: str
    compute_units: int
    clock_mhz: int = 0  # peak (boost) shader clock
    memory_gbs: float = 0.0  # DRAM (HBM/GDDR) bandwidth in GB/s (10^9 bytes per second)
    l2_bytes: int = 0
    l2_latency: int = 0  # an L2 hit, cycles
    dram_latency: int = 0  # an L2 miss served by DRAM, cycles
    lds_banks: int = 32  # LDS banks one CU reads (RDNA: per CU half of a WGP's 64)
    source: str = ""

    def __init__(self, name: str, processor: str, compute_units: int, clock_mhz: int = 0, memory_gbs: float = 0.0,
                 l2_bytes: int = 0, l2_latency: int = 0, dram_latency: int = 0, lds_banks: int = 32,
                 source: str = "") -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "processor", processor)
        object.__setattr__(self, "compute_units", compute_units)
        object.__setattr__(self, "clock_mhz", clock_mhz)
        object.__setattr__(self, "memory_gbs", memory_gbs)
        object.__setattr__(self, "l2_bytes", l2_bytes)
        object.__setattr__(self, "l2_latency", l2_latency)
        object.__setattr__(self, "dram_latency", dram_latency)
        object.__setattr__(self, "lds_banks", lds_banks)
        object.__setattr__(self, "source", source)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(name={self.name!r}, processor={self.processor!r}, "
                f"compute_units={self.compute_units!r}, clock_mhz={self.clock_mhz!r}, memory_gbs={self.memory_gbs!r}, "
                f"l2_bytes={self.l2_bytes!r}, l2_latency={self.l2_latency!r}, dram_latency={self.dram_latency!r}, "
                f"lds_banks={self.lds_banks!r}, source={self.source!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Device) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.name, self.processor, self.compute_units, self.clock_mhz, self.memory_gbs, self.l2_bytes,
            self.l2_latency, self.dram_latency, self.lds_banks, self.source) == (
            other.name, other.processor, other.compute_units, other.clock_mhz, other.memory_gbs, other.l2_bytes,
            other.l2_latency, other.dram_latency, other.lds_banks, other.source)

    def __hash__(self) -> int:
        return hash((
            self.name, self.processor, self.compute_units, self.clock_mhz, self.memory_gbs, self.l2_bytes,
            self.l2_latency, self.dram_latency, self.lds_banks, self.source))

    @property
    def bytes_per_cycle(self) -> float:
        """The device's DRAM bandwidth in bytes per shader cycle at its clock (0 if either is not known)."""
        return self.memory_gbs * 1000 / self.clock_mhz if self.clock_mhz else 0.0


_CDNA2 = {"l2_latency": 292, "dram_latency": 700}  # MI210 pointer chase: L2 292 p50, HBM 684 p50 / 741 mean [S15a]
_CDNA3 = {"l2_latency": 288, "dram_latency": 880}  # MI300X pointer chase: L2 288 p50, HBM 876 p50 / 900 mean [S15b]
_RDNA = {"l2_latency": 200, "dram_latency": 320}  # no measurement in cycles: LLVM/ACO's VMEM 320 [S8][S9], L2 [est]

#: Public figures (one GCD for the two-die MI250/MI250X).
DEVICES = {
    device.name.lower().replace(" ", ""): device
    for device in (
        Device("Vega 64", "gfx900", 64, 1546, 483.8, 4 * MIB, source="[unv]"),
        Device("MI50", "gfx906", 60, 1725, 1024, 4 * MIB, source="[unv]"),
        Device("MI60", "gfx906", 64, 1800, 1024, 4 * MIB, source="[unv]"),
        Device("MI100", "gfx908", 120, 1502, 1228.8, 8 * MIB, source="[unv]"),
        Device("MI210", "gfx90a", 104, 1700, 1638.4, 8 * MIB, **_CDNA2, source="CUs, L2 [S5]; clock, HBM [S15a]"),
        Device("MI250", "gfx90a", 104, 1700, 1638.4, 8 * MIB, **_CDNA2, source="per GCD: CUs, L2 [S5]; 1.6 TB/s [S6b]"),
        Device("MI250X", "gfx90a", 110, 1700, 1638.4, 8 * MIB, **_CDNA2, source="per GCD: CUs, L2 [S5]; 1.6 TB/s, clock [S6b]"),
        Device("MI300A", "gfx942", 228, 2100, 5300, 4 * MIB, **_CDNA3, source="CUs [S5]; clock, HBM as MI300X [unv]"),
        Device("MI300X", "gfx942", 304, 2100, 5300, 4 * MIB, **_CDNA3, source="CUs, L2 per XCD [S5]; 5.3 TB/s [S6a]; clock [S15b]"),
        Device("MI325X", "gfx942", 304, 2100, 6000, 4 * MIB, **_CDNA3, source="CUs, L2 [S5]; clock, 6 TB/s [unv]"),
        Device("MI350X", "gfx950", 256, 2200, 8000, 4 * MIB, **_CDNA3, source="CUs, L2 [S5]; 8 TB/s [S6c]; clock [unv]; latencies as gfx942 [est]"),
        Device("MI355X", "gfx950", 256, 2400, 8000, 4 * MIB, **_CDNA3, source="CUs, L2 [S5]; 8 TB/s, clock from 157.3 TF [S6c]; latencies as gfx942 [est]"),
        Device("RX 6900 XT", "gfx1030", 80, 2250, 512, 4 * MIB, **_RDNA, source="CUs, L2 [S5]; clock, 512 GB/s [unv]"),
        Device("RX 7900 XTX", "gfx1100", 96, 2500, 960, 6 * MIB, **_RDNA, source="CUs, L2 [S5]; clock, 960 GB/s [S26a]"),
        Device("RX 7900 XT", "gfx1100", 84, 2400, 800, 6 * MIB, **_RDNA, source="CUs, L2 [S5]; clock, 800 GB/s [S26a]"),
        Device("W7900", "gfx1100", 96, 2495, 864, 6 * MIB, **_RDNA, source="CUs, L2 [S5]; 864 GB/s [S26d]; clock [unv]"),
        Device("RX 9070 XT", "gfx1201", 64, 2970, 640, 8 * MIB, **_RDNA, source="CUs, L2 [S5]; clock, 640 GB/s [S26c]"),
        Device("RX 9070", "gfx1201", 56, 2520, 640, 8 * MIB, **_RDNA, source="CUs, L2 [S5]; clock, 640 GB/s [unv]"),
    )
}


def find_device(name: str) -> Device | None:
    return DEVICES.get(name.lower().replace(" ", "").replace("-", ""))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Launch:
    """What the user launches: the grid in work-groups and the device (or its CU count)."""

    grid: tuple[int, int, int]
    compute_units: int
    device: str | None = None

    def __init__(self, grid: tuple[int, int, int], compute_units: int, device: str | None = None) -> None:
        object.__setattr__(self, "grid", grid)
        object.__setattr__(self, "compute_units", compute_units)
        object.__setattr__(self, "device", device)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(grid={self.grid!r}, compute_units={self.compute_units!r}, "
                f"device={self.device!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Launch) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.grid, self.compute_units, self.device) == (other.grid, other.compute_units, other.device)

    def __hash__(self) -> int:
        return hash((self.grid, self.compute_units, self.device))

    @property
    def workgroups(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


def parse_grid(text: str) -> tuple[int, int, int]:
    parts = [int(part) for part in text.replace("x", ",").split(",") if part.strip()]
    if not 1 <= len(parts) <= 3 or any(part < 1 for part in parts):
        raise ValueError(f"--grid expects X[,Y[,Z]] positive work-group counts, got '{text}'")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]
