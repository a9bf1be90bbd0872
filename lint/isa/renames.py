"""How LLVM renamed instructions between generations, and the names it prints for one instruction.

`renamed` maps an older spelling to the newer one (gfx11/gfx12 `ds_read_b32` -> `ds_load_b32`,
`s_load_dword` -> `s_load_b32`); scripts/gen_accepted_spellings.py uses it to find the row an
accepted spelling reads as. `printed_name` also folds the spellings one page lists side by side
(`v_mfma_f32_32x32x4bf16_1k` and `v_mfma_f32_32x32x4_2b_bf16`), to compare with llvm-mc's output.
"""

from __future__ import annotations

import re

#: LLVM's renames between generations, applied together (old -> new)
RENAMES = (
    (r"^ds_read2st64_", "ds_load_2addr_stride64_"), (r"^ds_write2st64_", "ds_store_2addr_stride64_"),
    (r"^ds_read2_", "ds_load_2addr_"), (r"^ds_write2_", "ds_store_2addr_"),
    (r"^ds_read_", "ds_load_"), (r"^ds_write_", "ds_store_"),
    (r"^ds_wrxchg2st64_", "ds_storexchg_2addr_stride64_"), (r"^ds_wrxchg2_", "ds_storexchg_2addr_"),
    (r"^ds_wrxchg", "ds_storexchg"),
    (r"dwordx4", "b128"), (r"dwordx3", "b96"), (r"dwordx2", "b64"), (r"dword", "b32"),
    (r"_ubyte", "_u8"), (r"_sbyte", "_i8"), (r"_ushort", "_u16"), (r"_sshort", "_i16"),
    (r"_byte", "_b8"), (r"_short", "_b16"),
    (r"^s_andn2_", "s_and_not1_"), (r"^s_orn2_", "s_or_not1_"),
    (r"^s_add_u32$", "s_add_co_u32"), (r"^s_addc_u32$", "s_add_co_ci_u32"),
    (r"^s_sub_u32$", "s_sub_co_u32"), (r"^s_subb_u32$", "s_sub_co_ci_u32"),
    (r"^exp$", "export"), (r"^v_accvgpr_(read|write)$", r"v_accvgpr_\1_b32"),
    (r"(x\d+)(bf16|f16|i8|xf32|bf8|fp8)", r"\1_\2"), (r"_(bf8|fp8)(bf8|fp8)$", r"_\1_\2"),
)

#: Names a page lists for the same instruction (old name -> the one llvm-mc 22 prints).
_SAME = {"v_ffbh_i32": "v_cls_i32", "v_ffbh_u32": "v_clz_i32_u32", "v_ffbl_b32": "v_ctz_i32_b32",
         "s_call_b64": "s_call_i64", "v_cvt_flr_i32_f32": "v_cvt_floor_i32_f32", "v_cvt_rpi_i32_f32": "v_cvt_nearest_i32_f32",
         "s_inst_prefetch": "s_set_inst_prefetch_distance"}


def renamed(name: str) -> str:
    for pattern, replacement in RENAMES:
        name = re.sub(pattern, replacement, name)
    return name


def printed_name(name: str) -> str:
    """A key equal for every spelling of one instruction."""
    name = _SAME.get(name, name)
    name = re.sub(r"^v_cmp(x?)_tru_", r"v_cmp\1_t_", name)
    name = re.sub(r"_1k$", "", re.sub(r"_\d+b_", "_", name))  # MFMA block and 1k-variant spellings
    return re.sub(r"(x\d+)_", r"\1", renamed(name)).replace("_bf8_", "_bf8").replace("_fp8_", "_fp8")
