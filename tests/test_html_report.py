"""The HTML report: one self-contained, well-formed page whose what-if charts say something (each resource's
own limit and the occupancy over it, rounded ticks, the "now" label inside the plot), VGPRs and AGPRs
apart per line, findings, related locations and hot spots linked to listing lines, simulated stalls per
line, a table of contents, metadata collapsed. Also the Pygments lexer and liveness."""

import base64
import gzip
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest
from amdgpu_lint.analyses.liveness import LivenessAnalysis
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.cli import main
from amdgpu_lint.outputs.plots import TOP, Box, Series, plot_box, step_chart
from conftest import FIXTURES, skip_if_compiled
from llvm_oracle import compile_ir
from pygments.lexers import get_lexer_by_name
from pygments.token import Error

#: anything fetched from outside the page (its one script is inline)
NETWORK = re.compile(r"""(src|href)\s*=\s*["']?\s*(https?:|//)|url\(\s*["']?(https?:|//)|@import|<link\b|<script\b[^>]*\bsrc\b""",
                     re.I)
SVG = "{http://www.w3.org/2000/svg}"
GEMM = FIXTURES / "examples" / "handwritten" / "gemm_pipeline_gfx942.s"  # 256 AGPRs zeroed by v_accvgpr_write
PREFETCH = FIXTURES / "examples" / "handwritten" / "prefetch_gfx942.s"
TENSILE = FIXTURES / "handwritten" / "tensile_gemm_gfx90a.s"

# Two kernels in one file, as LLVM 22 writes them: one bound by nothing, one sharing LDS over a barrier.
TWO_KERNELS = """
target triple = "amdgcn-amd-amdhsa"
@tile = internal addrspace(3) global [4096 x float] poison, align 4

define amdgpu_kernel void @scale(ptr addrspace(1) %out, ptr addrspace(1) %in, float %s) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %id
  %v = load float, ptr addrspace(1) %p
  %m = fmul float %v, %s
  %q = getelementptr float, ptr addrspace(1) %out, i32 %id
  store float %m, ptr addrspace(1) %q
  ret void
}

define amdgpu_kernel void @swap_pairs(ptr addrspace(1) %out, ptr addrspace(1) %in) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %id
  %v = load float, ptr addrspace(1) %p
  %l = getelementptr [4096 x float], ptr addrspace(3) @tile, i32 0, i32 %id
  store float %v, ptr addrspace(3) %l
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %x = xor i32 %id, 1
  %l2 = getelementptr [4096 x float], ptr addrspace(3) @tile, i32 0, i32 %x
  %w = load float, ptr addrspace(3) %l2
  %q = getelementptr float, ptr addrspace(1) %out, i32 %id
  store float %w, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
"""


def _report(tmp_path, *argv) -> str:
    output = tmp_path / "report.html"
    assert main(["report", "--no-config", "--format", "html", "-o", str(output), *map(str, argv)]) == 0
    return output.read_text()


def _svgs(page: str) -> list[ElementTree.Element]:
    return list(ElementTree.fromstring(page).iter(f"{SVG}svg"))


def _texts(svg: ElementTree.Element, css_class: str) -> list[str]:
    return [element.text for element in svg.iter(f"{SVG}text") if element.get("class") == css_class]


def _listing_row(page: str, anchor: str) -> ElementTree.Element:
    (row,) = [element for element in ElementTree.fromstring(page).iter("tr") if element.get("id") == anchor]
    return row


def _cell_text(row: ElementTree.Element, css_class: str) -> str:
    (cell,) = [td for td in row.iter("td") if td.get("class") == css_class]
    return "".join(cell.itertext()).strip()


@pytest.fixture
def two_kernels(tmp_path):
    path = tmp_path / "two_kernels_gfx942.s"
    path.write_text(compile_ir(TWO_KERNELS, "gfx942"))
    return path


def test_html_report_is_one_self_contained_file(tmp_path):
    page = _report(tmp_path, PREFETCH, TENSILE)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert NETWORK.search(page) is None
    assert page.count("<svg") + page.count('<p class="flat">') == 6  # three what-if charts per kernel, or a line
    assert "v13 is read here but may still be loading" in page and "AGL201 missing-wait" in page
    assert 'class="meter"' in page and "8 of 8 waves per SIMD" in page
    assert re.search(r'<span class="k">s_waitcnt</span>', page)


def test_page_is_well_formed_xml_and_balanced_html(tmp_path, two_kernels):
    page = _report(tmp_path, GEMM, two_kernels, "--simulate")
    ElementTree.fromstring(page)  # well-formed: every tag closed, no stray entities

    class Balance(HTMLParser):
        VOID = {"meta", "br", "col", "img", "hr", "input", "link"}

        def __init__(self):
            super().__init__()
            self.open: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag not in self.VOID:
                self.open.append(tag)

        def handle_endtag(self, tag):
            if tag not in self.VOID:
                assert self.open and self.open.pop() == tag, tag

    parser = Balance()
    parser.feed(page)
    assert parser.open == []
    assert NETWORK.search(page) is None


def test_every_chart_draws_the_resource_alone_and_the_occupancy_with_a_legend(tmp_path):
    # gemm_pipeline is bound by its 368 VGPR+AGPRs: the LDS and work-group curves of the combined
    # occupancy are flat at 1 wave, the resources' own limits are not
    page = _report(tmp_path, GEMM)
    charts = _svgs(page)
    # the work-group size changes nothing (one wave, and the work-group limit alone stays at 8): one line
    assert len(charts) == 2 and page.count('<p class="flat">') == 1
    assert "The work-group size does not change the occupancy (1 wave/SIMD over its whole range)" in page
    for svg in charts:
        series = [g.get("data-name") for g in svg.iter(f"{SVG}g") if g.get("class") == "series"]
        legend = ["".join(g.itertext()) for g in svg.iter(f"{SVG}g") if g.get("class") == "legend"]
        assert len(series) == 2 and series[0] == "occupancy (all limits)" and series[1].endswith("limit alone")
        assert legend == series
    lds = charts[1]
    paths = [path.get("d") for path in lds.iter(f"{SVG}path")]
    assert len(paths) == 2 and paths[0] != paths[1]  # alone: 8 then 4 waves past 32 KiB; combined: 1 throughout
    assert "LDS limit alone" in "".join(lds.itertext())


def test_tick_labels_are_round_numbers_and_the_vgpr_axis_names_the_register_file(tmp_path):
    assert main(["report", "--no-config", "--plots", str(tmp_path), str(TENSILE)]) == 0  # every chart, flat or not
    charts = [ElementTree.parse(tmp_path / f"tensile_gemm_gfx90a.gemm_tn_gfx90a.{axis}.svg").getroot()
              for axis in ("vgprs", "lds_bytes", "wg_size")]  # gfx90a: one unified VGPR+AGPR file of 512
    assert _texts(charts[0], "x-tick") == ["0", "64", "128", "192", "256", "320", "384", "448", "512"]
    assert _texts(charts[1], "x-tick") == ["0", "16K", "32K", "48K", "64K"]
    assert _texts(charts[2], "x-tick") == ["0", "256", "512", "768", "1024"]
    for svg in charts:
        assert _texts(svg, "y-tick") == [str(waves) for waves in range(9)]
    assert "VGPR+AGPR per lane (one unified file)" in "".join(charts[0].itertext())
    assert "largest work-group size (launch bound)" in "".join(charts[2].itertext())  # 1..256, not pinned


@pytest.mark.parametrize("registers, words", [(["--mcpu", "gfx908", "--agprs", "128"], "VGPRs or AGPRs per lane"),
                                             (["--mcpu", "gfx1100"], "VGPRs per lane")])
def test_calculator_plot_names_the_register_file(tmp_path, registers, words):
    path = tmp_path / "w.svg"
    argv = ["occupancy", *registers, "--vgprs", "100", "--lds", "20000", "--wg-size", "256"]
    assert main([*argv, "--plot", str(path)]) == 0
    svg = ElementTree.parse(path).getroot()
    charts = svg.findall(f"{SVG}g/{SVG}svg")
    assert len(charts) == 3 and words in "".join(charts[0].itertext())
    assert "work-items per work-group" in "".join(charts[2].itertext())  # pinned at 256


def _now_box(svg: ElementTree.Element) -> Box:
    (group,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "now"]
    rect = group.find(f"{SVG}rect")
    return Box(*(float(rect.get(key)) for key in ("x", "y", "width", "height")))


@pytest.mark.parametrize("now", [(0, 8), (1, 8), (256, 4), (500, 1), (512, 1), (512, 8), (0, 0), (300, 0)])
def test_now_label_stays_inside_the_plot_box(now):
    points = [(1, 8), (129, 4), (257, 1)]
    svg = ElementTree.fromstring(step_chart("waves/SIMD vs VGPR", "VGPRs per lane", [Series("occupancy", points, "#000")],
                                            512, 8, now))
    box = _now_box(svg)
    assert plot_box(int(svg.get("width"))).contains(box)
    assert box.y >= TOP  # the title and legend lie above the plot box


def test_now_labels_of_real_reports_stay_inside_the_plot(tmp_path, two_kernels):
    for svg in _svgs(_report(tmp_path, GEMM, TENSILE, two_kernels)):
        assert plot_box(int(svg.get("width"))).contains(_now_box(svg))


def test_chart_breakpoints_have_tooltips(tmp_path):
    """Each step of a curve is marked, its tooltip the breakpoint the text report gives ("≤ 64 → 8")."""
    assert main(["report", "--no-config", "--plots", str(tmp_path), str(GEMM)]) == 0
    svg = ElementTree.parse(tmp_path / "gemm_pipeline_gfx942.gemm_pipeline.vgprs.svg").getroot()
    tips = ["".join(title.itertext()) for title in svg.iter(f"{SVG}title")]
    assert "occupancy (all limits): ≤ 64 → 8, from 65 → 7" in tips
    assert len(tips) == len([c for c in svg.iter(f"{SVG}circle") if c.get("class") == "breakpoint"]) > 6


def test_report_plots_files_use_the_same_chart(tmp_path):
    assert main(["report", "--no-config", "--plots", str(tmp_path), str(GEMM)]) == 0
    svg = ElementTree.parse(tmp_path / "gemm_pipeline_gfx942.gemm_pipeline.vgprs.svg").getroot()
    assert len([g for g in svg.iter(f"{SVG}g") if g.get("class") == "series"]) == 2
    assert "now: 368 → 1 wave" in "".join(svg.itertext())
    assert plot_box(int(svg.get("width"))).contains(_now_box(svg))


def test_pressure_column_shows_vgprs_and_agprs_apart(tmp_path):
    # 256 AGPRs hold the accumulators across the loop: they must not read as 256 live VGPRs
    page = _report(tmp_path, GEMM)
    assert "live <span" in page and "AGPRs</span>" in page
    # `.rept 256` (line 17) of `v_accvgpr_write_b32 a[acc], 0` (line 18): shown at the .rept, the body on hover
    zeroing = _cell_text(_listing_row(page, "f1-L17"), "live")
    assert re.fullmatch(r"v\s+1 / a\s+255", zeroing) and _cell_text(_listing_row(page, "f1-L18"), "live") == ""
    (span,) = [e for e in _listing_row(page, "f1-L17").iter("span") if e.get("class") == "expanded"]
    assert span.get("title") == "expanded from line 18: v 1 / a 255"
    in_loop = _cell_text(_listing_row(page, "f1-L32"), "live")  # an MFMA in the loop
    v, a = map(int, re.fullmatch(r"v\s+(\d+) / a\s+(\d+)", in_loop).groups())
    assert a == 256 and v < 64


def test_liveness_counts_vgprs_and_agprs_apart(snippet):
    module = snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n v_mov_b32 v1, 0\n v_mov_b32 v2, 0\n'
                           " v_accvgpr_write_b32 a0, v1\n v_add_u32 v3, v1, v2\n v_accvgpr_read_b32 v4, a0\n"
                           " v_add_u32 v5, v3, v4\n s_endpgm\n")
    liveness = AnalysisManager(module, module.kernels[0]).get(LivenessAnalysis)
    assert liveness.live_vgprs == [0, 1, 2, 2, 1, 2, 0]
    assert liveness.live_agprs == [0, 0, 0, 1, 1, 0, 0]


def test_findings_related_locations_and_hot_spots_link_to_listing_lines(tmp_path):
    page = _report(tmp_path, PREFETCH, GEMM, "--simulate")
    root = ElementTree.fromstring(page)
    ids = [element.get("id") for element in root.iter() if element.get("id")]
    assert len(ids) == len(set(ids))  # unique over both files
    links = {(a.get("href")[1:], "".join(a.itertext())) for a in root.iter("a") if a.get("href", "").startswith("#")}
    assert {target for target, _ in links} <= set(ids)
    assert ("f1-L16", "line 16") in links  # the missing-wait finding in the first file's findings list
    assert {("f1-L14", "line 14"), ("f1-L15", "line 15")} <= links  # its related locations (issued here)
    assert ("f1-L20", "line 20") in links  # short-prefetch: 'waited for at line 20'
    assert f"{PREFETCH}:15" not in page and "global_load_dword at <a href=\"#f1-L15\">line 15</a>" in page
    assert ("f2-L138", "line 138") in links  # the simulator's hottest line, in the second file
    assert _listing_row(page, "f2-L138") is not None and _listing_row(page, "f1-L20") is not None


def test_listing_shows_simulated_stalls_per_line(tmp_path, capsys):
    page = _report(tmp_path, GEMM, "--simulate")
    assert "<th>simulated stalls</th>" in page
    assert re.fullmatch(r"4\.4% barrier", _cell_text(_listing_row(page, "f1-L138"), "stall"))
    assert _cell_text(_listing_row(page, "f1-L137"), "stall") == "2.6% lgkmcnt wait"  # for the ds_writes
    assert _cell_text(_listing_row(page, "f1-L135"), "stall") == ""  # s_waitcnt vmcnt(0): the loads are back
    assert main(["report", "--no-config", "--simulate", "--format", "json", str(GEMM)]) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["kernels"]
    simulation = kernel["simulation"]
    rows = simulation["line_stalls"]
    assert sum(row["cycles"] for row in rows) == sum(simulation["stalls"].values())
    assert {"path": str(GEMM), "line": 138, "cycles": 3072, "reasons": {"barrier": 3072}, "expanded_from": []} in rows
    assert simulation["hot_lines"][0] == {"path": str(GEMM), "line": 138, "reason": "barrier", "share": 0.044}


def test_several_kernels_get_a_sortable_kernel_table(tmp_path, two_kernels):
    """Kernel, location, target, waves, limiter, resources and findings per row, each linked to its section; the
    inline script that sorts it keeps the page well-formed XML."""
    page = _report(tmp_path, two_kernels)
    root = ElementTree.fromstring(page)
    (table,) = [t for t in root.iter("table") if "kernels" in (t.get("class") or "")]
    headers = ["".join(th.itertext()) for th in table.iter("th")]
    assert headers == ["kernel", "location", "target", "waves/SIMD", "limited by", "VGPR", "AGPR", "SGPR", "LDS bytes",
                       "scratch bytes", "findings"]
    rows = list(table.find("tbody"))
    assert [row[0][0].get("href") for row in rows] == ["#f1-k-scale", "#f1-k-swap_pairs"]
    ids = {element.get("id") for element in root.iter() if element.get("id")}
    assert {"f1", "f1-k-scale", "f1-k-swap_pairs"} <= ids
    assert page.count("<script>//<![CDATA[") == 1 and NETWORK.search(page) is None
    single = _report(tmp_path, GEMM)
    assert "<nav" not in single and 'class="kernels' not in single and "<script" not in single


def _inert(page: str) -> list[str]:
    """The sections a large page keeps for its script to render: gzipped and base64-encoded."""
    return [gzip.decompress(base64.b64decode(packed)).decode()
            for packed in re.findall(r'<script type="application/octet-stream" class="inert">([^<]*)</script>', page)]


def test_a_large_page_renders_its_sections_when_opened(tmp_path, two_kernels, monkeypatch):
    """Past the size limits each kernel's section and each kernel's stretch of the listing wait, compressed, until
    opened or linked to; together they hold every listing line once."""
    from amdgpu_lint.outputs import html_report

    small = _report(tmp_path, two_kernels)
    monkeypatch.setattr(html_report, "LAZY_KERNELS", 2)
    page = _report(tmp_path, two_kernels)
    root = ElementTree.fromstring(page)
    lazy = [d for d in root.iter("details") if d.get("class") == "lazy"]
    assert [d.get("id") for d in lazy if d.get("id")] == ["f1-k-scale", "f1-k-swap_pairs"]
    chunks = [d for d in lazy if d.get("data-lines") == "f1"]
    assert [int(d.get("data-first")) for d in chunks][0] == 1 and len(chunks) == 3  # before, scale, swap_pairs
    assert '<tr class="line' not in page  # no listing row is markup until opened
    sections = _inert(page)
    rows = [row for section in sections for row in re.findall(r'<tr class="line[^"]*" id="(f1-L\d+)"', section)]
    assert rows == re.findall(r'<tr class="line[^"]*" id="(f1-L\d+)"', small)  # every line, once, in order
    assert any("waves per SIMD" in section and "<svg" in section for section in sections)


def _chromium() -> str | None:
    return next((found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))),
                None)


@pytest.mark.skipif(_chromium() is None, reason="no Chromium on PATH (Debian's chromium package)")
def test_chromium_renders_a_linked_line_of_a_large_page(tmp_path, two_kernels, monkeypatch):
    """The real browser: opening the page at a line's anchor decompresses that stretch of the listing, opens it
    (and the collapsed metadata block around the line) and the row is in the document."""
    from amdgpu_lint.outputs import html_report

    monkeypatch.setattr(html_report, "LAZY_KERNELS", 2)
    _report(tmp_path, two_kernels)
    line = next(number for number, text in enumerate(two_kernels.read_text().splitlines(), 1)
                if ".amdhsa_next_free_vgpr" in text)  # inside a collapsed descriptor block
    run = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--disable-component-update", "--disable-sync", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000", "--dump-dom",
                          f"{(tmp_path / 'report.html').as_uri()}#f1-L{line}"], capture_output=True, text=True, timeout=120)
    assert f'id="f1-L{line}"' in run.stdout
    assert re.search(r'<details class="block" open=""><summary>lines \d+–\d+: kernel descriptor', run.stdout)


# What `llc -asm-verbose` (not llvmlite) writes after each kernel's code: its resource figures as comments.
KERNEL_INFO = """; Kernel info:
; codeLenInByte = 60
; TotalNumSgprs: 13
; NumVgprs: 2
; NumAgprs: 0
; TotalNumVgprs: 2
; ScratchSize: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; Occupancy: 8
"""


def test_long_metadata_blocks_are_collapsed(tmp_path, two_kernels):
    verbose = re.sub(r"^\t\.size\t\w+, .*\n", lambda match: match.group(0) + KERNEL_INFO, two_kernels.read_text(), flags=re.M)
    two_kernels.write_text(verbose)
    page = _report(tmp_path, two_kernels)
    root = ElementTree.fromstring(page)
    summaries = ["".join(d.find("summary").itertext()) for d in root.iter("details") if d.get("class") == "block"]
    assert sum("kernel descriptor: .amdhsa_kernel" in s for s in summaries) == 2
    assert sum("code-object metadata (YAML): .amdgpu_metadata" in s for s in summaries) == 1
    assert sum("LLVM's kernel info comments" in s for s in summaries) == 2
    collapsed = [d for d in root.iter("details") if d.get("class") == "block"]
    assert all(d.get("open") is None for d in collapsed)  # nothing found inside them
    inside = {row.get("id") for d in collapsed for row in d.iter("tr")}
    yaml_line = next(n for n, text in enumerate(two_kernels.read_text().splitlines(), 1) if ".amdgpu_metadata" in text)
    assert f"f1-L{yaml_line}" in inside and f"f1-L{yaml_line + 1}" in inside
    assert '<span class="err">' not in page  # the YAML is not read as assembly


def test_lexer_is_registered_and_covers_llvm_output():
    lexer = get_lexer_by_name("amdgpu-asm")
    text = (FIXTURES / "examples" / "compiler" / "mfma_gemm_gfx90a.s").read_text()
    errors = [value for token, value in lexer.get_tokens(text) if token is Error]
    assert errors == []


def test_unpinned_launch_names_llvms_figure_and_the_spread(tmp_path):
    """16 KiB of LDS, no launch bounds (llvm-amdgpu-facts.md §1.3b): the page says 8 is LLVM's figure."""
    from test_occupancy_differential import compiled_launches

    path = tmp_path / "k.s"
    path.write_text(compiled_launches()[("gfx90a", 16384, None)]["asm"])
    out = tmp_path / "r.html"
    assert main(["report", "--no-config", "--format", "html", "--output", str(out), str(path)]) == 0
    page = out.read_text()
    assert ("8 of 8 waves per SIMD</b> (LLVM&#x27;s figure for work-groups of 1..1024; 8 at 512, 4 at 256, "
            "1 at 64: pass --wg-size)") in page


def test_the_listing_splits_each_file_into_lines_once(tmp_path, monkeypatch):
    """Each listing row asked the file for its line count by splitting the whole text: a 20k-line page took
    26 s, a 100k-line one over 13 minutes."""
    from amdgpu_lint.model import ir
    from amdgpu_lint.model.ir import SourceFile

    skip_if_compiled(ir)
    splits = []
    raw_lines = SourceFile.raw_lines.fget
    monkeypatch.setattr(SourceFile, "raw_lines", property(lambda source: splits.append(source.path) or raw_lines(source)))
    page = _report(tmp_path, TENSILE)
    assert _listing_row(page, "f1-L100") is not None
    assert len(splits) == len(set(splits)) == 2  # once for the file, once for the file it includes


def test_plots_of_inputs_with_the_same_name_do_not_overwrite_each_other(tmp_path):
    for directory in ("a", "b"):
        (tmp_path / directory).mkdir()
        (tmp_path / directory / "k.s").write_text(GEMM.read_text())
    out = tmp_path / "plots"
    assert main(["report", "--no-config", "--plots", str(out), str(tmp_path / "a" / "k.s"), str(tmp_path / "b" / "k.s")]) == 0
    names = sorted(path.name for path in out.iterdir())
    assert names == sorted(f"{d}__k.gemm_pipeline.{axis}.svg" for d in "ab" for axis in ("vgprs", "lds_bytes", "wg_size"))
    assert main(["report", "--no-config", "--plots", str(tmp_path / "one"), str(tmp_path / "a" / "k.s")]) == 0
    assert (tmp_path / "one" / "k.gemm_pipeline.vgprs.svg").is_file()  # one input: its plain name


MACRO_KERNEL = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "tile.inc"
k:
  global_load_dword v1, v0, s[0:1]
  load_tile 4
  load_tile 8
  s_endpgm
.rodata
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 32
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 32
.end_amdhsa_kernel
"""

TILE_MACRO = """.macro load_tile base
  global_load_dword v[\\base], v0, s[0:1]
  s_waitcnt vmcnt(0)
  v_add_f32 v[\\base+1], v[\\base], v1
.endm
"""


def test_macro_kernels_show_pressure_and_stalls_at_their_call_sites_with_an_expanded_view(tmp_path, capsys):
    """A macro from a header, called twice: the call sites in the kernel's file carry the live registers and the
    stalls (the body lines' share on hover); the header's listing keeps its body lines'; the expanded view lists
    each instruction after expansion, linked to its body line and its call site; hot spots in the header name it."""
    (tmp_path / "tile.inc").write_text(TILE_MACRO)
    (tmp_path / "k.s").write_text(MACRO_KERNEL)
    page = _report(tmp_path, tmp_path / "k.s", "--simulate")
    first_call = _listing_row(page, "f1-L5")
    assert _cell_text(first_call, "live").strip() and _cell_text(first_call, "stall").strip()
    (span,) = [e for e in first_call.iter("span") if e.get("class") == "expanded"]
    assert span.get("title").startswith("expanded from tile.inc:")
    assert _cell_text(_listing_row(page, "f1i1-L3"), "stall").strip()  # the header's own listing: its body lines
    root = ElementTree.fromstring(page)
    (view,) = [d for d in root.iter("details") if d.get("class") == "expanded-view"]
    rows = view.find("table").findall("tr")
    texts = ["".join(row[2].itertext()) for row in rows]
    assert texts == ["global_load_dword v1, v0, s[0:1]", "global_load_dword v4, v0, s[0:1]", "s_waitcnt vmcnt(0)",
                     "v_add_f32 v5, v4, v1", "global_load_dword v8, v0, s[0:1]", "s_waitcnt vmcnt(0)",
                     "v_add_f32 v9, v8, v1", "s_endpgm"]
    assert "".join(rows[3][1].itertext()) == "tile.inc:4 ← line 5 (macro load_tile)"
    assert main(["report", "--no-config", "--simulate", str(tmp_path / "k.s")]) == 0
    hot = [line.strip() for line in capsys.readouterr().out.splitlines() if "stalled here" in line]
    assert "tile.inc:3 (expanded at line 5): stalled here 42% (waiting on vmcnt)" in hot
    assert "tile.inc:3 (expanded at line 6): stalled here 42% (waiting on vmcnt)" in hot
    assert any(line.startswith("line 4: stalled here") for line in hot)  # the kernel's own load
