"""AMDGPU processors: generation numbers, families and target IDs (LLVM 22's processor list)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# name -> (major, minor, stepping); stepping letters (gfx90a, gfx90c) are hex digits.
_GENERIC = {
    "gfx9-generic": ("gfx900", (9, 0, 0)),
    "gfx9-4-generic": ("gfx942", (9, 4, 2)),
    "gfx10-1-generic": ("gfx1010", (10, 1, 0)),
    "gfx10-3-generic": ("gfx1030", (10, 3, 0)),
    "gfx11-generic": ("gfx1100", (11, 0, 0)),
    "gfx12-generic": ("gfx1200", (12, 0, 0)),
}

_PROCESSORS = (
    "gfx600 gfx601 gfx602 gfx700 gfx701 gfx702 gfx703 gfx704 gfx705 gfx801 gfx802 gfx803 gfx805 gfx810 "
    "gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c gfx940 gfx941 gfx942 gfx950 "
    "gfx1010 gfx1011 gfx1012 gfx1013 gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 "
    "gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 gfx1151 gfx1152 gfx1153 gfx1200 gfx1201 gfx1250 gfx1251"
).split()

_NAME = re.compile(r"gfx(\d+?)([0-9a-f])([0-9a-f])\Z")

_FAMILY_NAMES = {6: "GFX6 (SI)", 7: "GFX7 (CI)", 8: "GFX8 (VI)", 9: "GFX9", 10: "GFX10", 11: "GFX11", 12: "GFX12"}


@dataclass(frozen=True)
class Target:
    """A processor plus the target-ID features given with it (`xnack+`, `sramecc-`, ...)."""

    name: str
    major: int
    minor: int
    stepping: int
    generic: str | None = None
    features: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)

    @property
    def family(self) -> str:
        if self.major == 9 and self.minor == 4:
            return "GFX9.4 (CDNA3/4)"
        if self.name == "gfx90a":
            return "GFX9 (CDNA2)"
        if self.name == "gfx908":
            return "GFX9 (CDNA1)"
        return _FAMILY_NAMES.get(self.major, f"GFX{self.major}")

    @property
    def generation_symbols(self) -> dict[str, int]:
        """Values of the assembler's predefined generation symbols."""
        return {
            ".amdgcn.gfx_generation_number": self.major,
            ".amdgcn.gfx_generation_minor": self.minor,
            ".amdgcn.gfx_generation_stepping": self.stepping,
            ".option.machine_version_major": self.major,
            ".option.machine_version_minor": self.minor,
            ".option.machine_version_stepping": self.stepping,
        }

    def __str__(self) -> str:
        suffix = "".join(f":{name}{'+' if on else '-'}" for name, on in self.features.items())
        return f"{self.generic or self.name}{suffix}"


class UnknownTarget(ValueError):
    """A processor name LLVM 22 does not know."""


def _generation(name: str) -> tuple[int, int, int]:
    match = _NAME.match(name)
    if match is None:
        raise UnknownTarget(name)
    return int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16)


def parse_target_id(text: str) -> Target:
    """Parse `gfx90a`, `gfx90a:xnack+`, or a full `amdgcn-amd-amdhsa--gfx942:sramecc+` target ID."""
    text = text.strip().strip('"').strip()
    if "--" in text:
        text = text.rsplit("--", 1)[1]
    elif text.count("-") >= 2 and not text.startswith("gfx"):
        text = text.rsplit("-", 1)[1]
    processor, *feature_parts = text.split(":")
    processor = processor.lower()
    features: dict[str, bool] = {}
    for part in feature_parts:
        if len(part) < 2 or part[-1] not in "+-":
            raise UnknownTarget(f"{text} (bad feature '{part}')")
        features[part[:-1]] = part[-1] == "+"
    if processor in _GENERIC:
        _, (major, minor, stepping) = _GENERIC[processor]
        return Target(processor, major, minor, stepping, generic=processor, features=features)
    if processor not in _PROCESSORS:
        raise UnknownTarget(processor)
    major, minor, stepping = _generation(processor)
    return Target(processor, major, minor, stepping, features=features)
