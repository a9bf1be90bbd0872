"""Launch-grid analysis: how a grid of work-groups fills a device (the "achieved
occupancy" causes NVIDIA's Nsight names: too few work-groups, and the partial last wave of work-groups)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...model.devices import Launch
from ...model.targets import Target


@dataclass(slots=True)
class LaunchFill:
    """How a grid of work-groups fills the device."""

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
