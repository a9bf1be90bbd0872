"""No input raises a traceback: each bad file gives a diagnostic with file:line.

Deep nesting is bounded by the parser's own MAX_NESTING, not by Python's recursion limit, so the pure and the compiled
build (whose compiled functions recurse in C, past that limit) answer alike; llvm-mc 22 assembles the operand at the
bound (a gfx942 `v_mov_b32 v[z+...+1], 0`)."""

import json

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.frontend.syntax import MAX_NESTING

TARGET = b'.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n'

CASES = {
    "empty": (b"", []),
    "only_comments": (b"; nothing here\n// nor here\n/* or here */\n", []),
    "binary": (b"\x7fELF\x02\x01\x01\x00" * 64, [("parse-error", 1)]),
    "non_utf8": (TARGET + b"k:\n v_mov_b32 v0, \xff\n s_endpgm\n", [("parse-error", 3), ("invalid-encoding", 3)]),
    "crlf": (TARGET.replace(b"\n", b"\r\n") + b"k:\r\n s_nop 0\r\n s_bad_thing v0, +\r\n s_endpgm\r\n", [("parse-error", 4)]),
    "huge_line": (TARGET + b"k:\n v_mov_b32 v0, " + b"1+" * 500_000 + b"1\n s_endpgm\n", [("parse-error", 3)]),
    "huge_directive_line": (TARGET + b"k:\n s_endpgm\n.byte " + b"1," * 500_000 + b"1\n", []),
    "huge_garbage_line": (TARGET + b"k:\n" + b"@" * 1_000_000 + b"\n s_endpgm\n", [("parse-error", 3)]),
    "deep_parentheses": (TARGET + b"k:\n s_mov_b32 s0, " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n s_endpgm\n", []),
    "deep_symbolic_expression": (TARGET + b".set a, 0\nk:\n v_mov_b32 v[" + b"a+" * 5000 + b"a], 0\n s_endpgm\n", [("parse-error", 4)]),
    "deep_unary_chain": (TARGET + b"k:\n v_mov_b32 v0, " + b"-" * 5000 + b"v1\n s_endpgm\n", [("parse-error", 3)]),
    "deep_directive_expression": (TARGET + b".set z, 0\n.set y, " + b"z+" * 5000 + b"z\nk:\n s_endpgm\n", [("parse-error", 3)]),
    # MAX_NESTING levels from the operand to its deepest leaf: v[...] is one, each '+' one, the leaf one
    "nesting_at_the_bound": (TARGET + b".set z, 0\nk:\n v_mov_b32 v[" + b"z+" * (MAX_NESTING - 2) + b"1], 0\n s_endpgm\n", []),
    "nesting_past_the_bound": (TARGET + b".set z, 0\nk:\n v_mov_b32 v[" + b"z+" * (MAX_NESTING - 1) + b"1], 0\n s_endpgm\n",
                               [("parse-error", 4)]),
    "unterminated_macro": (TARGET + b"k:\n.macro M\n s_nop 0\n", [("parse-error", 3)]),
    "unterminated_if": (TARGET + b"k:\n.if 1\n s_endpgm\n", [("parse-error", 3)]),
    "recursive_macro": (TARGET + b".macro R\n R\n.endm\nk:\n R\n s_endpgm\n", [("parse-error", 3)]),
    "mutually_recursive": (TARGET + b".macro A\n B\n.endm\n.macro B\n A\n.endm\nk:\n A\n s_endpgm\n", [("parse-error", 6)]),
    "huge_rept": (TARGET + b"k:\n.rept 1000000000\n s_nop 0\n.endr\n s_endpgm\n", [("parse-error", 3)]),
    "bad_rept_count": (TARGET + b"k:\n.rept -1\n s_nop 0\n.endr\n.rept foo\n.endr\n s_endpgm\n", [("parse-error", 3), ("parse-error", 6)]),
    "division_by_zero": (TARGET + b".set x, 1/0\nk:\n v_mov_b32 v[1/0], 0\n s_endpgm\n", [("parse-error", 2), ("parse-error", 4)]),
    "unterminated_block_comment": (TARGET + b"k:\n s_endpgm\n/* no end", [("parse-error", 4)]),
    "unterminated_string": (TARGET + b'k:\n .ascii "abc\n s_endpgm\n', []),
    "only_target": (TARGET, []),
    "nul_late": (TARGET + b"k:\n s_endpgm\n\x00", [("parse-error", 4)]),
    "control_characters": (TARGET + b"k:\n s_nop 0\x01\n s_endpgm\n", [("parse-error", 3)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_gives_diagnostics_not_tracebacks(name, tmp_path, capsys):
    data, expected = CASES[name]
    path = tmp_path / f"{name}.s"
    path.write_bytes(data)
    code = main(["check", "--no-config", "--format", "json", str(path)])
    out = capsys.readouterr().out
    found = [(d["name"], d["line"]) for d in json.loads(out)["diagnostics"]]
    assert found == expected
    assert code == (1 if expected else 0)
    assert all(d["path"] == str(path) for d in json.loads(out)["diagnostics"])


def test_nesting_past_the_fast_readers_depth_reads_as_the_grammar_reads_it():
    """The hand-written reader leaves text nested deeper than it recurses to the grammar: the statement is the same
    either way, whichever build runs (the reader's bound is its own, not the interpreter's recursion limit)."""
    from amdgpu_lint.frontend.grammar import grammar_statement
    from amdgpu_lint.frontend.syntax import parse_statement

    for depth in (10, 200):
        text = "s_add_u32 s0, s1, " + "(" * depth + "-(" * depth + "k+1" + ")" * 2 * depth
        parsed = parse_statement(text)
        assert parsed == grammar_statement(text)
        assert parsed.kind == "instruction" and len(parsed.operands) == 3
