"""Hand-written kernels in the style of Tensile, MISA and MIOpen parse cleanly and correctly."""

import shutil

import pytest
from conftest import FIXTURES, names

HANDWRITTEN = FIXTURES / "handwritten"


@pytest.mark.parametrize("name", sorted(p.name for p in HANDWRITTEN.iterdir() if p.suffix in (".s", ".S")))
def test_fixture_is_clean(name, snippet):
    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend.options import BuildOptions
    from amdgpu_lint.rules import RULES

    result = lint_file(HANDWRITTEN / name, BuildOptions(), list(RULES))
    assert result.diagnostics == []
    assert result.module.kernels and all(k.instructions for k in result.module.kernels)


def build(name):
    from amdgpu_lint.frontend.builder import build_module
    from amdgpu_lint.frontend.options import BuildOptions
    from amdgpu_lint.frontend.source import read_source

    return build_module(read_source(HANDWRITTEN / name), BuildOptions())


def test_tensile_style_registers_macros_and_unroll():
    module = build("tensile_gemm_gfx90a.s")
    (kernel,) = module.kernels
    mnemonics = [i.mnemonic for i in kernel.instructions]
    assert mnemonics.count("v_mfma_f32_32x32x8f16") == 4  # 2 MAC_32x32 per pass x UnrollDepth 2
    assert mnemonics.count("buffer_load_dwordx4") == 4
    assert mnemonics.count("v_accvgpr_write_b32") == 16  # .irp over 4 groups of 4
    mfma = next(i for i in kernel.instructions if i.mnemonic == "v_mfma_f32_32x32x8f16")
    assert [str(op) for op in mfma.operands] == ["a[0:15]", "v[4:5]", "v[8:9]", "a[0:15]"]
    srd = [i for i in kernel.instructions if i.mnemonic == "s_mov_b32"][:4]
    assert [str(i.operands[0]) for i in srd] == ["s12", "s13", "s14", "s15"]
    assert srd[3].operands[1].value == 0x00020000  # gfx9 branch of the header's .if
    # descriptor values computed from .set symbols
    assert kernel.descriptor["next_free_vgpr"] == 36 and kernel.descriptor["accum_offset"] == 20
    # provenance: the MFMA line is the macro body line, reached through .rept then the macro
    assert mfma.where.path.endswith("tensile_gemm_gfx90a.s") and mfma.where.line == 37
    assert [step.kind for step in mfma.where.chain] == ["macro", "rept"]
    header_line = next(i for i in kernel.instructions if i.mnemonic == "v_addc_co_u32")
    assert header_line.where.path.endswith("tensile_common.inc")


def test_misa_style_dot_macros_and_unique_labels():
    module = build("misa_igemm_gfx908.s")
    (kernel,) = module.kernels
    mnemonics = [i.mnemonic for i in kernel.instructions]
    assert mnemonics.count("v_mov_b32") >= 16 + 2
    assert "v_accvgpr_write_b32" in mnemonics  # gfx908: generation 9, stepping 8
    assert any(label.startswith("L_loop_down_") for label in kernel.labels)
    assert kernel.descriptor["next_free_vgpr"] == 28 and kernel.descriptor["next_free_sgpr"] == 14
    assert kernel.descriptor["group_segment_fixed_size"] == 16384


def test_miopen_legacy_kernel_code_t():
    (kernel,) = build("miopen_legacy_gfx906.s").kernels
    assert kernel.is_kernel and kernel.kernel_code_t["workitem_vgpr_count"] == 12
    assert kernel.kernel_code_t["wavefront_sgpr_count"] == 16


def test_cpp_style_file():
    (kernel,) = build("cpp_style_gfx1100.S").kernels
    multiply = next(i for i in kernel.instructions if i.mnemonic == "v_mul_f32")
    assert multiply.operands[1].value == 4


def test_error_inside_header_macro_reports_header_line_and_chain(snippet, tmp_path):
    for path in HANDWRITTEN.iterdir():
        shutil.copy(path, tmp_path / path.name)
    header = tmp_path / "tensile_common.inc"
    header.write_text(header.read_text().replace("v_mov_b32 v[\\vtmp], s[\\sbase+1]", "v_mov_b32 v[\\vtmp], s[\\sbase+1], +"))
    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend.options import BuildOptions
    from amdgpu_lint.rules import RULES

    result = lint_file(tmp_path / "tensile_gemm_gfx90a.s", BuildOptions(), list(RULES))
    assert names(result) == ["parse-error"]
    (diagnostic,) = result.diagnostics
    assert diagnostic.path.endswith("tensile_common.inc") and diagnostic.line == 22
    first = diagnostic.notes[0]
    assert first.message == "in expansion of macro '_v_add_addr64'"
    assert first.path.endswith("tensile_gemm_gfx90a.s") and first.line == 78
