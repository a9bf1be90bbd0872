"""The CU simulator pinned by small programs with hand-computed answers, and seed 003's GEMM.

Model (lint/simulator.py): SIMD s has an issue turn at cycles s, s+4, ...; VALU 4 cycles; a
dword VMEM request takes the CU's VMEM pipe 8 cycles (32 per dwordx4); the tests fix the VMEM
latency at 500 with a latency-table override."""

import json
import re

import pytest
from amdgpu_lint.analyses.perfmodel.simulator import simulate
from amdgpu_lint.cli import main
from conftest import FIXTURES

HEAD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n'


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "latency.json"
    path.write_text(json.dumps({"vmem_load": {"latency": 500, "source": "test"}}))
    return str(path)


def run(snippet, body, waves, table=None, simds=4):
    module = snippet.build(HEAD + body + "  s_endpgm\n", latency_table=table)
    return simulate(module, module.kernels[0], waves, simds=simds)


def test_one_wave_load_and_use(snippet, table):
    """load at 0, back at 500; the wait releases at turn 500, v_add 500-504, s_endpgm 504-508."""
    result = run(snippet, "  global_load_dword v1, v0, s[0:1]\n  s_waitcnt vmcnt(0)\n  v_add_f32 v2, v1, v1\n", 1, table)
    assert result.cycles == 508
    assert result.stalls == {"waiting on vmcnt": 496}  # turns 4..496 held by the wait
    assert result.per_line == {1: {"waiting on vmcnt": 496}}
    assert result.bottleneck.startswith("latency-bound")


WORK = "  global_load_dword v1, v0, s[0:1]\n" + "".join(f"  v_mov_b32 v{3 + i % 8}, 0\n" for i in range(50)) + \
    "  s_waitcnt vmcnt(0)\n  v_add_f32 v2, v1, v1\n"


def test_two_waves_hide_each_others_latency(snippet, table):
    """One SIMD. Alone: load 0, 50 VALU 4..200, wait to 500, v_add, s_endpgm: 508. Two waves:
    the second's load waits for the VMEM pipe (8 cycles), its VALUs run 204..400 while the first
    waits, its load is back at 508: v_add 508, s_endpgm 512, done 516 -- twice the work in +8."""
    assert run(snippet, WORK, 1, table, simds=1).cycles == 508
    both = run(snippet, WORK, 2, table, simds=1)
    assert both.cycles == 516
    assert both.stalls["VMEM pipe busy"] == 8  # the second load is held at turns 0 and 4


def test_barrier_holds_the_early_wave(snippet):
    """One SIMD, two waves of 50 VALU then s_barrier: the first wave's VALUs take turns 0..196,
    the second's 200..396 (one VALU per turn, oldest first); the first waits at the barrier
    from turn 204 to 400: 50 turns x 4 = 200 cycles."""
    body = "".join(f"  v_mov_b32 v{3 + i % 8}, 0\n" for i in range(50)) + "  s_barrier\n  v_add_f32 v2, v1, v1\n"
    result = run(snippet, body, 2, simds=1)
    assert result.stalls["barrier"] == 200
    assert result.cycles == 416


def test_mfma_chain(snippet):
    """4 dependent 32x32x8 f16 MFMAs (8 passes = 32 cycles) on one wave: issued at 0, 32, 64,
    96; the pipe drains at 128 and is busy the whole time."""
    body = "".join("  v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]\n" for _ in range(4))
    result = run(snippet, body, 1, simds=1)
    assert result.cycles == 128
    assert result.utilization["MFMA"] == 1.0
    assert result.stalls["MFMA result"] == 3 * 28  # each later MFMA waits 7 turns for its SrcC


GEMM = FIXTURES / "examples" / "handwritten" / "gemm_pipeline_gfx942.s"
LOAD = re.compile(r"^ *buffer_load_dwordx4 .*\n", re.MULTILINE)


def test_seed_gemm_is_mfma_bound_with_hidden_latency(snippet):
    module = snippet.build(GEMM.read_text(), "gemm.s")
    result = simulate(module, module.kernels[0], 4)
    assert result.bottleneck.startswith("MFMA-bound") and result.bottleneck.endswith("VMEM latency hidden")
    # 8 trips of 64 MFMAs x 32 cycles = 16384 MFMA cycles per SIMD; the rest is prologue and LDS
    assert result.utilization["MFMA"] > 0.7
    assert 16384 < result.cycles < 16384 * 1.4
    text = GEMM.read_text()
    late = LOAD.sub("", text).replace("    s_waitcnt vmcnt(7)", "".join(LOAD.findall(text)) + "    s_waitcnt vmcnt(7)", 1)
    module = snippet.build(late, "late.s")
    slow = simulate(module, module.kernels[0], 4)
    assert slow.cycles > result.cycles + 8 * 500  # each trip now waits for HBM
    assert "VMEM latency exposed" in slow.bottleneck


def test_report_simulate_text_and_json(capsys):
    assert main(["report", "--no-config", "--simulate", "--trip-count", ".Lloop=2", str(GEMM)]) == 0
    text = capsys.readouterr().out
    assert "simulation:    4 waves (one work-group) on one CU" in text and "MFMA-bound" in text and "stalled here" in text
    assert main(["report", "--no-config", "--simulate", "--waves", "8", "--format", "json", str(GEMM)]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["kernels"]
    assert kernel["simulation"]["waves"] == 8 and kernel["simulation"]["utilization"]["MFMA"] > 0.5


def test_html_report_shows_the_simulation(tmp_path):
    output = tmp_path / "report.html"
    assert main(["report", "--no-config", "--simulate", "--format", "html", "-o", str(output), str(GEMM)]) == 0
    page = output.read_text()
    assert "<b>Simulation</b>: 4 waves (one work-group) on one CU" in page and "MFMA-bound" in page and "stalled here" in page


def test_trace_leaves_a_loop_whose_exit_is_a_forward_branch(snippet):
    """LLVM's rotated loops: entered in the middle, latched by an unconditional s_branch, left by
    a forward conditional branch. After the trip count the forward exit is taken."""
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.analyses.perfmodel.simulator import trace

    module = snippet.build(HEAD + """  s_mov_b32 s2, 0
  s_branch .L2
.L1:
  s_add_u32 s2, s2, 1
  s_cmp_ge_u32 s2, 4
  s_cbranch_scc1 .Lexit
.L2:
  v_mov_b32 v1, 0
  s_cbranch_execz .L1
  v_mov_b32 v2, 0
  s_branch .L1
.Lexit:
  s_endpgm
""")
    kernel = module.kernels[0]
    path = trace(AnalysisManager(module, kernel), {".L1": 3}, {}).indices
    mnemonics = [kernel.instructions[i].mnemonic for i in path]
    assert mnemonics[-1] == "s_endpgm"
    # the body (.L2) runs 3 times; the third back-edge finds the loop done, and the trace leaves
    # past the unconditional latch instead of looping forever
    assert mnemonics.count("s_cbranch_execz") == 3 and len(mnemonics) < 30
    assert simulate(module, kernel, 2).cycles > 0


GUARDED_LOOP = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
k:
  s_load_dword s10, s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s10, 0
  s_cbranch_scc{skip} .L{branch_to}
  s_getpc_b64 s[12:13]
  s_add_u32 s12, s12, .LSkip@rel32@lo+4
  s_addc_u32 s13, s13, .LSkip@rel32@hi+12
  s_setpc_b64 s[12:13]
.LNoBranch:
.LLoop:
  v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
  s_sub_u32 s10, s10, 1
  s_cmp_eq_u32 s10, 0
  s_cbranch_scc0 .LLoop
.LSkip:
  s_endpgm
.rodata
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
"""


#: Tensile's own spelling of the long branch: the label's offset added through a scalar
TENSILE_LONG_BRANCH = """  s_getpc_b64 s[12:13]
  s_add_i32 s14, .LSkip, 0x4
  s_add_u32 s12, s12, s14
  s_addc_u32 s13, s13, 0
  s_setpc_b64 s[12:13]
"""


@pytest.mark.parametrize("spelling", ["rel32", "tensile"])
def test_a_long_branch_early_exit_does_not_skip_the_loop(snippet, spelling):
    """Tensile's numIter == 0 test: falling through reaches only a long branch past every loop, the branch
    reaches the loop, so the path takes the branch and runs the loop (before: it fell through, followed the
    s_setpc_b64 nowhere and simulated no MFMA)."""
    text = GUARDED_LOOP.format(skip=0, branch_to="NoBranch")
    if spelling == "tensile":
        start = text.index("  s_getpc_b64")
        text = text[:start] + TENSILE_LONG_BRANCH + text[text.index(".LNoBranch:"):]
    module = snippet.build(text)
    result = simulate(module, module.kernels[0], 4)
    assert result.path.trips == {".LLoop": 8} and result.path.mfmas_run == result.path.mfmas == 1
    assert result.path.skipped_loops == [] and result.path.warnings() == []
    assert result.path.by_class["mfma"] == 8 and result.utilization["MFMA"] > 0.5


def test_a_long_branch_is_followed_and_a_skipped_loop_is_said(snippet, tmp_path, capsys):
    """With the early exit taken (`--taken .LSkip`, or the fall-through made the exit) the path follows the long
    branch to .LSkip, and the report warns that the loop and every MFMA were left out, in text, JSON and HTML."""
    module = snippet.build(GUARDED_LOOP.format(skip=1, branch_to="Skip"))
    result = simulate(module, module.kernels[0], 4, taken={".LSkip"})
    assert result.path.skipped_loops == [(".LLoop", 13)] and result.path.mfmas_run == 0
    warnings = result.path.warnings()
    assert warnings[0].startswith("the path skips the loop at line 13 (.LLoop)") and "0 of the kernel's 1 MFMA" in warnings[1]
    (tmp_path / "k.s").write_text(GUARDED_LOOP.format(skip=0, branch_to="NoBranch"))
    assert main(["report", "--no-config", "--simulate", "--taken", ".LNoBranch", str(tmp_path / "k.s")]) == 0
    out = capsys.readouterr().out
    assert "path: " in out and "loops .LLoop (line 13) x8; executed" in out  # the branch taken: no long branch
    assert main(["report", "--no-config", "--simulate", str(tmp_path / "k.s"), "--format", "json"]) == 0
    simulation = json.loads(capsys.readouterr().out)["kernels"][0]["simulation"]
    assert simulation["path"]["trips"] == {".LLoop": 8} and simulation["path"]["warnings"] == []
    assert {"path": str(tmp_path / "k.s"), "line": 7} in simulation["lines_never_run"]  # the long branch
    (tmp_path / "s.s").write_text(GUARDED_LOOP.format(skip=1, branch_to="Skip"))
    assert main(["report", "--no-config", "--simulate", "--taken", ".LSkip", str(tmp_path / "s.s"),
                 "--format", "html", "--output", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert "warning: the path skips the loop at line 13 (.LLoop)" in page and 'class="line not-run"' in page


def test_stall_rate_counts_every_reason(snippet):
    """Two waves meeting at a barrier: the early one waits there; that counts in the stall rate, not in the
    memory-wait rate."""
    body = "".join(f"  v_mov_b32 v{3 + i % 8}, 0\n" for i in range(50)) + "  s_barrier\n  v_add_f32 v2, v1, v1\n"
    result = run(snippet, body, 2, simds=1)
    assert result.stalls["barrier"] == 200
    assert result.stall_rate > 0 and result.wait_rate == 0
