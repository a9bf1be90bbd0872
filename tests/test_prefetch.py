"""Prefetch distance and short-prefetch on seed 003's GEMM main loop, plus small loops with
hand-computed distances; latency-table overrides."""

import json
import re

import pytest
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.analyses.prefetch import PrefetchAnalysis
from amdgpu_lint.cli import main
from conftest import FIXTURES

GEMM = FIXTURES / "examples" / "handwritten" / "gemm_pipeline_gfx942.s"
LOAD = re.compile(r"^ *buffer_load_dwordx4 .*\n", re.MULTILINE)


def late_loads(text: str) -> str:
    """The GEMM with its global loads moved to just before the waits that retire them."""
    loads = "".join(LOAD.findall(text))
    return LOAD.sub("", text).replace("    s_waitcnt vmcnt(7)", loads + "    s_waitcnt vmcnt(7)", 1)


def distances(snippet, text, name="k.s"):
    module = snippet.build(text, name)
    report = AnalysisManager(module, module.kernels[0]).get(PrefetchAnalysis)
    return report


def test_seed_gemm_hides_hbm_latency(snippet):
    result = snippet.lint(GEMM.read_text(), "gemm.s")
    assert result.diagnostics == []
    report = distances(snippet, GEMM.read_text())
    assert len(report.loads) == 8 and all(load.loop is not None for load in report.loads)
    # 64 MFMAs x 32 cycles = 2048 per iteration (the MI308X GEMM example) plus 40 other instructions
    (header,) = report.loops
    loop_cycles = report.trip_cycles(header)
    assert 2048 < loop_cycles < 2048 + 256
    # every load has at least 800 cycles (the top of the MI308X HBM range) before its wait
    assert min(load.cycles for load in report.loads) >= 800


def test_moving_the_loads_next_to_their_waits_raises_short_prefetch(snippet):
    result = snippet.lint(late_loads(GEMM.read_text()), "late.s")
    findings = [d for d in result.diagnostics if d.name == "short-prefetch"]
    assert len(findings) == 8 and len(result.diagnostics) == 8
    assert "500-800 cycles" in findings[0].message and "1 wave/SIMD" in findings[0].message
    assert any(note.message.startswith("latency: MI308X measurement") for note in findings[0].notes)


LOOP = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
k:
  v_mov_b32 v2, 0
  s_mov_b32 s2, 8
.Lloop:
{top}
  s_waitcnt vmcnt(0)
  v_add_f32 v3, v2, v3
  global_load_dword v2, v0, s[0:1]      ; for the next iteration
  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 .Lloop
  s_waitcnt vmcnt(0)
  s_endpgm
"""


@pytest.mark.parametrize("work, fires", [(10, True), (200, False)])
def test_next_iteration_load_counts_the_loop_back_to_its_wait(snippet, work, fires):
    """Two SALU instructions (4 cycles each) and the branch (8) after the load, then `work` VALU
    instructions (4 each) at the top of the next iteration. The exit path (a wait right after
    the loop) is not counted."""
    text = LOOP.format(top="\n".join(f"  v_mov_b32 v5, v{6 + i % 4}" for i in range(work)))
    report = distances(snippet, text)
    (load,) = report.loads
    assert load.cycles == 2 * 4 + 8 + work * 4
    result = snippet.lint(text)
    assert [d.name for d in result.diagnostics if d.name == "short-prefetch"] == (["short-prefetch"] if fires else [])


def test_latency_table_override(tmp_path, capsys):
    late = tmp_path / "late.s"
    late.write_text(late_loads(GEMM.read_text()))
    fast = tmp_path / "fast.json"
    fast.write_text(json.dumps({"vmem_load": {"latency": [20, 30], "source": "pretend cache hit"}}))
    assert main(["check", "--no-config", "--no-cache", "--latency-table", str(fast), str(late)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hbm": {"latency": 5}}))
    assert main(["check", "--no-config", "--no-cache", "--latency-table", str(bad), str(late)]) == 2
    assert "unknown entry 'hbm'" in capsys.readouterr().err


def test_issue_oversubscription_per_trip(snippet):
    """The GEMM's loop needs 8 x 4 waves x 32 = 1024 VMEM and (16 + 8) x 4 x 8 = 768 LDS cycles
    per 2244-cycle trip: quiet. A dword streaming loop at 8 waves/SIMD (32 per CU) is not."""
    assert [d for d in snippet.lint(GEMM.read_text(), "gemm.s").diagnostics if d.name == "issue-oversubscription"] == []
    stream = """
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
k:
  s_mov_b32 s2, 64
.Lloop:
  global_load_dword v1, v0, s[0:1]
  global_load_dword v2, v0, s[0:1] offset:256
  s_waitcnt vmcnt(0)
  v_add_f32 v1, v1, v2
  global_store_dword v0, v1, s[0:1]
  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 .Lloop
  s_endpgm
"""
    (finding,) = [d for d in snippet.lint(stream).diagnostics if d.name == "issue-oversubscription"]
    # 3 dword requests x 32 waves x 8 cycles (a quarter of a dwordx4's 32) = 768, for a trip of
    # 7 instructions x 4 cycles + the branch's 8 = 36 cycles
    assert "3 VMEM requests" in finding.message and "~768 cycles" in finding.message and "~36 cycles" in finding.message
    assert "wave64 request per 32 cycles" in finding.message
    assert str(finding.severity) == "info"
    # the message names the kernel's own wave size (gfx11 is wave32: half the bytes per request)
    gfx11 = stream.replace("gfx942", "gfx1100").replace("global_load_dword", "global_load_b32").replace(
        "global_store_dword", "global_store_b32")
    (wave32,) = [d for d in snippet.lint(gfx11).diagnostics if d.name == "issue-oversubscription"]
    assert "wave32 request per 16 cycles" in wave32.message


@pytest.mark.parametrize("mnemonic, size", [("buffer_load_dwordx4", 16), ("global_load_dword", 4), ("ds_read_b128", 16),
                                            ("ds_read_b32", 4), ("global_load_ushort", 2), ("buffer_load_ubyte", 1),
                                            ("global_load_b96", 12), ("ds_write_b64", 8)])
def test_lane_bytes(mnemonic, size):
    from amdgpu_lint.analyses.latency import lane_bytes

    assert lane_bytes(mnemonic) == size


def _short_prefetch(snippet, loads: str) -> list:
    result = snippet.lint(LOOP.format(top="  v_mov_b32 v5, v6").replace(
        "  global_load_dword v2, v0, s[0:1]      ; for the next iteration\n", loads))
    return [d for d in result.diagnostics if d.name == "short-prefetch"]


def test_short_prefetch_one_finding_per_wait_and_none_for_spill_reloads(snippet):
    # issue 30 (Triton): a wait retiring two loads is one finding, at the load issued last
    (finding,) = _short_prefetch(snippet, "  global_load_dword v2, v0, s[0:1]\n  global_load_dword v3, v0, s[0:1] offset:4\n")
    assert finding.line == 11 and "(as 1 other load of this loop)" in finding.message
    assert [(note.message, note.line) for note in finding.notes[2:]] == [("also waited for there", 10)]
    # a spill reload (scratch_*, or a buffer load through the private segment buffer s[0:3]) is scratch-spill's
    assert _short_prefetch(snippet, "  scratch_load_dword v2, off, s33 offset:4 ; 4-byte Folded Reload\n") == []
    # (gfx90a: llvm-mc 22 refuses the private segment buffer with gfx942's architected flat scratch)
    through_buffer = LOOP.replace("gfx942", "gfx90a").replace("  s_endpgm\n", "  s_endpgm\n.amdhsa_kernel k\n"
                                  "  .amdhsa_user_sgpr_private_segment_buffer 1\n  .amdhsa_next_free_vgpr 8\n"
                                  "  .amdhsa_next_free_sgpr 16\n  .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n")
    reload = "  buffer_load_dword v2, off, s[0:3], 0 offset:4 ; 4-byte Folded Reload\n"
    text = through_buffer.format(top="  v_mov_b32 v5, v6").replace(
        "  global_load_dword v2, v0, s[0:1]      ; for the next iteration\n", reload)
    hbm = snippet.directory / "hbm.json"  # gfx90a's table has LLVM's 80 cycles, which this loop hides
    hbm.write_text(json.dumps({"vmem_load": {"latency": [500, 800], "source": "gfx942's HBM"}}))

    def found(kernel: str) -> list[str]:
        return [d.name for d in snippet.lint(kernel, latency_table=str(hbm)).diagnostics if d.name == "short-prefetch"]

    assert found(text) == []
    assert found(text.replace(reload, "  buffer_load_dword v2, off, s[4:7], 0 offset:4\n")) == ["short-prefetch"]
