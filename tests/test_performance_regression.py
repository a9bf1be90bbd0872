"""performance-regression (AGL108): `baseline` records each kernel's main-loop cycles per trip from the CU
simulator, and `check --baseline` reports a loop predicted at least 5% slower, with the bound that moved and the
lines whose cost grew (issue 38 item 5). The kernels are small gfx942 loops whose simulated cost is known: a
VALU-bound loop (16 independent FMAs a trip) and a latency-bound one whose load is prefetched a trip ahead."""

import json

import pytest
from amdgpu_lint.analyses.perfmodel.mainloop import HIGH_TRIPS, LOW_TRIPS, main_loop_cost
from amdgpu_lint.cli import main
from amdgpu_lint.driver.session import lint_buffer

HEAD = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl {name}
.p2align 8
.type {name},@function
{name}:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_mov_b32 s2, 64
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
.Lloop:
"""
TAIL = """  v_add_u32 v1, 0x100, v1
  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 .Lloop
  global_store_dword v1, v4, s[4:5]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel {name}
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr {vgprs}
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset {vgprs}
.end_amdhsa_kernel
"""
PREFETCH = "  s_waitcnt vmcnt(0)\n  v_mov_b32 v3, v2\n  global_load_dword v2, v1, s[4:5] offset:256\n"
NO_PREFETCH = "  global_load_dword v2, v1, s[4:5] offset:256\n  s_waitcnt vmcnt(0)\n  v_mov_b32 v3, v2\n"
FMAS = "".join(f"  v_fmac_f32 v{4 + i}, v3, v3\n" for i in range(16))
CHAIN = "".join("  v_fmac_f32 v20, v20, v3\n" for _ in range(8))  # each needs the one before


def kernel(body: str, *, vgprs: int = 24, name: str = "k") -> str:
    """A gfx942 kernel whose loop runs `body` then the latch; 24 VGPRs give 8 waves/SIMD, 256 give 2."""
    return HEAD.format(name=name) + body + TAIL.format(name=name, vgprs=vgprs)


VALU_BOUND = kernel(PREFETCH + FMAS)
LATENCY_BOUND = kernel(PREFETCH + FMAS + FMAS, vgprs=256)  # 2 waves/SIMD: the load's latency shows


def line_of(text: str, source: str) -> int:
    return source.splitlines().index(text) + 1


def write_baseline(tmp_path, source: str, *argv: str) -> dict:
    (tmp_path / "k.s").write_text(source)
    assert main(["baseline", "--no-config", "-o", str(tmp_path / "base.json"), *argv, str(tmp_path / "k.s")]) == 0
    return json.loads((tmp_path / "base.json").read_text())


def check(tmp_path, capsys, source: str, *argv: str) -> list[dict]:
    """check --baseline on `source` (in place of the file the baseline was written from): its AGL108 findings."""
    (tmp_path / "k.s").write_text(source)
    capsys.readouterr()
    main(["check", "--no-config", "--no-cache", "--format", "json", "--baseline", str(tmp_path / "base.json"),
          *argv, str(tmp_path / "k.s")])
    return [d for d in json.loads(capsys.readouterr().out)["diagnostics"] if d["code"] == "AGL108"]


def test_the_baseline_records_the_main_loop_per_trip(tmp_path):
    """The VALU-bound loop: 8 waves on each SIMD issue 16 FMAs, a v_mov, a v_add (4 cycles each) and 4 scalar
    instructions a trip, 8 x 22 x 4 = 704 cycles of issue turns per SIMD; the VALU alone is 8 x 18 x 4 = 576."""
    record = write_baseline(tmp_path, VALU_BOUND)["kernels"]["k.s::k"]["performance"]
    assert (record["loop"], record["line"], record["waves"]) == (".Lloop", line_of(".Lloop:", VALU_BOUND) + 1, 32)
    assert record["bounds"]["VALU issue"] == 8 * 18 * 4
    assert 8 * 18 * 4 <= record["cycles_per_trip"] <= 8 * 22 * 4
    assert record["lines"]["v_fmac_f32 v4, v3, v3"] >= 4  # each wave's issue of it, at least
    assert "trip_counts" not in record and "predicted_ms" not in record  # nothing given: nothing recorded


def test_an_added_dependent_valu_chain_is_reported_with_the_valu_bound_and_its_line(tmp_path, capsys):
    write_baseline(tmp_path, VALU_BOUND)
    slower = kernel(PREFETCH + FMAS + CHAIN)
    (finding,) = check(tmp_path, capsys, slower)
    assert finding["name"] == "performance-regression" and finding["severity"] == "warning"
    assert "'k' is predicted" in finding["message"] and "the bound that moved: VALU issue 576 -> 832" in finding["message"]
    chain = line_of("  v_fmac_f32 v20, v20, v3", slower)
    assert f"most of it at line {chain} " in finding["message"]
    assert finding["notes"][0]["line"] == chain and finding["notes"][0]["message"].startswith("v_fmac_f32 v20, v20, v3: 0 -> ")


def test_a_removed_prefetch_is_reported_with_memory_latency_and_the_wait(tmp_path, capsys):
    write_baseline(tmp_path, LATENCY_BOUND)
    slower = kernel(NO_PREFETCH + FMAS + FMAS, vgprs=256)
    (finding,) = check(tmp_path, capsys, slower)
    assert "the bound that moved: memory latency" in finding["message"]
    wait = line_of("  s_waitcnt vmcnt(0)", slower)
    assert f"most of it at line {wait} " in finding["message"] and finding["notes"][0]["line"] == wait


@pytest.mark.parametrize("source", [VALU_BOUND, kernel(PREFETCH + FMAS.replace("  v_fmac_f32 v19, v3, v3\n", "")),
                                    kernel(PREFETCH + FMAS, name="other"),
                                    VALU_BOUND.replace("  v_fmac_f32 v4, v3, v3\n", "\n\n  v_fmac_f32 v4, v3, v3 // a\n")],
                         ids=["unchanged", "faster", "not-in-the-baseline", "moved-and-commented"])
def test_unchanged_faster_and_new_kernels_are_quiet(tmp_path, capsys, source):
    write_baseline(tmp_path, VALU_BOUND)
    assert check(tmp_path, capsys, source) == []


def test_an_older_baseline_without_the_record_still_works(tmp_path, capsys):
    """Snapshots written before the record existed (or by hand, with a broken one): quiet, no traceback, and the
    occupancy comparison they carry still runs."""
    snapshot = write_baseline(tmp_path, VALU_BOUND)
    del snapshot["kernels"]["k.s::k"]["performance"]
    (tmp_path / "base.json").write_text(json.dumps(snapshot))
    assert check(tmp_path, capsys, kernel(PREFETCH + FMAS + CHAIN)) == []
    assert main(["check", "--no-config", "--no-cache", "--baseline", str(tmp_path / "base.json"),
                 str(tmp_path / "k.s")]) == 0
    snapshot["kernels"]["k.s::k"]["performance"] = {"loop": 3, "cycles_per_trip": "fast", "waves": None}
    (tmp_path / "base.json").write_text(json.dumps(snapshot))
    assert check(tmp_path, capsys, kernel(PREFETCH + FMAS + CHAIN)) == []


def test_json_and_sarif_carry_it(tmp_path, capsys):
    write_baseline(tmp_path, VALU_BOUND)
    (tmp_path / "k.s").write_text(kernel(PREFETCH + FMAS + CHAIN))
    capsys.readouterr()
    assert main(["check", "--no-config", "--no-cache", "--format", "sarif", "--baseline", str(tmp_path / "base.json"),
                 str(tmp_path / "k.s")]) == 1
    (result,) = [r for r in json.loads(capsys.readouterr().out)["runs"][0]["results"] if r["ruleId"] == "AGL108"]
    assert result["level"] == "warning" and "VALU issue" in result["message"]["text"]
    assert check(tmp_path, capsys, kernel(PREFETCH + FMAS + CHAIN))


def test_a_kernel_without_a_loop_gets_no_record_and_no_finding(tmp_path, capsys):
    straight = kernel(PREFETCH + FMAS).replace("  s_cbranch_scc1 .Lloop\n", "")
    assert "performance" not in write_baseline(tmp_path, straight)["kernels"]["k.s::k"]
    assert check(tmp_path, capsys, straight + "") == []


def test_the_record_is_deterministic_and_reused_options_name_the_main_loop(tmp_path, capsys):
    """Two innermost loops: the costlier is the main one unless --trip-count names the other; the check measures
    under the options the baseline recorded."""
    second = ".Lsmall:\n  v_add_u32 v21, 1, v21\n  s_sub_u32 s3, s3, 1\n  s_cmp_lg_u32 s3, 0\n  s_cbranch_scc1 .Lsmall\n"
    source = kernel(PREFETCH + FMAS).replace("  global_store_dword", second + "  global_store_dword")
    first = write_baseline(tmp_path, source)
    assert first == write_baseline(tmp_path, source)
    assert first["kernels"]["k.s::k"]["performance"]["loop"] == ".Lloop"
    named = write_baseline(tmp_path, source, "--trip-count", ".Lsmall=4")["kernels"]["k.s::k"]["performance"]
    assert (named["loop"], named["trip_counts"]) == (".Lsmall", {".Lsmall": 4})
    slower = source.replace("  v_add_u32 v21, 1, v21\n", "  v_add_u32 v21, 1, v21\n" + CHAIN)
    (finding,) = check(tmp_path, capsys, slower)
    assert "main loop (.Lsmall, line" in finding["message"]


def test_the_language_server_reports_it_from_the_configured_baseline(tmp_path):
    """The editor lints unsaved text with the configuration's baseline, as check does; the lines that cost it are
    the diagnostic's related information."""
    pytest.importorskip("pygls")
    from amdgpu_lint.lsp import lint_text

    (tmp_path / ".amdgpu-lint.toml").write_text('baseline = "base.json"\n')
    (tmp_path / "k.s").write_text(VALU_BOUND)
    assert main(["baseline", "-o", str(tmp_path / "base.json"), str(tmp_path / "k.s")]) == 0
    assert [d for d in lint_buffer(str(tmp_path / "k.s"), VALU_BOUND).diagnostics if d.code == "AGL108"] == []
    slower = kernel(PREFETCH + FMAS + CHAIN)
    (shown,) = [item for item in lint_text(str(tmp_path / "k.s"), slower).published if item.code == "AGL108"]
    assert "VALU issue" in shown.message
    related = shown.related_information
    assert related and related[0].location.range.start.line + 1 == line_of("  v_fmac_f32 v20, v20, v3", slower)


def test_cycles_per_trip_are_the_steady_state_of_one_wave(snippet):
    """One wave running a loop of 16 FMAs, a v_add and the latch: a turn every 4 cycles for each instruction, the
    branch 8 (gfx942's table): 84 cycles a trip, as two long runs differ by, and the VALU busy 17 x 4 cycles of
    them on its SIMD (an average of 17 over the CU's 4)."""
    from amdgpu_lint.analyses.perfmodel.simulator import simulate

    module = snippet.build(kernel(FMAS))
    cost = main_loop_cost(module, module.kernels[0], 1)
    assert HIGH_TRIPS - LOW_TRIPS >= 8 and cost is not None and cost.waves == 1
    assert cost.cycles_per_trip == 16 * 4 + 4 + 4 + 4 + 8
    runs = [simulate(module, module.kernels[0], 1, trip_counts={".Lloop": trips}) for trips in (10, 64)]
    assert cost.cycles_per_trip == (runs[1].cycles - runs[0].cycles) / 54
    assert cost.bounds == {"VALU issue": 17 * 4 / 4, "scalar issue": 3.0}
