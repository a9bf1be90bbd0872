"""Launch-grid analysis: how a grid of work-groups fills a device (seed 001's "achieved
occupancy" causes: too few work-groups, and the partial last wave of work-groups)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .targets import Target


@dataclass(frozen=True)
class Device:
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


@dataclass(frozen=True)
class Launch:
    """What the user launches: the grid in work-groups and the device (or its CU count)."""

    grid: tuple[int, int, int]
    compute_units: int
    device: str | None = None

    @property
    def workgroups(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


@dataclass
class LaunchFill:
    workgroups: int
    slots_per_wave: int  # work-groups the device runs at once
    units: int  # CUs (or WGPs in WGP mode) that take work-groups
    waves: int  # rounds of work-groups
    last_wave_efficiency: float
    busy_units: int

    def to_json(self) -> dict:
        return {
            "workgroups": self.workgroups, "workgroups_per_device_wave": self.slots_per_wave,
            "units": self.units, "waves_of_workgroups": self.waves,
            "last_wave_efficiency": round(self.last_wave_efficiency, 3), "busy_units": self.busy_units,
        }


def fill(launch: Launch, target: Target, workgroups_per_unit: int, cumode: bool) -> LaunchFill:
    """Work-groups are dealt to CUs (to WGPs in gfx10+ WGP mode) up to `workgroups_per_unit` each."""
    units = launch.compute_units // 2 if (target.major >= 10 and not cumode) else launch.compute_units
    units = max(units, 1)
    slots = max(workgroups_per_unit, 1) * units
    total = launch.workgroups
    waves = max(math.ceil(total / slots), 1)
    last = total - (waves - 1) * slots
    return LaunchFill(total, slots, units, waves, last / slots, min(total, units))


def parse_grid(text: str) -> tuple[int, int, int]:
    parts = [int(part) for part in text.replace("x", ",").split(",") if part.strip()]
    if not 1 <= len(parts) <= 3 or any(part < 1 for part in parts):
        raise ValueError(f"--grid expects X[,Y[,Z]] positive work-group counts, got '{text}'")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]
