"""Instruction classes every analysis uses: execution unit, memory kind, rate, wait counters.

Rates follow LLVM's scheduling classes (SISchedule.td): transcendental (WriteTrans32), f64
(WriteDouble), quarter rate (32-bit integer multiplies, WriteQuarterRate32), half rate (64-bit
integer/bit operations, Write64Bit), full rate otherwise. MFMA pass counts follow the gfx940
and gfx90a scheduling models (llvm-amdgpu-facts.md §3 notes).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model.frozen import frozen_dataclass
from ..model.targets import Target

VMEM_ENCODINGS = frozenset((
    "MUBUF", "MTBUF", "MIMG", "FLAT", "FLAT_GLBL", "FLAT_GLOBAL", "FLAT_SCRATCH", "VBUFFER", "VFLAT", "VGLOBAL",
    "VSCRATCH", "VIMAGE", "VSAMPLE",
))
DS_ENCODINGS = frozenset(("DS", "VDS"))
VALU_ENCODINGS = frozenset(("VINTRP", "VINTERP", "DPP16", "DPP8", "SDWA"))
LDS_PARAMETER_ENCODINGS = frozenset(("LDSDIR", "VDSDIR"))  # gfx11 lds_param_load, gfx12 ds_param_load
#: gfx12 cache write-back / invalidation and the counter LLVM 22 counts them on (facts §2.1)
_BARRIER_QUERIES = ("s_barrier_signal_isfirst", "s_barrier_leave", "s_get_barrier_state")
_GFX12_CACHE_COUNTER = {"global_wb": "storecnt", "global_wbinv": "storecnt", "global_inv": "loadcnt"}
SALU_ENCODINGS = frozenset(("SOP1", "SOP2", "SOPC", "SOPK", "SOPP"))
CALLS = frozenset(("s_swappc_b64", "s_call_b64", "s_swap_pc_i64", "s_call_i64"))  # gfx1250 spells them _i64
RETURNS = frozenset(("s_setpc_b64", "s_rfe_b64", "s_set_pc_i64", "s_rfe_i64"))  # or tail calls

_TRANS = re.compile(r"v_(exp|log|rcp|rsq|sqrt|sin|cos)(_legacy|_iflag|_clamp)?_f(16|32)(_e32|_e64|_dpp|_sdwa)?$|v_(exp|log)_legacy_f32")
_QUARTER = re.compile(r"v_(mul_lo|mul_hi|mad_lo|mad_hi)_[iu]32|v_mad_[iu]64_[iu]32|v_mul_lo_i32|v_mul_hi_i32")
_HALF = re.compile(r"v_(lshlrev|lshrrev|ashrrev)_[bi]64|v_lshl_add_u64|v_(add|sub)_nc_u64|v_mov_b64|v_(lshl|lshr|ashr)_[bi]64")
_MFMA_SHAPE = re.compile(r"(\d+)x(\d+)x(\d+)")


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class InstructionClass:
    """What an instruction is: `unit` is one of salu, valu, smem, vmem, ds, lds_parameter, export,
    branch, call, return, wait, barrier, nop, message, endpgm."""

    unit: str
    kind: str = ""  # vmem: load/store/atomic/cache; ds: read/write/read2/write2/atomic/other
    memory: str = ""  # vmem: buffer/global/scratch/flat/image; ds: lds/gds
    rate: str = ""  # valu: full/half/quarter/trans/f64
    matrix: str = ""  # valu: mfma/smfmac/wmma/swmmac/dot
    passes: int = 0  # MFMA/WMMA passes (the latency of the matrix op in 4-cycle passes)
    xdl: bool = False
    returns_data: bool = False  # vmem/ds atomics that return the old value
    lds_dma: bool = False  # loads that write LDS directly (buffer_load ... lds, global_load_lds_*)
    sampler: str = ""  # image loads on gfx12: sample or bvh (own counters)
    counters: frozenset[str] = frozenset()  # wait counters that track it on the target

    def __init__(self, unit: str, kind: str = "", memory: str = "", rate: str = "", matrix: str = "", passes: int = 0,
                 xdl: bool = False, returns_data: bool = False, lds_dma: bool = False, sampler: str = "",
                 counters: frozenset[str] = frozenset()) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "memory", memory)
        object.__setattr__(self, "rate", rate)
        object.__setattr__(self, "matrix", matrix)
        object.__setattr__(self, "passes", passes)
        object.__setattr__(self, "xdl", xdl)
        object.__setattr__(self, "returns_data", returns_data)
        object.__setattr__(self, "lds_dma", lds_dma)
        object.__setattr__(self, "sampler", sampler)
        object.__setattr__(self, "counters", counters)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(unit={self.unit!r}, kind={self.kind!r}, memory={self.memory!r}, "
                f"rate={self.rate!r}, matrix={self.matrix!r}, passes={self.passes!r}, xdl={self.xdl!r}, "
                f"returns_data={self.returns_data!r}, lds_dma={self.lds_dma!r}, sampler={self.sampler!r}, "
                f"counters={self.counters!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InstructionClass) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.unit, self.kind, self.memory, self.rate, self.matrix, self.passes, self.xdl, self.returns_data,
            self.lds_dma, self.sampler, self.counters) == (
            other.unit, other.kind, other.memory, other.rate, other.matrix, other.passes, other.xdl, other.returns_data,
            other.lds_dma, other.sampler, other.counters)

    def __hash__(self) -> int:
        return hash((
            self.unit, self.kind, self.memory, self.rate, self.matrix, self.passes, self.xdl, self.returns_data,
            self.lds_dma, self.sampler, self.counters))

    @property
    def is_memory(self) -> bool:
        return self.unit in ("vmem", "smem", "ds")


#: Bytes of one input element, by the type the mnemonic names after its shape (first match wins).
_INPUT_BYTES = (("f8f6f4", 1), ("xf32", 4), ("f64", 8), ("f32", 4), ("bf16", 2), ("f16", 2), ("i8", 1), ("fp8", 1),
                ("bf8", 1))
#: cbsz/blgp values of the 8-bit formats (fp8, bf8) of gfx950's f8f6f4 MFMAs; 2-4 are fp6, bf6, fp4.
_EIGHT_BIT_FORMATS = (0, 1)


def _input_bytes(mnemonic: str, shape_end: int) -> int:
    tail = mnemonic[shape_end:]
    return next((size for name, size in _INPUT_BYTES if name in tail), 2)


def _mfma_passes(mnemonic: str, target: Target, formats: tuple[int, int]) -> tuple[int, bool]:
    """(passes, is_xdl) of an MFMA/SMFMAC on the target, as LLVM 22's scheduling models give them
    (the pass count is the matrix pipe's cycles in llvm-mca; the hazard recognizer reads it).

    gfx908/gfx90a: 4x4 2, 16x16 8, 32x32 16, all XDL. gfx940+: 4x4 2; 16x16 4 and 32x32 8 when one
    block's K reads at least 32 (16x16) or 16 (32x32) bytes per lane row, else 8 and 16 (the
    multi-block shapes and the plain f32 ones); f8f6f4 doubles that with an fp8/bf8 operand
    (`formats` = cbsz, blgp). f32 inputs (not xf32) are not XDL. DGEMM (f64) is never XDL:
    4x4 4 passes, 16x16 8 (16 on gfx950).
    """
    match = _MFMA_SHAPE.search(mnemonic)
    if match is None:
        return 4, True
    m, k = int(match.group(1)), int(match.group(3))
    size = _input_bytes(mnemonic, match.end())
    if size == 8:
        return (4 if m == 4 else 16 if target.name == "gfx950" else 8), False
    if not target.is_gfx94_plus:
        return {4: 2, 16: 8}.get(m, 16), True
    xdl = not (size == 4 and "xf32" not in mnemonic)
    if m == 4:
        return 2, xdl
    short = 4 if m == 16 else 8
    if k * size < (32 if m == 16 else 16):
        return 2 * short, xdl
    if "f8f6f4" in mnemonic and any(f in _EIGHT_BIT_FORMATS for f in formats):
        return 2 * short, xdl
    return short, xdl


def _wmma_passes(mnemonic: str) -> int:
    match = _MFMA_SHAPE.search(mnemonic)
    return 8 if match and int(match.group(3)) >= 32 else 4


def _vmem_memory(mnemonic: str) -> str:
    for prefix, memory in (("buffer_", "buffer"), ("tbuffer_", "buffer"), ("global_", "global"), ("cluster_", "global"),
                           ("scratch_", "scratch"), ("flat_", "flat"), ("image_", "image")):
        if mnemonic.startswith(prefix):
            return memory
    return "buffer"


def _vmem_kind(mnemonic: str) -> str:
    if "_atomic" in mnemonic:
        return "atomic"
    if "_load" in mnemonic or mnemonic.startswith(("image_sample", "image_gather", "image_get", "image_bvh", "image_msaa")):
        return "load"
    if "_store" in mnemonic:
        return "store"
    return "cache"


def _ds_kind(mnemonic: str) -> str:
    if mnemonic.startswith(("ds_read2", "ds_load_2addr")):
        return "read2"
    if mnemonic.startswith(("ds_write2", "ds_store_2addr")):
        return "write2"
    if mnemonic.startswith(("ds_read", "ds_load")):
        return "read"
    if mnemonic.startswith(("ds_write", "ds_store")):
        return "write"
    if mnemonic.startswith(("ds_swizzle", "ds_permute", "ds_bpermute", "ds_nop")):
        return "other"
    return "atomic"


def is_async_lds(mnemonic: str) -> bool:
    """gfx1250's asynchronous copies between memory and LDS (`global_load_async_to_lds_b32`,
    `global_store_async_from_lds_b128`, `cluster_load_async_to_lds_*`): counted on ASYNCcnt, and they
    write no register (their first operand is the LDS address)."""
    return "_async_to_lds" in mnemonic or "_async_from_lds" in mnemonic


def _vmem_counters(mnemonic: str, kind: str, memory: str, lds_dma: bool, sampler: str, target: Target) -> frozenset[str]:
    translated = {"xcnt"} if target.is_gfx1250 else set()  # gfx1250: address translation of every VMEM access
    if is_async_lds(mnemonic):  # AMDGPUUsage: ASYNC LDS operations wait with s_wait_asynccnt, not loadcnt/storecnt
        return frozenset({"asynccnt", *translated})
    if kind == "cache":
        cache_counter = _GFX12_CACHE_COUNTER.get(mnemonic) if target.major >= 12 else None
        return frozenset({cache_counter, *translated}) if cache_counter else frozenset()
    writes = kind in ("store", "atomic_noret")
    if target.major >= 12:
        if lds_dma or not writes:
            counter = {"sample": "samplecnt", "bvh": "bvhcnt"}.get(sampler, "loadcnt")
        else:
            counter = "storecnt"
        extra = ({"dscnt"} if memory == "flat" else set()) | translated
    else:
        counter = "vscnt" if (writes and target.major >= 10 and not lds_dma) else "vmcnt"
        extra = {"lgkmcnt"} if memory == "flat" else set()
    return frozenset({counter, *extra})


def _encoding_by_prefix(mnemonic: str) -> str:
    for prefixes, encoding in ((("buffer_", "tbuffer_"), "MUBUF"), (("global_", "flat_", "scratch_", "cluster_"), "FLAT"),
                               (("image_",), "MIMG"), (("ds_",), "DS")):
        if mnemonic.startswith(prefixes):
            return encoding
    return ""


@lru_cache(maxsize=16384)
def classify(mnemonic: str, encoding: str, target: Target, returns_data: bool, modifiers: frozenset[str],
             matrix_formats: tuple[int, int] = (0, 0)) -> InstructionClass:
    """Class of one instruction form; `returns_data` says whether an atomic returns (glc/sc0/_rtn),
    `matrix_formats` are an MFMA's cbsz and blgp values."""
    gfx12 = target.major >= 12
    if not encoding:  # a form the tables do not list (newer than them): the name tells the unit
        encoding = _encoding_by_prefix(mnemonic)
    if encoding in VMEM_ENCODINGS or mnemonic.startswith(("global_load_lds", "buffer_wbl2", "buffer_inv")):
        memory = _vmem_memory(mnemonic)
        kind = _vmem_kind(mnemonic)
        lds_dma = (kind == "load" and "lds" in modifiers) or mnemonic.startswith("global_load_lds")
        sampler = ""
        if memory == "image" and gfx12:
            sampler = "bvh" if "bvh" in mnemonic else (
                "sample" if mnemonic.startswith(("image_sample", "image_gather", "image_get_lod", "image_msaa_load")) else "")
        counter_kind = "atomic_noret" if kind == "atomic" and not returns_data else kind
        counters = _vmem_counters(mnemonic, counter_kind, memory, lds_dma, sampler, target)
        if target.major == 6 and kind in ("store", "atomic"):
            counters |= {"expcnt"}  # gfx6 store data VGPRs are protected by expcnt
        return InstructionClass("vmem", kind, memory, returns_data=kind == "atomic" and returns_data,
                                lds_dma=lds_dma, sampler=sampler, counters=counters)
    if encoding in DS_ENCODINGS:
        gds = "gds" in modifiers or mnemonic.startswith(("ds_gws_", "ds_ordered_count"))
        # LLVM waits for no DS counter after an async barrier arrive (it counts on ASYNCcnt, not modelled)
        async_arrive = mnemonic.startswith("ds_atomic_async_barrier_arrive")
        ds_counters = set() if async_arrive else {"dscnt" if gfx12 else "lgkmcnt"}
        if gds:
            ds_counters.add("expcnt")
        kind = _ds_kind(mnemonic)
        return InstructionClass("ds", kind, "gds" if gds else "lds", returns_data=kind == "atomic" and returns_data,
                                counters=frozenset(ds_counters))
    if encoding in ("SMEM", "SMRD") or mnemonic.startswith(("s_load_", "s_buffer_load_", "s_store_", "s_buffer_store_",
                                                    "s_scratch_", "s_atomic_", "s_buffer_atomic_", "s_memtime",
                                                    "s_memrealtime", "s_dcache_", "s_atc_probe")):
        scalar_counters = {"kmcnt" if gfx12 else "lgkmcnt", *(("xcnt",) if target.is_gfx1250 else ())}
        return InstructionClass("smem", counters=frozenset(scalar_counters))
    if encoding in LDS_PARAMETER_ENCODINGS:  # LDS parameter/direct loads write their VGPR on expcnt
        return InstructionClass("lds_parameter", "read", "lds", counters=frozenset({"expcnt"}))
    if encoding in ("EXP", "VEXPORT"):
        return InstructionClass("export", counters=frozenset({"expcnt"}))
    if encoding in VALU_ENCODINGS or encoding.startswith("VOP") or mnemonic.startswith("v_"):
        return _classify_valu(mnemonic, target, matrix_formats)
    return _classify_scalar(mnemonic, target)


def _classify_valu(mnemonic: str, target: Target, matrix_formats: tuple[int, int]) -> InstructionClass:
    if mnemonic.startswith(("v_mfma", "v_smfmac")):
        passes, xdl = _mfma_passes(mnemonic, target, matrix_formats)
        return InstructionClass("valu", rate="full", matrix="smfmac" if "smfmac" in mnemonic else "mfma",
                                passes=passes, xdl=xdl)
    if mnemonic.startswith(("v_wmma", "v_swmmac")):
        return InstructionClass("valu", rate="full", matrix="swmmac" if "swmmac" in mnemonic else "wmma",
                                passes=_wmma_passes(mnemonic))
    if mnemonic.startswith("v_dot"):
        return InstructionClass("valu", rate="full", matrix="dot")
    if _TRANS.match(mnemonic):
        return InstructionClass("valu", rate="trans")
    if "_f64" in mnemonic:
        return InstructionClass("valu", rate="f64")
    if _QUARTER.match(mnemonic):
        return InstructionClass("valu", rate="quarter")
    if _HALF.match(mnemonic):
        return InstructionClass("valu", rate="half")
    return InstructionClass("valu", rate="full")


def _classify_scalar(mnemonic: str, target: Target) -> InstructionClass:
    if mnemonic in ("s_branch",) or mnemonic.startswith("s_cbranch_"):
        return InstructionClass("branch")
    if mnemonic in CALLS:
        return InstructionClass("call")
    if mnemonic in RETURNS:
        return InstructionClass("return")
    if mnemonic.startswith(("s_waitcnt", "s_wait_")):
        return InstructionClass("wait")
    if mnemonic.startswith(_BARRIER_QUERIES) and target.major >= 12:  # LLVM counts these as SMEM
        return InstructionClass("barrier" if mnemonic.startswith("s_barrier") else "salu",
                                counters=frozenset({"kmcnt"}))
    if mnemonic.startswith("s_barrier"):
        return InstructionClass("barrier")
    if mnemonic == "s_nop":
        return InstructionClass("nop")
    if mnemonic.startswith("s_sendmsg"):
        return InstructionClass("message", counters=frozenset({"kmcnt" if target.major >= 12 else "lgkmcnt"}))
    if mnemonic.startswith("s_endpgm"):
        return InstructionClass("endpgm")
    return InstructionClass("salu")
