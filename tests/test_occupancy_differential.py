"""Differential test: our resources and occupancy equal LLVM 22's kernel-resource-usage remark.

Kernels are generated to stress one resource each (VGPR pressure, scalar arguments, LDS,
pinned work-group sizes, waves-per-eu padding, MFMA/AGPRs, WMMA) and compiled for eleven
targets in one llvmlite process with the remark switched on.
"""

from functools import lru_cache

import pytest
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import split_lines
from ir_kernels import pressure_kernel

pytest.importorskip("llvmlite")

TARGETS = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1201"]
CDNA = {"gfx908", "gfx90a", "gfx942", "gfx950"}
VARIANTS = {
    "small": dict(live=4, scalars=2, wg=256),
    "vgpr_40": dict(live=40, wg=256),
    "vgpr_100": dict(live=100, wg=128),
    "vgpr_130": dict(live=130, wg=64),  # spills on gfx9-11 (slow to compile): a few targets only
    "sgpr_40": dict(scalars=40, wg=256),
    "sgpr_79": dict(clobber="s79", wg=256),  # gfx9: 80 numbered + extras crosses the 80/81 cliff
    "sgpr_86": dict(clobber="s86", wg=256),
    "sgpr_95": dict(clobber="s95", wg=256),
    "vgpr_64": dict(clobber="v63", wg=256),
    "vgpr_65": dict(clobber="v64", wg=256),
    "vgpr_97": dict(clobber="v96", wg=256),
    "agpr_32": dict(clobber="a31", live=20, wg=256),
    "lds_16k": dict(lds_bytes=16384, wg=256),
    "lds_40k": dict(lds_bytes=40960, wg=64),
    "wg_448": dict(live=12, wg=448),
    "wg_576": dict(live=12, wg=576),
    "wg_768": dict(live=12, wg=768),
    "wg_1024": dict(live=12, wg=1024),
    "waves_per_eu": dict(live=20, wg=256, waves_per_eu="1,4"),
    "waves_per_eu_lds": dict(live=10, wg=128, lds_bytes=8192, waves_per_eu="2,3"),
    "unbounded_wg": dict(live=30),
    "mfma_32": dict(live=30, wg=256, mfma="32x32x8f16"),
    "mfma_16_pressure": dict(live=90, wg=256, mfma="16x16x16f16"),
    "wmma": dict(live=24, wg=128, wmma=True),
}


HEAVY = {"vgpr_130": {"gfx900", "gfx90a", "gfx1100", "gfx1201"}}


def _jobs():
    for target in TARGETS:
        for variant, options in VARIANTS.items():
            if variant in HEAVY and target not in HEAVY[variant]:
                continue
            if ("mfma" in options or options.get("clobber", "").startswith("a")) and target not in CDNA:
                continue
            if options.get("wmma") and not target.startswith("gfx11"):
                continue
            yield target, variant, pressure_kernel(f"k_{variant}", **options)


@lru_cache(maxsize=1)
def compiled():
    from llvm_remarks import compile_all

    jobs = list(_jobs())
    results = compile_all([{"ir": ir, "cpu": target} for target, _, ir in jobs])
    return {(target, variant): result for (target, variant, _), result in zip(jobs, results, strict=True)}


def ours(assembly: str, wg_size: int | tuple[int, int] | None = None):
    """Our resources; a variant pinned with "amdgpu-flat-work-group-size"="N,N" is pinned with
    --wg-size (the listing shows only the upper end of the range)."""
    sizes = (wg_size, wg_size) if isinstance(wg_size, int) else wg_size
    module = build_module(split_lines("k.s", assembly), BuildOptions(wg_size=sizes))
    (kernel,) = module.kernels
    return kernel, AnalysisManager(module, kernel).get(ResourceAnalysis)


@pytest.mark.parametrize("target, variant", [(t, v) for t, v, _ in _jobs()])
def test_matches_llvm_remark(target, variant):
    result = compiled()[(target, variant)]
    kernel, resources = ours(result["asm"], VARIANTS[variant].get("wg"))
    remark = result["remarks"][kernel.name]
    assert resources.occupancy.waves_per_simd == int(remark["Occupancy"]), resources.occupancy
    assert resources.arch_vgprs == int(remark["VGPRs"])
    assert resources.agprs == int(remark.get("AGPRs", 0))
    assert resources.sgprs == int(remark["TotalSGPRs"])
    assert resources.scratch_bytes == int(remark["ScratchSize"])
    assert resources.lds_bytes == int(remark["LDS Size"])


def test_the_corpus_exercises_every_limiter():
    """The generated kernels really reach each resource limit somewhere."""
    limiters = set()
    for (target, variant), result in compiled().items():
        _, resources = ours(result["asm"], VARIANTS[variant].get("wg"))
        limiters.update(resources.occupancy.limiters)
    assert {"VGPR", "VGPR+AGPR", "SGPR", "LDS", "workgroup slots", "wave slots"} <= limiters


def test_count():
    assert len(list(_jobs())) >= 150


LDS_KERNEL = """
@lds = internal addrspace(3) global [{words} x i32] poison, align 4
define amdgpu_kernel void @k(ptr addrspace(1) %out) {attrs} {{
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [{words} x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  store i32 %i, ptr addrspace(3) %p
  call void @llvm.amdgcn.s.barrier()
  %v = load i32, ptr addrspace(3) %p
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %q
  ret void
}}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
"""
NO_LDS_KERNEL = """
define amdgpu_kernel void @k(ptr addrspace(1) %out) {attrs} {{
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %i, ptr addrspace(1) %q
  ret void
}}
declare i32 @llvm.amdgcn.workitem.id.x()
"""
#: "amdgpu-flat-work-group-size" ranges (None: no attribute, LLVM's default [1, 1024]).
LAUNCH_RANGES = [None, (1, 1024), (1, 256), (64, 256), (256, 256)]
LDS_SIZES = [0, 4096, 16384, 49152]


def _launch_ir(lds_bytes: int, sizes: tuple[int, int] | None) -> str:
    attrs = "" if sizes is None else "#0"
    ir = LDS_KERNEL.format(words=lds_bytes // 4, attrs=attrs) if lds_bytes else NO_LDS_KERNEL.format(attrs=attrs)
    if sizes is not None:
        ir += '\nattributes #0 = { "amdgpu-flat-work-group-size"="%d,%d" }\n' % sizes
    return ir


def _launch_jobs():
    return [(target, lds, sizes) for target in TARGETS for lds in LDS_SIZES for sizes in LAUNCH_RANGES]


@lru_cache(maxsize=1)
def compiled_launches():
    from llvm_remarks import compile_all

    jobs = _launch_jobs()
    results = compile_all([{"ir": _launch_ir(lds, sizes), "cpu": target} for target, lds, sizes in jobs])
    return dict(zip(jobs, results, strict=True))


@pytest.mark.parametrize("target, lds_bytes, sizes", _launch_jobs())
def test_launch_ranges_match_llvm(target, lds_bytes, sizes):
    # llvm-amdgpu-facts.md §1.3b: LLVM's figure is the most waves over the range. The listing
    # carries only the upper end (.max_flat_workgroup_size); a range with a lower end above 1 is
    # given with --wg-size MIN,MAX, as a user who knows the launch bounds would.
    result = compiled_launches()[(target, lds_bytes, sizes)]
    given = sizes if sizes is not None and sizes[0] > 1 else None
    _, resources = ours(result["asm"], given)
    assert resources.lds_bytes == lds_bytes
    assert (resources.inputs.smallest_wg, resources.wg_size) == (sizes or (1, 1024))
    assert resources.occupancy.waves_per_simd == int(result["remarks"]["k"]["Occupancy"]), resources.occupancy


def test_launch_ranges_are_not_all_the_same():
    """The grid reaches different figures for one kernel as only the range changes."""
    figures = {(t, lds): set() for t, lds, _ in _launch_jobs()}
    for (target, lds, _), result in compiled_launches().items():
        figures[(target, lds)].add(result["remarks"]["k"]["Occupancy"])
    assert sum(len(found) > 1 for found in figures.values()) >= 10


def test_report_and_hover_explain_llvms_figure_for_an_unpinned_launch(tmp_path, capsys):
    """16 KiB of LDS, no launch bounds, gfx90a: LLVM says 8; one-wave groups get 1, groups of 256 get 4."""
    from amdgpu_lint.cli import main
    from amdgpu_lint.lsp import lint_text

    listing = compiled_launches()[("gfx90a", 16384, None)]["asm"]
    path = tmp_path / "k.s"
    path.write_text(listing)
    assert main(["report", "--no-config", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("occupancy:     8 of 8 waves/SIMD, 32 waves/CU (LLVM's figure for work-groups of 1..1024; "
            "8 at 512, 4 at 256, 1 at 64: pass --wg-size)") in out
    assert main(["report", "--no-config", "--wg-size", "256", str(path)]) == 0
    out = capsys.readouterr().out
    assert "occupancy:     4 of 8 waves/SIMD" in out and "LLVM's figure for work-groups" not in out
    (hover,) = lint_text(str(path), listing).hovers.values()
    assert "8/8 waves per SIMD** (LLVM's figure for work-groups of 1..1024; 8 at 512, 4 at 256, 1 at 64" in hover


def test_text_what_if_marks_the_vgprs_occupancy_counts(tmp_path, capsys):
    """A descriptor padded past the code's use (LLVM does it for amdgpu-waves-per-eu): the what-if
    line's "now" is the allocation occupancy is computed from, not the registers the code touches."""
    from amdgpu_lint.cli import main

    result = compiled()[("gfx90a", "waves_per_eu")]
    kernel, resources = ours(result["asm"], VARIANTS["waves_per_eu"].get("wg"))
    assert resources.allocated_vgprs > resources.vgprs  # LLVM padded the descriptor
    path = tmp_path / "k.s"
    path.write_text(result["asm"])
    assert main(["report", "--no-config", "--wg-size", "256", str(path)]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "what-if VGPRs" in line)
    assert line.endswith(f"now {resources.inputs.vgprs} → {resources.occupancy.waves_per_simd}"), line
