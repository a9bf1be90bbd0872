"""The occupancy engine against LLVM 22's published transition points (facts §1.3-§1.5),
one test per pitfall hand-written calculators get wrong."""

import re

import pytest
from amdgpu_lint.analyses.occupancy import (
    LDS,
    Inputs,
    achieved_waves,
    largest_lds_for,
    max_vgprs_for,
    occupancy,
    resource_limits,
    size_spread,
    total_vgprs_used,
    waves_with_sgprs,
    waves_with_vgprs,
    what_if,
)
from dataclasses import replace
from amdgpu_lint.model.targets import extra_sgprs, parse_target_id


def transitions(target: str, wave: int) -> list[tuple[int, int]]:
    processor = parse_target_id(target)
    points = what_if(processor, Inputs(1, 16, 0, wave, wave))["vgprs"]["combined"]
    return [point for point in points if point[0] <= (256 if processor.addressable_vgprs == 256 else 512)]


@pytest.mark.parametrize(
    "target, wave, expected",
    [
        ("gfx900", 64, [(1, 10), (25, 9), (29, 8), (33, 7), (37, 6), (41, 5), (49, 4), (65, 3), (85, 2), (129, 1)]),
        ("gfx908", 64, [(1, 10), (25, 9), (29, 8), (33, 7), (37, 6), (41, 5), (49, 4), (65, 3), (85, 2), (129, 1)]),
        ("gfx90a", 64, [(1, 8), (65, 7), (73, 6), (81, 5), (97, 4), (129, 3), (169, 2), (257, 1)]),
        ("gfx950", 64, [(1, 8), (65, 7), (73, 6), (81, 5), (97, 4), (129, 3), (169, 2), (257, 1)]),
        ("gfx1010", 32, [(1, 20), (49, 18), (57, 16), (65, 14), (73, 12), (81, 11), (89, 10), (97, 9), (113, 8), (129, 7), (145, 6), (169, 5), (201, 4)]),
        ("gfx1030", 32, [(1, 16), (65, 12), (81, 10), (97, 9), (113, 8), (129, 7), (145, 6), (161, 5), (193, 4)]),
        ("gfx1030", 64, [(1, 16), (33, 12), (41, 10), (49, 9), (57, 8), (65, 7), (73, 6), (81, 5), (97, 4), (129, 3), (169, 2)]),
        # the gfx11 1.5x VGPR file (gfx1100/1101/1151, gfx12) against the 1024-VGPR parts (gfx1102/1103)
        ("gfx1100", 32, [(1, 16), (97, 12), (121, 10), (145, 9), (169, 8), (193, 7), (217, 6), (241, 5)]),
        ("gfx1201", 64, [(1, 16), (49, 12), (61, 10), (73, 9), (85, 8), (97, 7), (109, 6), (121, 5), (145, 4), (193, 3), (253, 2)]),
        ("gfx1102", 32, [(1, 16), (65, 12), (81, 10), (97, 9), (113, 8), (129, 7), (145, 6), (161, 5), (193, 4)]),
    ],
)
def test_vgpr_transitions_match_llvm(target, wave, expected):
    assert transitions(target, wave) == expected


def test_agpr_accounting():
    gfx90a, gfx908 = parse_target_id("gfx90a"), parse_target_id("gfx908")
    # unified file: arch VGPRs aligned to 4, then the AGPRs (LLVM: v1+a1 -> 5, v36+a37 -> 73, v256+a256 -> 512)
    assert [total_vgprs_used(gfx90a, v, a) for v, a in ((1, 1), (64, 1), (36, 37), (256, 256), (40, 0))] == [5, 65, 73, 512, 40]
    # separate files on gfx908: the larger of the two decides
    assert total_vgprs_used(gfx908, 10, 64) == 64 and waves_with_vgprs(gfx908, 64, 64) == 4
    # 65 unified registers cost gfx90a a wave; 64 arch + 0 AGPRs do not
    assert waves_with_vgprs(gfx90a, total_vgprs_used(gfx90a, 64, 1), 64) == 7
    assert waves_with_vgprs(gfx90a, total_vgprs_used(gfx90a, 64, 0), 64) == 8


@pytest.mark.parametrize(
    "target, sgprs, waves",
    [("gfx900", 80, 10), ("gfx900", 81, 9), ("gfx900", 88, 9), ("gfx900", 89, 8), ("gfx900", 100, 8), ("gfx900", 101, 7),
     ("gfx90a", 100, 8), ("gfx90a", 101, 7), ("gfx701", 48, 10), ("gfx701", 49, 9), ("gfx701", 81, 5), ("gfx1030", 106, 16)],
)
def test_sgpr_cliffs(target, sgprs, waves):
    assert waves_with_sgprs(parse_target_id(target), sgprs) == waves


def test_sgpr_extras():
    gfx900, gfx942, gfx803, gfx1030 = (parse_target_id(t) for t in ("gfx900", "gfx942", "gfx803", "gfx1030"))
    assert extra_sgprs(gfx900, vcc=False, flat_scratch=False, xnack=True) == 4  # xnack any: +4, VCC included
    assert extra_sgprs(gfx942, vcc=False, flat_scratch=False, xnack=True) == 6  # architected flat scratch
    assert extra_sgprs(gfx803, vcc=True, flat_scratch=False, xnack=False) == 2
    assert extra_sgprs(gfx1030, vcc=True, flat_scratch=True, xnack=False) == 2  # gfx10+: only VCC


@pytest.mark.parametrize(
    "target, wg, lds, cumode, waves",
    [
        ("gfx900", 1024, 0, False, 8), ("gfx90a", 448, 0, False, 7), ("gfx90a", 768, 0, False, 6),
        ("gfx1030", 576, 0, True, 9), ("gfx950", 64, 8192, False, 5), ("gfx90a", 256, 16384, False, 4),
        # LDS limits: gfx950's 160 KiB, gfx6's 32 KiB, WGP mode doubling LDS on gfx10+
        ("gfx942", 64, 8192, False, 2), ("gfx600", 64, 8192, False, 1), ("gfx1100", 256, 32768, False, 8),
        ("gfx1100", 256, 32768, True, 8), ("gfx1100", 64, 32768, True, 2), ("gfx1100", 64, 32768, False, 2),
    ],
)
def test_lds_and_workgroup_limits(target, wg, lds, cumode, waves):
    processor = parse_target_id(target)
    wave = processor.default_wave_size
    assert occupancy(processor, Inputs(8, 16, lds, wg, wave, cumode)).waves_per_simd == waves


def test_lds_above_the_cu_gives_one_wave_and_limiter():
    result = occupancy(parse_target_id("gfx90a"), Inputs(8, 16, 70000, 256, 64))
    assert result.waves_per_simd == 1 and "LDS" in result.limiters


@pytest.mark.parametrize("target, wave", [("gfx900", 64), ("gfx90a", 64), ("gfx1030", 32), ("gfx1100", 32), ("gfx1201", 64)])
def test_vgpr_next_step_reaches_one_more_wave(target, wave):
    processor = parse_target_id(target)
    for vgprs in range(2, processor.addressable_vgprs + 1, 3):
        waves = waves_with_vgprs(processor, vgprs, wave)
        if waves == processor.max_waves_per_simd:
            continue
        most = max_vgprs_for(processor, waves + 1, wave)
        assert waves_with_vgprs(processor, most, wave) >= waves + 1
        assert waves_with_vgprs(processor, most + 1, wave) <= waves


def test_resources_binding_together_are_advised_together_in_whole_lds_units():
    """Freeing one VGPR alone or trimming LDS alone leaves 4 waves; both give 5. LLVM's raw-byte figure
    allows 13107 bytes, but five work-groups of 13312 (26 units of 512) do not fit in 64 KiB."""
    result = occupancy(parse_target_id("gfx90a"), Inputs(97, 40, 16384, 256, 64))
    assert result.waves_per_simd == 4 and set(result.limiters) == {"VGPR", "LDS"}
    assert result.next_step == [
        "both: free 1 VGPR (97 -> 96) and use at most 12800 bytes of LDS per work-group (now 16384; LLVM's figure "
        "allows 13107, but work-groups get LDS in 512-byte units): 5 waves per SIMD"]
    assert occupancy(parse_target_id("gfx90a"), Inputs(96, 40, 12800, 256, 64)).waves_per_simd == 5
    assert achieved_waves(parse_target_id("gfx90a"), Inputs(96, 40, 13107, 256, 64)) == 4


def test_lds_between_allocation_units_shows_both_figures():
    """21,845 bytes: LLVM counts three work-groups per CU (3 waves/SIMD); the dispatcher gives each 22,016
    bytes and fits two."""
    gfx942 = parse_target_id("gfx942")
    result = occupancy(gfx942, Inputs(112, 40, 21845, 256, 64))
    assert (result.waves_per_simd, result.allocated_waves_per_simd, result.lds_allocated_bytes) == (3, 2, 22016)
    trim, more = result.steps
    assert trim.text.startswith("use at most 21504 bytes of LDS per work-group (now 21845, which work-groups get as "
                                "22016") and trim.waves == 3
    assert more.text == "use at most 16384 bytes of LDS per work-group (now 21845): 4 waves per SIMD"


@pytest.mark.parametrize("name", ["gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201", "gfx1250", "gfx908", "gfx700"])
def test_every_advised_step_gives_exactly_the_waves_it_promises(name):
    """A grid of kernels: each step, fed back to the calculator, gives its promised waves on the hardware (LDS in
    whole allocation units) and never fewer by LLVM's figure; a single change is advised only where it alone
    gains a wave over LLVM's figure; several binding resources are advised together."""
    target = parse_target_id(name)
    wave = target.default_wave_size
    checked = together = 0
    for vgprs in (24, 40, 64, 97, 130, 170, 256):
        for lds in (0, 3000, 8200, 13107, 16384, 21845, 33000, 60000):
            for wg_size in (64, 256, 768):
                inputs = Inputs(min(vgprs, target.addressable_vgprs), 40, lds, wg_size, wave)
                result = occupancy(target, inputs)
                for step in result.steps:
                    promised = int(re.search(r": (\d+) waves per SIMD", step.text).group(1))
                    assert promised == step.waves == achieved_waves(target, step.inputs), (inputs, step.text)
                    assert occupancy(target, step.inputs).waves_per_simd >= step.waves
                    if step.text.startswith("both") or step.text.startswith("all of"):
                        together += 1
                    elif "which work-groups get as" in step.text:
                        assert result.allocated_waves_per_simd is not None and step.waves > result.allocated_waves_per_simd
                    else:
                        assert step.waves > result.waves_per_simd
                    checked += 1
                if len(result.limiters) > 1 and result.waves_per_simd < target.max_waves_per_simd:
                    assert result.steps, (inputs, "several resources bind: a single or a combined step")
    assert checked > 50 and together > 0


def test_workgroup_next_step():
    result = occupancy(parse_target_id("gfx90a"), Inputs(8, 16, 0, 768, 64))
    assert result.limiters == ["workgroup slots"]
    assert result.next_step == ["use work-groups of 832 work-items (now 768): 7 waves per SIMD"]
    assert occupancy(parse_target_id("gfx90a"), Inputs(8, 16, 0, 832, 64)).waves_per_simd == 7


def test_lds_what_if_breakpoints_are_exact():
    curve = what_if(parse_target_id("gfx90a"), Inputs(8, 16, 0, 64, 64))["lds_bytes"]["combined"]
    # one-wave groups: waves = ceil(groups / 4 SIMDs), so 8 holds down to 29 groups (65536 // 29 = 2259 bytes)
    assert curve[:3] == [(0, 8), (2260, 7), (2622, 6)]


GFX90A = parse_target_id("gfx90a")


def test_unpinned_range_reports_llvms_figure_and_the_sizes_at_each_end():
    # llvm-amdgpu-facts.md §1.3b table: gfx90a, 16 KiB of LDS
    unpinned = Inputs(2, 14, 16384, 1024, 64, wg_min=1)
    result = occupancy(GFX90A, unpinned)
    assert result.waves_per_simd == 8 and result.limiters == ["wave slots"]
    spread = size_spread(GFX90A, unpinned)
    assert (spread.fewest, spread.fewest_at, spread.most, spread.most_at) == (1, 64, 8, 512) and spread.at_256 == 4
    assert occupancy(GFX90A, Inputs(2, 14, 16384, 256, 64, wg_min=1)).waves_per_simd == 4
    pinned = size_spread(GFX90A, Inputs(2, 14, 16384, 256, 64))
    assert (pinned.fewest, pinned.fewest_at, pinned.most, pinned.most_at) == (4, 256, 4, 256)


def test_spread_is_capped_by_registers():
    inputs = Inputs(200, 14, 16384, 1024, 64, wg_min=1)
    spread = size_spread(GFX90A, inputs)
    assert occupancy(GFX90A, inputs).waves_per_simd == 2 and (spread.fewest, spread.most) == (1, 2)


@pytest.mark.parametrize("lds_bytes, smallest, largest", [(40000, 1, 1024), (20000, 64, 256), (9000, 1, 256)])
def test_lds_next_step_under_a_range_reaches_the_goal_and_no_more_lds_does(lds_bytes, smallest, largest):
    inputs = Inputs(8, 16, lds_bytes, largest, 64, wg_min=smallest)
    result = occupancy(GFX90A, inputs)
    assert LDS in result.limiters
    goal = result.waves_per_simd + 1
    most = largest_lds_for(GFX90A, inputs, goal)
    advised = most // GFX90A.lds_alloc_granule * GFX90A.lds_alloc_granule
    assert any(step.startswith(f"use at most {advised} bytes of LDS per work-group (now {lds_bytes}")
               for step in result.next_step)
    assert occupancy(GFX90A, replace(inputs, lds_bytes=most)).waves_per_simd >= goal
    assert occupancy(GFX90A, replace(inputs, lds_bytes=most + 1)).waves_per_simd < goal
    assert achieved_waves(GFX90A, replace(inputs, lds_bytes=advised)) >= goal


@pytest.mark.parametrize("target, wave", [("gfx900", 64), ("gfx90a", 64), ("gfx942", 64), ("gfx1030", 32),
                                          ("gfx1030", 64), ("gfx1100", 32), ("gfx1201", 64)])
@pytest.mark.parametrize("lds_bytes, smallest, largest", [(0, None, 256), (16384, 1, 1024), (4096, 64, 512)])
def test_what_if_curves_equal_a_scan_of_every_value(target, wave, lds_bytes, smallest, largest):
    """The what-if curves come from breakpoints; they must equal probing every value."""
    processor = parse_target_id(target)
    inputs = Inputs(40, 30, lds_bytes, largest, wave, wg_min=smallest)
    curves = what_if(processor, inputs)

    def scan(xs, make):
        points = []
        for x in xs:
            waves = min(resource_limits(processor, make(x)).values())
            if not points or points[-1][1] != waves:
                points.append((x, waves))
        return points

    assert curves["vgprs"]["combined"] == scan(range(1, processor.addressable_vgprs + 1),
                                               lambda x: replace(inputs, vgprs=x))
    assert curves["vgprs"]["alone"] == scan(range(1, processor.addressable_vgprs + 1),
                                            lambda x: Inputs(x, 0, 0, 1, wave))
    if lds_bytes == 16384:  # every byte: slow, so for one launch per target
        lds_scan = scan(range(0, processor.lds_per_workgroup + 1), lambda x: replace(inputs, lds_bytes=x))
        assert curves["lds_bytes"]["combined"] == lds_scan
    for name, current in (("vgprs", 40), ("lds_bytes", lds_bytes), ("wg_size", largest)):
        now = next(w for x, w in reversed(curves[name]["combined"]) if x <= current)
        assert now == occupancy(processor, inputs).waves_per_simd, name
        alone = dict(curves[name]["alone"])
        assert all(w >= 1 for w in alone.values())
