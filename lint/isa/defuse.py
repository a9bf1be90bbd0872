"""What one instruction reads and writes, from the per-target tables plus implicit operands.

Registers are tracked as units: ("v", 3) is v3, ("s", 10) is s10, ("a", 0) is a0; special
registers have their own files: ("vcc", 0/1) for vcc_lo/hi, ("exec", 0/1), ("m0", 0),
("scc", 0), ("flat_scratch", 0/1), ("xnack_mask", 0/1), ("tba"/"tma", 0/1).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model.frozen import frozen_dataclass
from ..model.nodes import Call, MissingRegister, Node, Num, Reg, SpecialReg, Sym, operand_register
from ..model.targets import Target
from . import OperandSpec, Variant, absent_mnemonics, instruction_set

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
from .classes import InstructionClass, classify, is_async_lds

#: A register unit: (file, index), e.g. ("v", 3), ("s", 0), ("vcc", 1), ("scc", 0). Left unparameterized on purpose:
#: a compiled build unboxes a `tuple[str, int]` wherever one is read and makes a new tuple for every set or dict it
#: is looked up in, where units are kept and compared by the millions; as `tuple` they stay the objects they are.
Unit = tuple

_SPECIAL_UNITS: dict[str, tuple[Unit, ...]] = {
    "vcc": (("vcc", 0), ("vcc", 1)), "vcc_lo": (("vcc", 0),), "vcc_hi": (("vcc", 1),),
    "exec": (("exec", 0), ("exec", 1)), "exec_lo": (("exec", 0),), "exec_hi": (("exec", 1),),
    "m0": (("m0", 0),), "scc": (("scc", 0),),
    "flat_scratch": (("flat_scratch", 0), ("flat_scratch", 1)),
    "flat_scratch_lo": (("flat_scratch", 0),), "flat_scratch_hi": (("flat_scratch", 1),),
    "xnack_mask": (("xnack_mask", 0), ("xnack_mask", 1)),
    "xnack_mask_lo": (("xnack_mask", 0),), "xnack_mask_hi": (("xnack_mask", 1),),
    "tba": (("tba", 0), ("tba", 1)), "tba_lo": (("tba", 0),), "tba_hi": (("tba", 1),),
    "tma": (("tma", 0), ("tma", 1)), "tma_lo": (("tma", 0),), "tma_hi": (("tma", 1),),
    "vccz": (("vcc", 0), ("vcc", 1)), "execz": (("exec", 0), ("exec", 1)),
    "lds_direct": (("m0", 0),),  # a read of LDS at the address M0 holds
}
EXEC: tuple[Unit, ...] = (("exec", 0), ("exec", 1))
EXEC_WAVE32: tuple[Unit, ...] = (("exec", 0),)
VCC: tuple[Unit, ...] = (("vcc", 0), ("vcc", 1))
SCC: tuple[Unit, ...] = (("scc", 0),)
M0: tuple[Unit, ...] = (("m0", 0),)

#: SALU instructions that write SCC (compares, carries, logic, shifts, bit counts, saveexec).
_SCC_WRITERS = re.compile(
    r"s_(cmp|cmpk|bitcmp)\w*|s_(add|sub|addc|subb)_[iu]32|s_(addk)_i32|s_(min|max)_[iu]32|s_absdiff_i32|"
    r"s_(and|or|xor|andn2|orn2|nand|nor|xnor|and_not1|or_not1|andn1|orn1)_(b32|b64)|s_(lshl|lshr|ashr)_[bi](32|64)|"
    r"s_lshl[1-4]_add_u32|s_bfe_[iu](32|64)|s_(not|wqm|quadmask)_b(32|64)|s_bcnt[01]_i32_b(32|64)|s_abs_i32|"
    r"s_\w+_saveexec_b(32|64)|s_\w+_wrexec_b(32|64)|s_(and|or|xor|andn2|orn2|nand|nor|xnor)_saveexec\w*"
)
_SCC_READERS = re.compile(r"s_(addc|subb)_[iu]32|s_cselect_b(32|64)|s_cmov_b(32|64)|s_cmovk_i32|s_cbranch_scc[01]")
#: Destinations that are also inputs: the result accumulates into them.
_ACCUMULATES = re.compile(r"s_(addk|mulk)_i32|v_(mac|fmac)_\w+|v_dot\d+c_\w+|v_swap_b(16|32)|v_permlane(16|32)_swap\w*")
#: Destinations written only in part (some lanes, one half, or on a condition): the rest is kept.
_PARTIAL_WRITES = re.compile(r"s_cmovk_i32|s_cmov_b(32|64)|v_writelane_b32|\w+_d16(_hi)?(_\w+)?")
_M0_READERS = re.compile(
    r"s_ttracedata|v_interp_\w+|v_movrel\w*|s_movrel\w*|ds_gws_\w+|ds_ordered_count|ds_append|"
    r"ds_consume|global_load_lds_\w+|lds_param_load|lds_direct_load|ds_param_load|ds_direct_load|s_gpr_idx_on|"
    r"v_readlane_b32_m0"
)

#: Message types that carry no data in M0 (the others may: MSG_INTERRUPT's user data, the GS wave
#: ID, GS_ALLOC_REQ's counts, ...), by name; a target has only some of them (below).
_M0_FREE_MESSAGES = {"MSG_DEALLOC_VGPRS": 3, "MSG_SAVEWAVE": 4, "MSG_STALL_WAVE_GEN": 5, "MSG_HALT_WAVES": 6,
                     "MSG_ORDERED_PS_DONE": 7}


def _m0_free_message_types(target: Target) -> frozenset[int]:
    """The types above that `target` has (llvm-mc 22 rejects the others' names there)."""
    if target.major >= 12:
        return frozenset((3,))
    if target.major == 11:
        return frozenset((3, 5, 6))
    if target.major >= 9:
        return frozenset((4, 5, 6, 7))
    return frozenset((4,)) if target.major == 8 else frozenset()


def message_reads_m0(mnemonic: str, operands: tuple[Node, ...], target: Target) -> bool:
    """Whether an s_sendmsg* reads M0: s_sendmsg_rtn_* never does (its answer goes to the destination);
    s_sendmsg and s_sendmsghalt unless the message is one known to carry no data."""
    if mnemonic.startswith("s_sendmsg_rtn"):
        return False
    message = operands[0] if operands else None
    if isinstance(message, Call) and message.name == "sendmsg" and message.args:
        message = message.args[0]
    if isinstance(message, Sym):
        kind = _M0_FREE_MESSAGES.get(message.name.upper())
    elif isinstance(message, Num) and isinstance(message.value, int):
        kind = message.value & (0xFF if target.major >= 12 else 0xF)
    else:
        return True
    return kind not in _m0_free_message_types(target)


#: Operands whose width depends on other operands (vaddr is 64-bit when saddr is off); `_address_dwords` gives the
#: width of those of DS, FLAT, global and scratch instructions.
_VARIABLE_WIDTH = frozenset(("vaddr", "addr", "vaddr0", "vaddr1", "vaddr2", "vaddr3", "vaddr4"))
#: Instructions whose single operand may be written as several juxtaposed items.
_FOLDED_OPERANDS = frozenset(("s_waitcnt", "s_waitcnt_depctr", "s_delay_alu", "s_wait_alu"))
#: Instructions the tables show without operands that llvm-mc also takes with an immediate.
_OPTIONAL_IMMEDIATE = frozenset(("s_endpgm",))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class DefUse:
    """Registers an instruction instance writes and reads, its class and the table variant used."""

    defs: frozenset[Unit]
    uses: frozenset[Unit]
    klass: InstructionClass
    variant: Variant | None
    problem: str | None = None  # operand count or width that no table variant accepts
    preserved: frozenset[Unit] = frozenset()  # destination parts kept from before (partial writes)
    missing: tuple[Reg, ...] = ()  # operands naming registers the target does not have (MissingRegister)

    def __init__(self, defs: frozenset[Unit], uses: frozenset[Unit], klass: InstructionClass, variant: Variant | None,
                 problem: str | None = None, preserved: frozenset[Unit] = frozenset(),
                 missing: tuple[Reg, ...] = ()) -> None:
        object.__setattr__(self, "defs", defs)
        object.__setattr__(self, "uses", uses)
        object.__setattr__(self, "klass", klass)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "problem", problem)
        object.__setattr__(self, "preserved", preserved)
        object.__setattr__(self, "missing", missing)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(defs={self.defs!r}, uses={self.uses!r}, klass={self.klass!r}, "
                f"variant={self.variant!r}, problem={self.problem!r}, preserved={self.preserved!r}, "
                f"missing={self.missing!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DefUse) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.defs, self.uses, self.klass, self.variant, self.problem, self.preserved, self.missing) == (
            other.defs, other.uses, other.klass, other.variant, other.problem, other.preserved, other.missing)

    def __hash__(self) -> int:
        return hash((self.defs, self.uses, self.klass, self.variant, self.problem, self.preserved, self.missing))


def register_units(node: Node | None) -> tuple[Unit, ...]:
    """Units named by one operand (through neg/abs/sext and register lists)."""
    if node is None:
        return ()
    register = operand_register(node)
    if isinstance(register, Reg):
        return tuple((register.kind, register.index + offset) for offset in range(register.count))
    if isinstance(register, SpecialReg):
        return _SPECIAL_UNITS.get(register.name, ())
    return ()


def _suffix_encodings(mnemonic: str) -> tuple[str, ...] | None:
    if mnemonic.endswith("_e64"):
        return ("VOP3", "VOP3P", "VOPC", "VOP3PX2")
    if mnemonic.endswith("_e32"):
        return ("VOP1", "VOP2", "VOPC")
    return None


def _lds_data(variant: Variant, spec) -> bool:
    """A MUBUF load's data register: optional in the tables, but only `lds` (loading into LDS) leaves it out, and
    with `lds` llvm-mc 22 refuses it written."""
    return variant.encoding == "MUBUF" and spec.is_def and spec.name in ("vdst", "vdata")


def _fit(variant: Variant, operand_count: int, vdst_optional: bool) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Map instance operands onto a variant: (indices of specs used, indices left implicit)."""
    specs = variant.operands
    if operand_count == len(specs):
        return tuple(range(len(specs))), ()
    # drop optional operands first (an atomic's vdst when it does not return, as gfx12 writes it;
    # the vdst that gfx950's page shows for LDS-DMA loads, which llvm-mc 22 does not accept; a
    # buffer load's vdata with `lds`; the offset of a scalar memory access, 0 when omitted),
    # then the fixed special registers the syntax may omit
    optional = [i for i, s in enumerate(specs) if (s.optional and not _lds_data(variant, s))
                or (vdst_optional and s.is_def and s.name in ("vdst", "vdata"))]
    if variant.encoding in ("SMEM", "SMRD") and specs and specs[-1].name in ("soffset", "offset") and len(specs) - 1 not in optional:
        optional.append(len(specs) - 1)
    droppable = optional + [i for i, s in enumerate(specs) if s.implicit_register and i not in optional]
    extra = len(specs) - operand_count
    if extra < 0 or extra > len(droppable):
        return None
    dropped = set(droppable[:extra])
    implicit = tuple(i for i in dropped if specs[i].implicit_register)
    return tuple(i for i in range(len(specs)) if i not in dropped), implicit


def _choose(variants: tuple[Variant, ...], mnemonic: str, count: int,
            mod_names: frozenset[str]) -> tuple[Variant, tuple[tuple[int, ...], tuple[int, ...]]] | None:
    """The first variant `count` operands fit (those of the mnemonic's encoding suffix first), and how they fit."""
    wanted = _suffix_encodings(mnemonic)
    ordered = sorted(variants, key=lambda v: 0 if wanted is None or v.encoding in wanted else 1)
    vdst_optional = _vdst_optional(mnemonic, mod_names)
    for variant in ordered:
        fit = _fit(variant, count, vdst_optional)
        if fit is not None:
            return variant, fit
    return None


def _vdst_optional(mnemonic: str, mod_names: frozenset[str]) -> bool:
    return "_atomic" in mnemonic or mnemonic.startswith("global_load_lds") or (
        "lds" in mod_names and mnemonic.startswith("buffer_load"))


_SUFFIXED = re.compile(r"_(e32|e64|dpp|sdwa)$")


def _promotable(mnemonic: str, variants: tuple[Variant, ...], target: Target) -> tuple[Variant, ...]:
    """The variants llvm-mc may encode a mnemonic in: a VALU mnemonic written without a suffix also in its VOP3
    (`_e64`), VOP3 DPP and SDWA forms, where its operands ask for them (gfx9-10 take `v_cndmask_b32 v0, v4, s8` as
    SDWA, as llvm-mc 22 prints it)."""
    if not mnemonic.startswith("v_") or _SUFFIXED.search(mnemonic):
        return variants
    table = instruction_set(target)
    return (variants + table.variants(mnemonic + "_e64") + table.variants(mnemonic + "_e64_dpp")
            + table.variants(mnemonic + "_sdwa"))


_REGISTER_FILES = frozenset(("v", "s", "a"))
_FILE_NAMES = {"v": "VGPRs", "s": "SGPRs", "a": "AGPRs"}


_SDWA_MODIFIERS = frozenset(("dst_sel", "dst_unused", "src0_sel", "src1_sel"))
#: encodings whose sources the syntax pages describe as llvm-mc 22 takes them in the 32-bit (`_e32`) form
_E32_ENCODINGS = frozenset(("VOP1", "VOP2", "VOPC"))
#: encodings of VOP3-only rows (a VOP1/VOP2/VOPC instruction's `_e64` form reads as its own row on gfx12's pages)
_VOP3_ENCODINGS = frozenset(("VOP3", "VOP3P", "VINTERP", "VINTRP"))


def _valu_form(mnemonic: str, mod_names: frozenset[str]) -> str:
    """The form a VALU instruction is written in: "sdwa", "dpp", "e64", "e32", or "" (unsuffixed, no controls)."""
    if mnemonic.endswith("_sdwa") or mod_names & _SDWA_MODIFIERS:
        return "sdwa"
    if mnemonic.endswith("_dpp") or mod_names & _DPP_MODIFIERS:
        return "dpp"
    return mnemonic[-3:] if mnemonic.endswith(("_e64", "_e32")) else ""


@lru_cache(maxsize=4096)
def _without_vop3(mnemonic: str, target: Target) -> bool:
    """Whether llvm-mc 22 has no VOP3 (`_e64`) form of a VALU mnemonic it has on the target (`v_fmaak_f32`,
    `v_swap_b32`), from its probes of every mnemonic (tables/mnemonics.jsonl)."""
    from .mnemonics import NOT_AN_INSTRUCTION, mnemonic_verdicts

    verdicts = mnemonic_verdicts()
    columns = verdicts.columns(target, None)
    return bool(columns) and verdicts.rejection(mnemonic, columns) is None and \
        verdicts.rejection(mnemonic + "_e64", columns) not in (None, NOT_AN_INSTRUCTION)


def _refused_source(mnemonic: str, form: str, variant: Variant, spec: OperandSpec, position: int,
                    certain_e32: bool, kind: str, target: Target) -> bool:
    """Whether a VALU source (the `position`th, a VGPR or SGPR as `kind` says) is refused in this form, as probed
    with llvm-mc 22: an SGPR as a DPP form's src0 on every generation and as its src1 but in the VOP3 DPP form of
    gfx1150 and later (`v_add_f32_e64_dpp v0, v4, s8`, also what they make of `v_add_f32 v0, v4, s8 row_shl:1`;
    gfx1100-1103 refuse it); a file a VOP3, VOP3P or interpolation row does not list (`v_readlane_b32 s0, v0, v4`,
    `v_permlane16_var_b32 v0, s4, v8`; but a VGPR of gfx12's `v_s_*`); and one the VOP1/VOP2/VOPC rows do not
    list where the form is written `_e32` or `certain_e32` (`_file_problem`)."""
    if form == "dpp":
        if kind != "s":
            return False
        if position == 0:
            return True
        return position == 1 and ((target.major, target.minor) < (11, 5) or (mnemonic.endswith("_dpp")
                                                                              and not mnemonic.endswith("_e64_dpp")))
    if form == "sdwa" or kind in spec.kinds:
        return False
    if variant.encoding in _VOP3_ENCODINGS:
        return kind == "s" or not mnemonic.startswith("v_s_")  # gfx12's `v_s_exp_f32 s0, v4` assembles
    if variant.encoding == "SDWA":
        return True  # gfx10's SDWA rows, which an unsuffixed mnemonic may be encoded in, list the SGPRs they take
    return variant.encoding in _E32_ENCODINGS and (form == "e32" or certain_e32)


def _file_problem(mnemonic: str, variants: tuple[Variant, ...], operands: tuple[Node, ...],
                  mod_names: frozenset[str], target: Target) -> str | None:
    """A VGPR where every variant the operands fit takes no VGPR, or an SGPR where it takes no SGPR (`s_min_u32 s0,
    v4, s8`, `v_not_b32 s0, v4`: llvm-mc's "invalid operand for instruction"). Judged only where each operand's
    place is certain (a variant the operands fit only by leaving out more than the special registers the syntax
    may omit and an atomic's result counts as taking them), and a VALU source only where its form is
    (`_refused_source`): the syntax pages do not describe every VOP3 form (gfx12's `_e64` reads as the VOP2 row,
    with its `vsrc1`). An unsuffixed VOP1/VOP2/VOPC row is judged as the 32-bit form where that is the only one
    (`_without_vop3`), where the operands leave out the vcc a VOP3 form would name (`v_cmp_eq_u32 v0, s4`; not the
    exec gfx12's VOP3 `v_cmpx_*` leaves out too), or where a VOP3 row of the pages fits them (which decides too)."""
    vdst_optional = _vdst_optional(mnemonic, mod_names)
    valu = mnemonic.startswith("v_")
    form = _valu_form(mnemonic, mod_names) if valu else ""
    count = len(operands)
    registers = tuple(map(operand_register, operands))
    unsuffixed = valu and form == ""
    without_vop3 = unsuffixed and _without_vop3(mnemonic, target)
    vop3_fits = unsuffixed and any(variant.encoding in _VOP3_ENCODINGS and _fit(variant, count, vdst_optional)
                                   is not None for variant in variants)
    refusal = None
    for variant in variants:
        fit = _fit(variant, count, vdst_optional)
        if fit is None or ("DPP" in variant.encoding and form != "dpp"):  # no DPP form without DPP controls
            continue
        used, implicit = fit
        left_out = set(range(len(variant.operands))).difference(used, implicit)
        if any(not (vdst_optional and variant.operands[i].is_def) for i in left_out):
            return None  # an optional operand left out (but an atomic's result): the places are not certain
        found = None
        position = 0
        certain_e32 = unsuffixed and (without_vop3 or vop3_fits
                                      or any(variant.operands[i].implicit_register == "vcc" for i in implicit))
        for spec_index, register in zip(used, registers, strict=True):
            spec = variant.operands[spec_index]
            if isinstance(register, Reg) and register.kind in ("v", "s") and _REGISTER_FILES.intersection(spec.kinds):
                if spec.is_def or not valu:
                    if register.kind not in spec.kinds:
                        found = spec, register
                        break
                elif _refused_source(mnemonic, form, variant, spec, position, certain_e32, register.kind, target):
                    found = spec, register
                    break
            position += not spec.is_def
        if found is None:
            return None
        refusal = refusal or found
    if refusal is None:
        return None
    spec, register = refusal
    files = " or ".join(_FILE_NAMES[kind] for kind in spec.kinds if kind in _FILE_NAMES)
    if register.kind in spec.kinds:
        files = "VGPRs"  # in this form
    return f"operand '{spec.name}' of {mnemonic} takes {files}, not {register} (invalid operand for instruction)"


def _image_data_dwords(mnemonic: str, mods: dict[str, Node | None], target: Target) -> int:
    """Dwords of an image instruction's data: a component per dmask bit (four for gather4 and gfx11+
    msaa_load), halved when d16 packs two per dword, plus one for the tfe status."""
    dmask = mods.get("dmask")
    components = dmask.value.bit_count() if isinstance(dmask, Num) and isinstance(dmask.value, int) else 1
    if "gather4" in mnemonic or ("msaa_load" in mnemonic and target.major >= 11):
        components = 4  # four texels (gather4) or, from gfx11, four samples (msaa_load) of one channel
    components = max(components, 1)
    packed_d16 = not (target.major == 8 and target.name != "gfx810")  # gfx80x keep one half per dword
    if "d16" in mods and packed_d16:
        components = (components + 1) // 2
    return components + (1 if "tfe" in mods else 0)  # llvm-mc counts tfe's status dword, not lwe's


#: the lane controls that make a VOP1/VOP2/VOPC instruction DPP16 without the `_dpp` suffix
DPP_CONTROLS = frozenset(("quad_perm", "row_shl", "row_shr", "row_ror", "row_mirror", "row_half_mirror", "row_bcast",
                          "row_newbcast", "row_share", "row_xmask", "wave_shl", "wave_shr", "wave_rol", "wave_ror"))
#: the modifiers that make it DPP (DPP16 or DPP8)
_DPP_MODIFIERS = DPP_CONTROLS | {"row_mask", "bank_mask", "dpp8"}


_FLOAT_SOURCES = frozenset(("f16", "f32"))


def _dpp_source_widths(target: Target, mnemonic: str) -> frozenset[tuple[int, int]]:
    """(written, expected) dwords of a VGPR source that llvm-mc 22 assembles in a DPP instruction, as probed: one
    VGPR for a 64-bit source (`v_rcp_f64_dpp v[0:1], v4`, gfx8 on), and from gfx90a, where DPP has 64-bit forms, a
    VGPR pair for a 32-bit one of a 16- or 32-bit float instruction (`v_add_f32_dpp v0, v[4:5], v8 row_shl:1`,
    printed back as an invalid register; a conversion's source type is its last: `v_cvt_f32_i32_dpp` and the
    integer instructions refuse the pair, but `v_cndmask_b32_dpp` takes it)."""
    if not target.has_gfx90a_insts:
        return frozenset(((1, 2),))
    parts = _SUFFIXED.sub("", mnemonic.removesuffix("_dpp")).split("_")
    floating = parts[-1] in _FLOAT_SOURCES if parts[1:2] == ["cvt"] else bool(_FLOAT_SOURCES.intersection(parts))
    floating |= parts[1:2] == ["cndmask"]  # its sources take float input modifiers (probed: the pair passes)
    return frozenset(((1, 2), (2, 1))) if floating else frozenset(((1, 2),))


def _address_dwords(mnemonic: str, encoding: str, spec: OperandSpec, saddr: Node | None) -> int | None:
    """The VGPRs of a DS, FLAT, global or scratch address, as llvm-mc 22 takes them (probed on gfx7-gfx12): one for
    DS and scratch, two for flat, for global two with `off` as saddr and one beside an SGPR pair; None for the
    others (buffer and image addresses depend on their modifiers)."""
    if encoding in ("DS", "VDS"):
        return spec.size if spec.size == 1 else None
    if mnemonic.startswith("scratch_"):
        return 1 if spec.size == 1 else None
    if mnemonic.startswith("flat_"):
        return 2 if spec.size == 2 else None
    if mnemonic.startswith("global_") and spec.name == "vaddr":
        if isinstance(saddr, SpecialReg) and saddr.name == "off":
            return 2
        return 1 if isinstance(saddr, Reg) and saddr.kind == "s" else None
    return None


def _width_problem(mnemonic: str, spec, node: Node, wave_size: int, either_wave: bool,
                   image_data: int | None = None, tfe: bool = False, lwe: bool = False,
                   dpp_widths: frozenset[tuple[int, int]] = frozenset(), address: int | None = None) -> str | None:
    """A register whose width contradicts the table (only where the row describes that file). `dpp_widths`: the
    (written, expected) dwords llvm-mc lets pass in a VGPR source of a DPP instruction; `address`: the dwords of a
    memory address (`_address_dwords`). A 16-bit operand, which gfx11's pages give no size, is one register."""
    register = operand_register(node)
    expected = spec.dwords(wave_size)
    if image_data is not None and spec.name in ("vdata", "vdst") and not mnemonic.startswith("image_bvh"):
        expected = image_data
    elif tfe and spec.is_def and expected:
        expected += 1  # a buffer load with tfe also writes its status dword
    elif spec.name in _VARIABLE_WIDTH:
        expected = address
    elif expected is None and spec.kinds and spec.kinds[0] == "v" and mnemonic.startswith("v_"):
        expected = 1  # gfx11's 16-bit operands (`v_cmp_eq_u16 v[0:1], v4`, `v_add_f16 v0, s[4:5], v8` are refused)
    if not isinstance(register, Reg) or not expected or register.half:
        return None
    if register.kind not in spec.kinds or register.count == expected:
        return None
    if register.kind == "v" and not spec.is_def and (register.count, expected) in dpp_widths:
        return None
    other_wave = spec.dwords(64 if wave_size == 32 else 32)
    if either_wave and other_wave != spec.dwords(wave_size) and register.count == other_wave:
        return None  # the wave size is not known: the other one's width is as likely
    plural = "s" if expected > 1 else ""
    message = f"operand '{spec.name}' of {mnemonic} is {expected} dword{plural}, but {register} is {register.count}"
    if image_data is not None and lwe and not tfe and register.count == expected + 1:
        message += " (llvm-mc counts a status dword for tfe only, though the hardware also writes one for lwe)"
    return message


def _returns(mnemonic: str, modifiers: dict[str, Node | None], target: Target, has_return_operand: bool) -> bool:
    if "_rtn" in mnemonic:
        return True
    if target.major >= 12:
        th = modifiers.get("th")
        return has_return_operand or (isinstance(th, Sym) and "RETURN" in th.name.upper())
    bit = "sc0" if target.is_gfx94_plus and not mnemonic.startswith("s_") else "glc"  # gfx940 SMEM keeps glc
    return bit in modifiers or has_return_operand


def _returns_into(mnemonic: str, spec) -> bool:
    """Whether the operand is an input that receives the old value when the atomic returns (the
    gfx12 and gfx950 pages mark some atomics' data operand as written, which it is only then)."""
    return spec.returns_data or (spec.is_def and spec.name == "vdata" and "_atomic" in mnemonic)


def _matrix_formats(modifiers: dict[str, Node | None]) -> tuple[int, int]:
    """An MFMA's cbsz and blgp (the A and B formats of gfx950's f8f6f4 forms), 0 when absent."""
    cbsz, blgp = (modifiers.get(name) for name in ("cbsz", "blgp"))
    return (int(cbsz.value) if isinstance(cbsz, Num) and isinstance(cbsz.value, int) else 0,
            int(blgp.value) if isinstance(blgp, Num) and isinstance(blgp.value, int) else 0)


def def_use(mnemonic: str, operands: tuple[Node, ...], modifiers: tuple[tuple[str, Node | None], ...],
            target: Target, wave_size: int, either_wave: bool = False) -> DefUse:
    """Def/use of one instruction instance on `target` (memoized on its text-level content).
    `either_wave`: the wave size is a guess, so operand widths of the other one are accepted too."""
    return _def_use(mnemonic, operands, modifiers, target, wave_size, either_wave)


@lru_cache(maxsize=1024)
def _def_use(mnemonic, operands, modifiers, target: Target, wave_size: int, either_wave: bool) -> DefUse:
    if mnemonic in absent_mnemonics(target):  # not assembled on the target: no analysis sees it do anything
        return DefUse(frozenset(), frozenset(), InstructionClass("salu"), None)
    if mnemonic.startswith("s_sendmsg"):  # reads its message's value
        return _worked_out(mnemonic, operands, modifiers, target, wave_size, either_wave)
    # a register as far as def/use depends on it: its file, width and half, not its index
    shape = tuple((node.kind, node.count, node.half) if type(node) is Reg else _SHAPES.get(type(node), node)
                  for node in operands)
    template = _template(mnemonic, shape, modifiers, target, wave_size, either_wave)
    if template is None:
        return _worked_out(mnemonic, operands, modifiers, target, wave_size, either_wave)
    return template.instance(operands)


#: Operands whose value def/use does not read (but s_sendmsg's message): a branch's label, an immediate.
_SHAPES: dict[type, str] = {Sym: "symbol", Num: "number"}
#: Register indices of a template's operands: operand i's registers start at (i + 1) * _APART.
_APART = 1 << 20


class _Template:
    """Def/use of instructions that differ only in register indices, label names and immediates:
    worked out once on stand-in operands, then each instance's registers put in their places."""

    def __init__(self, found: DefUse):
        self.found = found
        self.defs, self.fixed_defs = self._split(found.defs)
        self.uses, self.fixed_uses = self._split(found.uses)
        self.preserved, self.fixed_preserved = self._split(found.preserved)

    @staticmethod
    def _split(units: frozenset[Unit]) -> tuple[tuple[tuple[int, int], ...], frozenset[Unit]]:
        """(operand, offset) of each unit an operand names, and the units none does (exec, vcc, ...)."""
        placed = tuple((index // _APART - 1, index % _APART) for _, index in units if index >= _APART)
        return placed, frozenset(unit for unit in units if unit[1] < _APART)

    def instance(self, operands: tuple[Any, ...]) -> DefUse:
        """Def/use of one instance (its operands at the template's register positions are `Reg`s)."""
        found = self.found
        defs = self.fixed_defs | {(operands[i].kind, operands[i].index + offset) for i, offset in self.defs}
        uses = self.fixed_uses | {(operands[i].kind, operands[i].index + offset) for i, offset in self.uses}
        preserved = self.fixed_preserved | {(operands[i].kind, operands[i].index + offset)
                                            for i, offset in self.preserved}
        return DefUse(defs, uses, found.klass, found.variant, None, preserved, found.missing)


@lru_cache(maxsize=2048)
def _template(mnemonic: str, shape: tuple, modifiers, target: Target, wave_size: int,
              either_wave: bool) -> _Template | None:
    """The template of instructions of this shape; None when it cannot be one (a width problem's message
    names the register)."""
    stand_ins = tuple(Reg(node[0], (index + 1) * _APART, node[1], node[2]) if type(node) is tuple
                      else Sym("label") if node == "symbol" else Num(0) if node == "number" else node
                      for index, node in enumerate(shape))
    found = _worked_out(mnemonic, stand_ins, modifiers, target, wave_size, either_wave)
    return None if found.problem is not None else _Template(found)


def _worked_out(mnemonic, operands, modifiers, target: Target, wave_size: int, either_wave: bool) -> DefUse:
    mods = dict(modifiers)
    mod_names = frozenset(mods)
    if mnemonic in _FOLDED_OPERANDS and len(operands) > 1:
        operands = (operands[0],)  # `s_waitcnt vmcnt(0) lgkmcnt(0)`: one operand written as several
    variants = instruction_set(target).variants(mnemonic)
    if mnemonic in _OPTIONAL_IMMEDIATE and all(isinstance(node, Num) for node in operands):
        operands = ()
    chosen = _choose(variants, mnemonic, len(operands), mod_names) if variants else None
    variant = chosen[0] if chosen is not None else None
    defs: set[Unit] = set()
    uses: set[Unit] = set()
    problem = None
    has_return_operand = False
    if chosen is None:
        if variants:
            data_without_lds = "lds" not in mod_names and any(_lds_data(v, spec) for v in variants for spec in v.operands)
            counts = sorted({len(v.operands) for v in variants}
                            | (set() if data_without_lds else {v.required_count for v in variants}))
            problem = f"{mnemonic} takes {' or '.join(map(str, counts))} operands, not {len(operands)}"
            if data_without_lds:
                problem += " (its data register is left out only with `lds`)"
        # unknown form: be conservative, the first operand is written and the others are read (an
        # asynchronous LDS copy's first operand is its LDS address: read)
        written = -1 if is_async_lds(mnemonic) else 0
        for index, node in enumerate(operands):
            (defs if index == written else uses).update(register_units(node))
        klass = classify(mnemonic, variants[0].encoding if variants else "", target, False, mod_names)
    else:
        variant, (used, implicit) = chosen
        if "lds" in mod_names and "_atomic" not in mnemonic and any(
                _lds_data(variant, variant.operands[index]) for index in used):
            problem = f"{mnemonic} with `lds` loads into LDS and takes no data register (invalid operand for instruction)"
        image_data = _image_data_dwords(mnemonic, mods, target) if mnemonic.startswith("image_") else None
        dpp_widths = _dpp_source_widths(target, mnemonic) if mnemonic.endswith("_dpp") or mod_names & _DPP_MODIFIERS \
            else frozenset()
        specs = variant.operands
        returned = [_returns_into(mnemonic, specs[i]) for i in used]
        saddr = next((node for node, i in zip(operands, used, strict=True) if specs[i].name == "saddr"), None)
        for node, spec_index, into in zip(operands, used, returned, strict=True):
            spec = specs[spec_index]
            units = register_units(node)
            if spec.is_def and not into:
                defs.update(units)
                has_return_operand |= spec.name.startswith("vdst") and spec.optional
            else:
                uses.update(units)
            if problem is None:
                address = _address_dwords(mnemonic, variant.encoding, spec, saddr) if spec.name in _VARIABLE_WIDTH \
                    else None
                problem = _width_problem(mnemonic, spec, node, wave_size, either_wave, image_data, "tfe" in mods,
                                         "lwe" in mods, dpp_widths, address)
        for spec_index in implicit:
            spec = specs[spec_index]
            register = spec.implicit_register
            assert register is not None  # what _fit leaves implicit
            units = _SPECIAL_UNITS[register]
            if register in ("exec", "vcc") and wave_size == 32:
                units = units[:1]
            (defs if spec.is_def else uses).update(units)
        if problem is None:
            problem = _file_problem(mnemonic, _promotable(mnemonic, variants, target), operands, mod_names,
                                    target)
        returns = _returns(mnemonic, mods, target, has_return_operand)
        for node, into in zip(operands, returned, strict=True):
            if into and returns:
                defs.update(register_units(node))
        klass = classify(mnemonic, variant.encoding, target, returns, mod_names, _matrix_formats(mods))
    _add_implicit(mnemonic, operands, mods, klass, target, wave_size, defs, uses)
    preserved: frozenset[Unit] = frozenset()
    if operands and (_PARTIAL_WRITES.fullmatch(mnemonic) or mnemonic.endswith("_dpp") or _preserves_sdwa(mnemonic, mods)):
        preserved = frozenset(register_units(operands[0]))
    missing = tuple(node.register for node in operands if type(node) is MissingRegister)
    return DefUse(frozenset(defs), frozenset(uses), klass, variant, problem, preserved, missing)


def _add_implicit(mnemonic: str, operands: tuple[Node, ...], mods: dict[str, Node | None], klass: InstructionClass,
                  target: Target, wave_size: int, defs: set[Unit], uses: set[Unit]) -> None:
    exec_units = EXEC_WAVE32 if wave_size == 32 else EXEC
    if klass.unit in ("valu", "vmem", "ds", "export"):
        uses.update(exec_units)
    if mnemonic.startswith("v_cmpx"):
        defs.update(exec_units)
    if "saveexec" in mnemonic or "wrexec" in mnemonic:
        defs.update(exec_units)
        uses.update(exec_units)
    if klass.unit == "salu" or mnemonic.startswith("s_cbranch_scc"):
        if _SCC_WRITERS.fullmatch(mnemonic):
            defs.update(SCC)
        if _SCC_READERS.fullmatch(mnemonic):
            uses.update(SCC)
    if mnemonic in ("s_cbranch_vccz", "s_cbranch_vccnz"):
        uses.update(VCC if wave_size == 64 else VCC[:1])
    if mnemonic in ("s_cbranch_execz", "s_cbranch_execnz"):
        uses.update(exec_units)
    if mnemonic.startswith("v_div_fmas"):
        uses.update(VCC if wave_size == 64 else VCC[:1])
    gds = klass.memory == "gds"
    if mnemonic.startswith("s_sendmsg") and message_reads_m0(mnemonic, operands, target):
        uses.update(M0)
    lds_bound = klass.unit == "ds" and klass.kind != "other" and target.major < 9  # M0 limits LDS accesses
    if _M0_READERS.fullmatch(mnemonic) or klass.lds_dma or gds or lds_bound:
        uses.update(M0)
    if _ACCUMULATES.fullmatch(mnemonic) and operands:
        uses.update(register_units(operands[0]))
    if mnemonic.startswith(("v_swap_b", "v_permlane16_swap", "v_permlane32_swap")) and len(operands) > 1:
        defs.update(register_units(operands[1]))


def _preserves_sdwa(mnemonic: str, mods: dict[str, Node | None]) -> bool:
    unused = mods.get("dst_unused")
    return mnemonic.endswith("_sdwa") and isinstance(unused, Sym) and unused.name.upper() == "UNUSED_PRESERVE"


def format_units(units) -> str:
    """Registers as assembly writes them: `v[4:7], s2, vcc`."""
    by_file: dict[str, list[int]] = {}
    for kind, index in sorted(units):
        by_file.setdefault(kind, []).append(index)
    parts = []
    for kind, indices in by_file.items():
        if kind in ("vcc", "exec", "flat_scratch", "xnack_mask"):
            parts.append(kind if len(indices) == 2 else f"{kind}_{'lo' if indices[0] == 0 else 'hi'}")
        elif kind in ("m0", "scc"):
            parts.append(kind)
        else:
            start = indices[0]
            for previous, current in zip(indices, [*indices[1:], -1], strict=True):
                if current != previous + 1:
                    parts.append(f"{kind}{start}" if start == previous else f"{kind}[{start}:{previous}]")
                    start = current
    return ", ".join(parts)


def operand_specs(mnemonic: str, count: int, modifier_names: frozenset[str],
                  target: Target) -> tuple[OperandSpec | None, ...]:
    """The table operand each of `count` written operands stands for (None where no variant fits)."""
    variants = instruction_set(target).variants(mnemonic)
    chosen = _choose(variants, mnemonic, count, modifier_names) if variants else None
    if chosen is None:
        return (None,) * count
    variant, (used, _) = chosen
    return tuple(variant.operands[index] for index in used)
