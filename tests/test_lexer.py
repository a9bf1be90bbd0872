"""The bundled Pygments lexer reads what real kernel sources contain without error tokens (the HTML report
would draw each as a red box)."""

from pathlib import Path

import pytest
from amdgpu_lint.outputs.lexer import AMDGPULexer
from conftest import FIXTURES, ROOT
from pygments.token import Comment, Error, Name, String

MC_TESTS = ROOT.parent / "shared" / "conformance" / "llvm" / "MC"

KERNEL_SOURCE = """\
/*******************************************************************************
 * Copyright (c) a license header, as MIOpen and Tensile files start
 *******************************************************************************/
.macro load_tile base, cnt
    \\base = \\base + \\cnt          // a macro-local assignment
    .amd_amdgpu_hsa_metadata
    { Version: [ 1, 0 ], Kernels: [ { Name: \\base } ] }
    .end_amd_amdgpu_hsa_metadata
label_\\@:
    v_add_\\type v0, v1, v2 /* a comment
                              over two lines */
.endm
  #define UNROLL 4
. = 0x100
    .2byte 0x1234
    .byte 'c', '\\n'
    s_endpgm
"""


def _errors(text: str) -> list[str]:
    return [value for token, value in AMDGPULexer().get_tokens(text) if token in Error]


def test_comments_macros_and_text_blocks_of_kernel_sources():
    assert _errors(KERNEL_SOURCE) == []
    tokens = list(AMDGPULexer().get_tokens(KERNEL_SOURCE))
    assert tokens[0][0] in Comment.Multiline and tokens[0][1].endswith("*/")
    assert (Name.Variable, "\\base") in tokens and (Name.Label, "label_\\@") in tokens
    assert any(token in String.Doc and value.startswith(".amd_amdgpu_hsa_metadata") for token, value in tokens)


def test_what_is_not_assembly_still_shows():
    """The checks are not vacuous: characters assembly never uses are error tokens."""
    assert _errors("v_mov_b32 v0, v1 ? {\n") == ["?", "{"]


def test_no_error_token_in_the_bundled_examples_and_fixtures():
    files = [path for path in FIXTURES.rglob("*") if path.suffix in (".s", ".S", ".inc", ".asm")]
    assert len(files) > 10
    assert {str(path.relative_to(FIXTURES)): errors for path in files
            if (errors := _errors(path.read_text(errors="replace")))} == {}


@pytest.mark.skipif(not MC_TESTS.is_dir(), reason="LLVM's MC tests (../shared/conformance/llvm/MC) are not here")
def test_no_error_token_in_llvms_mc_tests():
    files = sorted(Path(MC_TESTS).glob("*.s"))
    assert {path.name: errors for path in files if (errors := _errors(path.read_text(errors="replace")))} == {}
