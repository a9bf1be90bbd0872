"""Devices (a product's processor and compute units) and launches (a grid of work-groups on one)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Device:
    """A GPU product: its processor and how many compute units it has."""

    name: str
    processor: str
    compute_units: int


#: Public compute-unit counts (one GCD for multi-die MI250/MI250X).
DEVICES = {
    device.name.lower().replace(" ", ""): device
    for device in (
        Device("Vega 64", "gfx900", 64), Device("MI50", "gfx906", 60), Device("MI60", "gfx906", 64),
        Device("MI100", "gfx908", 120), Device("MI210", "gfx90a", 104), Device("MI250", "gfx90a", 104),
        Device("MI250X", "gfx90a", 110), Device("MI300A", "gfx942", 228), Device("MI300X", "gfx942", 304),
        Device("MI325X", "gfx942", 304), Device("MI350X", "gfx950", 256), Device("MI355X", "gfx950", 256),
        Device("RX 6900 XT", "gfx1030", 80), Device("RX 7900 XTX", "gfx1100", 96), Device("RX 7900 XT", "gfx1100", 84),
        Device("W7900", "gfx1100", 96), Device("RX 9070 XT", "gfx1201", 64), Device("RX 9070", "gfx1201", 56),
    )
}


def find_device(name: str) -> Device | None:
    return DEVICES.get(name.lower().replace(" ", "").replace("-", ""))


@dataclass(frozen=True, slots=True)
class Launch:
    """What the user launches: the grid in work-groups and the device (or its CU count)."""

    grid: tuple[int, int, int]
    compute_units: int
    device: str | None = None

    @property
    def workgroups(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


def parse_grid(text: str) -> tuple[int, int, int]:
    parts = [int(part) for part in text.replace("x", ",").split(",") if part.strip()]
    if not 1 <= len(parts) <= 3 or any(part < 1 for part in parts):
        raise ValueError(f"--grid expects X[,Y[,Z]] positive work-group counts, got '{text}'")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]
