"""The control-flow graph: blocks, branch and fall-through edges, exits and calls."""

from amdgpu_lint.analyses.cfg import CFGAnalysis
from amdgpu_lint.analyses.manager import AnalysisManager

HEADER = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n'


def cfg_of(snippet, text, kernel=0):
    module = snippet.build(HEADER + text)
    return AnalysisManager(module, module.kernels[kernel]).get(CFGAnalysis)


def test_conditional_branch_loop_and_exit(snippet):
    cfg = cfg_of(snippet, """
        k:
          s_mov_b32 s0, 4
        .Lloop:
          s_sub_u32 s0, s0, 1
          s_cmp_lg_u32 s0, 0
          s_cbranch_scc1 .Lloop
          s_branch .Ldone
          s_nop 0
        .Ldone:
          s_endpgm
    """)
    shape = [(b.label, len(b.instructions), b.successors) for b in cfg.blocks]
    assert shape == [("k", 1, [1]), (".Lloop", 3, [1, 2]), (None, 1, [4]), (None, 1, [4]), (".Ldone", 1, [])]
    assert cfg.blocks[1].predecessors == [0, 1]
    assert cfg.reachable() == {0, 1, 2, 4}


def test_calls_fall_through_and_setpc_returns(snippet):
    cfg = cfg_of(snippet, """
        .type f,@function
        f:
          s_swappc_b64 s[30:31], s[16:17]
          v_mov_b32 v0, 0
          s_setpc_b64 s[30:31]
    """)
    assert [(len(b.instructions), b.successors) for b in cfg.blocks] == [(3, [])]


def test_code_after_endpgm_starts_a_new_block(snippet):
    cfg = cfg_of(snippet, "k:\n s_endpgm\n s_nop 0\n s_endpgm\n")
    assert [b.successors for b in cfg.blocks] == [[], []]


def test_analysis_results_are_cached(snippet):
    module = snippet.build(HEADER + "k:\n s_endpgm\n")
    manager = AnalysisManager(module, module.kernels[0])
    assert manager.get(CFGAnalysis) is manager.get(CFGAnalysis)
    assert manager.computed() == ["cfg"]
