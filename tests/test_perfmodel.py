"""The performance model's machine per generation (lint/analyses/perfmodel/machines.json) and the simulator on it,
pinned by probe kernels with hand-computed answers: RDNA SIMD32s issue every cycle, two per CU, four per WGP;
GCN/CDNA SIMD16s get a turn every fourth cycle, four per CU."""

import json

import pytest
from amdgpu_lint.analyses.perfmodel.machine import machine_for
from amdgpu_lint.analyses.perfmodel.simulator import simulate
from amdgpu_lint.cli import main
from amdgpu_lint.model.targets import parse_target_id

VALU_LOOP = """.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_mov_b32 s2, 64
.Lloop:
{body}  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 .Lloop
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
{extra}.end_amdhsa_kernel
"""
FMACS = "".join(f"  v_fmac_f32 v{1 + i}, v20, v21\n" for i in range(16))


def valu_loop(cpu: str, extra: str = "") -> str:
    """16 independent full-rate VALUs, then a 3-instruction latch, 64 trips (`--trip-count .Lloop=64`)."""
    return VALU_LOOP.format(cpu=cpu, body=FMACS, extra=extra)


@pytest.mark.parametrize("cpu", ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201"])
def test_the_machine_agrees_with_the_occupancy_limits(cpu):
    """The simulator's SIMDs per unit are the ones the occupancy arithmetic counts waves over."""
    target = parse_target_id(cpu)
    machine = machine_for(target)
    for cumode in (False, True):
        assert machine.simds(cumode) == target.simds_per_cu(cumode)
    assert machine.unit(False) == ("WGP" if target.major >= 10 else "CU") and machine.unit(True) == "CU"
    assert (machine.simd_lanes, machine.issue_interval) == ((32, 1) if target.major >= 10 else (16, 4))


def test_one_wave_per_rdna_simd_issues_every_cycle(snippet):
    """gfx1100, WGP mode, one wave32 on each of the 4 SIMDs: each VALU and SALU takes 1 cycle, the branch 32 (the
    RDNA latency table): s_mov 1 + 64 trips x (16 + 1 + 1 + 32) + s_endpgm 1 = 3202 cycles; the VALU is busy
    16 of every 50 cycles. (Before: one turn every 4 cycles per SIMD, 6664 cycles, VALU at most 25%.)"""
    module = snippet.build(valu_loop("gfx1100"))
    result = simulate(module, module.kernels[0], 4, trip_counts={".Lloop": 64})
    assert result.unit == "WGP" and result.cycles == 1 + 64 * 50 + 1
    assert result.utilization["VALU"] == pytest.approx(64 * 16 / 3202)


def test_a_valu_loop_at_full_occupancy_saturates_the_rdna_valu(snippet):
    """16 waves per SIMD (the occupancy: 64 on the WGP) hide each other's branches: the VALU is busy > 90% of the
    time (before: 24%, the GCN cadence's ceiling of 25%)."""
    module = snippet.build(valu_loop("gfx1100"))
    kernel = module.kernels[0]
    result = simulate(module, kernel, 64, trip_counts={".Lloop": 64})
    assert result.utilization["VALU"] > 0.9 and result.bottleneck.startswith("VALU-bound")
    # the work: 64 waves x 64 trips x 16 VALUs on 4 SIMDs at one a cycle
    assert 64 * 64 * 16 / 4 <= result.cycles < 64 * 64 * 16 / 4 / 0.9


def test_cu_mode_runs_on_two_simds(snippet):
    """CU mode: the waves share one CU's 2 SIMDs, so the same 8 waves (4 per SIMD) take about twice as long as in
    WGP mode (2 per SIMD), and the unit is a CU."""
    wgp = snippet.build(valu_loop("gfx1100"), "wgp.s")
    cu = snippet.build(valu_loop("gfx1100", "  .amdhsa_workgroup_processor_mode 0\n"), "cu.s")
    on_wgp = simulate(wgp, wgp.kernels[0], 8, trip_counts={".Lloop": 64})
    on_cu = simulate(cu, cu.kernels[0], 8, trip_counts={".Lloop": 64})
    assert (on_wgp.unit, on_cu.unit) == ("WGP", "CU")
    assert on_cu.cycles > 1.8 * on_wgp.cycles
    assert on_cu.utilization["VALU"] > 0.6


def test_gcn_keeps_its_cadence(snippet):
    """gfx942, one wave on each of the 4 SIMDs: a turn every 4 cycles, VALU and SALU 4 cycles, the branch 8:
    s_mov 4 + 64 trips x (16 x 4 + 4 + 4 + 8) + s_endpgm 4 = 5128 cycles per wave, the last SIMD's first turn at
    cycle 3."""
    module = snippet.build(valu_loop("gfx942", "  .amdhsa_accum_offset 24\n"))
    result = simulate(module, module.kernels[0], 4, trip_counts={".Lloop": 64})
    assert result.unit == "CU" and result.cycles == 3 + 4 + 64 * 80 + 4


def test_the_report_names_the_unit(snippet, capsys):
    path = snippet.write(valu_loop("gfx1100"))
    assert main(["report", "--no-config", "--simulate", "--waves", "8", str(path)]) == 0
    assert "simulation:    8 waves (one work-group) on one WGP" in capsys.readouterr().out


# ---------------------------------------------------------------- launch geometry: work-groups per CU or WGP

def launch_kernel(cpu: str, vgprs: int, lds: int = 0, extra: str = "") -> str:
    accum = f"  .amdhsa_accum_offset {vgprs}\n" if cpu.startswith("gfx9") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n'
            f"  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr {vgprs}\n"
            f"  .amdhsa_next_free_sgpr 16\n  .amdhsa_group_segment_fixed_size {lds}\n{accum}{extra}.end_amdhsa_kernel\n")


def launch_of(snippet, capsys, text: str, *flags: str) -> dict:
    path = snippet.write(text)
    assert main(["report", "--no-config", "--format", "json", *flags, str(path)]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["kernels"]
    return kernel["launch"]


def test_the_grid_counts_vgpr_limited_workgroups_per_wgp(snippet, capsys):
    """gfx1100, wave32, 128 VGPRs: allocated in 24s, 144, so 1536 // 144 = 10 waves per SIMD, 40 on the WGP's 4
    SIMDs; a 256-item work-group is 8 waves: 5 work-groups per WGP (before: 8, by wave slots alone, 64 // 8).
    The RX 7900 XTX's 96 CUs are 48 WGPs: 240 at once."""
    launch = launch_of(snippet, capsys, launch_kernel("gfx1100", 128), "--wg-size", "256", "--grid", "150",
                       "--device", "RX 7900 XTX")
    assert (launch["unit"], launch["units"], launch["workgroups_per_unit"]) == ("WGP", 48, 5)
    assert launch["limiter"] == ["VGPR"] and launch["workgroups_per_device_wave"] == 240
    assert launch["last_wave_efficiency"] == pytest.approx(150 / 240, abs=1e-3)


def test_cu_mode_counts_per_cu(snippet, capsys):
    """The same kernel in CU mode: 10 waves on each of one CU's 2 SIMDs, 20, hold 2 work-groups of 8 waves; 96 CUs
    hold 192."""
    launch = launch_of(snippet, capsys, launch_kernel("gfx1100", 128, extra="  .amdhsa_workgroup_processor_mode 0\n"),
                       "--wg-size", "256", "--grid", "150", "--device", "RX 7900 XTX")
    assert (launch["unit"], launch["units"], launch["workgroups_per_unit"]) == ("CU", 96, 2)
    assert launch["workgroups_per_device_wave"] == 192


def test_gcn_vgprs_and_lds_bound_workgroups_per_cu(snippet, capsys):
    """gfx90a, 160 VGPRs: 512 // 160 = 3 waves per SIMD, 12 per CU: 3 work-groups of 4 wave64s (before: 8 by wave
    slots). 13000 bytes of LDS per 64-item work-group: the dispatcher gives 13312 (whole 512-byte units), and
    65536 // 13312 = 4 fit (LLVM's raw-byte figure would say 5)."""
    launch = launch_of(snippet, capsys, launch_kernel("gfx90a", 160), "--wg-size", "256", "--grid", "1000",
                       "--device", "MI210")
    assert (launch["unit"], launch["units"], launch["workgroups_per_unit"], launch["limiter"]) == (
        "CU", 104, 3, ["VGPR+AGPR"])
    launch = launch_of(snippet, capsys, launch_kernel("gfx90a", 32, lds=13000), "--wg-size", "64", "--grid", "1000",
                       "--device", "MI210")
    assert (launch["workgroups_per_unit"], launch["limiter"]) == (4, ["LDS"])


def test_too_few_workgroups_counts_what_fits(snippet, capsys):
    """150 work-groups fill 150 / 240 = 62% of the 7900 XTX's slots for the 5-per-WGP kernel: no finding (before:
    150 / 384 = 39%, an info finding on a launch that fills the device well). 40 leave 8 of its 48 WGPs idle."""
    path = snippet.write(launch_kernel("gfx1100", 128))
    flags = ["check", "--no-config", "--format", "json", "--select", "too-few-workgroups", "--wg-size", "256",
             "--device", "RX 7900 XTX"]
    assert main([*flags, "--grid", "150", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"] == []
    main([*flags, "--grid", "40", str(path)])
    (finding,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert finding["message"] == ("40 work-groups leave 8 of 48 WGPs of RX 7900 XTX idle (5 work-groups of 256 fit "
                                  "per WGP, limited by VGPR)")
    main([*flags, "--grid", "100", str(path)])
    (finding,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert finding["message"].startswith("100 work-groups fill 42% of the 240 work-group slots of RX 7900 XTX")


def test_the_grid_line_names_the_unit_and_limiter(snippet, capsys):
    path = snippet.write(launch_kernel("gfx1100", 128))
    assert main(["report", "--no-config", "--wg-size", "256", "--grid", "150", "--device", "RX 7900 XTX",
                 str(path)]) == 0
    assert ("grid:          150 work-groups, 240 at once on 48 WGPs (5 per WGP, limited by VGPR): 1 wave(s), "
            "last one 62% full") in capsys.readouterr().out


# ---------------------------------------------------------------- the path: loops per entry, steering, caps

GFX942 = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n.text\nk:\n'

NESTED = GFX942 + """  s_mov_b32 s4, 0
.Louter:
  s_mov_b32 s5, 0
  v_mov_b32 v1, 0
.Linner:
  v_add_f32 v2, v1, v2
  s_add_u32 s5, s5, 1
  s_cmp_lt_u32 s5, 512
  s_cbranch_scc1 .Linner
  s_add_u32 s4, s4, 1
  s_cmp_lt_u32 s4, 8
  s_cbranch_scc1 .Louter
  s_endpgm
"""


def path_of(snippet, text: str, trips: dict[str, int] | None = None, taken: dict[str, str] | None = None):
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.analyses.perfmodel.simulator import trace

    module = snippet.build(text)
    kernel = module.kernels[0]
    path = trace(AnalysisManager(module, kernel), trips or {}, taken or {})
    return path, [kernel.instructions[index].mnemonic for index in path.indices]


def test_an_inner_loop_runs_its_trips_at_every_entry(snippet):
    """8 outer trips of 512 inner ones: the inner body runs 4096 times (before: 8 + 511 = 519, the trip count
    spent once for the whole run); the path is 1 + 8 x (2 + 512 x 4 + 3) + 1 instructions."""
    path, mnemonics = path_of(snippet, NESTED, {".Louter": 8, ".Linner": 512})
    assert mnemonics.count("v_add_f32") == 8 * 512 and len(mnemonics) == 2 + 8 * (2 + 512 * 4 + 3)
    assert [(loop.label, loop.line, loop.entries, loop.trips) for loop in path.loops] == [
        (".Louter", 6, 1, 8), (".Linner", 9, 8, 4096)]
    assert path.trips == {".Louter": 8, ".Linner": 4096} and not path.truncated and path.warnings() == []


DESCRIPTOR = (".rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 16\n"
              "  .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n")


def test_the_report_lists_the_loops(snippet, capsys):
    kernel = snippet.write(NESTED + DESCRIPTOR)
    assert main(["report", "--no-config", "--simulate", "--waves", "1", "--trip-count", ".Louter=3",
                 "--trip-count", ".Linner=5", str(kernel)]) == 0
    assert "loops .Louter (line 6) x3, .Linner (line 9) 3 x 5; executed" in capsys.readouterr().out
    assert main(["report", "--no-config", "--simulate", "--waves", "1", "--format", "json", str(kernel)]) == 0
    path = json.loads(capsys.readouterr().out)["kernels"][0]["simulation"]["path"]
    assert path["loops"] == [{"label": ".Louter", "line": 6, "entries": 1, "trips": 8, "from_kernargs": False},
                             {"label": ".Linner", "line": 9, "entries": 8, "trips": 64, "from_kernargs": False}]


DOUBLE_BUFFER = GFX942 + """  s_mov_b32 s4, 0
.Lloop:
  ds_read_b128 v[4:7], v0
  s_waitcnt lgkmcnt(0)
  v_add_f32 v1, v4, v1
  s_add_u32 s4, s4, 1
  s_bitcmp1_b32 s4, 0
  s_cbranch_scc1 .Lloop
  global_store_dword v0, v1, s[0:1]
  s_cmp_lt_u32 s4, 16
  s_cbranch_scc1 .Lloop
  s_endpgm
"""


def test_a_conditional_latch_with_more_loop_after_it_falls_through(snippet):
    """A double buffer's odd trips skip the store phase with a conditional back-edge in the middle of the loop.
    By default each of the 8 trips runs the whole body, store included (before: the middle back-edge was taken on
    every trip and the store ran once); the middle branch steered by its line, N T repeated, stores on trips
    1, 3, 5, 7, and on the 8th, whose middle branch finds the loop's trips done and falls through."""
    _, mnemonics = path_of(snippet, DOUBLE_BUFFER)
    assert mnemonics.count("ds_read_b128") == 8 and mnemonics.count("global_store_dword") == 8
    path, mnemonics = path_of(snippet, DOUBLE_BUFFER, taken={"11": "NT"})
    assert mnemonics.count("ds_read_b128") == 8 and mnemonics.count("global_store_dword") == 5
    assert path.trips == {".Lloop": 8}


def test_taken_steers_a_back_edge(snippet):
    """`--taken .Linner=N`: the inner latch is never taken, so the inner loop runs once per outer trip; T T N: twice,
    then left (the trip count still caps the loop: 3 trips of an all-T pattern with --trip-count 3)."""
    path, mnemonics = path_of(snippet, NESTED, {".Louter": 4}, {".Linner": "N"})
    assert mnemonics.count("v_add_f32") == 4 and path.loops[1].trips == 4
    _, mnemonics = path_of(snippet, NESTED, {".Louter": 4}, {".Linner": "TN"})
    assert mnemonics.count("v_add_f32") == 4 * 2
    _, mnemonics = path_of(snippet, NESTED, {".Louter": 4, ".Linner": 3}, {".Linner": "T"})
    assert mnemonics.count("v_add_f32") == 4 * 3


ALTERNATIVES = GFX942 + """  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 .Lsecond
.Lfirst:
  v_add_f32 v1, v1, v1
  s_cbranch_scc1 .Lfirst
  s_branch .Ldone
.Lsecond:
  v_mul_f32 v1, v1, v1
  s_cbranch_scc1 .Lsecond
.Ldone:
  s_endpgm
"""


def test_a_loop_named_by_trip_count_is_on_the_path(snippet):
    """Both ways of the first branch reach a loop: by default the path falls through into .Lfirst and says it skips
    .Lsecond; naming .Lsecond's trip count sends the path there."""
    path, mnemonics = path_of(snippet, ALTERNATIVES)
    assert mnemonics.count("v_add_f32") == 8 and path.skipped_loops == [(".Lsecond", 11)]
    path, mnemonics = path_of(snippet, ALTERNATIVES, {".Lsecond": 4})
    assert mnemonics.count("v_mul_f32") == 4 and "v_add_f32" not in mnemonics
    assert path.skipped_loops == [(".Lfirst", 7)]


def test_options_naming_nothing_are_said(snippet):
    path, _ = path_of(snippet, ALTERNATIVES, {".Lnone": 4}, {".Lelse": "T", "3": "N"})
    assert path.warnings() == ["the path skips the loop at line 11 (.Lsecond); pass --taken or --trip-count to steer it",
                               "--trip-count .Lnone: no loop branches back to .Lnone",
                               "--taken .Lelse: no conditional branch goes to .Lelse or is at line .Lelse",
                               "--taken 3: no conditional branch goes to 3 or is at line 3"]


def test_the_path_cap_is_said(snippet, capsys):
    """8 x 512 x 512 trips would be 2 million inner bodies: the path stops at the cap, and the report says so."""
    text = NESTED.replace(".Linner:\n", ".Linner:\n  s_mov_b32 s6, 0\n.Linnermost:\n  v_mov_b32 v3, 0\n"
                                        "  s_cbranch_scc1 .Linnermost\n", 1)
    path, _ = path_of(snippet, text, {".Louter": 8, ".Linner": 512, ".Linnermost": 512})
    assert path.truncated and len(path.indices) >= 200_000
    assert path.warnings()[-1].startswith("the path stops at the simulator's cap of 200000 instructions")


# ---------------------------------------------------------------- one barrier per work-group

BARRIER = GFX942 + "".join(f"  v_mov_b32 v{3 + i % 8}, 0\n" for i in range(50)) + \
    "  s_barrier\n  v_add_f32 v2, v1, v1\n  s_endpgm\n"


def test_each_work_group_waits_at_its_own_barrier(snippet):
    """Four waves on one SIMD (a turn every 4 cycles, one VALU a turn, oldest first), in work-groups of two. Wave 0
    issues its 50 VALUs at turns 0..196 and arrives at 200; wave 1 issues at 200..396 and arrives at 400, which
    releases group 0: wave 0 waited from turn 204 to 400, 50 turns. Group 1 (waves 2, 3) repeats that from cycle
    400 on: another 50 turns, 400 cycles of barrier stalls in all. One barrier for all four waves (before): wave 0
    waits until wave 3 arrives at 800 (150 turns), wave 1 100 turns, wave 2 50: 1200 cycles."""
    module = snippet.build(BARRIER)
    kernel = module.kernels[0]
    per_group = simulate(module, kernel, 4, simds=1, group_waves=2)
    assert per_group.stalls["barrier"] == 2 * 50 * 4
    together = simulate(module, kernel, 4, simds=1, group_waves=4)
    assert together.stalls["barrier"] == (150 + 100 + 50) * 4
    assert per_group.cycles <= together.cycles


def test_work_groups_follow_the_kernels_size(snippet):
    """Without `group_waves` the work-group is the kernel's: 128 work-items of wave64 (`--wg-size 128`) are two
    waves, as above."""
    module = snippet.build(BARRIER, wg_size=(128, 128))
    result = simulate(module, module.kernels[0], 4, simds=1)
    assert result.stalls["barrier"] == 2 * 50 * 4


def test_the_report_says_how_the_waves_group(snippet, capsys):
    path = snippet.write(BARRIER + DESCRIPTOR)
    assert main(["report", "--no-config", "--simulate", "--waves", "5", "--wg-size", "128", str(path)]) == 0
    assert "simulation:    5 waves (3 work-groups of 2) on one CU" in capsys.readouterr().out


# ---------------------------------------------------------------- RDNA WMMA holds the VALU

WMMAS = "".join(f"  v_wmma_f32_16x16x16_f16 v[{8 * i}:{8 * i + 7}], v[32:39], v[40:47], v[{8 * i}:{8 * i + 7}]\n"
                for i in range(4))


def test_a_wmma_holds_the_rdna_valu_for_its_cycles(snippet):
    """gfx1100: a wave32 f16 WMMA holds its SIMD's VALU 32 cycles (AMD's matrix calculator; before: 1, a plain
    VALU) when its A, B and C start in three VGPR banks (v33, v42, v8i: banks 1, 2, 0). One wave per SIMD, 8 trips
    of 4 WMMAs and the latch: 1 + 8 x (4 x 32 + 1 + 1 + 32) + 1 = 1298 cycles, the VALU busy 8 x 4 x 32 of them.
    A, B and C all in bank 0 (v32, v40, v8i: LLVM's usual allocation) take 2 more each (the gfx1151 measurement of
    LLVM issue #204254). iu4 takes 16 cycles; on gfx1201 an f16 WMMA takes 16 (no bank figure for gfx12)."""
    distinct = WMMAS.replace("v[32:39], v[40:47]", "v[33:40], v[42:49]")
    text = VALU_LOOP.format(cpu="gfx1100", body=distinct, extra="").replace("next_free_vgpr 24", "next_free_vgpr 50")
    module = snippet.build(text, "f16.s")
    result = simulate(module, module.kernels[0], 4, trip_counts={".Lloop": 8})
    assert result.cycles == 1 + 8 * (4 * 32 + 1 + 1 + 32) + 1
    assert result.utilization["VALU"] == pytest.approx(8 * 4 * 32 / result.cycles)
    shared = snippet.build(text.replace("v[33:40], v[42:49]", "v[32:39], v[40:47]"), "shared.s")
    assert simulate(shared, shared.kernels[0], 4, trip_counts={".Lloop": 8}).cycles == 1 + 8 * (4 * 34 + 34) + 1
    iu4 = snippet.build(text.replace("v_wmma_f32_16x16x16_f16", "v_wmma_i32_16x16x16_iu4")
                        .replace("v[33:40], v[42:49]", "v[33:34], v[42:43]"), "iu4.s")
    assert simulate(iu4, iu4.kernels[0], 4, trip_counts={".Lloop": 8}).cycles == 1 + 8 * (4 * 16 + 34) + 1
    rdna4 = snippet.build(text.replace("gfx1100", "gfx1201").replace("v[33:40], v[42:49]", "v[32:35], v[40:43]"),
                          "rdna4.s")
    assert not rdna4.findings
    assert simulate(rdna4, rdna4.kernels[0], 4, trip_counts={".Lloop": 8}).cycles == 1 + 8 * (4 * 16 + 34) + 1


def test_a_loop_is_named_by_any_of_its_labels(snippet):
    """Two labels on one block, each the target of a back-edge: one loop, and --trip-count names it by either."""
    text = GFX942 + ".Lhead:\n.Lagain:\n  v_add_f32 v1, v1, v1\n  s_cbranch_scc1 .Lhead\n  s_cbranch_vccz .Lagain\n" \
                    "  s_endpgm\n"
    path, mnemonics = path_of(snippet, text, {".Lagain": 3})
    assert mnemonics.count("v_add_f32") == 3 and path.warnings() == []


# ---------------------------------------------------------------- trip counts from kernel arguments

KERNARG_LOOP = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dwordx2 s[6:7], s[0:1], 0x8
  v_mov_b32 v0, 0
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  s_waitcnt lgkmcnt(0)
  s_lshr_b32 s8, s6, 4
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc1 .Lend
.Lloop:
  v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]
  s_sub_u32 s8, s8, 1
  s_cmp_lg_u32 s8, 0
  s_cbranch_scc1 .Lloop
.Lend:
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 24
    .max_flat_workgroup_size: 256
    .args:
      - .name: a
        .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
      - .name: K
        .offset: 8
        .size: 4
        .value_kind: by_value
      - .name: tile
        .offset: 12
        .size: 4
        .value_kind: by_value
amdhsa.version:
  - 1
  - 2
...
.end_amdgpu_metadata
"""


def test_kernel_arguments_give_the_trip_count(snippet):
    """numIter = K >> 4 counted down to 0: K = 4096 runs the loop 256 times (without --kernarg: the default 8);
    K = 0 takes the early exit, and the path says it skips the loop; --trip-count still wins."""
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.analyses.perfmodel.simulator import trace

    module = snippet.build(KERNARG_LOOP)
    kernel = module.kernels[0]

    def run(kernargs, trips=None):
        return trace(AnalysisManager(module, kernel), trips or {}, {}, kernargs)

    assert run({}).trips == {".Lloop": 8}
    derived = run({"K": 4096})
    assert derived.trips == {".Lloop": 256} and derived.loops[0].from_kernargs and derived.warnings() == []
    assert run({"K": 16}).trips == {".Lloop": 1}
    empty = run({"K": 0})
    assert empty.trips == {} and empty.skipped_loops == [(".Lloop", 17)]
    assert run({"K": 4096}, {".Lloop": 3}).trips == {".Lloop": 3}
    assert run({"N": 1}).warnings() == ["--kernarg N: the kernel has no argument N (its arguments: K, a, tile)"]


def test_kernarg_on_the_command_line(snippet, capsys):
    path = snippet.write(KERNARG_LOOP)
    assert main(["report", "--no-config", "--simulate", "--waves", "4", "--kernarg", "K=512", str(path)]) == 0
    out = capsys.readouterr().out
    assert "loops .Lloop (line 17) x32 from --kernarg; executed" in out and "MFMA-bound" in out


def test_kernel_arguments_are_signed_where_the_compare_is(snippet):
    """A counter from K = -3 counted up with s_add_i32 while s_cmp_lt_i32 against 2 holds: -2, -1, 0, 1 go
    round again, 2 leaves: 5 trips (an unsigned compare would see 0xfffffffe and run 1)."""
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.analyses.perfmodel.simulator import trace

    body = KERNARG_LOOP[KERNARG_LOOP.index("  s_lshr_b32"):KERNARG_LOOP.index(".Lend:")]
    counting_up = ("  s_mov_b32 s8, s6\n.Lloop:\n  v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]\n"
                   "  s_add_i32 s8, s8, 1\n  s_cmp_lt_i32 s8, 2\n  s_cbranch_scc1 .Lloop\n")
    module = snippet.build(KERNARG_LOOP.replace(body, counting_up))
    path = trace(AnalysisManager(module, module.kernels[0]), {}, {}, {"K": -3})
    assert path.trips == {".Lloop": 5}


# ---------------------------------------------------------------- RDNA issue: dependencies, s_delay_alu, trans, VOPD

def probe(cpu: str, body: str) -> str:
    """A one-dimensional kernel (v0 is the work-item id) of `body` and s_endpgm."""
    accum = "  .amdhsa_accum_offset 32\n" if cpu.startswith("gfx9") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n'
            f"{body}  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 32\n"
            f"  .amdhsa_next_free_sgpr 16\n{accum}.end_amdhsa_kernel\n")


def simulated(snippet, cpu: str, body: str, waves: int = 1, simds: int = 1, name: str = "k.s", **options):
    module = snippet.build(probe(cpu, body), name, **options)
    assert not [finding for finding in module.findings if finding.severity == "error"]
    return simulate(module, module.kernels[0], waves, simds=simds)


CHAIN = "".join("  v_add_f32 v1, v1, v2\n" for _ in range(20))
INDEPENDENT = "".join(f"  v_add_f32 v{3 + i % 8}, v1, v2\n" for i in range(20))
DELAYED = "".join("  s_delay_alu instid0(VALU_DEP_1)\n  v_add_f32 v1, v1, v2\n" for _ in range(20))


def test_a_dependent_valu_waits_for_its_producers_latency_on_rdna(snippet):
    """gfx1100, one wave32: each of 20 dependent v_add_f32 waits 5 cycles for the one before (Mesa ACO, LLVM
    SISchedule: 5-cycle VALU latency), issued at 0, 5, ..., 95, s_endpgm at 96: 97 cycles; 20 independent ones issue
    one a cycle: 21. (Before: 21 for both.) GCN keeps its cadence: a dependent VALU follows at the next turn."""
    chain = simulated(snippet, "gfx1100", CHAIN)
    assert chain.cycles == 97 and chain.stalls == {"VALU dependency (no s_delay_alu)": 19 * 4}
    assert simulated(snippet, "gfx1100", INDEPENDENT, name="i.s").cycles == 21
    gcn_chain = simulated(snippet, "gfx942", CHAIN, name="g.s")
    assert gcn_chain.cycles == simulated(snippet, "gfx942", INDEPENDENT, name="gi.s").cycles == 21 * 4


def test_s_delay_alu_lets_another_wave_use_the_valu(snippet):
    """Two waves on one gfx1100 SIMD. Without s_delay_alu a VALU waiting for its operand holds the SIMD's VALU (ACO:
    the gfx11 front end does not switch waves on a dependency stall): wave 0's chain runs 0..96, wave 1's only then,
    96..192: 193 cycles. With `s_delay_alu instid0(VALU_DEP_1)` before each add the waiting wave steps aside and the
    other's add issues in the gap: wave 1 issues at 1, 6, ..., 96, done at 98."""
    held = simulated(snippet, "gfx1100", CHAIN, waves=2)
    assert held.cycles == 193 and held.stalls["VALU dependency (no s_delay_alu)"] == 2 * 19 * 4
    hinted = simulated(snippet, "gfx1100", DELAYED, waves=2, name="d.s")
    assert hinted.cycles == 98 and "VALU dependency (no s_delay_alu)" not in hinted.stalls
    assert hinted.stalls["s_delay_alu"] == 2 * 19 * 4
    # the encoded number says the same: 0x1 is instid0(VALU_DEP_1)
    numeric = simulated(snippet, "gfx1100", DELAYED.replace("instid0(VALU_DEP_1)", "0x1"), waves=2, name="n.s")
    assert numeric.cycles == 98
    # gfx10 has no s_delay_alu: its waiting wave steps aside by itself
    rdna2 = simulated(snippet, "gfx1030", CHAIN, waves=2, name="r2.s")
    assert rdna2.cycles == 98 and rdna2.stalls["VALU dependency"] == 2 * 19 * 4


def test_s_delay_alu_names_the_second_instruction_with_instskip(snippet):
    """`instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_2)`: two producers at 0 and 1, two consumers of one
    each; each consumer waits for the VALU two back from it: the first for the first producer (written at 5), from
    cycle 2 (s_delay_alu itself issues nothing); the second, at 6, for the second producer (written at 6): no wait.
    s_endpgm at 7."""
    body = ("  v_add_f32 v1, v1, v2\n  v_add_f32 v3, v3, v2\n"
            "  s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_2)\n"
            "  v_add_f32 v4, v1, v2\n  v_add_f32 v5, v3, v2\n")
    result = simulated(snippet, "gfx1100", body)
    assert result.cycles == 8 and result.stalls == {"s_delay_alu": 3}


def test_transcendentals_run_on_their_own_unit_on_rdna(snippet):
    """gfx1100: v_exp_f32 takes one VALU issue cycle and the SIMD's transcendental unit 4 (ACO), so an independent
    v_add_f32 issues right behind it: 10 pairs, exps at 0, 4, ..., 36, adds at 1, 5, ..., 37, s_endpgm 38: 39 cycles
    (before: each exp held the VALU 4 cycles, 51). A dependent add waits the transcendental latency, 10."""
    pairs = "".join(f"  v_exp_f32 v{3 + i % 4}, v1\n  v_add_f32 v{8 + i % 4}, v1, v2\n" for i in range(10))
    result = simulated(snippet, "gfx1100", pairs)
    assert result.cycles == 39 and result.stalls == {"transcendental unit busy": 9 * 2}
    dependent = simulated(snippet, "gfx1100", "  v_exp_f32 v3, v1\n  v_add_f32 v4, v3, v2\n", name="d.s")
    assert dependent.cycles == 10 + 1 + 1


def test_a_vopd_pair_issues_in_one_cycle(snippet):
    """gfx1100 wave32: 20 v_dual_add/v_dual_mul pairs issue one a cycle (21 cycles with s_endpgm); the same 40 ops
    one by one take 41."""
    dual = "".join(f"  v_dual_add_f32 v{10 + 2 * (i % 4)}, v1, v2 :: v_dual_mul_f32 v{21 + 2 * (i % 4)}, v3, v4\n"
                   for i in range(20))
    single = "".join(f"  v_add_f32 v{10 + 2 * (i % 4)}, v1, v2\n  v_mul_f32 v{21 + 2 * (i % 4)}, v3, v4\n"
                     for i in range(20))
    assert simulated(snippet, "gfx1100", dual).cycles == 21
    assert simulated(snippet, "gfx1100", single, name="s.s").cycles == 41


def test_a_vopd_pair_reading_one_bank_twice_takes_a_cycle_more(snippet):
    """gfx1100 VGPR banks (register number mod 4): X reads v0, v1 and Y v2, v3, four banks, one cycle a pair (the
    accumulators come through the SRC2 port); X reading v0, v5 and Y v1, v4 (both halves' SRC0/VSRC1 in different
    banks, as the assembler demands) puts v0 and v4 in bank 0 and v1 and v5 in bank 1: two cycles a pair, as the
    7900 XTX's conflicting v_dual_fmac streams (2-3 cycles; 1 without)."""
    def pairs(x: str, y: str) -> str:
        return "".join(f"  v_dual_fmac_f32 v{8 + 2 * (i % 4)}, {x} :: v_dual_fmac_f32 v{17 + 2 * (i % 4)}, {y}\n"
                       for i in range(20))

    assert simulated(snippet, "gfx1100", pairs("v0, v1", "v2, v3")).cycles == 21
    assert simulated(snippet, "gfx1100", pairs("v0, v5", "v1, v4"), name="c.s").cycles == 41


def test_s_setprio_wins_arbitration_over_age(snippet, tmp_path):
    """Two waves on one gfx942 SIMD raise their priority to get a load out, then lower it for 100 VALUs. With the
    priority the younger wave's load goes out while the older runs its low-priority VALUs (before: oldest first, the
    younger waited for the older's whole stream, and its load's 500 cycles showed at the end): 96 cycles sooner.
    With `s_setprio 0` instead of 3 the arbitration is oldest first."""
    table = tmp_path / "latency.json"
    table.write_text(json.dumps({"vmem_load": {"latency": 500, "source": "test"}}))

    def body(priority: int) -> str:
        return (f"  s_setprio {priority}\n" + "".join(f"  v_mov_b32 v{3 + i % 8}, 0\n" for i in range(10))
                + "  global_load_dword v1, v0, s[0:1]\n  s_setprio 0\n"
                + "".join(f"  v_mov_b32 v{3 + i % 8}, 0\n" for i in range(100))
                + "  s_waitcnt vmcnt(0)\n  v_add_f32 v2, v1, v1\n")

    oldest = simulated(snippet, "gfx942", body(0), waves=2, name="o.s", latency_table=str(table))
    raised = simulated(snippet, "gfx942", body(3), waves=2, name="r.s", latency_table=str(table))
    assert oldest.cycles == 992 and raised.cycles == 896
    assert raised.stalls["waiting on vmcnt"] < oldest.stalls["waiting on vmcnt"]


# ---------------------------------------------------------------- LDS banks

def lds_cycles(result) -> int:
    """Cycles the unit's LDS pipes were busy."""
    return round(result.utilization["LDS"] * result.cycles * (2 if result.unit == "WGP" else 1))


def lds_loop(address: str, access: str = "ds_read_b32 v{d}, v1 offset:{o}") -> str:
    return f"  {address}\n" + "".join("  " + access.format(d=2 + 2 * (i % 4), o=256 * i) + "\n" for i in range(16)) \
        + "  s_waitcnt lgkmcnt(0)\n"


@pytest.mark.parametrize(("cpu", "per_access"), [("gfx942", 2), ("gfx1100", 1)])
def test_lds_bank_conflicts_follow_the_lane_stride(snippet, cpu, per_access):
    """16 ds_read_b32 at v0 << s (the lane stride 2^s bytes; the LDS race analysis's addresses): stride 4 fills the
    32 banks (2 cycles of a wave64, 1 of a wave32: 128 bytes a cycle); stride 32 puts 8 lanes on each of 4 banks
    (8-way: the MI308X measurement's 16 cycles a wave64 ds_read_b32); stride 128 all lanes on one bank (32-way: 64);
    the same address in every lane is broadcast (conflict-free)."""
    def busy(address: str, name: str) -> int:
        return lds_cycles(simulated(snippet, cpu, lds_loop(address), name=name))

    assert busy("v_lshlrev_b32 v1, 2, v0", "s4.s") == 16 * per_access
    assert busy("v_lshlrev_b32 v1, 5, v0", "s32.s") == 16 * per_access * 8
    assert busy("v_lshlrev_b32 v1, 7, v0", "s128.s") == 16 * per_access * 32
    assert busy("v_mov_b32 v1, 0", "same.s") == 16 * per_access


def test_a_conflicted_lds_read_returns_later(snippet):
    """The conflict cycles add to the read's latency: one wave, one ds_read_b32 on gfx942 issued at 4 returns after
    the table's 58 cycles at 62 (the wait ends at turn 64, s_endpgm 64-68); at stride 128 it takes 64 cycles of the
    pipe instead of 2 and returns 62 later, at 124 (s_endpgm 124-128)."""
    def one(shift: int) -> int:
        body = f"  v_lshlrev_b32 v1, {shift}, v0\n  ds_read_b32 v2, v1\n  s_waitcnt lgkmcnt(0)\n"
        return simulated(snippet, "gfx942", body, name=f"{shift}.s").cycles

    assert (one(2), one(7)) == (68, 128)


def test_lds_widths_per_form(snippet):
    """gfx942 wave64, conflict-free: a two-address ds_read2_b32 (each of its two dwords a b32 access at a 4-byte
    stride) moves 8 bytes a lane like ds_read_b64 (4 cycles of the pipe; before: charged as 4 bytes, 2),
    ds_read2st64_b64 16 like ds_read_b128 (8);
    ds_read_u8 still takes a bank access a lane (2); ds_read_b128 at a 16-byte stride is conflict-free in its
    documented lane phases; ds_read_b64 at a 16-byte stride is 2-way, and so is each half of a ds_read2_b32 at an
    8-byte stride (its lanes' dwords all in even banks)."""
    cases = [("v_lshlrev_b32 v1, 2, v0", "ds_read2_b32 v[{d}:{d1}], v1 offset1:64", 4),
             ("v_lshlrev_b32 v1, 3, v0", "ds_read_b64 v[{d}:{d1}], v1 offset:{o}", 4),
             ("v_lshlrev_b32 v1, 3, v0", "ds_read2st64_b64 v[{d}:{d3}], v1 offset1:1", 8),
             ("v_lshlrev_b32 v1, 4, v0", "ds_read_b128 v[{d}:{d3}], v1 offset:{o}", 8),
             ("v_lshlrev_b32 v1, 0, v0", "ds_read_u8 v{d}, v1 offset:{o}", 2),
             ("v_lshlrev_b32 v1, 4, v0", "ds_read_b64 v[{d}:{d1}], v1 offset:{o}", 8),
             ("v_lshlrev_b32 v1, 3, v0", "ds_read2_b32 v[{d}:{d1}], v1 offset1:1", 8)]
    for number, (address, access, per_access) in enumerate(cases):
        body = f"  {address}\n" + "".join(
            "  " + access.format(d=8 + 4 * (i % 4), d1=9 + 4 * (i % 4), d3=11 + 4 * (i % 4), o=1024 * i) + "\n"
            for i in range(16)) + "  s_waitcnt lgkmcnt(0)\n"
        assert lds_cycles(simulated(snippet, "gfx942", body, name=f"{number}.s")) == 16 * per_access, access


def test_a_function_knows_the_lane_only_from_v_mbcnt(snippet):
    """Code without a kernel descriptor may be a function, where v0 is an argument and not the work-item id: its
    stride-128 reads are not judged (charged conflict-free); the lane id from v_mbcnt is the lane anywhere."""
    mbcnt = "v_mbcnt_lo_u32_b32 v1, -1, 0\n  v_mbcnt_hi_u32_b32 v1, -1, v1\n  v_lshlrev_b32 v1, 7, v1"

    def busy(address: str, name: str) -> int:
        module = snippet.build(GFX942 + lds_loop(address) + "  s_endpgm\n", name)
        return lds_cycles(simulate(module, module.kernels[0], 1, simds=1))

    assert busy("v_lshlrev_b32 v1, 7, v0", "v0.s") == 16 * 2
    assert busy(mbcnt, "mbcnt.s") == 16 * 64


def test_a_gfx11_wave64_issues_dual_issue_capable_opcodes_in_one_pass(snippet):
    """gfx1100 wave64: 20 independent v_add_f32 (or 16-bit integer adds, or v_dot2_f32_f16) run their two halves on
    the SIMD's two VALU paths, one pass each: 21 cycles; v_xor_b32 is not dual-issue capable (Mesa ACO): two passes,
    41. gfx10 has one VALU path: two passes for all."""
    def cycles(cpu: str, operation: str) -> int:
        body = "".join("  " + operation.format(d=3 + i % 8) + "\n" for i in range(20))
        text = probe(cpu, body).replace(".end_amdhsa_kernel", "  .amdhsa_wavefront_size32 0\n.end_amdhsa_kernel")
        module = snippet.build(text, f"{cpu}-{operation.split()[0]}.s")
        return simulate(module, module.kernels[0], 1, simds=1).cycles

    assert cycles("gfx1100", "v_add_f32 v{d}, v1, v2") == 21
    assert cycles("gfx1100", "v_add_nc_u16 v{d}, v1, v2") == 21
    assert cycles("gfx1100", "v_dot2_f32_f16 v{d}, v1, v2, v{d}") == 21
    assert cycles("gfx1100", "v_xor_b32 v{d}, v1, v2") == 41
    assert cycles("gfx1030", "v_add_f32 v{d}, v1, v2") == 41
