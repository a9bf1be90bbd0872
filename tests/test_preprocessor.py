"""GNU-as preprocessing: macros, repetition, conditionals, symbols, includes and provenance."""

import amdgpu_lint.frontend.preprocessor as preprocessor_module
import pytest
from amdgpu_lint.frontend.preprocessor import split_macro_arguments
from amdgpu_lint.frontend.source import split_lines
from amdgpu_lint.model.nodes import Reg, Statement, Sym
from conftest import names

HEADER = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n'


def code(module):
    """Instructions of all kernels as text-like tuples (mnemonic, operands...)."""
    return [
        (i.mnemonic, *(str(op) for op in i.operands))
        for kernel in module.kernels
        for i in kernel.instructions
    ]


def findings(module):
    return [(f.rule, f.where.line, f.message) for f in module.findings]


def test_macro_named_default_and_keyword_arguments(snippet):
    module = snippet.build(HEADER + """
        .macro MOVE dst, src=7, extra=0
            v_mov_b32 v[\\dst], \\src
        .endm
        MOVE 1, 2
        MOVE 3
        MOVE src=5, dst=4
        MOVE 6 9
    """)
    assert code(module) == [("v_mov_b32", "v1", "Num(value=2)"), ("v_mov_b32", "v3", "Num(value=7)"),
                            ("v_mov_b32", "v4", "Num(value=5)"), ("v_mov_b32", "v6", "Num(value=9)")]
    assert findings(module) == []


def test_macro_vararg_unique_label_and_separator(snippet):
    module = snippet.build(HEADER + """
        .macro LOOP name, rest:vararg
        L_\\name\\()_\\@:
            s_nop 0
            s_cbranch_scc1 L_\\name\\()_\\@
            \\rest
        .endm
        LOOP a, v_mov_b32 v0, v1
        LOOP b, s_endpgm
    """)
    kernel = module.kernels[0]
    labels = sorted(kernel.labels)
    assert len(labels) == 2 and labels[0].startswith("L_a_") and labels[1].startswith("L_b_")
    assert [i.mnemonic for i in kernel.instructions] == ["s_nop", "s_cbranch_scc1", "v_mov_b32", "s_nop", "s_cbranch_scc1", "s_endpgm"]
    assert kernel.instructions[2].operands == (Reg("v", 0), Reg("v", 1))


def test_macro_required_argument_missing(snippet):
    module = snippet.build(HEADER + """
        .macro NEEDS x:req
            v_mov_b32 v[\\x], 0
        .endm
        NEEDS
    """)
    assert [(rule, line) for rule, line, _ in findings(module)] == [("parse-error", 6)]


def test_dot_named_macros_shadow_nothing_else(snippet):
    module = snippet.build(HEADER + """
        .macro .v_clear v, n
            .rept \\n
                v_mov_b32 v[\\v], 0
            .endr
        .endm
        .v_clear 3, 2
    """)
    assert code(module) == [("v_mov_b32", "v3", "Num(value=0)")] * 2


def test_rept_irp_irpc(snippet):
    module = snippet.build(HEADER + """
        .set i, 0
        .rept 3
            v_mov_b32 v[i], i
            .set i, i + 1
        .endr
        .irp r, 10, 12
            s_mov_b32 s[\\r], 0
        .endr
        .irpc c, 45
            v_mov_b32 v\\c, 0
        .endr
    """)
    assert [ops[1] for ops in code(module)] == ["v0", "v1", "v2", "s10", "s12", "v4", "v5"]


def test_nested_rept_inside_macro(snippet):
    module = snippet.build(HEADER + """
        .macro TILE rows, cols
            .rept \\rows
                .rept \\cols
                    s_nop 0
                .endr
            .endr
        .endm
        TILE 3, 4
    """)
    assert len(code(module)) == 12


def test_conditionals(snippet):
    module = snippet.build(HEADER + """
        .set FLAG, 2
        .if FLAG == 1
            s_nop 1
        .elseif FLAG == 2
            s_nop 2
        .else
            s_nop 3
        .endif
        .ifdef FLAG
            s_nop 4
        .endif
        .ifndef NOPE
            s_nop 5
        .endif
        .ifeq FLAG - 2
            s_nop 6
        .endif
        .ifgt FLAG
            s_nop 7
        .endif
        .iflt FLAG
            s_nop 8
        .endif
        .ifc abc, abc
            s_nop 9
        .endif
        .ifnb
            s_nop 10
        .endif
        .if 0
            .if 1
                s_nop 11
            .else
                s_nop 12
            .endif
        .endif
    """)
    assert [ops[1] for ops in code(module)] == [f"Num(value={n})" for n in (2, 4, 5, 6, 7, 9)]


def test_generation_symbols_follow_the_target(snippet):
    text = """
        .if .amdgcn.gfx_generation_number == 9 && .amdgcn.gfx_generation_stepping == 10
            s_nop 1
        .elseif .amdgcn.gfx_generation_number >= 11
            s_nop 2
        .else
            s_nop 3
        .endif
    """
    assert code(snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n' + text))[0][1] == "Num(value=1)"
    assert code(snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"\n' + text))[0][1] == "Num(value=2)"
    assert code(snippet.build(text, mcpu="gfx942"))[0][1] == "Num(value=3)"


def test_set_equ_assignment_and_defsym(snippet):
    module = snippet.build(HEADER + """
        .set a, 4
        .equ b, a * 2
        c = b + 1
        v_mov_b32 v[a], 0
        v_mov_b32 v[b:b+1], 0
        v_mov_b32 v[c], 0
        v_mov_b32 v[FROM_CLI], 0
    """, defsyms={"FROM_CLI": 20})
    assert [ops[1] for ops in code(module)] == ["v4", "v[8:9]", "v9", "v20"]


def test_symbols_may_refer_to_later_definitions(snippet):
    module = snippet.build(HEADER + """
        .set total, later + 1
        .set later, 5
        v_mov_b32 v[total], 0
    """)
    assert code(module) == [("v_mov_b32", "v6", "Num(value=0)")]


def test_include_relative_then_dash_i(snippet, tmp_path):
    snippet.write(".set FROM_SUBDIR, 3\n", "sub/inc_a.s")
    snippet.write(".set FROM_DASH_I, 4\n", "other/inc_b.s")
    module = snippet.build(HEADER + """
        .include "sub/inc_a.s"
        .include "inc_b.s"
        v_mov_b32 v[FROM_SUBDIR], v[FROM_DASH_I]
    """, include_dirs=[str(tmp_path / "other")])
    assert code(module) == [("v_mov_b32", "v3", "v4")]
    missing = snippet.build(HEADER + '.include "nowhere.inc"\n')
    assert [(rule, line) for rule, line, _ in findings(missing)] == [("parse-error", 2)]
    assert "-I" in findings(missing)[0][2]


def test_include_cycle_stops(snippet):
    snippet.write('.include "b.s"\n', "a.s")
    snippet.write('.include "a.s"\n', "b.s")
    module = snippet.build(HEADER + '.include "a.s"\ns_endpgm\n', "main.s")
    assert any("nested deeper" in message for _, _, message in findings(module))
    assert code(module) == [("s_endpgm",)]


def test_cpp_lines(snippet):
    snippet.write("#define WIDTH 4\n", "config.h")
    module = snippet.build(HEADER + """
        #include "config.h"
        #define OFFSET (WIDTH * 2)
        #if WIDTH > 2 && defined(OFFSET)
            v_mov_b32 v0, OFFSET
        #else
            s_nop 0
        #endif
        #ifdef UNDEFINED_THING
            s_nop 1
        #endif
        # 40 "original.c"
    """, "kernel.S")
    assert code(module) == [("v_mov_b32", "v0", "Num(value=8)")]
    assert findings(module) == []


def test_macro_arguments_split_like_llvm():
    assert [t for _, t in split_macro_arguments("v[0:3], s0")] == ["v[0:3]", "s0"]
    assert [t for _, t in split_macro_arguments("v[0:3] s0")] == ["v[0:3]", "s0"]
    assert [t for _, t in split_macro_arguments("a + 1, b")] == ["a+1", "b"]
    assert [t for _, t in split_macro_arguments('"x y", hwreg(HW_REG_MODE, 0, 4)')] == ['"x y"', "hwreg(HW_REG_MODE, 0, 4)"]
    assert [t for _, t in split_macro_arguments("1,,3")] == ["1", "", "3"]


def test_provenance_through_include_rept_and_macro(snippet):
    snippet.write(
        ".macro BAD\n"
        "    v_mov_b32 v[undefined_reg], 0\n"
        ".endm\n",
        "macros.inc",
    )
    result = snippet.lint(HEADER + """\
        .include "macros.inc"
        k:
        .rept 1
            BAD
        .endr
        s_endpgm
    """)
    (diagnostic,) = result.diagnostics
    assert (diagnostic.name, diagnostic.path.endswith("macros.inc"), diagnostic.line) == ("undefined-symbol", True, 2)
    assert [note.message for note in diagnostic.notes] == ["in expansion of macro 'BAD'", "in .rept expansion"]
    assert [note.line for note in diagnostic.notes] == [5, 4]


def test_runaway_rept_is_refused(snippet):
    result = snippet.lint(HEADER + ".rept 1000000000\ns_nop 0\n.endr\ns_endpgm\n")
    assert names(result) == ["parse-error"]
    assert result.diagnostics[0].line == 2
    assert [i.mnemonic for i in result.module.kernels[0].instructions] == ["s_endpgm"]


def test_nested_runaway_rept_hits_the_budget(snippet):
    result = snippet.lint(HEADER + ".rept 3000\n.rept 3000\ns_nop 0\n.endr\n.endr\ns_endpgm\n", statement_budget=50_000)
    assert names(result) == ["parse-error"]
    assert "remaining expansions skipped" in result.diagnostics[0].message
    assert result.module.kernels[0].instructions[-1].mnemonic == "s_endpgm"


def test_nested_rept_of_millions_stops_at_the_expansion_budget(snippet):
    # issue 40: seven lines of nested .rept made 4M statements (about 850 MB, 16 s); expansions stop near 1M
    from amdgpu_lint.frontend.options import DEFAULT_EXPANSION_BUDGET, DEFAULT_STATEMENT_BUDGET

    assert (DEFAULT_EXPANSION_BUDGET, DEFAULT_STATEMENT_BUDGET) == (1_000_000, 4_000_000)
    runaway = HEADER + ".rept 2048\n.rept 2048\ns_nop 0\n.endr\n.endr\ns_endpgm\n"
    result = snippet.lint(runaway, expansion_budget=20_000)
    ((line, message),) = [(d.line, d.message) for d in result.diagnostics]
    assert line == 4 and message.startswith("expansions made more than 20,000 statements (in .rept expansion at ")
    assert message.endswith("kernel.s:3); remaining expansions skipped")
    instructions = [i.mnemonic for i in result.module.kernels[0].instructions]
    assert len(instructions) == 20_001 and instructions[-1] == "s_endpgm"  # the file's own lines go on
    # the file's own statements do not count against it, and a later expansion within it is made
    plain = HEADER + "s_nop 0\n" * 30_000 + ".rept 3\ns_nop 1\n.endr\ns_endpgm\n"
    assert names(snippet.lint(plain, expansion_budget=20_000)) == []


def test_recursive_macro_stops(snippet):
    result = snippet.lint(HEADER + """
        .macro FOREVER
            s_nop 0
            FOREVER
            FOREVER
        .endm
        FOREVER
        s_endpgm
    """)
    assert names(result) == ["parse-error"]
    assert "recursive" in result.diagnostics[0].message
    assert result.module.kernels[0].instructions[-1].mnemonic == "s_endpgm"


def test_unterminated_blocks(snippet):
    for opener in (".macro M", ".rept 2", ".if 1", ".irp x, 1, 2"):
        result = snippet.lint(HEADER + f"s_nop 0\n{opener}\ns_nop 1\n")
        assert names(result) == ["parse-error"], opener
        assert result.diagnostics[0].line == 3
        assert "unterminated" in result.diagnostics[0].message


def test_stray_closers(snippet):
    result = snippet.lint(HEADER + ".endm\n.endr\n.endif\n.else\ns_endpgm\n")
    assert names(result) == ["parse-error"] * 4


def test_a_line_read_plain_once_still_sees_later_macros_defines_and_conditionals(snippet):
    """Plain statements take a fast path; a macro, #define or .if that comes later still applies to the same text."""
    module = snippet.build(HEADER + """
        s_nop 0
        v_mov_b32 v1, WIDTH
        .macro s_nop n
            s_sleep \\n
        .endm
        s_nop 0
        #define WIDTH 4
        v_mov_b32 v1, WIDTH
        .if 0
            v_mov_b32 v1, WIDTH
        .endif
        v_mov_b32 v2, v3
        .set NEXT, .amdgcn.next_free_vgpr
    """, "kernel.S")
    assert code(module) == [("s_nop", "Num(value=0)"), ("v_mov_b32", "v1", "Sym(name='WIDTH')"), ("s_sleep", "Num(value=0)"),
                            ("v_mov_b32", "v1", "Num(value=4)"), ("v_mov_b32", "v2", "v3")]
    assert module.symbols["NEXT"] == 4


def test_the_builder_reads_the_state_of_the_line_it_is_at(snippet):
    """Plain statements are handed on in runs: what the builder evaluates as it arrives (the code object
    version) still sees the registers used up to its own line, not to the end of the run."""
    module = snippet.build(HEADER + """
        v_mov_b32 v4, 0
        .amdhsa_code_object_version .amdgcn.next_free_vgpr
        v_mov_b32 v9, 0
        s_endpgm
    """)
    assert module.code_object_version == 5


def test_symbols_set_to_numbers_between_plain_lines(snippet):
    """`.set name, N` read on the fast path defines the symbol as the general way does (an octal-looking
    or spaced value, and a later redefinition, still go that way)."""
    module = snippet.build(HEADER + """
        v_mov_b32 v0, v1
        .set A, 12
        .set B,0
        .set C , 010
        .set A, 7
        v_mov_b32 v[A], B
        .set D, A+1
        s_endpgm
    """)
    assert (module.symbols["A"], module.symbols["B"], module.symbols["C"], module.symbols["D"]) == (7, 0, 8, 8)
    assert code(module)[1] == ("v_mov_b32", "v7", "Num(value=0)")


@pytest.mark.parametrize("suffix", [".s", ".S"])
def test_long_runs_of_plain_lines_are_read_whole_across_the_windows_of_offsets(snippet, suffix):
    """The fast path reads the file's line offsets a window at a time (`_OFFSETS_WINDOW` lines), kept from one run
    to the next: every line of runs longer than a window, a `.set` of a number at a window's edge, a line that ends
    a run inside a later window (a macro's name) and, in a .S file, a C-preprocessor line there, are read as on
    any other line."""
    window = preprocessor_module._OFFSETS_WINDOW
    constants = (window - 1, window, 2 * window + 5, 2 * window + 6)
    ender = window + window // 2
    count = 3 * window

    def line(index):
        return f"s_add_u32 s{index % 50}, s{(index + 1) % 50}, {index}"

    lines = [f".set C{index}, {index}" if index in constants else
             ("twice" if suffix == ".s" else "#define SEVEN 7") if index == ender else line(index)
             for index in range(count)]
    module = snippet.build(HEADER + ".macro twice\ns_nop 1\ns_nop 1\n.endm\n" + "\n".join(lines) + "\ns_endpgm\n",
                           "kernel" + suffix)
    expected = [("s_add_u32", *line(index).split(maxsplit=1)[1].split(", ")[:2], f"Num(value={index})")
                for index in range(count) if index not in constants and index != ender]
    expected[ender - 2 : ender - 2] = [("s_nop", "Num(value=1)")] * 2 if suffix == ".s" else []
    assert code(module) == expected + [("s_endpgm",)]
    assert [module.symbols[f"C{index}"] for index in constants] == list(constants)


def test_names_in_operands_resolve_as_the_symbols_stand_at_each_line(snippet):
    """An instruction naming something not (yet) a symbol is read on the fast path as it stands; once the
    name is a symbol, or with a constant part to work out, it goes the general way."""
    module = snippet.build(HEADER + """
        s_mov_b32 s0, LATER
        s_add_u32 s1, s1, callee@rel32@lo+4
        .set LATER, 5
        s_mov_b32 s0, LATER
        s_mov_b32 s2, LATER2 + 1.5*2
        s_endpgm
    """)
    operands = [operands for _, *operands in code(module)]
    assert operands[0] == ["s0", "Sym(name='LATER')"] and operands[2] == ["s0", "Num(value=5)"]
    assert operands[1] == ["s1", "s1", "BinOp(op='+', left=Sym(name='callee@rel32@lo'), right=Num(value=4))"]
    # floating-point arithmetic stays as written, as the parser leaves it (llvm-mc refuses it as an operand)
    assert operands[3] == ["s2", "BinOp(op='+', left=Sym(name='LATER2'), right=BinOp(op='*', left=Num(value=1.5), "
                                 "right=Num(value=2)))"]


def test_labels_directives_and_branches_are_read_without_the_statement_reader_as_the_reader_reads_them(monkeypatch):
    """The lines compiler output has one of per label or symbol (a label, `.type`, `.size`, a branch) skip the
    statement reader; where the reader may read a text otherwise (a name of this layer's directives, a register,
    modifier word or `.` as a branch target, `=`, an odd character) it still reads it, and both give the same."""
    from amdgpu_lint.frontend import preprocessor

    skipped = {".LBB0_2:": Statement("empty", labels=(".LBB0_2",)),
               ".type\tk,@function": Statement("directive", ".type", args="k,@function"),
               ".P2ALIGN 8": Statement("directive", ".p2align", args="8"), ".text": Statement("directive", ".text"),
               "s_cbranch_scc1 .LBB0_2": Statement("instruction", "s_cbranch_scc1", operands=(Sym(".LBB0_2"),), resolved=True),
               "s_branch BB1.x": Statement("instruction", "s_branch", operands=(Sym("BB1.x"),), resolved=True)}
    read = ["s_branch v0", "s_branch glc", "s_cbranch_vccz a16", "s_branch vcc", "s_branch .", "s_branch lab$el",
            "S_BRANCH .L1", "s_branch .L1+4", "s_cbranch_join s[0:1]", ".macro:", ".set x, 1", ".x = 1", ".x == 1",
            ".amdgpu_hsa_kernel k", '.ascii "a||b"', ".if 1", "k: s_endpgm", ".$x:", ".x$ 1"]
    expected = {text: preprocessor._plain_read(text) for text in [*skipped, *read]}
    monkeypatch.setattr(preprocessor, "parse_statement", lambda text: pytest.fail(f"read {text!r}"))
    for text, statement in skipped.items():
        assert preprocessor._plain(text) == expected[text] and expected[text].statement == statement
    monkeypatch.undo()
    for text in read:
        assert preprocessor._plain_shape(text) is None and preprocessor._plain(text) == expected[text]


def test_the_ascii_twin_of_the_read_ahead_search_finds_the_same_in_ascii_text():
    """An ASCII text is searched for expanding directives and raw blocks' openings with an ASCII twin: the same
    matches, of either kind, in any case."""
    text = ("\t.MACRO m\n x.if 1\n  .IfDef y\n.rept\x1c\n.irpc.\n.Include_x\n.altmacro2 .endm\n"
            ".AMDGPU_metadata\n.amdgpu_metadata_x\n .amdgpu_Metadata\t\n")
    twin = preprocessor_module._expanding_or_opening(".amdgpu_metadata", True)
    pattern = preprocessor_module._expanding_or_opening(".amdgpu_metadata", False)
    assert twin is not pattern

    def found(search):
        return [(m.span(), m.group(1) is not None) for m in search.finditer(text)]

    assert found(twin) == found(pattern)
    assert {expands for _, expands in found(pattern)} == {True, False}


def test_blocks_read_ahead_only_where_nothing_expands_at_a_line_start():
    """The metadata block is read ahead, its opening in any case, when no line starts with an expanding directive,
    before or after it."""
    body = "---\namdhsa.version: [ 1, 2 ]\n..."
    quiet = split_lines("a.s", f"s_endpgm\n; .macro in a comment\n.AMDGPU_Metadata\n{body}\n.end_amdgpu_metadata\n"
                               "s_nop 0 // .rept\n")
    assert preprocessor_module.plain_block_texts(quiet, ".amdgpu_metadata") == [body]
    expanding = split_lines("b.s", f".amdgpu_metadata\n{body}\n.end_amdgpu_metadata\n  .Rept 2\n s_nop 0\n.endr\n")
    assert preprocessor_module.plain_block_texts(expanding, ".amdgpu_metadata") is None
