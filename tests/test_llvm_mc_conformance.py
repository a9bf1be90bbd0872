"""Front-end conformance with llvm-mc 22: one minimal test per way real kernels tripped us.

Each expected value below was checked by assembling the same text with llvm-mc 22
(`llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=...`): what it accepts we accept and read the same way.
"""

import pytest
from amdgpu_lint.model.nodes import Num, Reg, Sym
from conftest import names

PARSE_LEVEL = {"parse-error", "unknown-directive", "undefined-symbol", "unknown-target", "unknown-instruction"}


def parse_findings(result):
    return [(d.name, d.line, d.message) for d in result.diagnostics if d.name in PARSE_LEVEL]


def code(module):
    return [(i.mnemonic, *map(repr, i.operands)) for kernel in module.kernels for i in kernel.instructions]


def test_macro_names_are_case_sensitive(snippet):
    # ROCR's blit shaders: an upper-case macro whose body uses the instruction of the same name
    module = snippet.build("""
        .macro V_ADD_CO_U32 vdst, src0, vsrc1
          v_add_co_u32 \\vdst, vcc, \\src0, \\vsrc1
        .endm
        k:
          V_ADD_CO_U32 v1, v2, v3
          s_endpgm
    """, mcpu="gfx900")
    add, end = module.kernels[0].instructions
    assert (add.mnemonic, [op.index for op in add.operands if isinstance(op, Reg)], end.mnemonic) == ("v_add_co_u32", [1, 2, 3], "s_endpgm")
    assert module.findings == []


def test_empty_macro_argument_takes_the_default(snippet):
    module = snippet.build("""
        .macro s_wait vmcnt=5, lgkmcnt
          s_nop \\vmcnt
          s_nop \\lgkmcnt
        .endm
        k:
          s_wait , 2
    """, mcpu="gfx900")
    assert code(module) == [("s_nop", "Num(value=5)"), ("s_nop", "Num(value=2)")]


def test_at_counts_macro_instantiations_only(snippet):
    # llvm-mc 22 prints s_nop 0, 0, 0, 1, 9, 9, 2, 4, 3: .rept and .irp are not instantiations,
    # and an .irp body sees the count so far
    module = snippet.build("""
        .macro R
         .irp x, 1, 2
          s_nop \\@
         .endr
         s_nop \\@
        .endm
        .macro Q
         s_nop \\@
        .endm
        k:
        R
        Q
        .rept 2
         s_nop 9
        .endr
        Q
        .irp y, 4
         s_nop \\y
        .endr
        Q
    """, mcpu="gfx900")
    assert [i.operands[0].value for kernel in module.kernels for i in kernel.instructions] == [0, 0, 0, 1, 9, 9, 2, 4, 3]


def test_machine_version_symbols_only_outside_amdhsa(snippet):
    text = """
        {target}
        k:
        .ifdef .option.machine_version_major
          s_nop 1
        .endif
        .ifdef .amdgcn.gfx_generation_number
          s_nop 2
        .endif
    """
    hsa = snippet.build(text.format(target='.amdgcn_target "amdgcn-amd-amdhsa--gfx900"'))
    pal = snippet.build(text.format(target='.amdgcn_target "amdgcn--amdpal--gfx900"'))
    assert code(hsa) == [("s_nop", "Num(value=2)")]
    assert code(pal) == [("s_nop", "Num(value=1)")]


def test_hash_lines_are_comments_in_s_files_and_directives_in_S_files(snippet):
    text = """
        # __CLANG_OFFLOAD_BUNDLE____START__ hip-amdgcn-amd-amdhsa--gfx90a
        #define WIDTH 4
        k:
        #if 0
          s_nop 1
        #endif
          s_endpgm
    """
    plain = snippet.lint(text, "k.s", mcpu="gfx90a")
    assert parse_findings(plain) == []
    assert [i.mnemonic for i in snippet.build(text, "k.s", mcpu="gfx90a").kernels[0].instructions] == ["s_nop", "s_endpgm"]
    preprocessed = snippet.lint(text, "k.S", mcpu="gfx90a")
    assert "unknown-directive" in names(preprocessed)  # the bundle marker is no cpp directive
    assert [i.mnemonic for i in snippet.build(text, "k.S", mcpu="gfx90a").kernels[0].instructions] == ["s_endpgm"]


def test_register_names_inside_an_index_expression_are_symbols(snippet):
    # llvm-mc 22: v_mov_b32_e32 v42, 0
    module = snippet.build("""
        .set acc0, 40
        .set gpr_in_line, 2
        k:
          v_mov_b32 v[acc0 + gpr_in_line], 0
          v_accvgpr_write_b32 a16, v0
    """, mcpu="gfx90a")
    mov, write = module.kernels[0].instructions
    assert (mov.operands[0].kind, mov.operands[0].index) == ("v", 42)
    assert (write.operands[0].kind, write.operands[0].index) == ("a", 16)
    assert module.findings == []


def test_a16_is_the_image_address_modifier(snippet):
    module = snippet.build("""
        k:
          image_load v[0:3], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D a16
          s_endpgm
    """, mcpu="gfx1030")
    load = module.kernels[0].instructions[0]
    assert ("a16", None) in load.modifiers and len(load.operands) == 3


def test_llvm_processor_names_and_generic_processors(snippet):
    from amdgpu_lint.model.targets import parse_target_id

    assert [parse_target_id(name).name for name in ("tahiti", "hawaii", "kaveri", "fiji", "tonga", "carrizo", "stoney")] == \
        ["gfx600", "gfx701", "gfx700", "gfx803", "gfx802", "gfx801", "gfx810"]
    assert parse_target_id("generic").name == "gfx600" and parse_target_id("generic-hsa").name == "gfx700"
    # a mesa3d/amdpal listing has no .amdgcn_target: --mcpu decides
    result = snippet.lint("""
        main:
          v_mov_b32 v0, 1.0
          s_endpgm
    """, mcpu="tonga")
    assert parse_findings(result) == []


METADATA = """
amdhsa.version: [ 1, 2 ]   ; llvm-mc drops assembler comments before the YAML is read
amdhsa.kernels:
  - .name: {name}
    .symbol: {name}.kd
    .sgpr_count: {sgprs}
    .vgpr_count: 4
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .max_flat_workgroup_size: 256
    .args: [ ]   ; none
"""


def test_metadata_in_a_macro_body_takes_the_arguments_and_drops_comments(snippet):
    module = snippet.build(
        '.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\nk:\n  s_endpgm\n'
        ".macro META name, sc\n.amdgpu_metadata\n---" + METADATA.format(name="\\name", sgprs="\\sc")
        + "...\n.end_amdgpu_metadata\n.endm\nMETA k, 20\n")
    assert module.findings == []
    assert module.kernels[0].metadata[".sgpr_count"] == 20 and module.kernels[0].metadata[".args"] == []


def test_semicolon_comments_inside_metadata_in_the_file(snippet):
    module = snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\nk:\n  s_endpgm\n.amdgpu_metadata\n---'
                           + METADATA.format(name="k", sgprs=12) + "...\n.end_amdgpu_metadata\n")
    assert module.findings == [] and module.kernels[0].metadata[".sgpr_count"] == 12


def test_lds_dma_without_vdata_and_omitted_smem_offsets(snippet):
    # LLVM 22's own gfx950 output and ROCR's trap handler; llvm-mc 22 prints the offset as 0x0
    result = snippet.lint("""
        .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
        k:
          s_mov_b32 m0, 0
          s_nop 0
          buffer_load_dwordx4 v2, s[12:15], 0 offen lds
          s_store_dwordx2 ttmp[0:1], ttmp[2:3]
          s_load_dword s0, s[0:1]
          s_atomic_add s0, s[2:3]
          s_waitcnt vmcnt(0) lgkmcnt(0)
          s_endpgm 1
    """)
    assert parse_findings(result) == []
    wrong = snippet.lint('.amdgcn_target "amdgcn-amd-amdhsa--gfx950"\nk:\n  s_load_dword s0\n  s_endpgm v0\n')
    assert [name for name, _, _ in parse_findings(wrong)] == ["unknown-instruction", "unknown-instruction"]


def test_export_with_off_sources(snippet):
    module = snippet.build("k:\n  exp mrt0 off, off, off, off done vm\n  s_endpgm\n", mcpu="bonaire")
    export = module.kernels[0].instructions[0]
    assert len(export.operands) == 5 and {name for name, _ in export.modifiers} == {"done", "vm"}
    assert parse_findings(snippet.lint("k:\n  exp mrt0 off, off, off, off\n  s_endpgm\n", mcpu="bonaire")) == []


def test_code_object_v2_directives_in_a_v3_file_without_a_target_line(snippet):
    # llvm-mc 22 (amdhsa): "unknown directive" on both
    result = snippet.lint("""
        .amdhsa_code_object_version 5
        .hsa_code_object_version 2,1
        .hsa_code_object_isa 9,0,0,"AMD","AMDGPU"
        k:
          s_endpgm
    """, mcpu="gfx900")
    assert [line for name, line, _ in parse_findings(result) if name == "unknown-directive"] == [3, 4]
    # every OS: the two v2 directives are gone; a v2 kernel descriptor is still fine outside amdhsa
    pal = snippet.lint('.amdgcn_target "amdgcn-unknown-amdpal--gfx900"\n.hsa_code_object_version 2,1\n'
                       '.amdgpu_hsa_kernel k\nk:\n.amd_kernel_code_t\n.end_amd_kernel_code_t\n  s_endpgm\n')
    assert [(name, line) for name, line, _ in parse_findings(pal)] == [("unknown-directive", 2)]


def test_spellings_llvm_mc_still_accepts(snippet):
    # gfx12 keeps the pre-rename names, gfx11.5 has gfx12's SALU float instructions (its own
    # spelling s_min_f32), gfx950 spells new MFMAs both ways, v_accvgpr_read/write are aliases
    cases = {
        "gfx1200": """
            s_load_dwordx2 s[0:1], s[2:3], 0x0
            s_add_u32 s0, s1, s2
            s_addc_u32 s3, s4, s5
            s_andn2_b32 s6, s7, s8
            ds_read_b32 v0, v1
            ds_write2_b32 v1, v2, v3 offset1:1
            exp mrt0 v0, v0, v0, v0 done
        """,
        "gfx1150": "s_cvt_f32_i32 s0, s1\n s_min_f32 s0, s1, s2\n s_fmac_f32 s0, s1, s2\n",
        "gfx950": "v_mfma_i32_16x16x64i8 v[0:3], v[4:7], v[8:11], v[0:3]\n",
        "gfx90a": "v_accvgpr_write a0, v1\n v_accvgpr_read v2, a0\n",
    }
    for cpu, body in cases.items():
        result = snippet.lint("k:\n" + body + "\n s_endpgm\n", mcpu=cpu)
        assert [f for f in parse_findings(result) if f[0] == "unknown-instruction"] == [], cpu
    module = snippet.build("k:\n ds_read_b32 v0, v1\n s_load_dword s0, s[2:3]\n s_endpgm\n", mcpu="gfx1200")
    from amdgpu_lint.analyses.defuse import DefUseAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager

    facts = AnalysisManager(module, module.kernels[0]).get(DefUseAnalysis).per_instruction
    assert facts[0].klass.unit == "ds" and ("v", 0) in facts[0].defs  # read as ds_load_b32
    assert facts[1].klass.unit == "smem" and ("s", 0) in facts[1].defs
    # still wrong where llvm-mc says so
    wrong = snippet.lint("k:\n s_cvt_f32_i32 s0, s1\n s_endpgm\n", mcpu="gfx1100")
    assert [f[0] for f in parse_findings(wrong)] == ["unknown-instruction"]


def test_the_spellings_table_matches_llvm_mc():
    import shutil
    import subprocess
    import sys

    import pytest
    from conftest import ROOT

    if shutil.which("llvm-mc-22") is None:
        pytest.skip("llvm-mc-22 is not installed (Debian's llvm-22); the table is checked where it is")
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_accepted_spellings.py"), "--check"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_amdgpu_mc_expression_functions(snippet):
    # values llvm-mc 22 prints for the same .set lines
    text = """
        .set a, extrasgprs(1, 0, 1)
        .set b, extrasgprs(0, 1, 0)
        .set c, totalnumvgprs(3, 6)
        .set d, totalnumvgprs(0, 6)
        .set e, occupancy(8, 8, 512, 8, 8, 90, 100)
        .set f, alignto(13, 8)
        .set g, max(3, or(0, 2))
    """
    expected = {"gfx90a": [4, 6, 11, 6, 4, 16, 3], "gfx1030": [2, 0, 6, 6, 4, 16, 3]}
    for cpu, values in expected.items():
        module = snippet.build(text, mcpu=cpu)
        assert [module.symbols[name] for name in "abcdefg"] == values, cpu
        assert module.findings == []


def test_image_data_width_follows_dmask_d16_and_tfe(snippet):
    # llvm-mc 22: "image data size does not match dmask, d16 and tfe" on the wrong ones only
    good = """
        k:
          image_load v0, v[1:2], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
          image_load v[0:2], v[1:2], s[4:11] dmask:0xb dim:SQ_RSRC_IMG_2D
          image_load v[0:1], v[1:2], s[4:11] dmask:0x7 dim:SQ_RSRC_IMG_2D d16
          image_load v[0:1], v[1:2], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D tfe
          image_load v0, v[1:2], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D lwe
          image_gather4 v[0:3], v[1:2], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D
          image_atomic_cmpswap v[0:1], v2, s[4:11] dmask:0x3 dim:SQ_RSRC_IMG_1D glc
          s_endpgm
    """
    assert parse_findings(snippet.lint(good, mcpu="gfx1030")) == []
    wrong = snippet.lint("k:\n image_load v[0:3], v[1:2], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D\n s_endpgm\n", mcpu="gfx1030")
    assert ["image_load" in message for _, _, message in parse_findings(wrong)] == [True]
    # gfx11 msaa_load returns four samples whatever the dmask; gfx10 one per dmask bit
    msaa = "k:\n image_msaa_load {} , v[2:3], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA unorm a16\n s_endpgm\n"
    assert parse_findings(snippet.lint(msaa.format("v[0:3]"), mcpu="gfx1100")) == []
    assert parse_findings(snippet.lint(msaa.format("v0"), mcpu="gfx1030")) == []
    # d16 packs two halves per dword, except on gfx801-gfx805 (llvm-mc 22 on gfx803, gfx810, gfx900)
    d16 = "k:\n image_load {}, v0, s[0:7] dmask:0x3 d16\n s_endpgm\n"
    assert [bool(parse_findings(snippet.lint(d16.format(data), mcpu=cpu))) for cpu, data in
            (("gfx803", "v[0:1]"), ("gfx803", "v0"), ("gfx810", "v0"), ("gfx810", "v[0:1]"), ("gfx900", "v0"))] == \
        [False, True, False, True, False]


def test_image_data_width_when_the_wave_size_is_unknown(snippet):
    # gfx12's table shows vdata as 4 dwords; a listing without .amdgcn_target leaves the wave size
    # open, which must not excuse a 4-dword register (llvm-mc 22 rejects this one on gfx1200)
    load = "k:\n image_load {}, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D\n s_endpgm\n"
    assert ["image_load" in message for _, _, message in parse_findings(snippet.lint(load.format("v[10:13]"), mcpu="gfx1200"))] == [True]
    assert parse_findings(snippet.lint(load.format("v10"), mcpu="gfx1200")) == []


def test_image_lwe_status_dword_is_not_counted_by_llvm_mc(snippet):
    # LLVM 22 prints image_load v[0:4] ... dmask:0xf lwe (the hardware writes the lwe status dword);
    # llvm-mc 22 rejects it ("image data size does not match dmask and d16"): kept, and said why
    result = snippet.lint("k:\n image_load v[0:4], v6, s[0:7] dmask:0xf unorm lwe\n s_endpgm\n", mcpu="gfx90a")
    ((_, _, message),) = parse_findings(result)
    assert message.startswith("operand 'vdst' of image_load is 4 dwords, but v[0:4] is 5") and "lwe" in message


def test_buffer_load_with_tfe_writes_one_more_dword(snippet):
    result = snippet.lint("k:\n buffer_load_sbyte v[5:6], off, s[8:11], s3 tfe\n s_endpgm\n", mcpu="gfx1010")
    assert parse_findings(result) == []


def test_scc_after_glc_is_the_cache_bit_and_trailing_commas(snippet):
    module = snippet.build("k:\n global_atomic_add_f32 v0, v[0:1], v2, off glc scc\n v_cndmask_b32_e32 v1, v2, v3,\n s_endpgm\n",
                           mcpu="gfx90a")
    atomic, select, _ = module.kernels[0].instructions
    assert len(atomic.operands) == 4 and ("scc", None) in atomic.modifiers
    assert len(select.operands) == 3 and module.findings == []


def test_wave_size_of_an_undeclared_listing(snippet):
    # PAL/Mesa output on gfx10+ does not say its wave size: the code does (vcc vs vcc_lo) ...
    wave64 = snippet.lint("k:\n v_cmp_eq_u32_e64 s[0:1], v0, v1\n v_cndmask_b32_e64 v2, 0, 1, s[0:1]\n"
                          " s_and_b64 vcc, exec, s[0:1]\n s_endpgm\n", mcpu="gfx1030")
    assert parse_findings(wave64) == []
    wrong = snippet.lint("k:\n v_cmp_eq_u32_e64 s0, v0, v1\n s_and_b64 vcc, exec, s[0:1]\n s_endpgm\n", mcpu="gfx1030")
    assert len(parse_findings(wrong)) == 1
    # ... and where it does not, either wave size's operand widths are accepted
    wmma = snippet.lint("k:\n v_wmma_f32_16x16x16_f16 v[16:19], v[0:7], v[8:15], v[16:19]\n s_endpgm\n", mcpu="gfx1100")
    assert parse_findings(wmma) == []


_GFX12_WMMA = """
    .amdhsa_kernel k
      .amdhsa_next_free_vgpr 16
      .amdhsa_next_free_sgpr 8
      .amdhsa_wavefront_size32 {w32}
    .end_amdhsa_kernel
    k:
      {op} {d}, {a}, {b}, {d}
      s_endpgm
"""


def test_gfx12_wmma_16_bit_operands_are_packed(snippet):
    # llvm-mc 22 (gfx1200): 4 VGPRs each in wave32, 2 in wave64; 8 is "invalid operand"
    text = _GFX12_WMMA.replace("{op}", "v_wmma_f16_16x16x16_f16")
    wave32 = snippet.lint(text.format(w32=1, d="v[0:3]", a="v[4:7]", b="v[8:11]"), mcpu="gfx1200")
    wave64 = snippet.lint(text.format(w32=0, d="v[0:1]", a="v[4:5]", b="v[8:9]"), mcpu="gfx1200")
    assert parse_findings(wave32) == [] and parse_findings(wave64) == []
    gfx11_sized = snippet.lint(text.format(w32=1, d="v[0:7]", a="v[8:11]", b="v[12:15]"), mcpu="gfx1200")
    assert [name for name, _, _ in parse_findings(gfx11_sized)] == ["unknown-instruction"]


def test_gfx12_wave64_wmma_takes_half_the_accumulator(snippet):
    # issue 30: llvm-mc 22 -mcpu=gfx1200 -mattr=+wavefrontsize64 accepts the first, wave32 only the second
    text = _GFX12_WMMA.replace("{op}", "v_wmma_f32_16x16x16_f16")
    wave64 = snippet.lint(text.format(w32=0, d="v[0:3]", a="v[4:5]", b="v[6:7]"), mcpu="gfx1200")
    assert parse_findings(wave64) == []
    wave32 = snippet.lint(text.format(w32=1, d="v[0:7]", a="v[8:11]", b="v[12:15]"), mcpu="gfx1200")
    assert parse_findings(wave32) == []
    wave64_widths_in_wave32 = snippet.lint(text.format(w32=1, d="v[0:3]", a="v[4:5]", b="v[6:7]"), mcpu="gfx1200")
    assert [name for name, _, _ in parse_findings(wave64_widths_in_wave32)] == ["unknown-instruction"]
    wave64_by_mcpu = snippet.lint("k:\n v_wmma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n s_endpgm\n",
                                  mcpu="gfx1200:wavefrontsize64+")
    assert parse_findings(wave64_by_mcpu) == []
    wave32_widths_by_mcpu = snippet.lint("k:\n v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]\n s_endpgm\n",
                                         mcpu="gfx1200:wavefrontsize64+")
    assert [name for name, _, _ in parse_findings(wave32_widths_by_mcpu)] == ["unknown-instruction"]


_WAVE64_WMMA_IR = """
define amdgpu_kernel void @wmma64(ptr addrspace(1) %a, ptr addrspace(1) %c, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %a, i32 %tid
  %va = load <4 x half>, ptr addrspace(1) %pa
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %tid
  %vc = load <4 x float>, ptr addrspace(1) %pc
  %r = call <4 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v4f32.v4f16(<4 x half> %va, <4 x half> %va, <4 x float> %vc)
  %po = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %r, ptr addrspace(1) %po
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare <4 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v4f32.v4f16(<4 x half>, <4 x half>, <4 x float>)
"""


def test_llvm_gfx12_wave64_wmma_lints_cleanly(snippet):
    pytest.importorskip("llvmlite")
    from llvm_oracle import compile_ir

    assembly = compile_ir(_WAVE64_WMMA_IR, "gfx1200", features="+wavefrontsize64")
    assert "v_wmma_f32_16x16x16_f16 v[0:3], v[4:5], v[4:5], v[0:3]" in assembly
    assert snippet.lint(assembly).diagnostics == []


def test_numeric_branch_target_keeps_the_code_after_it_reachable(snippet):
    # SP3-translated MIOpen kernels branch by dword offset; where a size on the way is unknown
    # (a DPP form here) the offset is not resolved, and the code after the branch must not look dead
    text = """
        k:
          v_mov_b32 v1, 0
          s_branch 3
          v_mov_b32_dpp v3, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
          s_nop 0
          v_add_u32 v2, v1, v1
          s_endpgm
    """
    module = snippet.build(text, mcpu="gfx900")
    from amdgpu_lint.analyses.cfg import CFGAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager

    cfg = AnalysisManager(module, module.kernels[0]).get(CFGAnalysis)
    assert cfg.reachable() == set(range(len(cfg.blocks)))
    assert "uninitialized-register" not in names(snippet.lint(text, mcpu="gfx900"))


def test_altmacro_mode(snippet):
    # llvm-mc 22 prints: v_add_u32_e32 v8, 3, v8 / v10, 1 / v11, 2 / v5, 7, then v_mov_b32_e32 v6, reg
    module = snippet.build("""
        .altmacro
        .macro inc reg, amount
          v_add_u32 v[reg], amount, v[\\reg]
        .endm
        .macro twice reg
          inc reg, 1
          inc %(reg+1), <2>
        .endm
        .set base, 4
        k:
          inc %(base*2), 3
          twice 10
          inc <5>, <7>
        .noaltmacro
        .macro plain reg
          v_mov_b32 v[\\reg], reg
        .endm
          plain 6
          s_endpgm
    """, mcpu="gfx900")
    rows = [(i.operands[0].index, i.operands[1]) for i in module.kernels[0].instructions[:-1]]
    assert rows == [(8, Num(3)), (10, Num(1)), (11, Num(2)), (5, Num(7)), (6, Sym("reg"))]
    assert module.findings == []
    from amdgpu_lint.frontend.preprocessor import split_macro_arguments

    assert [text for _, text in split_macro_arguments("<5,6>, 7", angle_strings=True)] == ["<5,6>", "7"]


def test_encoded_sizes_as_llvm_mc_encodes_them(snippet):
    # byte counts of `llvm-mc-22 -mcpu=gfx900 -show-encoding` for the same lines
    lines = """s_mov_b32 s0, 1
        s_mov_b32 s0, 0x12345
        s_movk_i32 s0, 0x1234
        v_add_f32 v0, v1, v2
        v_add_f32 v0, v1, s2
        v_add_f32 v0, 0x40490fdb, v2
        v_add_f32 v0, |v1|, v2
        v_cmp_eq_u32 vcc, v1, v2
        v_cmp_eq_u32 s[0:1], v1, v2
        v_cndmask_b32 v0, v1, v2, vcc
        global_load_dword v0, v[0:1], off offset:16
        s_load_dword s0, s[0:1], 0x10
        ds_read_b32 v0, v1 offset:64
        s_add_u32 s0, s0, sym@rel32@lo+4
        s_branch 3"""
    module = snippet.build("k:\n" + lines + "\n", mcpu="gfx900")
    from amdgpu_lint.analyses.defuse import DefUseAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.isa.sizes import instruction_size

    kernel = module.kernels[0]
    facts = AnalysisManager(module, kernel).get(DefUseAnalysis).per_instruction
    sizes = [instruction_size(i.mnemonic, i.operands, i.modifiers, f.variant, module.target)
             for i, f in zip(kernel.instructions, facts, strict=True)]
    assert sizes == [4, 8, 4, 4, 8, 8, 8, 4, 8, 4, 8, 8, 8, 8, 4]


def test_numeric_branch_offsets_resolve_over_known_sizes(snippet):
    # s_branch 3 skips the 8-byte v_add_f32 (VOP3: SGPR second source) and the 4-byte s_nop
    module = snippet.build("""
        k:
          s_branch 3
          v_add_f32 v0, v1, s2
          s_nop 0
          s_cbranch_scc0 -4
          s_endpgm
    """, mcpu="gfx900")
    from amdgpu_lint.analyses.cfg import CFGAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager

    cfg = AnalysisManager(module, module.kernels[0]).get(CFGAnalysis)
    by_first = {block.instructions[0].mnemonic: block for block in cfg.blocks}
    assert cfg.blocks[0].successors == [cfg.block_of[3]]  # to s_cbranch_scc0, 4 + 4*3 bytes on
    assert cfg.block_of[1] in cfg.blocks[cfg.block_of[3]].successors  # -4 dwords: back to v_add_f32
    assert by_first["s_endpgm"].index in cfg.blocks[cfg.block_of[3]].successors


def test_location_counter_in_expressions(snippet):
    # ROCR's trap handler pads to a 64-byte boundary; llvm-mc 22 -filetype=obj emits 14 and 13
    # `s_nop 1` (the literal 0x12345 makes the s_mov_b32 eight bytes long)
    text = """
        trap_entry:
          s_nop 0
          s_mov_b32 s0, {source}
          .rept (64 - ((. - trap_entry) % 64)) / 4
            s_nop 1
          .endr
          s_endpgm
    """
    for source, padding in (("s1", 14), ("0x12345", 13)):
        module = snippet.build(text.format(source=source), mcpu="gfx900")
        assert module.findings == []
        assert sum(i.mnemonic == "s_nop" and i.operands[0] == Num(1) for i in module.kernels[0].instructions) == padding
    data = snippet.build("""
        start:
          .long 1, 2
          .p2align 4
          .byte 1
        .if . - start == 17
          s_nop 3
        .endif
    """, mcpu="gfx900")
    assert [i.operands[0] for k in data.kernels for i in k.instructions] == [Num(3)]


def test_gfx950_scale_load_reads_two_sources(snippet):
    module = snippet.build("k:\n v_mfma_ld_scale_b32 v0, 64\n v_mfma_ld_scale_b32 s0, v1 op_sel:[1,0]\n s_endpgm\n",
                           mcpu="gfx950")
    from amdgpu_lint.analyses.defuse import DefUseAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager

    first, second, _ = AnalysisManager(module, module.kernels[0]).get(DefUseAnalysis).per_instruction
    assert first.problem is None and ("v", 0) in first.uses and not first.defs - {("exec", 0), ("exec", 1)}
    assert {("s", 0), ("v", 1)} <= second.uses


def test_kernel_scope_register_counts(snippet):
    # llvm-mc 22: .kernel.vgpr_count / .kernel.sgpr_count count the registers used so far in the
    # .amdgpu_hsa_kernel scope (A=0, B=1, C=2; D=4 after s0, E=8)
    module = snippet.build("""
        v_mov_b32 v5, s8
        .amdgpu_hsa_kernel K3
        K3:
        A = .kernel.vgpr_count
          v_mov_b32_e32 v[A], s0
        B = .kernel.vgpr_count
          v_mov_b32_e32 v[B], s0
          v_mov_b32_e32 v[B], v[A]
        C = .kernel.vgpr_count
          v_mov_b32_e32 v[C], v[A]
        D = .kernel.sgpr_count + 3
        E = D + 4
          s_load_dwordx4 s[D:D+3], s[E:E+1], 0x0
          s_endpgm
    """, mcpu="tahiti")
    assert [module.symbols[name] for name in "ABCDE"] == [0, 1, 2, 4, 8] and module.findings == []


def test_generation_symbols_without_a_target_line(snippet):
    # ROCR's blit shaders and trap handler have no .amdgcn_target; ROCR assembles them for amdhsa
    module = snippet.build("""
        .if .amdgcn.gfx_generation_number >= 10
          s_nop 1
        .endif
        .ifdef .option.machine_version_major
          s_nop 2
        .endif
        k:
          s_endpgm
    """, mcpu="gfx1030")
    assert [i.operands[0] for i in module.kernels[0].instructions[:-1]] == [Num(1)] and module.findings == []
    # v2 kernel directives in a branch for old ROCm versions change nothing (MIOpen's rocm_version.inc)
    dead_branch = snippet.build(".if 0\n.amdgpu_hsa_kernel k\n.endif\n.ifdef .option.machine_version_major\n"
                                " .error \"v2\"\n.endif\nk:\n s_endpgm\n", mcpu="gfx906")
    assert dead_branch.findings == []
    # a listing with PAL metadata is for another OS: the code-object-v2 names
    pal = snippet.build(".ifdef .option.machine_version_major\n s_nop 2\n.endif\nk:\n s_endpgm\n"
                        ".amdgpu_pal_metadata\n---\namdpal.version: [ 2, 6 ]\n...\n.end_amdgpu_pal_metadata\n", mcpu="gfx1030")
    assert [i.operands[0] for i in pal.kernels[0].instructions[:-1]] == [Num(2)]


def test_altmacro_backslash_parameter_inside_a_word(snippet):
    # MIOpen's conv3x3 (under .altmacro): `s_load_dwordx\count` is the \count form, not bare `count`
    module = snippet.build("""
        .altmacro
        .macro load count, base
          s_load_dwordx\\count s[\\base:\\base+\\count-1], s[0:1], 0
        .endm
        k:
          load 4, 8
          s_endpgm
    """, mcpu="gfx906")
    load = module.kernels[0].instructions[0]
    assert (load.mnemonic, load.operands[0].index, load.operands[0].count) == ("s_load_dwordx4", 8, 4)
    assert module.findings == []


def test_include_file_name_escapes(snippet):
    snippet.write("s_nop 5\n", "inc_file.s")
    module = snippet.build('k:\n .include "inc\\137file.s"\n s_endpgm\n', mcpu="gfx900")
    assert [i.mnemonic for i in module.kernels[0].instructions] == ["s_nop", "s_endpgm"] and module.findings == []


def test_gfx12_lane_mask_operands_follow_the_wave_size(snippet):
    # gfx12's page gives v_cndmask_b16's src2 wave64's 2 dwords; llvm-mc 22 takes s0 in wave32 and
    # s[0:1] in wave64 (-mattr=+real-true16[,+wavefrontsize64]) and rejects the other one
    wave32 = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx1200"\nk:\n v_cmp_eq_f32_e64 s0, 0, v3\n'
              ' v_cndmask_b16 v3.h, v3.h, v1.h, {}\n s_and_b32 exec_lo, exec_lo, s0\n s_endpgm\n')
    assert parse_findings(snippet.lint(wave32.format("s0"))) == []
    assert ["v_cndmask_b16" in message for _, _, message in parse_findings(snippet.lint(wave32.format("s[0:1]")))] == [True]


def test_quoted_symbol_names(snippet):
    # LLVM prints symbols that are not identifiers in quotes ("i128-const-store"); llvm-mc 22 takes them
    text = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n.text\n.globl "a-b"\n.type "a-b",@function\n"a-b":\n'
            ' s_endpgm\n.Lend:\n.size "a-b", .Lend-"a-b"\n.rodata\n.amdhsa_kernel "a-b"\n .amdhsa_next_free_vgpr 1\n'
            ' .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n')
    result = snippet.lint(text)
    assert parse_findings(result) == [] and [kernel.name for kernel in result.module.kernels] == ["a-b"]


def test_llvm_yaml_str_tag_in_metadata(snippet):
    # LLVM writes an empty kernel name as `.name: !str ''` (anonymous globals)
    text = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx803"\n.text\nk:\n s_endpgm\n.amdgpu_metadata\n---\n'
            "amdhsa.kernels:\n  - .name: !str ''\n    .symbol: k.kd\namdhsa.version:\n  - 1\n  - 2\n...\n"
            ".end_amdgpu_metadata\n")
    assert parse_findings(snippet.lint(text)) == []
