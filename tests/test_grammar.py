"""The statement grammar: every operand form LLVM 22 and hand-written kernels use."""

import pytest
from amdgpu_lint.frontend.syntax import ParseFailure, parse_expressions, parse_statement
from amdgpu_lint.model.nodes import Abs, BinOp, Call, ListExpr, LocalRef, Num, Reg, RegExpr, SpecialReg, Str, Sym, UnOp


def instruction(text):
    statement = parse_statement(text)
    assert not isinstance(statement, ParseFailure), statement
    assert statement.kind == "instruction"
    return statement


@pytest.mark.parametrize(
    "text, operands",
    [
        ("s_load_dwordx2 s[0:1], s[4:5], 0x0", (Reg("s", 0, 2), Reg("s", 4, 2), Num(0))),
        ("v_mov_b32 v0, acc[0:3]", (Reg("v", 0), Reg("a", 0, 4))),
        ("v_accvgpr_write_b32 a15, 0", (Reg("a", 15), Num(0))),
        ("s_mov_b32 ttmp4, s0", (Reg("ttmp", 4), Reg("s", 0))),
        ("s_and_b64 exec, exec, vcc", (SpecialReg("exec"), SpecialReg("exec"), SpecialReg("vcc"))),
        ("s_mov_b32 m0, -1", (SpecialReg("m0"), Num(-1))),
        ("v_cndmask_b32_e64 v0, 0, 1, s[0:1]", (Reg("v", 0), Num(0), Num(1), Reg("s", 0, 2))),
        ("s_mov_b32 flat_scratch_lo, s12", (SpecialReg("flat_scratch_lo"), Reg("s", 12))),
        ("s_mov_b64 s[0:1], src_shared_base", (Reg("s", 0, 2), SpecialReg("src_shared_base"))),
        ("s_mov_b32 s0, xnack_mask_lo", (Reg("s", 0), SpecialReg("xnack_mask_lo"))),
        ("v_mov_b32 v0, 0b1011", (Reg("v", 0), Num(11))),
        ("v_mov_b32 v0, 1.5", (Reg("v", 0), Num(1.5))),
        ("v_mov_b32 v0, -2.5e-3", (Reg("v", 0), Num(-0.0025))),
        ("s_mov_b32 s0, (1 << 5) | 3", (Reg("s", 0), Num(35))),
        ("s_mov_b32 s0, 2 + 3 * 4", (Reg("s", 0), Num(14))),
        ("s_add_u32 s0, s0, sym@rel32@lo+4", (Reg("s", 0), Reg("s", 0), BinOp("+", Sym("sym@rel32@lo"), Num(4)))),
        ("s_branch .LBB0_2", (Sym(".LBB0_2"),)),
        ("s_mov_b32 s0, .LBB0_2-.Ltmp0", (Reg("s", 0), BinOp("-", Sym(".LBB0_2"), Sym(".Ltmp0")))),
        ("s_branch 1b", (LocalRef(1, False),)),
        ("v_add_f16 v0.l, v1.h, v2.l", (Reg("v", 0, 1, "l"), Reg("v", 1, 1, "h"), Reg("v", 2, 1, "l"))),
        ("s_mov_b64 s[0:1], [s2, s3]", (Reg("s", 0, 2), ListExpr((Reg("s", 2), Reg("s", 3))))),
        ("v_mov_b32 v[vgprA+1], 0", (RegExpr("v", BinOp("+", Sym("vgprA"), Num(1)), None), Num(0))),
        ("v_mov_b32 v[2+2], 0", (Reg("v", 4), Num(0))),
    ],
)
def test_operands(text, operands):
    assert instruction(text).operands == operands


def test_operand_modifiers():
    statement = instruction("v_add_f32_e64 v0, -|v1|, |v2| clamp")
    assert statement.operands[1] == UnOp("-", Abs(Reg("v", 1)))
    assert statement.operands[2] == Abs(Reg("v", 2))
    assert statement.modifiers == (("clamp", None),)
    statement = instruction("v_fma_f32 v0, neg(v1), abs(v2), sext(v3)")
    assert [op.name for op in statement.operands[1:]] == ["neg", "abs", "sext"]


@pytest.mark.parametrize(
    "text, modifiers",
    [
        ("global_load_dword v1, v0, s[0:1] offset:16 glc slc", (("offset", Num(16)), ("glc", None), ("slc", None))),
        ("global_load_dwordx4 v[0:3], v4, s[0:1] sc0 sc1 nt", (("sc0", None), ("sc1", None), ("nt", None))),
        ("buffer_load_dword v1, v2, s[4:7], 0 offen offset:4 lds", (("offen", None), ("offset", Num(4)), ("lds", None))),
        ("buffer_load_dword v1, v2, s[4:7], 0 idxen glc dlc", (("idxen", None), ("glc", None), ("dlc", None))),
        ("buffer_inv sc0 sc1", (("sc0", None), ("sc1", None))),
        ("v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0] neg_lo:[1,0,0]",
         (("op_sel", ListExpr((Num(0), Num(1), Num(0)))), ("neg_lo", ListExpr((Num(1), Num(0), Num(0)))))),
        ("v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
         (("row_shr", Num(1)), ("row_mask", Num(15)), ("bank_mask", Num(15)))),
        ("v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3]", (("quad_perm", ListExpr((Num(0), Num(1), Num(2), Num(3)))),)),
        ("v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0] fi:1",
         (("dpp8", ListExpr(tuple(Num(n) for n in (7, 6, 5, 4, 3, 2, 1, 0)))), ("fi", Num(1)))),
        ("v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:1 abid:0 blgp:0",
         (("cbsz", Num(1)), ("abid", Num(0)), ("blgp", Num(0)))),
        ("v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0",
         (("dst_sel", Sym("WORD_1")), ("dst_unused", Sym("UNUSED_PAD")), ("src0_sel", Sym("BYTE_0")))),
        ("ds_read2_b32 v[0:1], v2 offset0:1 offset1:2", (("offset0", Num(1)), ("offset1", Num(2)))),
    ],
)
def test_instruction_modifiers(text, modifiers):
    assert instruction(text).modifiers == modifiers


@pytest.mark.parametrize(
    "text, operands",
    [
        ("s_waitcnt vmcnt(0) & lgkmcnt(1)", (BinOp("&", Call("vmcnt", (Num(0),)), Call("lgkmcnt", (Num(1),))),)),
        ("s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)",
         (Call("vmcnt", (Num(0),)), Call("expcnt", (Num(0),)), Call("lgkmcnt", (Num(0),)))),
        ("s_waitcnt 0x3f70", (Num(0x3F70),)),
        ("s_wait_loadcnt 0x1", (Num(1),)),
        ("s_waitcnt_vscnt null, 0", (SpecialReg("null"), Num(0))),
        ("s_waitcnt_depctr depctr_va_vdst(0)", (Call("depctr_va_vdst", (Num(0),)),)),
    ],
)
def test_wait_syntax(text, operands):
    assert instruction(text).operands == operands


def test_encoding_suffixes_and_case():
    for text in ("v_add_f32_e32 v0, v1, v2", "v_add_f32_e64 v0, v1, v2", "V_ADD_F32_SDWA v0, v1, v2", "v_add_f32_dpp v0, v1, v2"):
        assert instruction(text).name == text.split()[0].lower()


def test_vopd_dual_issue():
    statement = instruction("v_dual_add_f32 v1, v1, v1 :: v_dual_mov_b32 v0, v2")
    assert statement.name == "v_dual_add_f32"
    assert statement.pair.name == "v_dual_mov_b32"
    assert statement.pair.operands == (Reg("v", 0), Reg("v", 2))


def test_labels_directives_assignments():
    statement = parse_statement("k: .LBB0_1: s_endpgm")
    assert statement.labels == ("k", ".LBB0_1") and statement.name == "s_endpgm"
    assert parse_statement("1:").labels == ("1",)
    directive = parse_statement('.section .rodata,"a",@progbits')
    assert (directive.kind, directive.name, directive.args) == ("directive", ".section", '.rodata,"a",@progbits')
    assert parse_statement(".Lx = 5").kind == "assignment"


def test_expression_lists():
    assert parse_expressions('max(1, 2), "x", a+1') == (Call("max", (Num(1), Num(2))), Str("x"), BinOp("+", Sym("a"), Num(1)))
    assert parse_expressions("") == ()


@pytest.mark.parametrize(
    "text, column, words",
    [
        ("v_add_f32 v0, v1, +", 20, "end of statement"),  # a trailing comma alone is fine
        ("v_add_f32 v0, @", 15, "'@'"),
        ("s_mov_b32 s0, (1 + 2", 21, "end of statement"),
        ("v_mov_b32 v[0:1", 16, "end of statement"),
    ],
)
def test_parse_failures_say_where_and_what(text, column, words):
    failure = parse_statement(text)
    assert isinstance(failure, ParseFailure)
    assert failure.column == column
    assert words in failure.message


def test_parse_is_memoized():
    assert parse_statement("v_mov_b32 v7, v8") is parse_statement("v_mov_b32 v7, v8")


def test_operand_register_looks_through_modifiers_and_lists():
    from amdgpu_lint.model.nodes import operand_register

    statement = instruction("v_fma_f32 v0, -|v1|, neg(v2), [v3]")
    assert [operand_register(op) for op in statement.operands] == [Reg("v", 0), Reg("v", 1), Reg("v", 2), Reg("v", 3)]
    assert operand_register(instruction("s_mov_b64 s[0:1], [s2, s3]").operands[1]) == Reg("s", 2, 2)
    assert operand_register(instruction("s_mov_b64 s[0:1], [s2, s4]").operands[1]) is None
    assert operand_register(instruction("s_mov_b32 s0, 5").operands[1]) is None


READER_TEXTS = [
    "s_load_dwordx4 s[16:19], s[4:5], 0x0", "v_fma_f32 v5, -v3, v1, v0", "v_add_f32_e64 v0, -|v1|, |v2| clamp",
    "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)", "s_waitcnt vmcnt(0) & lgkmcnt(1)", "s_add_u32 s20, s20, f@rel32@lo+4",
    "global_load_dword v1, v0, s[0:1] offset:-16 glc slc", "v_pk_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0]",
    "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf", "s_mov_b32 s0, (1 << 5) | 3 ^ ~2", "v_mov_b32 v0, 1.5e-3",
    "s_branch 1b", "v_mov_b32 v[vgprA+1:vgprA+2], 0", "s_mov_b64 s[0:1], [s2, s3]", "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 2)",
    "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf a16", "k: .LBB0_1: s_endpgm", "1:", ".p2align\t8",
    '.section .rodata,"a",@progbits', "v_cmp_gt_f32_e32 vcc, s0, v0", "s_nop 0,", "v_mov_b32 v0, 010",
]
GRAMMAR_TEXTS = [
    "v_dual_add_f32 v1, v1, v1 :: v_dual_mov_b32 v0, v2", ".Lx = 5", "s_mov_b32 s0, a || b", "s_sendmsg \"x\"",
    "v_add_f32 v0, v1, +", "v_mov_b32 v[0:1", "s_mov_b32 s0, 0x1g", "s_mov_b32 s0, 1 == 2", ".2byte 1", '"a b": s_nop 0',
]


def test_the_hand_written_reader_builds_what_the_grammar_builds():
    """The reader takes compiler-shaped statements and gives up on the rest; where it reads, the grammar agrees."""
    from amdgpu_lint.frontend.grammar import grammar_expressions, grammar_statement
    from amdgpu_lint.frontend.syntax import _read_expressions, _read_statement

    for text in READER_TEXTS:
        read = _read_statement(text)
        assert read is not None, text
        assert read == grammar_statement(text), text
    for text in GRAMMAR_TEXTS:
        assert _read_statement(text) is None, text
    for text in ("max(32, .Lf.num_vgpr)", "80+max(x)", "or(1, y), 2", ""):
        assert _read_expressions(text) == grammar_expressions(text), text
    assert _read_expressions('"x", 1') is None


def test_compiler_output_never_loads_the_grammar():
    """Lark (and the grammar's tables) are loaded only for statements the reader leaves: a cold start pays nothing."""
    import subprocess
    import sys
    from pathlib import Path

    listing = Path(__file__).resolve().parent.parent / "fixtures" / "examples" / "handwritten" / "copy_loop_gfx90a.s"
    script = ("import sys; from amdgpu_lint.frontend.source import read_source; "
              "from amdgpu_lint.frontend.builder import build_module; from amdgpu_lint.frontend.options import BuildOptions; "
              f"build_module(read_source({str(listing)!r}), BuildOptions()); print('lark' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout == "False\n"


def test_unusual_text_is_any_character_outside_printable_ascii_and_tab():
    """`is_unusual` reads characters by `isascii`/`isprintable`: the same texts as the class `[^\\t -~]` finds, for
    every character up to U+017F alone and between ordinary text, and VOPD's `::` and the `||`/`&&` operators."""
    import re

    from amdgpu_lint.frontend.syntax import is_unusual

    outside = re.compile(r"[^\t -~]")
    for code in range(0x180):
        for text in (chr(code), f"v_mov_b32\tv0, {chr(code)}v1", f"s_nop {chr(code)}"):
            assert is_unusual(text) == (outside.search(text) is not None), repr(text)
    assert not is_unusual("")
    assert [is_unusual(text) for text in ("v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v2, v3", "s_mov_b32 s0, 1 || 2",
                                          "s_mov_b32 s0, 1 && 2", "s_mov_b32 s0, 1 | 2")] == [True, True, True, False]
