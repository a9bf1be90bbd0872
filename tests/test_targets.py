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


# ---- targets as LLVM spells them (issue 36, item 3)

def test_mcpu_takes_every_feature_that_changes_what_assembles():
    assert parse_target_id("gfx1100:real-true16-").features == {"real-true16": False}
    assert parse_target_id("gfx1200:real-true16+:wavefrontsize64+").features == {"real-true16": True,
                                                                                  "wavefrontsize64": True}
    assert parse_target_id("gfx90a:xnack-:sramecc+:tgsplit+").features == {"xnack": False, "sramecc": True,
                                                                            "tgsplit": True}
    with pytest.raises(UnknownTarget, match="real-true16"):
        parse_target_id("gfx1030:real-true16+")  # no 16-bit register halves before gfx11
    with pytest.raises(UnknownTarget, match="wavefrontsize64"):
        parse_target_id("gfx1250:wavefrontsize64+")  # wave32 only


@pytest.mark.parametrize("spelled, name, features", [
    ("amdgcn-amd-amdhsa--gfx906+xnack", "gfx906", {"xnack": True}),
    ("gfx908+sram-ecc", "gfx908", {"sramecc": True}),
    ("amdgcn-amd-amdhsa--gfx908+sram-ecc+xnack", "gfx908", {"sramecc": True, "xnack": True}),
])
def test_the_target_spelling_of_before_2020_is_read_as_todays(spelled, name, features):
    target = parse_target_id(spelled)
    assert (target.name, target.features) == (name, features)


_LOAD_THEN_USE = "k:\n  s_load_dword s0, s[0:1], 0\n  v_mov_b32 v0, s0\n  s_endpgm\n"


def test_a_file_in_the_old_spelling_is_analysed_and_told_what_llvm_mc_22_wants(snippet):
    result = snippet.lint(f'.amdgcn_target "amdgcn-amd-amdhsa--gfx906+xnack"\n{_LOAD_THEN_USE}')
    found = {d.name: d for d in result.diagnostics}
    assert sorted(found) == ["missing-wait", "unknown-target"]  # analysed: the real finding is kept
    assert found["unknown-target"].line == 1
    assert 'write "amdgcn-amd-amdhsa--gfx906:xnack+"' in found["unknown-target"].message
    today = snippet.lint(f'.amdgcn_target "amdgcn-amd-amdhsa--gfx906:xnack+"\n{_LOAD_THEN_USE}')
    assert [d.name for d in today.diagnostics] == ["missing-wait"]


def _descriptor(target: str, directive: str) -> str:
    accum = "  .amdhsa_accum_offset 4\n" if target.startswith(("gfx90a", "gfx942")) else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.p2align 8\n.type k,@function\nk:\n  s_endpgm\n'
            f".rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n{accum}"
            f"  {directive}\n.end_amdhsa_kernel\n")


#: (target, directive, whether llvm-mc 22 refuses it), probed with llvm-mc-22 --filetype=obj
_DESCRIPTOR_CASES = [
    ("gfx90a:xnack-", ".amdhsa_reserve_xnack_mask 1", True),
    ("gfx90a:xnack-", ".amdhsa_reserve_xnack_mask 0", False),
    ("gfx90a:xnack+", ".amdhsa_reserve_xnack_mask 0", True),
    ("gfx90a", ".amdhsa_reserve_xnack_mask 1", False),
    ("gfx90a", ".amdhsa_reserve_xnack_mask 0", True),
    ("gfx1030", ".amdhsa_reserve_xnack_mask 1", True),
    ("gfx1030", ".amdhsa_reserve_xnack_mask 0", False),
    ("gfx701", ".amdhsa_reserve_xnack_mask 0", True),
    ("gfx942", ".amdhsa_user_sgpr_private_segment_buffer 1", True),
    ("gfx942", ".amdhsa_user_sgpr_private_segment_buffer 0", True),
    ("gfx90a", ".amdhsa_user_sgpr_private_segment_buffer 1", False),
    ("gfx1100", ".amdhsa_system_sgpr_private_segment_wavefront_offset 0", True),
    ("gfx1100", ".amdhsa_enable_private_segment 1", False),
    ("gfx90a", ".amdhsa_enable_private_segment 1", True),
]


@pytest.mark.parametrize("target, directive, refused", _DESCRIPTOR_CASES)
def test_descriptor_directives_get_what_llvm_mc_says(snippet, target, directive, refused):
    text = _descriptor(target, directive)
    line = text.splitlines().index(f"  {directive}") + 1
    assert [(d.name, d.line) for d in snippet.lint(text).diagnostics] == ([("parse-error", line)] if refused else [])


@pytest.mark.parametrize("target, directive, refused", _DESCRIPTOR_CASES)
def test_the_descriptor_cases_are_what_llvm_mc_22_says(tmp_path, target, directive, refused):
    import shutil
    import subprocess

    llvm_mc = shutil.which("llvm-mc-22")
    if llvm_mc is None:
        pytest.skip("llvm-mc-22 is not installed")
    processor, *features = target.split(":")
    mattr = [f"--mattr={','.join(f[-1] + f[:-1] for f in features)}"] if features else []
    run = subprocess.run([llvm_mc, "--triple=amdgcn-amd-amdhsa", f"--mcpu={processor}", *mattr, "--filetype=obj",
                          "-o", "/dev/null"], input=_descriptor(target, directive), capture_output=True, text=True)
    assert (": error:" in run.stderr) == refused, run.stderr


# ---- no input crashes the linter (issue 36, item 4)

@pytest.mark.parametrize("line, mnemonic", [
    ("export mrt0 v0, v0, v0, v0", "export"),
    ("image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D", "image_sample"),
])
def test_an_instruction_gfx1250_lacks_is_one_error_and_no_analysis_sees_it(snippet, line, mnemonic):
    result = snippet.lint(f'.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\n.text\nk:\n  {line}\n  s_endpgm\n')
    (finding,) = result.diagnostics
    assert (finding.name, finding.line) == ("unknown-instruction", 4)
    assert finding.message.startswith(f"'{mnemonic}': instruction not supported on this GPU (gfx1250, as llvm-mc 22 says)")


def test_gfx1250_keeps_its_own_instructions_and_findings(snippet):
    text = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\n.text\nk:\n  global_load_b32 v1, v0, s[0:1]\n'
            "  v_add_f32 v2, v1, v1\n  s_endpgm\n")
    assert [(d.name, d.line) for d in snippet.lint(text).diagnostics] == [("missing-wait", 5)]
    on_gfx1200 = snippet.lint(text.replace("gfx1250", "gfx1200").replace("global_load_b32", "export mrt0 v0, v0, v0, v0\n  global_load_b32"))
    assert "unknown-instruction" not in [d.name for d in on_gfx1200.diagnostics]  # gfx12 has export


def test_the_instructions_gfx1250_lacks_come_from_llvm_mc_22s_verdicts():
    """gfx1250 is read with gfx12's tables; what of them it lacks is what llvm-mc 22 refuses on it
    (tests/test_mnemonic_verdicts.py asks llvm-mc-22 again)."""
    from amdgpu_lint.isa import absent_mnemonics
    from amdgpu_lint.model.targets import parse_target_id

    absent = absent_mnemonics(parse_target_id("gfx1250"))
    assert {"export", "s_waitcnt", "s_wait_expcnt", "image_sample"} <= absent
    assert not absent & {"global_load_b32", "v_add_f32", "s_wait_loadcnt", "ds_add_f64"}
    assert absent_mnemonics(parse_target_id("gfx1200")) == frozenset()  # read with its own tables


def test_mcpu_adds_the_features_the_file_target_cannot_carry(snippet):
    text = '.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"\nk:\n  s_endpgm\n'
    assert snippet.build(text).target.default_wave_size == 32
    assert snippet.build(text, mcpu="gfx1030:wavefrontsize64+").target.default_wave_size == 64
    assert snippet.build(text, mcpu="gfx1100:wavefrontsize64+").target.default_wave_size == 32  # another processor: the file's
    xnack = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack-"\nk:\n  s_endpgm\n'
    assert snippet.build(xnack, mcpu="gfx90a:xnack+:tgsplit+").target.features == {"xnack": False, "tgsplit": True}


def test_a_wait_gfx1250_lacks_waits_for_nothing(snippet):
    """s_waitcnt and s_wait_expcnt do not assemble on gfx1250: each is one unknown-instruction error, and the load before
    them is still waited for where its result is read."""
    text = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\n.text\nk:\n  global_load_b32 v1, v0, s[0:1]\n'
            "  s_waitcnt vmcnt(0)\n  s_wait_expcnt 0\n  v_add_f32 v2, v1, v1\n  s_endpgm\n")
    assert [(d.name, d.line) for d in snippet.lint(text).diagnostics] == [
        ("unknown-instruction", 5), ("unknown-instruction", 6), ("missing-wait", 7)]


def test_descriptor_defaults_follow_each_targets_features_and_leave_given_values():
    """The defaults are worked out once per processor and features: `gfx90a:xnack-` after `gfx90a:xnack+` (equal
    as Targets, which leave the features out of their equality) still gets its own."""
    from amdgpu_lint.frontend.metadata import fill_descriptor_defaults

    got = []
    for name in ("gfx90a:xnack+", "gfx90a:xnack-", "gfx90a:xnack+"):
        values = {"next_free_vgpr": 4, "kernarg_size": 16}
        missing = fill_descriptor_defaults(values, parse_target_id(name))
        got.append((values["reserve_xnack_mask"], values["kernarg_size"], values["next_free_vgpr"], missing))
    assert got == [(1, 16, 4, ["next_free_sgpr", "accum_offset"]), (0, 16, 4, ["next_free_sgpr", "accum_offset"]),
                   (1, 16, 4, ["next_free_sgpr", "accum_offset"])]
