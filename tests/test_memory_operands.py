"""What llvm-mc 22 refuses in memory instructions' modifiers and fields (issue 36), from lint/isa/tables/memory.jsonl.

The table comes from probing llvm-mc 22 (scripts/gen_memory_operands.py). Each case below was assembled with
`llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=... -filetype=null`; where llvm-mc-22 is installed the test asks
it again, so the expectation cannot drift from the assembler. Every refused line has a neighbour that assembles.
"""

import json
from pathlib import Path

import pytest
from amdgpu_lint import isa
from amdgpu_lint.isa.memory_operands import memory_facts
from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
from amdgpu_lint.model.targets import parse_target_id
from llvm_mc_oracle import LLVM_MC, assert_linter_verdict, assert_llvm_mc_verdict

#: (target id, line, llvm-mc's error or None where it assembles)
CASES = [
    # modifiers a processor lacks
    ("gfx600", "image_load v[0:1], v[2:5], s[8:15] dmask:0x3 d16", "d16 modifier is not supported on this GPU"),
    ("gfx900", "image_load v0, v[2:5], s[8:15] dmask:0x3 d16", None),
    ("gfx803", "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf a16", "a16 modifier is not supported on this GPU"),
    ("gfx900", "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf a16", None),
    ("gfx906", "image_store v[0:3], v4, s[8:15] dmask:0xf r128", "r128 modifier is not supported on this GPU"),
    ("gfx700", "image_store v[0:3], v4, s[8:15] dmask:0xf r128", None),
    ("gfx906", "global_store_dword v[2:3], v1, off dlc", "dlc modifier is not supported on this GPU"),
    ("gfx1030", "global_store_dword v[2:3], v1, off dlc", None),
    ("gfx700", "s_load_dwordx2 s[4:5], s[0:1], 0x10 glc", "cache policy is not supported for SMRD instructions"),
    ("gfx803", "s_load_dwordx2 s[4:5], s[0:1], 0x10 glc", None),
    ("gfx803", "buffer_store_dword v1, v[2:3], s[8:11], s4 addr64 offset:16", "invalid operand for instruction"),
    ("gfx700", "buffer_store_dword v1, v[2:3], s[8:11], s4 addr64 offset:16", None),
    # a modifier after another, or twice
    ("gfx900", "buffer_load_dword off, s[8:11], s3 lds tfe", "invalid operand for instruction"),
    ("gfx900", "buffer_load_dword off, s[8:11], s3 lds", None),
    ("gfx900", "buffer_load_dword v1, off, s[8:11], s3 offset:8 offset:8", "invalid operand for instruction"),
    ("gfx803", "buffer_store_lds_dword s[4:7], s8 offset:4 lds tfe", "invalid operand for instruction"),
    ("gfx803", "buffer_store_lds_dword s[4:7], s8 offset:4 lds", None),
    # forms other than the probed instance's: a returning atomic's glc/sc0, a modifier before the instance's own
    ("gfx900", "global_atomic_cmpswap v1, v[3:4], v[5:6], off glc", None),
    ("gfx700", "flat_atomic_add_x2 v[0:1], v[2:3], v[4:5] glc", None),
    ("gfx942", "flat_atomic_add_f64 v[0:1], v[2:3], v[4:5] sc0 sc1", None),
    ("gfx803", "ds_gws_init v3 offset:12345 gds", None),
    ("gfx1030", "image_bvh_intersect_ray v[4:7], v[9:16], s[4:7] a16", None),
    # offsets
    ("gfx700", "flat_atomic_add v1, v[3:4], v5 offset:0 glc slc", None),
    ("gfx700", "flat_load_dword v1, v[2:3] offset:4", "flat offset modifier is not supported on this GPU"),
    ("gfx803", "s_store_dword s1, s[4:5], 0x100000", "expected a 20-bit unsigned offset"),
    ("gfx803", "s_store_dword s1, s[4:5], 0xfffff", None),
    ("gfx900", "s_load_dword s1, s[4:5], -8", None),
    ("gfx900", "s_buffer_load_dword s1, s[4:7], -8", "expected a 20-bit unsigned offset"),
    ("gfx900", "s_load_dword s1, s[4:5], s6 offset:0x100000", "expected a 21-bit signed offset"),
    ("gfx900", "s_load_dword s1, s[4:5], 0xFFFFFFFFFFF00000", None),  # -2^20 as a 64-bit pattern
    ("gfx900", "global_load_dword v1, v[2:3], off offset:-4097", "expected a 13-bit signed offset"),
    ("gfx900", "global_load_dword v1, v[2:3], off offset:-4096", None),
    ("gfx1010", "global_load_dword v1, v[2:3], off offset:2048", "expected a 12-bit signed offset"),
    ("gfx1010", "global_load_dword v1, v[2:3], off offset:2047", None),
    ("gfx900", "ds_read2_b32 v[0:1], v2 offset0:4 offset1:256", "invalid offset1 value."),
    ("gfx900", "ds_read2_b32 v[0:1], v2 offset0:4 offset1:255", None),
    ("gfx900", "ds_write_b32 v2, v1 offset:65536", "expected a 16-bit unsigned offset"),
    # constant soffsets
    ("gfx700", "buffer_atomic_add v1, off, s[8:11], 0.15915494 offset:8", "invalid operand for instruction"),
    ("gfx803", "buffer_atomic_add v1, off, s[8:11], 0.15915494 offset:8", None),
    ("gfx900", "buffer_load_dword v1, off, s[8:11], 0x4d2", "invalid operand for instruction"),
    ("gfx900", "buffer_load_dword v1, off, s[8:11], 64", None),
    # MTBUF formats
    ("gfx900", "tbuffer_load_format_x v1, off, s[8:11], s3 format:128", "out of range format"),
    ("gfx900", "tbuffer_load_format_x v1, off, s[8:11], s3 format:127", None),
    ("gfx803", "tbuffer_load_format_x v1, off, s[8:11], dfmt:16, nfmt:2, s3", "out of range dfmt"),
    ("gfx803", "tbuffer_load_format_x v1, off, s[8:11], dfmt:15, nfmt:2, s3", None),
    ("gfx803", "tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_DATA_FORMAT_16,BUF_DATA_FORMAT_32]",
     "duplicate data format"),
    ("gfx803", "tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_UINT]", None),
    ("gfx803", "tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_DATA_FORMAT_16,BUF_DATA_FORMAT_8]",
     "duplicate data format"),  # BUF_DATA_FORMAT_8, the default, is a name llvm-mc never prints
    ("gfx803", "tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_FMT_32_FLOAT]",
     "unified format is not supported on this GPU"),
    ("gfx1030", "tbuffer_load_format_x v1, off, s[8:11], s3 format:[BUF_FMT_32_FLOAT]", None),
    # image data and address sizes, dim
    ("gfx900", "image_load v[0:2], v[2:5], s[8:15] dmask:0x3", "image data size does not match dmask, d16 and tfe"),
    ("gfx900", "image_load v[0:2], v[2:5], s[8:15] dmask:0x3 tfe", None),
    ("gfx1030", "image_load v[0:3], v[4:5], s[8:15] dmask:0xf", "missing dim operand"),
    ("gfx1030", "image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", None),
    ("gfx1030", "image_load v[0:3], v[4:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
     "image address size does not match dim and a16"),
    # a FLAT/global atomic's return register and its cache-policy bit go together
    ("gfx90a", "global_atomic_add v0, v1, v8, s[0:1] glc", None),
    ("gfx90a", "global_atomic_add v0, v1, v8, s[0:1]", "instruction must use glc"),
    ("gfx90a", "global_atomic_add v1, v8, s[0:1] glc", "instruction must not use glc"),
    ("gfx908", "global_atomic_add_f32 v1, v8, s[0:1] glc", "instruction must not use glc"),  # no returning form there
    ("gfx803", "flat_atomic_cmpswap v[4:5], v[8:9] glc", "instruction must not use glc"),
    ("gfx803", "flat_atomic_cmpswap v0, v[4:5], v[8:9] glc", None),
    ("gfx942", "flat_atomic_add v0, v[4:5], v8 sc1", "instruction must use sc0"),
    ("gfx942", "flat_atomic_sub v[4:5], v8 sc0", "instruction must not use sc0"),
    ("gfx942", "flat_atomic_sub v0, v[4:5], v8 sc0 sc1", None),
    ("gfx1100", "flat_atomic_add_u32 v0, v[4:5], v8", "instruction must use glc"),
    ("gfx1200", "flat_atomic_add_u32 v0, v[4:5], v8 th:TH_ATOMIC_NT", "instruction must use th:TH_ATOMIC_RETURN"),
    ("gfx1200", "flat_atomic_add_u32 v0, v[4:5], v8 th:TH_ATOMIC_NT_RETURN", None),
    ("gfx1200", "global_atomic_add_u32 v1, v8, s[0:1] th:TH_ATOMIC_RETURN", None),  # llvm-mc takes it
    ("gfx1250", "global_atomic_add_u32 v0, v1, v8, s[0:1]", "instruction must use th:TH_ATOMIC_RETURN"),
    ("gfx1250", "flat_atomic_add_f32 v0, v1, s[0:1] scope:SCOPE_SYS", None),  # LLVM's output: FLAT with an saddr
]


def _ids(case):
    return f"{case[0]}: {case[1].split()[0]} {case[1].split()[-1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_memory_instructions_are_refused_where_llvm_mc_refuses_them(snippet, case):
    assert_linter_verdict(snippet, *case, attributed=True)


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_memory_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, error = case
    assert_llvm_mc_verdict(tmp_path, target, line, error)


def test_a_symbol_or_an_unknown_format_name_is_not_judged(snippet):
    """Values the probes cannot know (a symbol's, a name no llvm-mc printer spells) draw nothing."""
    result = snippet.lint("""
        .set OFF, 0x100000
        k:
          s_store_dword s1, s[4:5], OFF
          tbuffer_load_format_x v1, off, s[8:11], s3 format:[MY_FORMAT]
          s_endpgm
    """, mcpu="gfx803")
    assert [d.message for d in result.diagnostics if d.name == "unknown-instruction"] == []


def test_the_table_names_a_processor_for_every_configuration_of_the_mnemonic_table():
    tables = Path(isa.__file__).parent / "tables"
    header = json.loads((tables / "memory.jsonl").read_text().split("\n", 1)[0])
    configurations = json.loads((tables / "mnemonics.jsonl").read_text().split("\n", 1)[0])["configurations"]
    assert [header["processors"][index] for index in header["configurations"]] == [
        name.split(":")[0] for name in configurations]


def test_every_configuration_maps_to_a_probed_processor():
    facts = memory_facts()
    assert facts is not None
    verdicts = mnemonic_verdicts()
    for name in ("gfx1100:wavefrontsize64+", "gfx1200:real-true16+", "gfx906"):
        columns = verdicts.columns(parse_target_id(name), None)
        assert columns and facts.refusal("global_load_dword", (), (("made_up", None),), columns) is None
    assert facts.refusal("global_load_dword", (), (), ()) is None  # a processor llvm-mc 22 does not know
