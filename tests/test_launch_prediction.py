"""The whole launch's predicted time (perfmodel/predict.py) on a device's memory system (perfmodel/memory.py):
probe kernels whose answer follows from first principles (a streaming loop at the device's sustained DRAM bandwidth, an MFMA
loop at its pass count, a VALU loop at its issue rate), rounds of work-groups with their tail, the steady-state
extrapolation against simulating every trip, and a development set of published measurements (not fitted)."""

import json
import math
from pathlib import Path

import pytest
from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.analyses.perfmodel.machine import sustained_dram
from amdgpu_lint.analyses.perfmodel.mainloop import main_loop_cost
from amdgpu_lint.analyses.perfmodel.memory import hit_rate, memory_system
from amdgpu_lint.analyses.perfmodel.predict import STEADY, STEP, predict, steady_simulation
from amdgpu_lint.analyses.perfmodel.simulator import simulate, trace
from amdgpu_lint.cli import main
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import read_source
from amdgpu_lint.model.devices import DEVICES, Launch, find_device
from amdgpu_lint.outputs.report_text import model_lines

GEMM = Path(__file__).parent.parent / "fixtures" / "examples" / "handwritten" / "gemm_pipeline_gfx942.s"

KERNEL = """.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dwordx4 s[8:11], s[0:1], 0x0
  v_lshlrev_b32 v1, 4, v0
  s_mov_b32 s2, 64
  s_waitcnt lgkmcnt(0)
.Lloop:
{body}  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 .Lloop
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr {vgprs}
  .amdhsa_next_free_sgpr 16
{extra}.end_amdhsa_kernel
"""
#: four 1 KiB wave64 loads a trip, each lane 16 bytes further on, then the next 4 KiB
STREAM = "".join(f"  buffer_load_dwordx4 v[{4 + 4 * i}:{7 + 4 * i}], v1, s[8:11], 0 offen offset:{1024 * i}\n"
                 for i in range(4)) + "  s_waitcnt vmcnt(0)\n  v_add_u32_e32 v1, 0x1000, v1\n"
FMACS = "".join(f"  v_fmac_f32 v{2 + i}, v20, v21\n" for i in range(16))
MFMAS = "".join(f"  v_mfma_f32_32x32x8_f16 a[{16 * i}:{16 * i + 15}], v[2:3], v[4:5], a[{16 * i}:{16 * i + 15}]\n"
                for i in range(4))


def kernel(cpu: str, body: str, vgprs: int = 24, extra: str = "") -> str:
    if cpu.startswith("gfx9") and "accum_offset" not in extra:
        extra += f"  .amdhsa_accum_offset {min(vgprs, 24) // 4 * 4}\n"
    return KERNEL.format(cpu=cpu, body=body, vgprs=vgprs, extra=extra)


def stream(device: str) -> str:
    """The streaming probe for the device's processor, 4 waves per SIMD."""
    return kernel(find_device(device).processor, STREAM, vgprs=128)


def launch(snippet, text: str, device: str, grid: int, wg_size: int = 256, trips: int = 1024, **options):
    module = snippet.build(text, wg_size=(wg_size, wg_size))
    found = find_device(device)
    prediction = predict(module, module.kernels[0], Launch((grid, 1, 1), found.compute_units, found.name), found,
                         trip_counts={".Lloop": trips}, taken={}, **options)
    return module, prediction


def test_every_device_has_a_clock_and_bandwidth():
    """The prediction needs both; the memory latencies are there for the CDNA2+ and RDNA products."""
    for device in DEVICES.values():
        assert device.clock_mhz > 0 and device.memory_gbs > 0 and device.l2_bytes > 0, device.name
        assert device.source
    mi300x = find_device("MI300X")
    # 5.3 TB/s at 2.1 GHz: 2524 bytes a cycle for the whole device
    assert mi300x.bytes_per_cycle == pytest.approx(5300e9 / 2100e6)


def test_the_hit_rate_model():
    """No reuse (working set = requested): every byte misses. A working set read 4 times that fits the L2: the three
    re-reads hit. Twice the L2: half of the re-reads hit."""
    assert hit_rate(1000, 1000, 10_000) == 0
    assert hit_rate(4000, 1000, 10_000) == pytest.approx(0.75)
    assert hit_rate(4000, 1000, 500) == pytest.approx(0.75 * 0.5)
    mi300x = find_device("MI300X")
    memory = memory_system(mi300x, 304, 4000, 1000, 320)
    assert memory.latency == round(0.75 * 288 + 0.25 * 880)
    # the sustained rate (BabelStream's 4177 GB/s), not the 5.3 TB/s peak, shared by the 304 CUs
    assert memory.bytes_per_cycle == pytest.approx(4177.285e9 / 2100e6 / 304)
    assert memory.dram_measured and memory.to_json()["dram_rate"] == "sustained (measured)"


def test_sustained_dram_facts():
    """Every measured streaming rate belongs to a known product, carries its source and lies below the product's
    spec peak (70-80% of it: what DRAM refresh, page misses and the fabric leave); a product without one (the
    RDNA cards, MI355X) keeps its spec peak and says so."""
    measured = [name for name in ("MI100", "MI210", "MI250", "MI250X", "MI300A", "MI300X", "MI325X", "MI355X",
                                  "RX 7900 XTX", "RX 9070 XT") if sustained_dram(name)]
    assert measured == ["MI100", "MI210", "MI250", "MI250X", "MI300A", "MI300X"]
    for name in measured:
        device, rate = find_device(name), sustained_dram(name)
        assert device is not None and "BabelStream" in rate.source
        assert 0.6 * device.memory_gbs < rate.gbs < 0.85 * device.memory_gbs, name
    xtx = find_device("RX 7900 XTX")
    memory = memory_system(xtx, 96, 1000, None, 320)
    assert not memory.dram_measured and memory.dram_gbs == 960 and memory.to_json()["dram_rate"] == "spec peak"
    assert memory.bytes_per_cycle == pytest.approx(xtx.bytes_per_cycle / 96)


# ---------------------------------------------------------------- probes with first-principles answers

@pytest.mark.parametrize("device", ["MI300X", "MI210"])
def test_a_streaming_loop_runs_at_the_devices_bandwidth(snippet, device):
    """Every CU full (128 VGPRs: 4 waves per SIMD, 4 work-groups of 4 waves), two rounds, each wave streaming 1024
    trips x 4 KiB: the launch moves 2 x CUs x 4 x 4 x 4 MiB, and no reuse means all of it comes from DRAM. The time
    is bytes / the device's sustained bandwidth (its published streaming rate, machines.json), plus per round the
    time for the first loads to come back and the last wave to finish (one DRAM latency, ~900 cycles, and a trip)
    against ~8 million cycles of streaming: within 0.5%, and never faster
    than the bandwidth by more than the steady-state tolerance (0.25%: a DRAM-bound loop is steady only on
    average, predict.STEADY)."""
    found = find_device(device)
    grid = 2 * found.compute_units * 4
    _, prediction = launch(snippet, stream(device), device, grid)
    requested = grid * 4 * 1024 * 4 * 1024
    ideal_ms = requested / (sustained_dram(device).gbs * 1e9) * 1e3
    assert prediction.slots == found.compute_units * 4 and [r.count for r in prediction.rounds] == [2]
    assert ideal_ms * (1 - STEADY) <= prediction.milliseconds < ideal_ms * 1.005
    assert prediction.bound == "memory bandwidth" and prediction.bounds["memory bandwidth"] > 0.99
    assert prediction.rounds[0].simulation.memory.hit_rate == 0


def test_a_working_set_that_fits_the_l2_is_not_bandwidth_bound(snippet):
    """The same stream over a 1 MiB working set (each byte read many times over) hits the L2 nearly always: the
    DRAM share is not the bound, the CU's own request rate is (32 cycles per 1 KiB request), and loads take the L2's
    latency."""
    grid = 2 * 304 * 4
    _, streaming = launch(snippet, stream("MI300X"), "MI300X", grid)
    _, cached = launch(snippet, stream("MI300X"), "MI300X", grid, working_set=1 << 20)
    memory = cached.rounds[0].simulation.memory
    assert memory.hit_rate > 0.99 and memory.latency < 300
    assert cached.milliseconds < streaming.milliseconds / 2
    assert cached.bounds["memory bandwidth"] < 0.05


@pytest.mark.parametrize(("cpu", "device"), [("gfx942", "MI300X"), ("gfx90a", "MI210")])
def test_an_mfma_loop_runs_at_its_pass_count(snippet, cpu, device):
    """Four independent accumulators a trip: each SIMD's matrix pipe runs its waves' MFMAs back to back, so a round
    takes (waves per SIMD) x trips x 4 MFMAs x passes x 4 cycles, the passes from the repository's MFMA tables;
    the prologue and the scalar latch (issued while the pipe works) add well under 1%."""
    text = kernel(cpu, MFMAS, vgprs=8 + 64, extra="  .amdhsa_accum_offset 8\n")
    found = find_device(device)
    module = snippet.build(text, wg_size=(64, 64))
    manager = AnalysisManager(module, module.kernels[0])
    passes = {info.klass.passes for info in manager.get(DefUseAnalysis).per_instruction if info.klass.passes}
    (pass_count,) = passes
    module, probe = launch(snippet, text, device, 1, wg_size=64)
    grid = 3 * probe.slots
    module, prediction = launch(snippet, text, device, grid, wg_size=64)
    waves_per_simd = math.ceil(prediction.rounds[0].simulation.waves / 4)
    round_cycles = waves_per_simd * 1024 * 4 * pass_count * 4
    assert [r.count for r in prediction.rounds] == [3]
    assert prediction.cycles == pytest.approx(3 * round_cycles, rel=0.01)
    assert prediction.milliseconds == pytest.approx(3 * round_cycles / (found.clock_mhz * 1e3), rel=0.01)
    assert prediction.bound == "MFMA"


@pytest.mark.parametrize(("cpu", "device", "issue"), [("gfx942", "MI300X", 4), ("gfx1100", "RX 7900 XTX", 1)])
def test_a_valu_loop_runs_at_its_issue_rate(snippet, cpu, device, issue):
    """16 independent full-rate VALUs a trip: every SIMD issues one VALU per `issue` cycles (a wave64 SIMD16 turn
    every 4 cycles; an RDNA SIMD32 every cycle), its waves taking turns, so a round takes (waves per SIMD) x trips x
    16 x issue cycles; the latch's scalar and branch hide behind other waves' VALUs (2% allowed for the prologue and
    the last trip's latch)."""
    text = kernel(cpu, FMACS)
    _, probe = launch(snippet, text, device, 1, wg_size=64)
    _, prediction = launch(snippet, text, device, probe.slots, wg_size=64)
    simds = 4
    waves = prediction.rounds[0].simulation.waves
    round_cycles = math.ceil(waves / simds) * 1024 * 16 * issue
    assert prediction.rounds[0].simulation.cycles == pytest.approx(round_cycles, rel=0.02)
    assert prediction.bound == "VALU issue" and prediction.bounds["VALU issue"] > 0.95


# ---------------------------------------------------------------- rounds of work-groups and their tail

def test_rounds_and_the_tail(snippet, capsys):
    """gfx1100, 128 VGPRs, 256-item work-groups: 5 per WGP, 240 at once on the RX 7900 XTX's 48 WGPs; 1000 of them
    are 4 full rounds and a tail of 40, one work-group on each of 40 WGPs (the DRAM shared by 80 CUs instead of 96).
    The time is 4 x the full round + the tail, at 2500 MHz."""
    text = kernel("gfx1100", FMACS + STREAM, vgprs=128)
    _, prediction = launch(snippet, text, "RX 7900 XTX", 1000, trips=64)
    document = prediction.to_json()
    assert (document["workgroups_at_once"], document["full_rounds"], document["tail_workgroups"]) == (240, 4, 40)
    full, tail = prediction.rounds
    assert (full.workgroups_per_unit, full.busy_units, full.count) == (5, 48, 4)
    assert (tail.workgroups_per_unit, tail.busy_units, tail.count) == (1, 40, 1)
    assert tail.simulation.memory.busy_cus == 80 and full.simulation.memory.busy_cus == 96
    assert prediction.cycles == 4 * full.simulation.cycles + tail.simulation.cycles
    assert prediction.milliseconds == pytest.approx(prediction.cycles / 2.5e6)
    assert sum(document["bounds"].values()) > 0 and document["bound"] in document["bounds"]


def test_the_report_gives_the_launch_time(snippet, capsys):
    """`report --simulate --grid --wg-size --device`: simulation.predicted_ms in JSON, a line in text and HTML; the
    simulation shown is the first round's, with the device's memory system."""
    path = snippet.write(stream("MI300X"))
    flags = ["report", "--no-config", "--simulate", "--wg-size", "256", "--grid", "2432", "--device", "MI300X",
             "--trip-count", ".Lloop=1024", str(path)]
    assert main([*flags, "--format", "json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    simulation = report["simulation"]
    assert simulation["predicted_ms"] == simulation["launch"]["predicted_ms"] > 0
    assert simulation["launch"]["bound"] == "memory bandwidth" and simulation["waves"] == 16
    assert simulation["memory"]["device"] == "MI300X" and "DRAM" in simulation["utilization"]
    assert simulation["memory"]["dram_gbs"] == 4177.285 and simulation["memory"]["dram_rate"] == "sustained (measured)"
    assert simulation["extrapolated"]["trips_per_entry"] == 1024 and simulation["extrapolated"]["steady"]
    assert simulation["path"]["trips"] == {".Lloop": 1024}
    assert main(flags) == 0
    text = capsys.readouterr().out
    assert "  launch time:   " in text and "ms predicted on MI300X at 2100 MHz: 2432 work-groups, 1216 at once: " \
        "2 full round(s)" in text and "bound by memory bandwidth" in text
    assert "    memory: L2 hit rate 0%" in text and "    steady state: the loop at line" in text
    assert "(304 CUs share MI300X's 4177.28 GB/s, sustained (measured))" in text
    output = snippet.directory / "report.html"
    assert main([*flags, "--format", "html", "--output", str(output)]) == 0
    assert "<b>Launch time</b>:" in output.read_text()


def test_without_a_device_the_simulation_is_unchanged(snippet, capsys):
    """--cus alone gives no clock: no predicted time, and the simulation is the latency table's as before."""
    path = snippet.write(kernel("gfx942", STREAM))
    assert main(["report", "--no-config", "--simulate", "--format", "json", "--wg-size", "256", "--grid", "100",
                 "--cus", "304", str(path)]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    assert "predicted_ms" not in report["simulation"] and "memory" not in report["simulation"]
    assert "DRAM" not in report["simulation"]["utilization"]


# ---------------------------------------------------------------- the steady state against every trip

@pytest.mark.parametrize("trips", [200, 333])
def test_extrapolating_the_steady_state_matches_simulating_every_trip(snippet, trips):
    """The seed GEMM (MFMA, LDS, VMEM, barriers) for 200 and 333 trips, every trip simulated against the steady
    state extended: within 1% (here it is exact to the cycle: the loop repeats to the cycle), in a few simulated
    trips."""
    module = snippet.build(GEMM.read_text(), "gemm.s")
    full = simulate(module, module.kernels[0], 4, trip_counts={".Lloop": trips})
    quick = steady_simulation(module, module.kernels[0], 4, trip_counts={".Lloop": trips}, taken={})
    assert quick.extrapolated["steady"] and max(quick.extrapolated["simulated_trips"]) <= 4 * STEP
    assert quick.cycles == pytest.approx(full.cycles, rel=0.01)
    assert quick.utilization["MFMA"] == pytest.approx(full.utilization["MFMA"], rel=0.01)
    assert sum(quick.stalls.values()) == pytest.approx(sum(full.stalls.values()), rel=0.01)
    assert quick.path.trips == full.path.trips


def test_extrapolating_a_memory_bound_loop(snippet):
    """The streaming probe with the MI300X's memory system, 16 waves, 300 trips: simulated whole vs extended."""
    module = snippet.build(stream("MI300X"))
    memory = memory_system(find_device("MI300X"), 304, 1, None, 650)
    full = simulate(module, module.kernels[0], 16, trip_counts={".Lloop": 300}, memory=memory)
    quick = steady_simulation(module, module.kernels[0], 16, trip_counts={".Lloop": 300}, taken={}, memory=memory)
    assert quick.extrapolated is not None and quick.cycles == pytest.approx(full.cycles, rel=0.01)


def test_a_4096_trip_gemm_launch_simulates_few_trips(snippet):
    """The whole-launch prediction of the seed GEMM at 4096 trips simulates a handful of trips per round (the cost
    that keeps it to seconds) and stays MFMA-bound when its tiles are re-read from the L2 (a working set of 4 MiB,
    one XCD's L2)."""
    module = snippet.build(GEMM.read_text(), "gemm.s", wg_size=(256, 256))
    device = find_device("MI300X")
    prediction = predict(module, module.kernels[0], Launch((1000, 1, 1), 304, "MI300X"), device,
                         trip_counts={".Lloop": 4096}, taken={}, working_set=4 << 20)
    for round_ in prediction.rounds:
        assert max(round_.simulation.extrapolated["simulated_trips"]) <= 4 * STEP
        assert round_.simulation.extrapolated["trips_per_entry"] == 4096
    # 4096 trips x 64 MFMAs x 32 cycles at least, per round
    assert prediction.rounds[0].simulation.cycles >= 4096 * 64 * 32
    assert prediction.bound == "MFMA"


# ---------------------------------------------------------------- development set: published measurements

#: (device, measured DRAM read bandwidth in GB/s, source). Each is a read-streaming micro-benchmark on real
#: hardware; they are compared, never fitted: the model uses the product's sustained rate from another source.
MEASURED = [
    ("MI300X", 3689.67 * 1.073741824, ("mt4g sample results, caps-tum/mt4g sample_results/AMD Instinct MI300X VF/"
                                       "README.md: main readBandwidth 3689.67 GiB/s (an SR-IOV VF at 2100 MHz)")),
    ("MI210", 1085.42 * 1.073741824, ("mt4g sample results, caps-tum/mt4g sample_results/AMD Instinct MI210/"
                                      "README.md: main readBandwidth 1085.42 GiB/s")),
]


@pytest.mark.parametrize(("device", "measured_gbs", "source"), MEASURED)
def test_development_set_streaming_read(snippet, device, measured_gbs, source):
    """The streaming probe's predicted bandwidth against a measured one. The model streams at the product's
    sustained rate from a different measurement (AMD's BabelStream acceptance minima: MI300X 4177 GB/s, MI210 1230
    GB/s; machines.json), never from these: it predicts the mt4g reads 1.055x faster on both (before the sustained
    rates, at the spec peak, 1.33x and 1.41x). The test holds the issue's bar (within 1.4x) and pins today's gap
    (prediction faster, by less than 1.1x) so a change to the model that moves it shows; what is left is the
    difference between a read-only stream and BabelStream's best kernel."""
    found = find_device(device)
    grid = 2 * found.compute_units * 4
    _, prediction = launch(snippet, stream(device), device, grid)
    requested = grid * 4 * 1024 * 4 * 1024
    measured_ms = requested / (measured_gbs * 1e9) * 1e3
    assert prediction.milliseconds < measured_ms < 1.1 * prediction.milliseconds < 1.4 * prediction.milliseconds, \
        source


def test_the_working_set_option(snippet, capsys):
    """--working-set takes bytes with K/M/G (powers of 1024) and reaches the memory system; a bad size is a usage
    error, not a traceback."""
    path = snippet.write(stream("MI300X"))
    flags = ["report", "--no-config", "--simulate", "--format", "json", "--wg-size", "256", "--grid", "1216",
             "--device", "MI300X", "--trip-count", ".Lloop=32", str(path)]
    assert main([*flags, "--working-set", "64M"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    assert report["simulation"]["memory"]["working_set_bytes"] == 64 << 20
    with pytest.raises(SystemExit) as exit_:
        main([*flags, "--working-set", "lots"])
    assert exit_.value.code == 2 and "expected a byte count such as 64M" in capsys.readouterr().err


def test_a_tail_as_deep_as_a_full_round_is_still_a_tail(snippet):
    """1216 work-groups at once on the MI300X (4 per CU); 2216 of them are one full round and a tail of 1000, which
    puts 4 on most CUs like a full round: the report still counts 1 full round and a tail of 1000 (it said 2 and
    -216), and that tail is simulated once with the full round, not again."""
    _, prediction = launch(snippet, stream("MI300X"), "MI300X", 2216, trips=16)
    document = prediction.to_json()
    assert (document["workgroups_at_once"], document["full_rounds"], document["tail_workgroups"]) == (1216, 1, 1000)
    full, tail = prediction.rounds
    assert (tail.workgroups_per_unit, tail.busy_units) == (4, 304) and tail.simulation is full.simulation
    assert prediction.cycles == 2 * full.simulation.cycles


# ---------------------------------------------------------------- the Tensile-style DGEMM fixture

DGEMM = Path(__file__).parent.parent / "fixtures" / "handwritten" / "tensile_dgemm_gfx90a.s"
DGEMM_LOOP = "label_LoopBeginL"


def dgemm_for(cpu: str, directory: Path) -> Path:
    """The fixture built for `cpu` (gfx942 accepts its gfx90a MFMA spelling), next to the header it includes."""
    common = DGEMM.parent / "tensile_common.inc"
    (directory / common.name).write_text(common.read_text())
    path = directory / f"tensile_dgemm_{cpu}.s"
    path.write_text(DGEMM.read_text().replace('"amdgcn-amd-amdhsa--gfx90a"', f'"amdgcn-amd-amdhsa--{cpu}"'))
    return path


@pytest.mark.parametrize("cpu", ["gfx90a", "gfx942"])
def test_the_dgemm_fixture_assembles_and_lints_clean(tmp_path, capsys, cpu):
    """LLVM 22 assembles it for both targets without a diagnostic, and `check` finds nothing on it."""
    import shutil
    import subprocess

    path = dgemm_for(cpu, tmp_path)
    assert main(["check", "--no-config", str(path)]) == 0, capsys.readouterr().out
    if shutil.which("llvm-mc-22") is None:
        pytest.skip("llvm-mc-22 is not installed (Debian's llvm-22)")
    run = subprocess.run(["llvm-mc-22", "-triple", "amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-filetype=obj", "-I",
                          str(tmp_path), str(path), "-o", str(tmp_path / "k.o")], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0 and run.stderr == "", run.stderr


@pytest.mark.parametrize("cpu", ["gfx90a", "gfx942"])
def test_the_dgemm_main_loop_is_mfma_bound(tmp_path, capsys, cpu):
    """`report --simulate` on the DGEMM: 2 work-groups of 4 waves on one CU (204 VGPRs+AGPRs and 32 KiB of LDS each
    allow 2), each wave 32 v_mfma_f64_16x16x4f64 a trip (32 cycles each on gfx90a and gfx942: 2 waves x 1024 cycles
    on each SIMD's matrix pipe) against 4 KiB of buffer loads (the CU's request rate: 8 waves x 4 x 32 = 1024
    cycles): MFMA-bound, its main loop's largest cost the MFMA pipe's 2048 cycles a trip, and the trip within
    2048-2731 cycles (75-100% of the pipe; the rest is the barrier the two work-groups' LDS stores wait at: 2584
    today)."""
    path = dgemm_for(cpu, tmp_path)
    assert main(["report", "--no-config", "--simulate", "--format", "json", "--wg-size", "256", "--trip-count",
                 f"{DGEMM_LOOP}=64", str(path)]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    simulation = report["simulation"]
    assert simulation["waves"] == 8 and simulation["path"]["trips"] == {DGEMM_LOOP: 64}
    assert simulation["bottleneck"].startswith("MFMA-bound"), simulation["bottleneck"]
    module = build_module(read_source(path), BuildOptions(wg_size=(256, 256)))
    cost = main_loop_cost(module, module.kernels[0], 8)
    assert cost is not None and cost.label == DGEMM_LOOP
    assert 2048 <= cost.cycles_per_trip <= 2048 / 0.75
    assert max(cost.bounds, key=cost.bounds.get) == "MFMA pipe" and cost.bounds["MFMA pipe"] == 2048, cost.bounds


def test_the_dgemm_launch_from_its_arguments(tmp_path, capsys):
    """The whole launch on the MI210 with K given as a kernel argument: the loop runs K / 8 - 1 = 127 trips (the last
    tile is Tensile's NoLoadLoop), derived from `k`; with its tiles re-read from the L2 (a 4 MiB working set) the
    launch is MFMA-bound; 64 x 64 work-groups at 208 at once are 19 full rounds and a tail of 144."""
    path = dgemm_for("gfx90a", tmp_path)
    assert main(["report", "--no-config", "--simulate", "--format", "json", "--wg-size", "256", "--grid", "64,64",
                 "--device", "MI210", "--kernarg", "k=1024", "--working-set", "4M", str(path)]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    simulation = report["simulation"]
    (loop,) = simulation["path"]["loops"]
    assert (loop["label"], loop["trips"], loop["from_kernargs"]) == (DGEMM_LOOP, 127, True)
    launch_ = simulation["launch"]
    assert launch_["bound"] == "MFMA" and (launch_["full_rounds"], launch_["tail_workgroups"]) == (19, 144)


def test_a_loop_the_arguments_decide_is_counted_past_the_path_cap(snippet):
    """K = 32768 gives 4095 trips of ~72 instructions, past the path's 200,000-instruction cap: the path stops at
    the cap (and says so), but the trips are counted to the loop's end, so a launch extends the right number (the
    count stopped at the cap, 2777, before)."""
    module = snippet.build(DGEMM.read_text().replace('.include "tensile_common.inc"',
                                                     (DGEMM.parent / "tensile_common.inc").read_text()))
    manager = AnalysisManager(module, module.kernels[0])
    path = trace(manager, {}, {}, {"k": 32768})
    (loop,) = path.loops
    assert (loop.trips, loop.from_kernargs, path.truncated) == (4095, True, True)
    assert len(path.indices) < 201_000


def test_work_groups_at_different_paces_extend_phase_by_phase(snippet):
    """The DGEMM's 2 work-groups on a CU do not keep pace: oldest-first issue runs the older one at 1648 cycles a trip
    and the younger at twice that until the older finishes; then the younger runs alone (1628 a trip). Extended
    phase by phase (each work-group's pace until the fastest finish, then the drain), 80 trips from runs of 16 and
    32 match simulating every trip within 1% (to the cycle today); extended at the mixed pace they were 5% short
    at 1024 trips."""
    module = snippet.build(DGEMM.read_text().replace('.include "tensile_common.inc"',
                                                     (DGEMM.parent / "tensile_common.inc").read_text()),
                           wg_size=(256, 256))
    kernel_ = module.kernels[0]
    full = simulate(module, kernel_, 8, trip_counts={DGEMM_LOOP: 80})
    quick = steady_simulation(module, kernel_, 8, trip_counts={DGEMM_LOOP: 80}, taken={})
    steady = quick.extrapolated
    assert steady is not None and steady["steady"] and max(steady["simulated_trips"]) <= 2 * STEP
    assert quick.cycles == pytest.approx(full.cycles, rel=0.01)
    (first, drain) = steady["workgroup_paces"]
    assert first["finishing"] == [0] and drain["finishing"] == [1] and set(drain["cycles_per_trip"]) == {"1"}
    assert first["cycles_per_trip"]["1"] == pytest.approx(2 * first["cycles_per_trip"]["0"], rel=0.05)
    assert quick.path.trips == full.path.trips and quick.utilization["MFMA"] == pytest.approx(
        full.utilization["MFMA"], rel=0.01)
    (line,) = [line for line in model_lines(quick.to_json()) if line.startswith("steady state:")]
    assert "; work-groups at different paces: 0 at 1648, 1 at 3296 cycles/trip until 0 finish, then 1 at" in line


def test_a_hand_over_that_grows_with_the_trips(snippet):
    """The streaming probe over a 1 MiB working set (L2 hits, the CU's request rate the limit), 4 work-groups of 4
    waves: oldest-first issue runs the three older ones at 416 cycles a trip and starves the fourth (1664) until they
    finish; it then waits a time that grows with the trips before it runs alone at 516. The paces alone miss that
    wait; the cycles a trip adds between runs of 16, 32 and 64 trips catch it: 150 trips extended match simulating
    every trip within 1% (the unit's mixed pace was 0.19% short)."""
    module = snippet.build(stream("MI300X"), wg_size=(256, 256))
    memory = memory_system(find_device("MI300X"), 304, 1 << 40, 1 << 20, 650)
    full = simulate(module, module.kernels[0], 16, trip_counts={".Lloop": 150}, memory=memory)
    quick = steady_simulation(module, module.kernels[0], 16, trip_counts={".Lloop": 150}, taken={}, memory=memory)
    steady = quick.extrapolated
    assert steady is not None and steady["steady"] and max(steady["simulated_trips"]) <= 4 * STEP
    assert [phase["finishing"] for phase in steady["workgroup_paces"]] == [[0, 1, 2], [3]]
    assert quick.cycles == pytest.approx(full.cycles, rel=0.01)


def test_a_4096_trip_dgemm_launch_simulates_few_trips(tmp_path, capsys):
    """The DGEMM's launch on the MI210 at K = 32776 (4096 trips, derived from `k`) reaches its steady state in runs
    of 16 and 32 trips (its work-groups' paces repeat): no 'not steady' warning, and the loop still says its trips
    came from the kernel arguments."""
    path = dgemm_for("gfx90a", tmp_path)
    assert main(["report", "--no-config", "--simulate", "--format", "json", "--wg-size", "256", "--grid", "64,64",
                 "--device", "MI210", "--kernarg", "k=32776", "--working-set", "4M", str(path)]) == 0
    (report,) = json.loads(capsys.readouterr().out)["kernels"]
    simulation = report["simulation"]
    steady = simulation["extrapolated"]
    assert steady["steady"] and steady["trips_per_entry"] == 4096 and max(steady["simulated_trips"]) <= 2 * STEP
    assert not any("steady" in warning for warning in simulation["launch"]["warnings"])
    (loop,) = simulation["path"]["loops"]
    assert (loop["trips"], loop["from_kernargs"]) == (4096, True)
    assert simulation["launch"]["bound"] == "MFMA"
