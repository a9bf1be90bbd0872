"""`amdgpu-lint occupancy`: the calculator agrees with the kernel report, its --limits match
LLVM 22's transition points, TeraScale follows seed 000, and impossible inputs are errors."""

import json
import xml.etree.ElementTree as ElementTree

import pytest
import test_occupancy_differential as differential
from amdgpu_lint.analyses.calculator import Request, gcn_inputs, gcn_result, terascale
from amdgpu_lint.cli import main
from amdgpu_lint.model.targets import parse_target_id


def test_calculator_matches_the_kernel_report_on_every_differential_kernel():
    checked = 0
    for (target, variant), result in differential.compiled().items():
        _, resources = differential.ours(result["asm"], differential.VARIANTS[variant].get("wg"))
        inputs = resources.inputs
        processor = parse_target_id(target)
        request = Request(vgprs=min(inputs.vgprs, 256) if processor.agpr_file != "unified" else inputs.vgprs,
                          sgprs=inputs.sgprs, lds_bytes=inputs.lds_bytes, wg_size=(inputs.smallest_wg, inputs.wg_size),
                          wave_size=inputs.wave_size, cumode=inputs.cumode)
        if request.vgprs > 256:  # the unified file: give the rest as AGPRs
            request = Request(256, inputs.vgprs - 256, inputs.sgprs, inputs.lds_bytes, request.wg_size, inputs.wave_size)
        document = gcn_result(processor, gcn_inputs(processor, request), with_limits=False)
        assert document["waves_per_simd"] == resources.occupancy.waves_per_simd, (target, inputs)
        checked += 1
    assert checked >= 200


@pytest.mark.parametrize(
    "target, wave, vgprs, sgprs",
    [
        ("gfx900", 64, {10: 24, 9: 28, 8: 32, 7: 36, 6: 40, 5: 48, 4: 64, 3: 84, 2: 128, 1: 256}, {10: 80, 9: 88, 8: 100}),
        ("gfx90a", 64, {8: 64, 7: 72, 6: 80, 5: 96, 4: 128, 3: 168, 2: 256, 1: 512}, {8: 100, 7: 108}),
        ("gfx1030", 32, {16: 64, 12: 80, 10: 96, 9: 112, 8: 128, 7: 144, 6: 160, 5: 192, 4: 256}, {}),
        ("gfx1100", 32, {16: 96, 12: 120, 10: 144, 9: 168, 8: 192, 7: 216, 6: 240, 5: 256}, {}),
        ("gfx701", 64, {10: 24}, {10: 48, 9: 56, 8: 64, 7: 72, 6: 80}),
    ],
)
def test_limits_match_llvm_transition_points(target, wave, vgprs, sgprs):
    processor = parse_target_id(target)
    rows = {row["waves_per_simd"]: row for row in gcn_result(processor, gcn_inputs(processor, Request(wave_size=wave)), True)["thresholds"]}
    for waves, most in vgprs.items():
        assert rows[waves]["max_vgprs"] == most, (waves, rows[waves])
    for waves, most in sgprs.items():
        assert rows[waves]["max_sgprs"] == most
    if not processor.sgprs_limit_occupancy:
        assert all(row["max_sgprs"] is None for row in rows.values())


def test_terascale_worked_examples_from_seed_000():
    assert terascale(registers=8, lds_bytes=0, wg_size=64)["wavefronts_per_cu"] == 8  # one wavefront per group
    assert terascale(registers=8, lds_bytes=0, wg_size=128, max_waves_cu=32)["wavefronts_per_cu"] == 16
    assert terascale(registers=64, lds_bytes=0, wg_size=256)["wavefronts_per_cu"] == 4  # 16384 / (64*64)
    assert terascale(registers=8, lds_bytes=16384, wg_size=128)["limiter"] == ["LDS"]  # 2 groups fit


@pytest.mark.parametrize(
    "argv, complaint",
    [
        (["--mcpu", "gfx900", "--vgprs", "300"], "at most 256"),
        (["--mcpu", "gfx1030", "--agprs", "4"], "has no AGPRs"),
        (["--mcpu", "gfx90a", "--vgprs", "256", "--agprs", "257"], "at most 256"),
        (["--mcpu", "gfx900", "--sgprs", "200"], "SGPRs"),
        (["--mcpu", "gfx90a", "--lds", "70000"], "at most 65536"),
        (["--mcpu", "gfx900", "--wave32"], "does not run wave32"),
        (["--mcpu", "gfx900", "--cumode"], "no CU mode"),
        (["--mcpu", "gfx943"], "did you mean gfx942"),
        ([], "needs --mcpu"),
        (["--arch", "terascale", "--wg-size", "512"], "1 to 256"),
        (["--arch", "terascale", "--wg-size", "64,128"], "not a range"),
        (["--mcpu", "gfx90a", "--wg-size", "256,64"], "smallest first"),
        (["--mcpu", "gfx90a", "--wg-size", "1,2048"], "1 to 1024"),
    ],
)
def test_impossible_inputs_are_clear_errors(argv, complaint, capsys):
    try:
        status = main(["occupancy", *argv])
    except SystemExit as error:  # argparse rejects a malformed option value itself
        status = error.code
    assert status == 2
    assert complaint in capsys.readouterr().err


def test_text_json_and_plot(tmp_path, capsys):
    argv = ["occupancy", "--mcpu", "gfx90a", "--vgprs", "64", "--agprs", "1", "--lds", "16384", "--wg-size", "256"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("gfx90a: 4 of 8 waves/SIMD") and "LDS                 4  <- limiter" in out
    assert main([*argv, "--format", "json", "--limits", "--plot", str(tmp_path / "w.svg")]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["limits"]["VGPR+AGPR"] == 7 and document["thresholds"][0] == {
        "waves_per_simd": 8, "max_vgprs": 64, "max_sgprs": 100, "max_lds_bytes": 8192,
        "llvm_max_lds_bytes": 8192}
    assert ElementTree.parse(tmp_path / "w.svg").getroot().tag.endswith("svg")


def test_a_range_of_work_group_sizes_gives_llvms_figure_and_its_spread(capsys):
    # llvm-amdgpu-facts.md §1.3b: 16 KiB of LDS on gfx90a, work-groups of 1..1024 -> 8 (LLVM's figure)
    argv = ["occupancy", "--mcpu", "gfx90a", "--vgprs", "2", "--lds", "16384", "--wg-size", "1,1024"]
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["waves_per_simd"] == 8 and document["inputs"]["wg_size_min"] == 1
    assert document["over_sizes"] == {"fewest": 1, "fewest_at": 64, "most": 8, "most_at": 512, "at_256": 4}
    assert main(argv) == 0
    assert "(LLVM's figure for work-groups of 1..1024; 8 at 512, 4 at 256, 1 at 64: pass one size)" in capsys.readouterr().out
    assert main([*argv[:-1], "256"]) == 0  # pinned: one size, no spread to explain
    out = capsys.readouterr().out
    assert out.startswith("gfx90a: 4 of 8 waves/SIMD") and "LLVM's figure for work-groups" not in out
