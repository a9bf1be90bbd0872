"""Front-end conformance with llvm-mc 22: one minimal test per way real kernels tripped us.

Each expected value below was checked by assembling the same text with llvm-mc 22
(`llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=...`): what it accepts we accept and read the same way.
"""

from amdgpu_lint.nodes import Reg
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
    from amdgpu_lint.targets import parse_target_id

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
