"""Processor properties follow LLVM 22 (llvm-amdgpu-facts.md §1.5, §2.5, §4.3)."""

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.model.targets import UnknownTarget, parse_target_id


@pytest.mark.parametrize(
    "name, waves, granule64, total64, lds, sgprs, addressable",
    [
        ("gfx600", 10, 4, 256, 32768, 512, 104),
        ("gfx701", 10, 4, 256, 65536, 512, 104),
        ("gfx803", 10, 4, 256, 65536, 800, 102),
        ("gfx802", 10, 4, 256, 65536, 800, 96),
        ("gfx900", 10, 4, 256, 65536, 800, 102),
        ("gfx908", 10, 4, 256, 65536, 800, 102),
        ("gfx90a", 8, 8, 512, 65536, 800, 102),
        ("gfx942", 8, 8, 512, 65536, 800, 102),
        ("gfx950", 8, 8, 512, 163840, 800, 102),
        ("gfx1010", 20, 4, 512, 131072, 800, 106),
        ("gfx1030", 16, 8, 512, 131072, 800, 106),
        ("gfx1100", 16, 12, 768, 131072, 800, 106),
        ("gfx1102", 16, 8, 512, 131072, 800, 106),
        ("gfx1201", 16, 12, 768, 131072, 800, 106),
    ],
)
def test_register_and_lds_limits(name, waves, granule64, total64, lds, sgprs, addressable):
    target = parse_target_id(name)
    assert target.max_waves_per_simd == waves
    assert target.vgpr_alloc_granule(64) == granule64
    assert target.total_vgprs(64) == total64
    assert target.lds_per_cu() == lds
    assert target.total_sgprs == sgprs and target.addressable_sgprs == addressable


def test_wave32_and_cu_mode():
    gfx1100 = parse_target_id("gfx1100")
    assert gfx1100.wave_sizes == (32, 64) and gfx1100.default_wave_size == 32
    assert (gfx1100.vgpr_alloc_granule(32), gfx1100.total_vgprs(32)) == (24, 1536)
    assert gfx1100.simds_per_cu(cumode=True) == 2 and gfx1100.lds_per_cu(cumode=True) == 65536
    assert gfx1100.max_barriers() == 32 and gfx1100.max_barriers(cumode=True) == 16
    gfx1250 = parse_target_id("gfx1250")
    assert gfx1250.wave_sizes == (32,) and gfx1250.lds_per_cu() == 327680 and gfx1250.vgpr_encoding_granule(32) == 16
    assert not gfx1250.isa_exact and gfx1250.isa_pages == ("gfx12",)


def test_agpr_files_and_flags():
    assert parse_target_id("gfx908").agpr_file == "separate"
    assert parse_target_id("gfx90a").agpr_file == "unified" and parse_target_id("gfx90a").addressable_vgprs == 512
    assert parse_target_id("gfx1030").agpr_file is None
    assert parse_target_id("gfx942").architected_flat_scratch and not parse_target_id("gfx90a").architected_flat_scratch
    assert parse_target_id("gfx90a").has_back_off_barrier and not parse_target_id("gfx908").has_back_off_barrier
    assert not parse_target_id("gfx1030").sgprs_limit_occupancy and parse_target_id("gfx906").sgprs_limit_occupancy


@pytest.mark.parametrize(
    "name, counters",
    [
        ("gfx803", {"vmcnt": 15, "expcnt": 7, "lgkmcnt": 15}),
        ("gfx90a", {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 15}),
        ("gfx1030", {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 63, "vscnt": 63}),
        ("gfx1201", {"loadcnt": 63, "storecnt": 63, "samplecnt": 63, "bvhcnt": 7, "dscnt": 63, "kmcnt": 31, "expcnt": 7}),
    ],
)
def test_wait_counter_widths(name, counters):
    assert parse_target_id(name).wait_counter_max == counters


def test_target_ids_and_generics():
    target = parse_target_id("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-")
    assert (target.name, target.features) == ("gfx90a", {"sramecc": True, "xnack": False})
    generic = parse_target_id("gfx11-generic")
    assert (generic.major, generic.isa_pages) == (11, ("gfx11",))
    assert parse_target_id("gfx90c").stepping == 12 and parse_target_id("gfx90a").generation_symbols(hsa=True)[".amdgcn.gfx_generation_stepping"] == 10
    # stoney (gfx810) is an APU with xnack (AMDGPUUsage; LLVM 22's flat-scratch-reg test targets gfx810:xnack-)
    assert parse_target_id("gfx810:xnack-").features == {"xnack": False}


@pytest.mark.parametrize("text, hint", [("gfx943", "gfx942"), ("gfx1101x", None), ("gfx1030:xnack+", "does not support")])
def test_bad_targets(text, hint):
    with pytest.raises(UnknownTarget) as error:
        parse_target_id(text)
    if hint:
        assert hint in str(error.value)


def test_mcpu_did_you_mean(tmp_path, capsys):
    (tmp_path / "k.s").write_text("k:\n s_endpgm\n")
    assert main(["check", "--no-config", "--mcpu", "gfx943", str(tmp_path)]) == 2
    assert "did you mean gfx942" in capsys.readouterr().err


def test_derived_facts_are_kept_and_do_not_change_identity():
    """Targets cache what they derive (asked for per instruction): a copy or a pickled target is equal,
    hashes the same, and a mutable answer (the counter limits) is a fresh dict each time."""
    import copy
    import pickle

    target = parse_target_id("gfx90a:xnack+")
    fresh = parse_target_id("gfx90a:xnack+")
    assert target.has_gfx90a_insts and target.max_waves_per_simd == 8 and "xnack" in target.supported_features
    for other in (fresh, copy.deepcopy(target), pickle.loads(pickle.dumps(target))):
        assert other == target and hash(other) == hash(target) and repr(other) == repr(target)
    target.wait_counter_max["vmcnt"] = 0
    assert target.wait_counter_max["vmcnt"] == 63
