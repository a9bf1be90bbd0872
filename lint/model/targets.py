"""AMDGPU processors: generation numbers, families and target IDs (LLVM 22's processor list)."""

from __future__ import annotations

import re
from dataclasses import field, replace
from functools import cached_property

from .frozen import frozen_dataclass

# name -> (major, minor, stepping); stepping letters (gfx90a, gfx90c) are hex digits.
_GENERIC = {
    "gfx9-generic": ("gfx900", (9, 0, 0)),
    "gfx9-4-generic": ("gfx942", (9, 4, 2)),
    "gfx10-1-generic": ("gfx1010", (10, 1, 0)),
    "gfx10-3-generic": ("gfx1030", (10, 3, 0)),
    "gfx11-generic": ("gfx1100", (11, 0, 0)),
    "gfx12-generic": ("gfx1200", (12, 0, 0)),
}

_PROCESSORS = ["gfx600", "gfx601", "gfx602", "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705", "gfx801", "gfx802", "gfx803", "gfx805", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153", "gfx1200", "gfx1201", "gfx1250", "gfx1251"]

#: LLVM's other names for processors (AMDGPUUsage, "AMDGPU Processors"), accepted by llc and llvm-mc,
#: and its processors for a missing -mcpu: `generic` (SI-class) and `generic-hsa` (CI-class, flat).
PROCESSOR_ALIASES = {
    "tahiti": "gfx600", "pitcairn": "gfx601", "verde": "gfx601", "hainan": "gfx602", "oland": "gfx602",
    "kaveri": "gfx700", "hawaii": "gfx701", "kabini": "gfx703", "mullins": "gfx703", "bonaire": "gfx704",
    "carrizo": "gfx801", "iceland": "gfx802", "tonga": "gfx802", "fiji": "gfx803", "polaris10": "gfx803",
    "polaris11": "gfx803", "tongapro": "gfx805", "stoney": "gfx810",
    "generic": "gfx600", "generic-hsa": "gfx700",
}

#: EF_AMDGPU_MACH (the low byte of an AMDGPU ELF's e_flags) -> processor, as AMDGPUUsage lists them
ELF_MACHINES = {
    0x020: "gfx600", 0x021: "gfx601", 0x022: "gfx700", 0x023: "gfx701", 0x024: "gfx702", 0x025: "gfx703",
    0x026: "gfx704", 0x028: "gfx801", 0x029: "gfx802", 0x02a: "gfx803", 0x02b: "gfx810", 0x02c: "gfx900",
    0x02d: "gfx902", 0x02e: "gfx904", 0x02f: "gfx906", 0x030: "gfx908", 0x031: "gfx909", 0x032: "gfx90c",
    0x033: "gfx1010", 0x034: "gfx1011", 0x035: "gfx1012", 0x036: "gfx1030", 0x037: "gfx1031", 0x038: "gfx1032",
    0x039: "gfx1033", 0x03a: "gfx602", 0x03b: "gfx705", 0x03c: "gfx805", 0x03d: "gfx1035", 0x03e: "gfx1034",
    0x03f: "gfx90a", 0x041: "gfx1100", 0x042: "gfx1013", 0x043: "gfx1150", 0x044: "gfx1103", 0x045: "gfx1036",
    0x046: "gfx1101", 0x047: "gfx1102", 0x048: "gfx1200", 0x049: "gfx1250", 0x04a: "gfx1151", 0x04c: "gfx942",
    0x04e: "gfx1201", 0x04f: "gfx950", 0x051: "gfx9-generic", 0x052: "gfx10-1-generic", 0x053: "gfx10-3-generic",
    0x054: "gfx11-generic", 0x055: "gfx1152", 0x058: "gfx1153", 0x059: "gfx12-generic", 0x05a: "gfx1251",
    0x05f: "gfx9-4-generic",
}


def target_id_from_elf_flags(flags: int, abi_version: int) -> str | None:
    """The target ID an AMDGPU code object's e_flags name (`gfx90a:sramecc+:xnack-`): the processor, and the
    xnack and sramecc settings it was built for (HSA code object v3: on or absent; v4 and later: any, off or
    on). None for a machine number this table does not know."""
    processor = ELF_MACHINES.get(flags & 0xFF)
    if processor is None:
        return None
    if abi_version <= 1:  # code object v3
        sramecc = "+" if flags & 0x200 else ""
        xnack = "+" if flags & 0x100 else ""
    else:
        sramecc = {0x800: "-", 0xC00: "+"}.get(flags & 0xC00, "")
        xnack = {0x200: "-", 0x300: "+"}.get(flags & 0x300, "")
    return processor + (f":sramecc{sramecc}" if sramecc else "") + (f":xnack{xnack}" if xnack else "")


_NAME = re.compile(r"gfx(\d+?)([0-9a-f])([0-9a-f])\Z")

_FAMILY_NAMES = {6: "GFX6 (SI)", 7: "GFX7 (CI)", 8: "GFX8 (VI)", 9: "GFX9", 10: "GFX10", 11: "GFX11", 12: "GFX12"}


#: Processors with the 1.5x VGPR file (LLVM's Feature1_5xVGPRs).
_VGPR_1_5X = frozenset(("gfx1100", "gfx1101", "gfx1151", "gfx1200", "gfx1201", "gfx12-generic"))
#: Processors whose xnack / sramecc target-ID features LLVM 22 accepts.
_XNACK = frozenset(("gfx801", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c",
                    "gfx940", "gfx941", "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1250",
                    "gfx1251", "gfx9-generic", "gfx9-4-generic", "gfx10-1-generic"))
_SRAMECC = frozenset(("gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1250", "gfx1251",
                      "gfx9-4-generic"))

#: Instruction-syntax table pages that make up each processor's instruction set (lint/isa/tables).
_ISA_PAGES = {
    **{name: ("gfx7",) for name in ("gfx600", "gfx601", "gfx602", "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705")},
    **{name: ("gfx8",) for name in ("gfx801", "gfx802", "gfx803", "gfx805", "gfx810")},
    **{name: ("gfx9", "gfx900") for name in ("gfx900", "gfx902", "gfx909", "gfx90c", "gfx9-generic")},
    "gfx904": ("gfx9", "gfx904"), "gfx906": ("gfx9", "gfx906"), "gfx908": ("gfx9", "gfx908"),
    "gfx90a": ("gfx90a",),
    **{name: ("gfx940",) for name in ("gfx940", "gfx941", "gfx942", "gfx9-4-generic")},
    "gfx950": ("gfx940", "gfx950"),
    "gfx1010": ("gfx10",), "gfx1011": ("gfx10", "gfx1011"), "gfx1012": ("gfx10", "gfx1011"),
    "gfx1013": ("gfx10", "gfx1013"), "gfx10-1-generic": ("gfx10",),
}


@frozen_dataclass(frozen=True, init=False, eq=False, repr=False)
class Target:
    """A processor plus the target-ID features given with it (`xnack+`, `sramecc-`, ...).

    Register, LDS and wave limits follow LLVM 22 (llvm-amdgpu-facts.md §1.5). A target never changes, so
    what it derives is worked out once (cached properties; per instruction, some were asked for tens of
    thousands of times in a 100k-line file).
    """

    name: str
    major: int
    minor: int
    stepping: int
    generic: str | None = None
    features: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)

    def __init__(self, name: str, major: int, minor: int, stepping: int, generic: str | None = None,
                 features: dict[str, bool] | None = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "major", major)
        object.__setattr__(self, "minor", minor)
        object.__setattr__(self, "stepping", stepping)
        object.__setattr__(self, "generic", generic)
        object.__setattr__(self, "features", {} if features is None else features)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(name={self.name!r}, major={self.major!r}, minor={self.minor!r}, "
                f"stepping={self.stepping!r}, generic={self.generic!r}, features={self.features!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Target) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.name, self.major, self.minor, self.stepping, self.generic) == (
            other.name, other.major, other.minor, other.stepping, other.generic)

    def __hash__(self) -> int:
        return hash((self.name, self.major, self.minor, self.stepping, self.generic))

    def __reduce__(self) -> tuple:
        """Pickled as its fields (what it derives is worked out again): the compiled build's frozen dataclasses
        cannot be unpickled field by field."""
        return (Target, (self.name, self.major, self.minor, self.stepping, self.generic, self.features))

    # ---- identity
    @cached_property
    def family(self) -> str:
        if self.is_gfx94_plus:
            return "GFX9.4 (CDNA3)" if self.minor == 4 else "GFX9.5 (CDNA4)"
        if self.name == "gfx90a":
            return "GFX9 (CDNA2)"
        if self.name == "gfx908":
            return "GFX9 (CDNA1)"
        return _FAMILY_NAMES.get(self.major, f"GFX{self.major}")

    @cached_property
    def is_gfx94_plus(self) -> bool:
        """gfx940-942 (9.4) and gfx950 (9.5): CDNA3/4."""
        return self.major == 9 and self.minor >= 4

    @cached_property
    def is_gfx1250(self) -> bool:
        return self.major == 12 and self.minor == 5

    @cached_property
    def has_gfx90a_insts(self) -> bool:
        """gfx90a, gfx942, gfx950: unified VGPR/AGPR file, 8 waves per SIMD, back-off barrier."""
        return self.name == "gfx90a" or self.is_gfx94_plus

    @cached_property
    def has_mai(self) -> bool:
        """Matrix cores with AGPRs (MFMA): gfx908 and later CDNA."""
        return self.name == "gfx908" or self.has_gfx90a_insts

    @cached_property
    def isa_pages(self) -> tuple[str, ...]:
        """The instruction tables describing this processor (nearest family when LLVM has no page)."""
        if self.name in _ISA_PAGES:
            return _ISA_PAGES[self.name]
        if self.major == 10:
            return ("gfx1030",)
        return {11: ("gfx11",), 12: ("gfx12",)}[self.major]

    @cached_property
    def isa_exact(self) -> bool:
        """False where the tables are a neighbour's (gfx6 uses gfx7's, gfx1250 uses gfx12's)."""
        return not (self.major == 6 or self.is_gfx1250)

    # ---- waves
    @cached_property
    def wave_sizes(self) -> tuple[int, ...]:
        if self.major < 10:
            return (64,)
        return (32,) if self.is_gfx1250 else (32, 64)

    @cached_property
    def default_wave_size(self) -> int:
        if self.major >= 10 and self.features.get("wavefrontsize64"):
            return 64
        return 64 if self.major < 10 else 32

    @cached_property
    def max_waves_per_simd(self) -> int:
        if self.has_gfx90a_insts:
            return 8
        if self.major < 10:
            return 10
        return 20 if (self.major == 10 and self.minor < 3) else 16

    def simds_per_cu(self, cumode: bool = False) -> int:
        """SIMDs sharing one work-group: 4 per CU (gfx6-9) or per WGP (gfx10+), 2 in CU mode."""
        return 2 if (self.major >= 10 and cumode) else 4

    def max_barriers(self, cumode: bool = False) -> int:
        return 32 if (self.major >= 10 and not cumode and not self.is_gfx1250) else 16

    # ---- VGPRs and AGPRs
    @cached_property
    def has_1_5x_vgprs(self) -> bool:
        return (self.generic or self.name) in _VGPR_1_5X

    def vgpr_alloc_granule(self, wave_size: int) -> int:
        if self.has_gfx90a_insts:
            return 8
        if self.has_1_5x_vgprs:
            return 24 if wave_size == 32 else 12
        if self.major > 10 or (self.major == 10 and self.minor >= 3):
            return 16 if wave_size == 32 else 8
        return 8 if wave_size == 32 else 4

    def vgpr_encoding_granule(self, wave_size: int) -> int:
        if self.is_gfx1250:
            return 16
        if self.has_gfx90a_insts:
            return 8
        return 8 if wave_size == 32 else 4

    def total_vgprs(self, wave_size: int) -> int:
        """VGPRs per lane in one SIMD's file (unified with AGPRs on gfx90a+)."""
        if self.has_gfx90a_insts:
            return 512
        if self.major < 10:
            return 256
        if self.is_gfx1250:
            return 1024
        base = 1536 if self.has_1_5x_vgprs else 1024
        return base if wave_size == 32 else base // 2

    @cached_property
    def addressable_vgprs(self) -> int:
        """Highest VGPR count one wave can use (arch VGPRs + AGPRs on the unified file)."""
        if self.is_gfx1250:
            return 1024
        return 512 if self.has_gfx90a_insts else 256

    @cached_property
    def agpr_file(self) -> str | None:
        """'separate' (gfx908: 256 AGPRs beside 256 VGPRs), 'unified' (gfx90a+), or None."""
        if self.name == "gfx908":
            return "separate"
        return "unified" if self.has_gfx90a_insts else None

    # ---- SGPRs
    @cached_property
    def total_sgprs(self) -> int:
        return 800 if self.major >= 8 else 512

    @cached_property
    def addressable_sgprs(self) -> int:
        if self.name == "gfx802":
            return 96  # SGPR init bug: fixed allocation
        if self.major >= 10:
            return 106
        return 102 if self.major >= 8 else 104

    # ---- register files
    @cached_property
    def register_files(self) -> dict[str, int]:
        """How many registers of each file an operand can name (v0 to v{n-1}, ...), as llvm-mc 22 accepts
        them: VGPRs (gfx1250 reaches v1023 through s_set_vgpr_msb), AGPRs (none without matrix cores),
        SGPRs (gfx802's fixed allocation of 96 still names s96-s101) and trap temporaries."""
        return {"v": 1024 if self.is_gfx1250 else 256, "a": 256 if self.has_mai else 0,
                "s": self.addressable_sgprs if self.name != "gfx802" else 102, "ttmp": 16 if self.major >= 9 else 12}

    @cached_property
    def sgpr_alloc_granule(self) -> int:
        if self.major >= 10:
            return self.addressable_sgprs
        return 16 if self.major >= 8 else 8

    @cached_property
    def sgprs_limit_occupancy(self) -> bool:
        return self.major < 10

    # ---- LDS
    def lds_per_cu(self, cumode: bool = False) -> int:
        """Bytes of LDS shared by the work-groups on one CU (one WGP on gfx10+ unless cumode)."""
        if self.is_gfx1250:
            return 327680
        if self.name == "gfx950":
            return 163840
        if self.major == 6:
            return 32768
        if self.major >= 10 and not cumode:
            return 131072
        return 65536

    @cached_property
    def lds_per_workgroup(self) -> int:
        if self.is_gfx1250:
            return 327680
        if self.name == "gfx950":
            return 163840
        return 32768 if self.major == 6 else 65536

    @cached_property
    def lds_alloc_granule(self) -> int:
        """Bytes in one unit of COMPUTE_PGM_RSRC2.LDS_SIZE: the dispatcher gives a work-group its LDS in
        whole units (AMDGPUUsage: 64 dwords on GFX6, 128 on GFX7-GFX12, 320 on gfx950, 512 on gfx125x).
        LLVM's occupancy figure counts raw bytes."""
        if self.is_gfx1250:
            return 2048
        if self.name == "gfx950":
            return 1280
        return 256 if self.major == 6 else 512

    # ---- features
    @cached_property
    def supported_features(self) -> frozenset[str]:
        key = self.generic or self.name
        found = set()
        if key in _XNACK:
            found.add("xnack")
        if key in _SRAMECC:
            found.add("sramecc")
        if self.major >= 10:
            found.add("cumode")
            if not self.is_gfx1250:
                found.add("wavefrontsize64")
        if self.major >= 11:
            found.add("real-true16")  # 16-bit register halves (v0.l): on by default for gfx11, off for gfx12
        if self.has_gfx90a_insts:
            found.add("tgsplit")
        return frozenset(found)

    @cached_property
    def architected_flat_scratch(self) -> bool:
        return self.is_gfx94_plus or self.major >= 11

    @cached_property
    def has_kernarg_preload(self) -> bool:
        return self.has_gfx90a_insts or self.is_gfx1250

    @cached_property
    def has_back_off_barrier(self) -> bool:
        """No vmcnt(0) needed before s_barrier (gfx90a+, gfx10+)."""
        return self.has_gfx90a_insts or self.major >= 10

    # ---- wait counters
    @property
    def wait_counter_max(self) -> dict[str, int]:
        """Largest encodable count per wait counter (a count of MAX never waits)."""
        if self.major >= 12:
            if self.is_gfx1250:  # no image or export instructions: no samplecnt, bvhcnt or expcnt
                return {"loadcnt": 63, "storecnt": 63, "dscnt": 63, "kmcnt": 31, "xcnt": 63, "asynccnt": 63}
            return {"loadcnt": 63, "storecnt": 63, "samplecnt": 63, "bvhcnt": 7, "dscnt": 63, "kmcnt": 31,
                    "expcnt": 7}
        if self.major >= 10:
            return {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 63, "vscnt": 63}
        if self.major == 9:
            return {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 15}
        return {"vmcnt": 15, "expcnt": 7, "lgkmcnt": 15}

    # ---- predefined assembler symbols
    def generation_symbols(self, hsa: bool) -> dict[str, int]:
        """The assembler's predefined generation symbols: `.amdgcn.gfx_generation_*` for amdhsa
        (code object v3+), `.option.machine_version_*` for every other OS (as llvm-mc 22 does)."""
        prefix, names = (".amdgcn.gfx_generation_", ("number", "minor", "stepping")) if hsa else \
            (".option.machine_version_", ("major", "minor", "stepping"))
        return dict(zip((prefix + name for name in names), (self.major, self.minor, self.stepping), strict=True))

    def __str__(self) -> str:
        suffix = "".join(f":{name}{'+' if on else '-'}" for name, on in self.features.items())
        return f"{self.generic or self.name}{suffix}"


class UnknownTarget(ValueError):
    """A processor name LLVM 22 does not know; the message suggests the closest one."""


def _generation(name: str) -> tuple[int, int, int]:
    match = _NAME.match(name)
    if match is None:
        raise UnknownTarget(name)
    return int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16)


#: feature names of the code-object-v3 target spelling that changed
_OLD_FEATURE_NAMES = {"sram-ecc": "sramecc"}


def old_spelling(text: str) -> str | None:
    """Today's target id for one in the code-object-v3 spelling of before 2020 (`amdgcn-amd-amdhsa--gfx906+xnack`
    -> `gfx906:xnack+`), which llvm-mc no longer accepts in `.amdgcn_target`; None for any other text."""
    name = text.strip().strip('"').strip().rsplit("--", 1)[-1]
    if "+" not in name.split(":")[0]:
        return None
    processor, *named = name.split(":")[0].split("+")
    return ":".join([processor, *(f"{_OLD_FEATURE_NAMES.get(n.lower(), n.lower())}+" for n in named)])


def parse_target_id(text: str) -> Target:
    """Parse `gfx90a`, `gfx90a:xnack+`, or a full `amdgcn-amd-amdhsa--gfx942:sramecc+` target ID."""
    text = text.strip().strip('"').strip()
    if "--" in text:
        text = text.rsplit("--", 1)[1]
    elif text.count("-") >= 2 and not text.startswith("gfx"):
        text = text.rsplit("-", 1)[1]
    processor, *feature_parts = text.split(":")
    if "+" in processor:  # the code-object-v3 spelling (before 2020): gfx906+xnack, gfx908+sram-ecc
        processor, *named = processor.split("+")
        feature_parts = [f"{_OLD_FEATURE_NAMES.get(name.lower(), name.lower())}+" for name in named] + feature_parts
    processor = PROCESSOR_ALIASES.get(processor.lower(), processor.lower())
    features: dict[str, bool] = {}
    for part in feature_parts:
        if len(part) < 2 or part[-1] not in "+-":
            raise UnknownTarget(f"{text} (bad feature '{part}'; use e.g. xnack+ or sramecc-)")
        features[part[:-1]] = part[-1] == "+"
    if processor in _GENERIC:
        _, (major, minor, stepping) = _GENERIC[processor]
        target = Target(processor, major, minor, stepping, generic=processor, features=features)
    elif processor not in _PROCESSORS:
        import difflib

        guess = difflib.get_close_matches(processor, _PROCESSORS + list(_GENERIC) + list(PROCESSOR_ALIASES), n=1, cutoff=0.6)
        raise UnknownTarget(f"{processor}" + (f" (did you mean {guess[0]}?)" if guess else ""))
    else:
        target = Target(processor, *_generation(processor), features=features)
    unsupported = [name for name in features if name not in target.supported_features]
    if unsupported:
        raise UnknownTarget(f"{processor} does not support the target feature(s) {', '.join(unsupported)}")
    return target


#: What only a listing for another OS than amdhsa contains: PAL metadata. (Code-object-v2 kernel
#: directives are no sign: ROCm kernels keep them in .if branches for old ROCm versions.)
NON_HSA_MARKS = (".amdgpu_pal_metadata", ".amd_amdgpu_pal_metadata")


def known_target(text: str | None) -> Target | None:
    """The target `text` names, or None for no text or an unknown one."""
    try:
        return parse_target_id(text) if text else None
    except UnknownTarget:
        return None


def with_mcpu_features(target: Target, mcpu: str | None) -> Target:
    """The target of `.amdgcn_target` with the features `--mcpu` adds for the same processor: those the directive does
    not name (`--mcpu gfx1200:real-true16+`, `gfx1030:wavefrontsize64+`: options of the build, not of the target id)."""
    given = known_target(mcpu)
    if given is None or given.name != target.name or not given.features:
        return target
    merged = {**given.features, **target.features}
    return target if merged == target.features else replace(target, features=merged)


def extra_sgprs(target: Target, vcc: bool, flat_scratch: bool, xnack: bool) -> int:
    """SGPRs the hardware reserves above the numbered ones (getNumExtraSGPRs; assignments, not sums)."""
    extra = 2 if vcc else 0
    if target.major >= 10:
        return extra
    if target.major < 8:
        return 4 if flat_scratch else extra
    if xnack:
        extra = 4
    if flat_scratch or target.architected_flat_scratch:
        extra = 6
    return extra


def xnack_reserved(target: Target) -> bool:
    """XNACK mask SGPRs are reserved when the target has xnack and it is on or 'any'."""
    return "xnack" in target.supported_features and target.features.get("xnack", True) and target.major < 10


def waves_for_sgprs(sgprs: int, volcanic_islands_or_later: bool) -> int:
    """LLVM's SGPR occupancy steps before gfx10 (getOccupancyWithNumSGPRs), not capped by the target."""
    steps = ((80, 10), (88, 9), (100, 8)) if volcanic_islands_or_later else ((48, 10), (56, 9), (64, 8), (72, 7), (80, 6))
    return next((waves for limit, waves in steps if sgprs <= limit), 7 if volcanic_islands_or_later else 5)


def waves_for_vgprs(vgprs: int, granule: int, total_vgprs: int, max_waves: int) -> int:
    """Waves the VGPR file holds at `vgprs` per lane, allocated in `granule`s (getNumWavesPerEUWithNumVGPRs)."""
    if vgprs < granule:
        return max_waves
    return min(max(total_vgprs // (-(-vgprs // granule) * granule), 1), max_waves)


#: The largest register files of any target (`Target.register_files`): the bound for a file whose target is
#: not known while it is read.
LARGEST_REGISTER_FILES = {"v": 1024, "a": 256, "s": 106, "ttmp": 16}
