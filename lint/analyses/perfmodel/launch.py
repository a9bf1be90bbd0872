"""Launch-grid analysis: how a grid of work-groups fills a device (the "achieved
occupancy" causes NVIDIA's Nsight names: too few work-groups, and the partial last wave of work-groups)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...model.devices import Launch
from ...model.targets import Target
from ..occupancy import Occupancy
from .machine import machine_for


@dataclass(slots=True, repr=False, init=False, eq=False)
class LaunchFill:
    """How a grid of work-groups fills the device."""

    workgroups: int
    slots_per_wave: int  # work-groups the device runs at once
    units: int  # CUs (or WGPs in WGP mode) that take work-groups
    waves: int  # rounds of work-groups
    last_wave_efficiency: float
    busy_units: int
    unit: str = "CU"  # what a unit is: a CU, or a WGP in gfx10+ WGP mode
    per_unit: int = 0  # work-groups one unit holds at once
    limiter: tuple[str, ...] = ()  # the resources that bound per_unit

    def __init__(self, workgroups: int, slots_per_wave: int, units: int, waves: int, last_wave_efficiency: float,
                 busy_units: int, unit: str = "CU", per_unit: int = 0, limiter: tuple[str, ...] = ()) -> None:
        self.workgroups = workgroups
        self.slots_per_wave = slots_per_wave
        self.units = units
        self.waves = waves
        self.last_wave_efficiency = last_wave_efficiency
        self.busy_units = busy_units
        self.unit = unit
        self.per_unit = per_unit
        self.limiter = limiter

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LaunchFill) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.workgroups, self.slots_per_wave, self.units, self.waves, self.last_wave_efficiency, self.busy_units,
            self.unit, self.per_unit, self.limiter) == (
            other.workgroups, other.slots_per_wave, other.units, other.waves, other.last_wave_efficiency,
            other.busy_units, other.unit, other.per_unit, other.limiter)

    def to_json(self) -> dict:
        return {
            "workgroups": self.workgroups, "workgroups_per_device_wave": self.slots_per_wave,
            "units": self.units, "waves_of_workgroups": self.waves,
            "last_wave_efficiency": round(self.last_wave_efficiency, 3), "busy_units": self.busy_units,
            "unit": self.unit, "workgroups_per_unit": self.per_unit, "limiter": list(self.limiter),
        }


def fill(launch: Launch, target: Target, occupancy: Occupancy, cumode: bool) -> LaunchFill:
    """Work-groups are dealt to CUs (to WGPs in gfx10+ WGP mode) up to as many as every limiter of the
    occupancy allows on one (`Occupancy.workgroups_per_cu`: registers, LDS, barriers, wave slots)."""
    machine = machine_for(target)
    units = max(launch.compute_units // machine.cus(cumode), 1)
    per_unit = occupancy.workgroups_per_cu
    slots = max(per_unit, 1) * units
    total = launch.workgroups
    waves = max(math.ceil(total / slots), 1)
    last = total - (waves - 1) * slots
    return LaunchFill(total, slots, units, waves, last / slots, min(total, units), machine.unit(cumode), per_unit,
                      tuple(occupancy.workgroup_limiter))
