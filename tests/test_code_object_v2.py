"""Code object v2 kernels as the LLVM of their day read them (MIOpen's assembly, older Tensile).

What LLVM 14 and LLVM 22 do was probed with llvm-mc-14 and llvm-mc-22; where they are installed, the
tests that depend on it also ask them again."""

import shutil
import subprocess

import pytest
from conftest import names

V2_HEADER = '.hsa_code_object_version 2,1\n.hsa_code_object_isa\n'


def _mc(version: int, path, mcpu: str, v2: bool) -> subprocess.CompletedProcess[str]:
    tool = shutil.which(f"llvm-mc-{version}")
    if tool is None:
        pytest.skip(f"llvm-mc-{version} is not installed")
    flags = ["--amdhsa-code-object-version=2"] if v2 else []
    return subprocess.run([tool, "-triple", "amdgcn-amd-amdhsa", f"-mcpu={mcpu}", *flags, str(path)],
                          capture_output=True, text=True, check=False)


def errors(result):
    return [(d.name, d.line) for d in result.diagnostics if d.severity.name == "ERROR"]


# ---------------------------------------------------------------- .option.machine_version_*

MACHINE_VERSION = V2_HEADER + """\
.if .option.machine_version_major == 9 && .option.machine_version_minor == 0
  .if .option.machine_version_stepping != 6
    .error "not gfx906"
  .endif
.else
  .error "not gfx9"
.endif
.text
k:
  s_endpgm
"""


def test_v2_file_has_the_machine_version_symbols(snippet):
    result = snippet.lint(MACHINE_VERSION, mcpu="gfx906")
    assert errors(result) == []
    # the other target takes the other branch, as LLVM 14 does: the symbols follow the target
    assert errors(snippet.lint(MACHINE_VERSION, mcpu="gfx803")) == [("parse-error", 8)]


def test_machine_version_symbols_only_for_v2_files(snippet):
    # an amdhsa file of code object v3+ has `.amdgcn.gfx_generation_*` instead (LLVM 14 and 22 alike)
    text = '.amdgcn_target "amdgcn-amd-amdhsa--gfx906"\n' + MACHINE_VERSION.split("\n", 2)[2]
    result = snippet.lint(text)
    assert ("parse-error", 2) in errors(result) and "machine_version" in result.diagnostics[0].message


def test_llvm14_defines_the_machine_version_in_v2_mode(snippet):
    path = snippet.write(MACHINE_VERSION.replace(V2_HEADER, ""))
    assert _mc(14, path, "gfx906", v2=True).returncode == 0
    assert "not gfx9" in _mc(14, path, "fiji", v2=True).stderr
    assert "expected absolute expression" in _mc(14, path, "gfx906", v2=False).stderr


# ---------------------------------------------------------------- .altmacro parameters named like keywords

S_WAIT = """\
.altmacro
.macro s_wait vmcnt=63, lgkmcnt=63
  vm_cnt = \\vmcnt
  lgkm_cnt = \\lgkmcnt
  s_waitcnt vmcnt(0 + vm_cnt) & lgkmcnt(0 + lgkm_cnt)
.endm
.text
k:
  s_load_dword s2, s[0:1], 0
  s_wait 0, 0
  s_add_u32 s3, s2, 1
  s_endpgm
"""
S_WAIT_FIXED = S_WAIT.replace("vmcnt=63, lgkmcnt=63", "vm=63, lgkm=63").replace("\\vmcnt", "\\vm").replace(
    "\\lgkmcnt", "\\lgkm")
GFX8 = '.amdgcn_target "amdgcn-amd-amdhsa--gfx803"\n'


def test_keyword_named_parameters_are_an_error_under_llvm22(snippet):
    result = snippet.lint(GFX8 + S_WAIT)
    (error,) = [d for d in result.diagnostics if d.name == "parse-error"]
    assert error.line == 6  # the s_waitcnt line of the macro body
    assert "'vmcnt(' became '0('" in error.message and "'lgkmcnt(' became '0('" in error.message
    assert "s_waitcnt 0(0 + vm_cnt) & 0(0 + lgkm_cnt)" in error.message and "llvm14" in error.message
    assert "s_waitcnt" not in [i.mnemonic for i in result.module.kernels[0].instructions]  # not read as numbers


def test_renamed_parameters_are_quiet(snippet):
    result = snippet.lint(GFX8 + S_WAIT_FIXED)
    assert result.diagnostics == []


def test_assembler_compat_llvm14_reads_only_backslash_parameters(snippet):
    result = snippet.lint(GFX8 + S_WAIT, assembler_compat="llvm14")
    assert result.diagnostics == []  # the wait is read, and covers the load
    assert "s_waitcnt" in [i.mnemonic for i in result.module.kernels[0].instructions]


def test_v2_files_read_as_llvm14_by_default(snippet):
    result = snippet.lint(V2_HEADER + S_WAIT, mcpu="gfx803")
    assert "parse-error" not in names(result)
    # unless the configuration asks for LLVM 22's reading
    result = snippet.lint(V2_HEADER + S_WAIT, mcpu="gfx803", assembler_compat="llvm22")
    assert "parse-error" in names(result)


def test_the_v2_directive_decides_when_it_is_assembled(snippet):
    # MIOpen keeps `.hsa_code_object_isa` under `.if ROCM_METADATA_VERSION == 4`: with 5 the file is not v2
    text = ".if METADATA == 4\n" + V2_HEADER + ".endif\n" + S_WAIT
    assert "parse-error" not in names(snippet.lint(text, mcpu="gfx803", defsyms={"METADATA": 4}))
    assert "parse-error" in names(snippet.lint(text, mcpu="gfx803", defsyms={"METADATA": 5}))


def test_llvm_versions_disagree_on_bare_parameters(snippet):
    path = snippet.write(GFX8 + S_WAIT)
    new = _mc(22, path, "fiji", v2=False)
    assert "s_waitcnt 0(0 + vm_cnt) & 0(0 + lgkm_cnt)" in new.stderr and new.returncode != 0
    old = _mc(14, path, "fiji", v2=False)
    assert old.returncode == 0 and "s_waitcnt vmcnt(0) lgkmcnt(0)" in old.stdout


# ---------------------------------------------------------------- .amd_kernel_code_t allocates the registers

KERNEL_CODE = """\
.amdgcn_target "amdgcn----gfx803"
.text
.globl k
.p2align 8
.amdgpu_hsa_kernel k
k:
  .amd_kernel_code_t
    enable_sgpr_kernarg_segment_ptr = 1
    is_ptr64 = 1
    compute_pgm_rsrc1_vgprs = 15
    compute_pgm_rsrc1_sgprs = 1
    workitem_vgpr_count = 64
    wavefront_sgpr_count = 16
    kernarg_segment_byte_size = 8
  .end_amd_kernel_code_t
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32 v4, 0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, s2
  v_mov_b32 v3, s3
  flat_store_dword v[2:3], v4
  s_endpgm
"""
KERNEL_CODE_FIXED = (KERNEL_CODE.replace("rsrc1_vgprs = 15", "rsrc1_vgprs = 1").replace("vgpr_count = 64", "vgpr_count = 5")
                     .replace("rsrc1_sgprs = 1", "rsrc1_sgprs = 0").replace("sgpr_count = 16", "sgpr_count = 8"))


def test_kernel_code_t_is_the_allocation(snippet):
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.analyses.resources import ResourceAnalysis

    result = snippet.lint(KERNEL_CODE)
    (warning,) = result.diagnostics
    assert (warning.name, warning.line) == ("register-budget", 10)  # compute_pgm_rsrc1_vgprs = 15
    assert "64 VGPRs declared, 5 used" in warning.message and "occupancy 4 instead of 10" in warning.message
    (kernel,) = result.module.kernels
    resources = AnalysisManager(result.module, kernel).get(ResourceAnalysis)
    assert (resources.allocated_vgprs, resources.allocated_sgprs) == (64, 16)
    assert resources.occupancy.waves_per_simd == 4  # 256 VGPRs / 64 on gfx8


def test_kernel_code_t_fitting_allocation_is_quiet(snippet):
    assert snippet.lint(KERNEL_CODE_FIXED).diagnostics == []


def test_granulated_count_alone_and_as_the_whole_word(snippet):
    from amdgpu_lint.analyses.resources import kernel_code_allocation
    from amdgpu_lint.model.targets import parse_target_id

    gfx8, gfx10 = parse_target_id("gfx803"), parse_target_id("gfx1030")
    assert kernel_code_allocation(gfx8, {"compute_pgm_rsrc1_vgprs": 15}, 64) == (64, None)
    assert kernel_code_allocation(gfx8, {"compute_pgm_rsrc1": 0x2C0 | 3}, 64) == (16, 96)  # 3 -> 16; 11 -> 96
    assert kernel_code_allocation(gfx8, {"workitem_vgpr_count": 12, "compute_pgm_rsrc1_vgprs": 1}, 64) == (12, None)
    assert kernel_code_allocation(gfx10, {"compute_pgm_rsrc1_vgprs": 1, "compute_pgm_rsrc1_sgprs": 5}, 32) == (16, None)


def test_register_above_the_kernel_code_t_allocation(snippet):
    text = KERNEL_CODE_FIXED.replace("v4", "v9")
    result = snippet.lint(text)
    (error,) = result.diagnostics
    assert (error.name, error.line) == ("register-budget", 17)
    assert "wave owns v0-v7: its .amd_kernel_code_t allocates 8 VGPRs" in error.message


# ---------------------------------------------------------------- metadata against the descriptor and the code

V2_METADATA = """\
.amdgcn_target "amdgcn----gfx906"
.text
.globl k
.p2align 8
.amdgpu_hsa_kernel k
k:
  .amd_kernel_code_t
    enable_sgpr_kernarg_segment_ptr = 1
    is_ptr64 = 1
    compute_pgm_rsrc1_vgprs = 0
    workitem_vgpr_count = 2
    workgroup_group_segment_byte_size = 7040
    kernarg_segment_byte_size = 8
  .end_amd_kernel_code_t
  v_mov_b32 v1, 0
  ds_write_b32 v1, v1 offset:7036
  s_endpgm
.amd_amdgpu_hsa_metadata
{ Version: [ 1, 0 ],
  Kernels:
    - { Name: k, SymbolName: 'k@kd', Language: OpenCL C, LanguageVersion: [ 1, 2 ],
        Attrs:
          { ReqdWorkGroupSize: [ 64, 1, 1 ] }
        CodeProps:
          { KernargSegmentSize: 8, GroupSegmentFixedSize: 0, PrivateSegmentFixedSize: 0, KernargSegmentAlign: 8, WavefrontSize: 64, MaxFlatWorkGroupSize: 64 }
        Args:
        - { Name: p, Size: 8, Align: 8, ValueKind: GlobalBuffer, ValueType: F32, TypeName: 'float*', AddrSpaceQual: Global, AccQual: Default }
      }
}
.end_amd_amdgpu_hsa_metadata
"""


def test_v2_metadata_lds_below_the_descriptor(snippet):
    result = snippet.lint(V2_METADATA)
    (error,) = result.diagnostics
    assert (error.name, error.line, error.column) == ("metadata-mismatch", 25, 36)  # GroupSegmentFixedSize: 0
    assert "GroupSegmentFixedSize is 0, but .amd_kernel_code_t's workgroup_group_segment_byte_size is 7040; a ds_* " \
        "offset (line 16) reaches byte 7039" in error.message


def test_v2_metadata_lds_with_no_descriptor_figure_is_left_alone(snippet):
    # the ds_* offsets alone cannot tell static LDS from LDS sized at launch
    text = V2_METADATA.replace("    workgroup_group_segment_byte_size = 7040\n", "")
    assert snippet.lint(text).diagnostics == []


def test_v2_metadata_that_agrees_is_quiet(snippet):
    assert snippet.lint(V2_METADATA.replace("GroupSegmentFixedSize: 0", "GroupSegmentFixedSize: 7040")).diagnostics == []


def test_v2_code_props_reader_takes_kernel_entries_not_arguments():
    from amdgpu_lint.frontend.metadata import read_v2_code_props

    block = V2_METADATA.split(".amd_amdgpu_hsa_metadata\n")[1]
    assert read_v2_code_props(block) == {"k": {"GroupSegmentFixedSize": (0, 6, 36), "PrivateSegmentFixedSize": (0, 6, 62)}}


def test_llvm14_reads_the_v2_metadata_style(snippet):
    text = V2_HEADER + V2_METADATA.replace('.amdgcn_target "amdgcn----gfx906"\n', "")
    path = snippet.write(text)
    assert _mc(14, path, "gfx906", v2=True).returncode == 0


V3_METADATA = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
  v_mov_b32 v1, 0
  ds_write_b32 v1, v1 offset:4092
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_group_segment_fixed_size 4096
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .args:           []
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 256
    .name:           k
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .symbol:         k.kd
    .vgpr_count:     12
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
"""


def test_v3_metadata_against_amdhsa_directives(snippet):
    result = snippet.lint(V3_METADATA)
    assert [(d.name, d.line, d.severity.name) for d in result.diagnostics] == [
        ("metadata-mismatch", 23, "ERROR"),  # .group_segment_fixed_size: 1024 against 4096
        ("metadata-mismatch", 31, "WARNING"),  # .vgpr_count: 12 against .amdhsa_next_free_vgpr 8
    ]
    assert ".amdhsa_group_segment_fixed_size is 4096" in result.diagnostics[0].message


def test_v3_metadata_that_agrees_is_quiet(snippet):
    text = V3_METADATA.replace("segment_fixed_size: 1024", "segment_fixed_size: 4096").replace(
        ".vgpr_count:     12", ".vgpr_count:     8")
    assert snippet.lint(text).diagnostics == []


def test_assembler_compat_in_the_configuration(tmp_path, capsys):
    from amdgpu_lint.cli import main
    from amdgpu_lint.driver.config import find_config

    (tmp_path / "k.s").write_text(GFX8 + S_WAIT)
    find_config.cache_clear()
    assert main(["check", "--no-cache", str(tmp_path / "k.s")]) == 1  # LLVM 22's reading: the parse error
    (tmp_path / ".amdgpu-lint.toml").write_text('assembler-compat = "llvm14"\n')
    find_config.cache_clear()
    assert main(["check", "--no-cache", str(tmp_path / "k.s")]) == 0
    (tmp_path / ".amdgpu-lint.toml").write_text('assembler-compat = "gas"\n')
    find_config.cache_clear()
    assert main(["check", "--no-cache", str(tmp_path / "k.s")]) == 2
    assert "'assembler-compat' must be one of 'llvm14', 'llvm22'" in capsys.readouterr().err
    find_config.cache_clear()
