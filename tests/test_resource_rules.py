"""register-budget, lds-budget, scratch-spill, occupancy-below-target, occupancy-regression,
too-few-workgroups, and the resource parts of `report` and `baseline`."""

import json
import xml.etree.ElementTree as ElementTree

from amdgpu_lint.cli import main
from conftest import FIXTURES, names
from llvm_oracle import compile_ir

GFX90A = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n'


def descriptor(vgpr=8, sgpr=8, accum=None, lds=0, extra=""):
    accum_line = f"  .amdhsa_accum_offset {accum if accum is not None else min(-(-vgpr // 4) * 4, 256)}\n"
    return (f".amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_next_free_vgpr {vgpr}\n"
            f"  .amdhsa_next_free_sgpr {sgpr}\n{accum_line}  .amdhsa_group_segment_fixed_size {lds}\n{extra}.end_amdhsa_kernel\n")


# ---------------------------------------------------------------- register-budget

def test_vgpr_beyond_the_descriptor(snippet):
    result = snippet.lint(GFX90A + "k:\n v_mov_b32 v9, 0\n v_mov_b32 v10, 0\n s_endpgm\n" + descriptor(vgpr=8))
    (diagnostic,) = [d for d in result.diagnostics if d.name == "register-budget"]
    assert diagnostic.line == 3 and diagnostic.message.startswith("v10 is used but the wave owns v0-v7")
    assert "(1 more instruction)" in diagnostic.message


def test_agpr_beyond_accum_offset_on_the_unified_file(snippet):
    text = GFX90A + "k:\n v_accvgpr_write_b32 a15, 0\n s_endpgm\n"
    result = snippet.lint(text + descriptor(vgpr=34, accum=20))
    assert names(result) == ["register-budget"] and "leaves 14 AGPRs" in result.diagnostics[0].message
    assert names(snippet.lint(text + descriptor(vgpr=36, accum=20))) == []


def test_arch_vgpr_past_accum_offset_is_an_error_only_next_to_agprs(snippet):
    # item 18: on the unified file a VGPR past accum_offset is AGPR storage; with no AGPR used it overlaps nothing
    def budget(body, vgpr=40):
        result = snippet.lint(GFX90A + "k:\n" + body + " s_endpgm\n" + descriptor(vgpr=vgpr, accum=20))
        return [(str(d.severity), d.message) for d in result.diagnostics if d.name == "register-budget"]

    ((severity, message),) = budget(" v_mov_b32 v20, 0\n v_mov_b32 v22, 0\n")
    assert severity == "warning" and message.startswith("v22 is at or above .amdhsa_accum_offset 20")
    assert "raise .amdhsa_accum_offset to 24 (1 more instruction)" in message
    ((severity, message),) = budget(" v_mov_b32 v20, 0\n v_accvgpr_write_b32 a3, 0\n")
    assert severity == "error" and "shares storage with a0" in message
    ((severity, message),) = budget(" v_mov_b32 v20, 0\n s_swappc_b64 s[6:7], s[4:5]\n")
    assert severity == "error"  # the callee may use AGPRs
    ((severity, message),) = budget(" v_mov_b32 v40, 0\n")  # one past next_free_vgpr: still an error
    assert severity == "error" and message.startswith("v40 is used but the wave owns v0-v39")


def test_sgpr_beyond_the_descriptor_and_the_hardware(snippet):
    result = snippet.lint(GFX90A + "k:\n s_mov_b32 s12, 0\n s_endpgm\n" + descriptor(sgpr=8))
    assert names(result) == ["register-budget"] and "next_free_sgpr is 8" in result.diagnostics[0].message
    result = snippet.lint('.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"\nk:\n v_mov_b32 v0, 0\n v_mov_b32 v257, 0\n s_endpgm\n')
    assert names(result) == ["register-budget"] and result.diagnostics[0].message == \
        "v257 is outside gfx1030's registers (v0-v255)"


def test_gfx10_plus_waves_own_every_sgpr_whatever_the_descriptor_says(snippet):
    # issue 30: the descriptor's SGPR granule is 0 on gfx10+ (LLVM writes it so); llvm-mc 22 accepts s55 on gfx1100
    text = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\nk:\n s_mov_b32 s55, 0\n s_endpgm\n'
    kernel = ".amdhsa_kernel k\n  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 16\n.end_amdhsa_kernel\n"
    assert names(snippet.lint(text + kernel)) == []
    beyond_the_file = snippet.lint(text.replace("s55", "s106") + kernel)  # gfx11 addresses s0-s105
    assert names(beyond_the_file) == ["register-budget"]
    assert beyond_the_file.diagnostics[0].message == "s106 is outside gfx1100's registers (s0-s105)"
    gfx9 = snippet.lint(GFX90A + "k:\n s_mov_b32 s55, 0\n s_endpgm\n" + descriptor(sgpr=16))
    assert names(gfx9) == ["register-budget"] and "next_free_sgpr is 16" in gfx9.diagnostics[0].message


def test_gfx1250_tuples_cross_v255(snippet):
    # issue 30: gfx1250 addresses 1024 VGPRs; llvm-mc 22 accepts v[254:257] and v[252:259] there
    def budget(body: str, vgpr: int) -> list[str]:
        text = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\nk:\n' + body + " s_endpgm\n"
                f".amdhsa_kernel k\n  .amdhsa_next_free_vgpr {vgpr}\n  .amdhsa_next_free_sgpr 8\n.end_amdhsa_kernel\n")
        return [d.message for d in snippet.lint(text).diagnostics if d.name == "register-budget"]

    load = " global_load_b128 v[254:257], v0, s[0:1]\n v_wmma_f32_16x16x4_f32 v[252:259], v[0:1], v[2:3], v[252:259]\n"
    assert budget(load, 260) == []
    (short,) = budget(load, 256)  # the descriptor still bounds them
    assert short.startswith("v259 is used but the wave owns v0-v255: .amdhsa_next_free_vgpr is 256")
    # issue 40, 1: under s_set_vgpr_msb 0x40 (the destination's bank 1) `v5` is v261, the register the budget counts
    banked = " s_set_vgpr_msb 0x40\n v_mov_b32 v5, 0\n s_set_vgpr_msb 0\n"
    assert budget(banked, 262) == []
    (short,) = budget(banked, 256)
    assert short.startswith("v261 is used but the wave owns v0-v255: .amdhsa_next_free_vgpr is 256")
    assert budget(banked.replace("0x40", "1"), 512)[0].startswith("kernel 'k' allocates more registers than it uses")
    # where paths with different modes meet, `v5` may be v261: no over-declaration
    unknown = " s_cbranch_scc0 .L1\n s_set_vgpr_msb 0x40\n.L1:\n v_mov_b32 v5, 0\n s_set_vgpr_msb 0\n"
    assert budget(unknown, 512) == []
    assert budget(" v_mov_b32 v5, 0\n", 512)[0].startswith("kernel 'k' allocates more registers than it uses")


def test_over_declaration_that_costs_occupancy(snippet):
    result = snippet.lint(GFX90A + "k:\n v_mov_b32 v1, 0\n s_endpgm\n" + descriptor(vgpr=128))
    (diagnostic,) = result.diagnostics
    assert (diagnostic.name, str(diagnostic.severity)) == ("register-budget", "warning")
    assert "occupancy 4 instead of 8" in diagnostic.message
    assert names(snippet.lint(GFX90A + "k:\n v_mov_b32 v1, 0\n s_endpgm\n" + descriptor(vgpr=64))) == []


def test_llvm_padding_for_waves_per_eu_is_not_reported(snippet):
    from ir_kernels import pressure_kernel

    assembly = compile_ir(pressure_kernel("padded", live=20, wg=256, waves_per_eu="1,4"), "gfx90a")
    result = snippet.lint(assembly)
    assert names(result) == []  # metadata (.vgpr_count 61) explains the padded .amdhsa_next_free_vgpr 97
    kernel = result.module.kernels[0]
    assert (kernel.descriptor["next_free_vgpr"], kernel.metadata[".vgpr_count"]) == (97, 61)
    assert result.module.kernels and "register-budget" not in names(result)


# ---------------------------------------------------------------- lds-budget

def test_lds_above_the_work_group_limit(snippet):
    result = snippet.lint(GFX90A + "k:\n s_endpgm\n" + descriptor(lds=70000))
    assert names(result) == ["lds-budget"] and "allows 65536" in result.diagnostics[0].message
    quiet = snippet.lint('.amdgcn_target "amdgcn-amd-amdhsa--gfx950"\nk:\n s_endpgm\n' + descriptor(lds=70000))
    assert names(quiet) == []


def _with_metadata(body: str, lds: int, dynamic: bool = False, version: str = "[1, 2]",
                   hidden: tuple[str, ...] = ("hidden_block_count_x", "hidden_group_size_x")) -> str:
    """A kernel with code object metadata (v5 by default) as LLVM writes it: a global pointer argument, or an
    LDS pointer argument when `dynamic`, then the hidden arguments."""
    pointer = ".value_kind: dynamic_shared_pointer, .address_space: local" if dynamic else ".value_kind: global_buffer, .address_space: global"
    args = f"      - {{ .offset: 0, .size: 8, {pointer} }}\n" + "".join(
        f"      - {{ .offset: {8 + 4 * i}, .size: 4, .value_kind: {kind} }}\n" for i, kind in enumerate(hidden))
    return (GFX90A + "k:\n" + body + " s_endpgm\n" + descriptor(lds=lds) +
            f".amdgpu_metadata\n---\namdhsa.version: {version}\namdhsa.kernels:\n  - .name: k\n    .group_segment_fixed_size: "
            f"{lds}\n    .args:\n{args}...\n.end_amdgpu_metadata\n")


def test_ds_offsets_past_the_allocation(snippet):
    result = snippet.lint(_with_metadata(" ds_read_b32 v1, v0 offset:4096\n ds_read2_b64 v[2:5], v0 offset1:200\n", 1024))
    assert [d.line for d in result.diagnostics if d.name == "lds-budget"] == [3, 4]
    assert "reaches byte 4099" in result.diagnostics[0].message
    assert names(snippet.lint(_with_metadata(" ds_read_b32 v1, v0 offset:1020\n ds_read2_b32 v[2:3], v0 offset1:255\n", 1024))) == []
    assert names(snippet.lint(_with_metadata(" ds_read_b32 v1, v0 offset:4096\n", 1024, dynamic=True))) == []


def test_ds_offsets_with_lds_the_metadata_cannot_rule_out(snippet):
    # issue 30: LLVM's ds_read2 and ds.append tests read an `extern __shared__` array (sized at launch) or
    # take an LDS pointer; code object v4 metadata does not say, v5 lists hidden_dynamic_lds_size
    read = " ds_read2_b32 v[2:3], v0 offset0:1 offset1:8\n"
    assert names(snippet.lint(_with_metadata(read, 0))) == ["lds-budget"]
    assert names(snippet.lint(_with_metadata(read, 0, dynamic=True))) == []
    assert names(snippet.lint(_with_metadata(read, 0, hidden=("hidden_block_count_x", "hidden_dynamic_lds_size")))) == []
    assert names(snippet.lint(_with_metadata(read, 0, version="[1, 1]"))) == []
    assert names(snippet.lint(_with_metadata(read, 0, hidden=()))) == []  # no hidden arguments listed: cannot tell
    assert names(snippet.lint(GFX90A + "k:\n" + read + " s_endpgm\n" + descriptor(lds=0))) == []  # no metadata


def test_ds_swizzle_offset_is_a_pattern_not_an_address(snippet):
    # MIOpen conv3x3wrw: ds_swizzle_b32 ... offset:0x401F in a kernel without LDS
    assert names(snippet.lint(_with_metadata(" ds_swizzle_b32 v1, v0 offset:0x401F\n", 0))) == []
    assert names(snippet.lint(_with_metadata(" ds_read_b32 v1, v0 offset:0x401F\n", 0))) == ["lds-budget"]


# ---------------------------------------------------------------- scratch-spill

def test_scratch_and_spills(snippet):
    spills = (GFX90A + "k:\n s_endpgm\n" + descriptor() + ".amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n"
              "    .vgpr_spill_count: 12\n    .private_segment_fixed_size: 48\n...\n.end_amdgpu_metadata\n")
    result = snippet.lint(spills)
    assert names(result) == ["scratch-spill"] and "spills 12 VGPRs" in result.diagnostics[0].message
    scratch = snippet.lint(GFX90A + "k:\n s_endpgm\n" + descriptor(extra="  .amdhsa_private_segment_fixed_size 16\n"))
    assert [(d.name, str(d.severity)) for d in scratch.diagnostics] == [("scratch-spill", "info")]
    assert names(snippet.lint(GFX90A + "k:\n s_endpgm\n" + descriptor())) == []


def test_spills_without_a_private_segment_name_where_they_went(snippet):
    """Spills with no scratch allocated went to VGPR lanes (SGPRs) and AGPRs (VGPRs); with a private segment, to
    scratch."""
    def spilling(segment: int) -> str:
        return (GFX90A + "k:\n s_endpgm\n" + descriptor(extra=f"  .amdhsa_private_segment_fixed_size {segment}\n")
                + ".amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .sgpr_spill_count: 7\n"
                "    .vgpr_spill_count: 3\n...\n"
                ".end_amdgpu_metadata\n")
    (lanes,) = snippet.lint(spilling(0)).diagnostics
    assert "spills 3 VGPRs to AGPRs and 7 SGPRs to VGPR lanes (no scratch)" in lanes.message
    (scratch,) = snippet.lint(spilling(16)).diagnostics
    assert "spills 3 VGPRs and 7 SGPRs to scratch (16 bytes per lane)" in scratch.message


# ---------------------------------------------------------------- occupancy-below-target

def test_min_waves_from_comment_and_option(snippet):
    body = GFX90A + "k:  ; amdgpu-lint: min-waves=5\n v_mov_b32 v96, 0\n s_endpgm\n" + descriptor(vgpr=97)
    result = snippet.lint(body)
    (diagnostic,) = result.diagnostics
    assert diagnostic.name == "occupancy-below-target"
    assert "is 4 waves/SIMD, below the required 5" in diagnostic.message and "free 1 VGPR+AGPR (97 -> 96)" in diagnostic.message
    assert names(snippet.lint(body.replace("min-waves=5", "min-waves=4"))) == []
    plain = GFX90A + "k:\n v_mov_b32 v96, 0\n s_endpgm\n" + descriptor(vgpr=97)
    assert names(snippet.lint(plain)) == []
    assert names(snippet.lint(plain, min_waves=6)) == ["occupancy-below-target"]


# ---------------------------------------------------------------- baseline and occupancy-regression

def test_baseline_round_trip_and_regression(tmp_path, capsys):
    kernel = tmp_path / "k.s"
    kernel.write_text(GFX90A + "k:\n v_mov_b32 v63, 0\n s_endpgm\n" + descriptor(vgpr=64))
    snapshot = tmp_path / "baseline.json"
    assert main(["baseline", "--no-config", "--output", str(snapshot), str(kernel)]) == 0
    recorded = json.loads(snapshot.read_text())["kernels"]["k.s::k"]  # relative to the snapshot's directory
    assert (recorded["waves_per_simd"], recorded["vgpr"]) == (8, 64)
    assert main(["check", "--no-config", "--baseline", str(snapshot), str(kernel)]) == 0
    kernel.write_text(GFX90A + "k:\n v_mov_b32 v64, 0\n s_endpgm\n" + descriptor(vgpr=65))
    capsys.readouterr()
    assert main(["check", "--no-config", "--format", "json", "--baseline", str(snapshot), str(kernel)]) == 1
    (diagnostic,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert diagnostic["name"] == "occupancy-regression"
    assert diagnostic["message"].startswith("occupancy of 'k' fell from 8 to 7 waves/SIMD (VGPR 64 -> 65)")
    assert "free 1 VGPR+AGPR (65 -> 64)" in diagnostic["message"]


# ---------------------------------------------------------------- launch grid

def test_too_few_workgroups(tmp_path, capsys):
    kernel = tmp_path / "k.s"
    kernel.write_text(GFX90A + "k:\n s_endpgm\n" + descriptor())
    assert main(["check", "--no-config", "--format", "json", "--grid", "64", "--device", "MI250X", str(kernel)]) == 1
    (diagnostic,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert diagnostic["message"].startswith("64 work-groups leave 46 of 110 CUs of MI250X idle")
    assert main(["check", "--no-config", "--grid", "1000", "--cus", "110", str(kernel)]) == 0
    assert main(["check", "--no-config", "--grid", "64", str(kernel)]) == 2
    assert main(["check", "--no-config", "--grid", "64", "--device", "MI999", str(kernel)]) == 2


def test_report_json_fields_and_grid(capsys):
    path = FIXTURES / "handwritten" / "tensile_gemm_gfx90a.s"
    assert main(["report", "--no-config", "--format", "json", "--grid", "1024,2", "--device", "MI210", str(path)]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["kernels"]
    expected = {"path", "name", "target", "wave_size", "vgpr", "arch_vgpr", "agpr", "sgpr", "lds_bytes",
                "scratch_bytes", "waves_per_simd", "waves_per_cu", "limiter", "next_step", "what_if"}
    assert expected <= set(kernel)
    assert (kernel["vgpr"], kernel["agpr"], kernel["wg_size"]) == (36, 16, 256)
    assert kernel["waves_per_simd"] == 8 and kernel["limiter"] == ["wave slots"]
    launch = kernel["launch"]
    assert (launch["workgroups"], launch["units"]) == (2048, 104)
    assert launch["workgroups_per_device_wave"] == 104 * 8 and launch["waves_of_workgroups"] == 3


def test_report_text_table_and_plots(tmp_path, capsys):
    path = FIXTURES / "examples" / "compiler" / "mfma_gemm_gfx90a.s"
    assert main(["report", "--no-config", "--wg-size", "768", "--plots", str(tmp_path), str(path)]) == 0
    out = capsys.readouterr().out
    assert "occupancy:     6 of 8 waves/SIMD" in out and "workgroup slots     6  <- limiter" in out
    assert "next step:     use work-groups of 832 work-items (now 768)" in out
    plots = sorted(p.name for p in tmp_path.iterdir())
    assert plots == ["mfma_gemm_gfx90a.mfma_gemm.lds_bytes.svg", "mfma_gemm_gfx90a.mfma_gemm.vgprs.svg",
                     "mfma_gemm_gfx90a.mfma_gemm.wg_size.svg"]
    svg = ElementTree.parse(tmp_path / plots[2]).getroot()
    assert svg.tag.endswith("svg") and "now: 768" in "".join(svg.itertext())


def test_report_gives_peak_pressure_against_the_allocation(tmp_path, capsys):
    """Three VGPRs are live into the first add (v0, v1 and v2, which the second add reads); v3 and v4 later
    make at most two. The descriptor allocates 16; s[0:1] (the store's address) is live until the store."""
    kernel = tmp_path / "k.s"
    kernel.write_text(GFX90A + "k:\n v_mov_b32 v0, 1.0\n v_mov_b32 v1, 2.0\n v_mov_b32 v2, 3.0\n"
                      " v_add_f32 v3, v0, v1\n v_add_f32 v4, v3, v2\n"
                      " global_store_dword v5, v4, s[0:1]\n s_endpgm\n" + descriptor(vgpr=16))
    assert main(["report", "--no-config", "--format", "json", str(kernel)]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    vgpr, sgpr = report["pressure"]["vgpr"], report["pressure"]["sgpr"]
    assert (vgpr["most_live"], vgpr["line"], vgpr["allocated"]) == (4, 6, 16)  # v0, v1, v2 and v5 into the first add
    assert (sgpr["most_live"], sgpr["line"]) == (2, 3)
    assert main(["report", "--no-config", str(kernel)]) == 0
    assert "pressure:      allocates 16 VGPRs, at most 4 live at line 6;" in capsys.readouterr().out


_EXTERN_LDS_IR = """
@dynamic = external addrspace(3) global [0 x i32], align 4
@fixed = addrspace(3) global [4 x i32] poison, align 4
define amdgpu_kernel void @extern_lds(ptr addrspace(1) %out) {
  %p = getelementptr [0 x i32], ptr addrspace(3) @dynamic, i32 0, i32 8
  %v = load i32, ptr addrspace(3) %p
  store i32 %v, ptr addrspace(1) %out
  ret void
}
define amdgpu_kernel void @fixed_lds(ptr addrspace(1) %out, i32 %i) {
  %p = getelementptr [4 x i32], ptr addrspace(3) @fixed, i32 0, i32 %i
  %v = load i32, ptr addrspace(3) %p
  store i32 %v, ptr addrspace(1) %out
  ret void
}
"""


def test_llvm_extern_lds_reads_past_the_static_allocation_quietly(snippet):
    # LLVM 22 places @dynamic after the static LDS and reads it at offset:32 with 0 (or 16) bytes allocated
    assembly = compile_ir(_EXTERN_LDS_IR, "gfx90a")
    assert "offset:32" in assembly and "hidden_dynamic_lds_size" in assembly
    assert [d for d in snippet.lint(assembly).diagnostics if d.name == "lds-budget"] == []
    # the same metadata without the hidden argument says the kernel takes no dynamic LDS
    hidden_removed = assembly.replace(".value_kind:     hidden_dynamic_lds_size", ".value_kind:     hidden_none")
    assert [d.line for d in snippet.lint(hidden_removed).diagnostics if d.name == "lds-budget"] != []


# ---------------------------------------------------------------- issue 40: LDS a listing cannot rule out, AGPR overlap

_LDS_READ_PAIRS = """
@tile = addrspace(3) global [8 x float] poison, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @through_an_argument(ptr addrspace(1) %out, ptr addrspace(3) %lds) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr inbounds float, ptr addrspace(3) %lds, i32 %t
  %x = load float, ptr addrspace(3) %a, align 1
  %t8 = add nsw i32 %t, 8
  %b = getelementptr inbounds float, ptr addrspace(3) %lds, i32 %t8
  %y = load float, ptr addrspace(3) %b, align 1
  %sum = fadd float %x, %y
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %sum, ptr addrspace(1) %o, align 4
  ret void
}
define amdgpu_kernel void @through_a_vector(ptr addrspace(1) %out, <2 x ptr addrspace(3)> %pointers) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = extractelement <2 x ptr addrspace(3)> %pointers, i32 0
  %q = extractelement <2 x ptr addrspace(3)> %pointers, i32 1
  %q8 = getelementptr float, ptr addrspace(3) %q, i32 8
  %x = load float, ptr addrspace(3) %p, align 4
  %y = load float, ptr addrspace(3) %q8, align 4
  %sum = fadd float %x, %y
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %sum, ptr addrspace(1) %o, align 4
  ret void
}
define amdgpu_kernel void @past_the_tile(ptr addrspace(1) %out) {
  %x = load float, ptr addrspace(3) getelementptr inbounds ([8 x float], ptr addrspace(3) @tile, i32 0, i32 9), align 4
  store float %x, ptr addrspace(1) %out, align 4
  ret void
}
"""


def _lds_budget(snippet, listing: str, cpu: str) -> list[tuple[str, str]]:
    return [(str(d.severity), d.message) for d in snippet.lint(listing, mcpu=cpu).diagnostics if d.name == "lds-budget"]


def test_lds_offsets_in_listings_without_code_object_metadata(snippet):
    # LLVM's ds_read2 test compiles for PAL; Mesa and a bare amdgcn triple write no .amdgpu_metadata either
    from conftest import llc_listing

    for triple, cpu in (("amdgcn--amdpal", "bonaire"), ("amdgcn--amdpal", "gfx900"), ("amdgcn-mesa-mesa3d", "gfx900"),
                        ("amdgcn", "gfx900")):
        listing = llc_listing(_LDS_READ_PAIRS, triple, cpu)
        assert ".amdgpu_metadata" not in listing and "offset:36" in listing
        assert _lds_budget(snippet, listing, cpu) == [], (triple, cpu)


def test_lds_pointers_passed_in_a_vector_leave_dynamic_lds_open(snippet):
    for cpu in ("bonaire", "gfx900"):
        listing = compile_ir(_LDS_READ_PAIRS, cpu)
        # before: "ds_read_b32 reaches byte 35 ... kernel 'through_a_vector' allocates 0 bytes of LDS"
        ((severity, message),) = _lds_budget(snippet, listing, cpu)
        # the one real finding: a constant offset past the 32 bytes @tile allocates, no LDS argument at all
        assert severity == "warning" and "reaches byte 39" in message and "'past_the_tile' allocates 32 bytes" in message


def test_llvm_ds_read2_test_draws_no_lds_budget_finding(snippet):
    """LLVM's own ds_read2.ll, where the conformance corpus has it, through llc-22 for its RUN lines."""
    import llvm_conformance
    import pytest
    from conftest import llc_listing

    source = llvm_conformance.CORPUS / "CodeGen" / "ds_read2.ll"
    if not source.is_file():
        pytest.skip(f"{source} is not in the conformance corpus")
    for cpu in ("bonaire", "gfx900"):
        assert _lds_budget(snippet, llc_listing(source.read_text(), "amdgcn--amdpal", cpu), cpu) == [], cpu
        assert _lds_budget(snippet, llc_listing(source.read_text(), "amdgcn-amd-amdhsa", cpu), cpu) == [], cpu


def test_vgpr_in_agpr_storage_overlaps_only_the_agprs_used(snippet):
    def budget(body, vgpr=128, extra=""):
        text = GFX90A + extra + "k:\n" + body + " s_endpgm\n" + descriptor(vgpr=vgpr, accum=64)
        return [(str(d.severity), d.message) for d in snippet.lint(text).diagnostics
                if d.name == "register-budget" and "accum_offset" in d.message]

    agprs = " v_accvgpr_write_b32 a0, 0\n v_accvgpr_write_b32 a1, 0\n"
    # before: "v95 ... shares storage with a31, and the kernel uses AGPRs"
    ((severity, message),) = budget(agprs + " v_mov_b32 v95, 0\n")
    assert severity == "warning" and "the kernel uses only a0-a1, so it overlaps none of them" in message
    assert message.endswith("raise .amdhsa_accum_offset to 96")  # a0-a1 still fit below next_free_vgpr 128
    ((_, message),) = budget(agprs + " v_mov_b32 v95, 0\n", vgpr=97)
    assert message.endswith("raise .amdhsa_accum_offset to 96 and .amdhsa_next_free_vgpr to 98")
    ((severity, message),) = budget(agprs + " v_mov_b32 v65, 0\n")  # a1's storage
    assert severity == "error" and "shares storage with a1, one of a0-a1, which the kernel uses" in message
    # a call: what the callee uses counts; LLVM's resource symbol says how many
    call = " s_swappc_b64 s[30:31], s[4:5]\n v_mov_b32 v95, 0\n"
    ((severity, message),) = budget(call)
    assert severity == "error" and "one of AGPRs it may use through calls" in message
    ((severity, _),) = budget(call, extra=".set k.num_agpr, 2\n")
    assert severity == "warning"
    ((severity, _),) = budget(call, extra=".set k.num_agpr, 40\n")
    assert severity == "error"
