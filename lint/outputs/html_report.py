"""`amdgpu-lint report --format html`: one self-contained page (no fonts, links or scripts from outside it).

Per file: its findings, then per kernel the occupancy table, what-if charts and simulation, then the
highlighted listing with live VGPRs and AGPRs per line, the simulated stalls per line, and the findings
under the lines they concern. Every listing line has an anchor (unique over the page), which findings,
their related locations and the simulator's hot spots link to; long metadata blocks are collapsed.

A page of several kernels starts with a kernel table (sorted by clicking a column). A large page (a
kernel library: `LAZY_LINES` listing lines or `LAZY_KERNELS` kernels) renders each kernel's section and each
kernel's stretch of the listing when it is opened or linked to: until then they are inert text the
browser does not lay out, so the page opens at once whatever the file's size. The page's one script
(inline) sorts the table and renders those sections; without it the rest of the page still reads."""

from __future__ import annotations

import base64
import gzip
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter

from .. import __version__
from ..analyses.liveness import LivenessAnalysis
from ..analyses.manager import AnalysisManager
from ..model.diagnostics import Diagnostic, Severity
from ..model.ir import Kernel, Module, SourceFile
from ..model.nodes import instruction_text
from .lexer import AMDGPULexer
from .plots import flat_note, is_flat, report_charts
from .report_text import (
    allocated_text,
    baseline_change,
    groups_text,
    launch_text,
    model_lines,
    path_text,
    pressure_text,
    spread_text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

_STYLE = """
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1500px; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 36px; border-bottom: 2px solid #ddd; }
h3 { font-size: 15px; margin-top: 24px; } h4 { font-size: 14px; margin: 18px 0 6px; }
a { color: #1f6fb2; } code { font-size: 13px; }
nav.toc { background: #f6f8fa; border: 1px solid #e1e4e8; padding: 6px 16px; display: inline-block; }
nav.toc ul { margin: 4px 0; padding-left: 20px; } nav.toc .note { color: #666; }
.overview { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
table.occupancy { border-collapse: collapse; margin: 8px 0; }
table.occupancy td, table.occupancy th { border: 1px solid #ccc; padding: 3px 10px; text-align: left; }
table.occupancy td.number { text-align: right; }
tr.limiter td { background: #fde2e4; font-weight: bold; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0; } .charts svg { border: 1px solid #e5e5e5; }
ol.findings { margin: 4px 0; padding-left: 24px; } ol.findings li { margin: 2px 0; }
.severity { font-weight: bold; } .error .severity { color: #b00020; } .warning .severity { color: #8a6d00; }
.info .severity { color: #1f6fb2; } .rule { color: #666; }
table.listing { border-collapse: collapse; font-family: monospace; font-size: 12px; width: 100%; table-layout: fixed; }
table.listing th { text-align: left; font-family: sans-serif; font-size: 12px; border-bottom: 1px solid #ccc; }
table.listing td { padding: 0 6px; vertical-align: top; }
td.code { white-space: pre-wrap; overflow-wrap: break-word; tab-size: 8; }
td.number { text-align: right; } td.number a { color: #999; text-decoration: none; }
col.number { width: 4.5em; } col.live { width: 170px; } col.stall { width: 190px; } col.source { width: 260px; }
td.source { font-size: 11px; color: #555; white-space: normal; }
a.origin { float: right; font-family: sans-serif; font-size: 11px; color: #888; text-decoration: none; }
td.live, td.stall { white-space: pre; overflow: hidden; font-size: 11px; color: #555; }
.meter { display: inline-block; width: 60px; height: 9px; background: #f1f1f1; margin-right: 6px; vertical-align: middle; }
.meter span { display: inline-block; height: 9px; vertical-align: top; }
.meter .v { background: #5b9bd5; } .meter .a { background: #9b59b6; } .meter .s { background: #e07b6a; }
tr.line:target td { background: #fff59d; }
table.kernels { font-size: 12px; } table.kernels td, table.kernels th { padding: 2px 5px; }
table.kernels th { cursor: pointer; background: #f6f8fa; } table.kernels th[data-dir] { text-decoration: underline; }
details.lazy > summary { cursor: pointer; padding: 3px 0; } p.flat { color: #666; font-size: 13px; margin: 2px 0; }
tr.line.not-run td.code { opacity: 0.45; } tr.line.not-run td.number::after { content: " \\2205"; color: #888; }
p.sim-warning { color: #8a4b00; margin: 2px 0; }
tr.finding td { white-space: normal; font-family: sans-serif; padding: 3px 8px 4px 8px; }
tr.finding.error td { background: #fde2e4; } tr.finding.warning td { background: #fff3cd; }
tr.finding.info td { background: #e8f4fd; } tr.finding ul { margin: 2px 0; padding-left: 20px; }
details.block { margin: 0; } details.block > summary { font-family: sans-serif; font-size: 12px; color: #555;
  padding: 2px 0 2px 5em; cursor: pointer; background: #f6f6f6; }
.legend-v { color: #5b9bd5; } .legend-a { color: #9b59b6; }
"""

_BLOCKS = {"amdgpu_metadata": "code-object metadata (YAML)", "amdhsa_kernel": "kernel descriptor",
           "amd_kernel_code_t": "kernel code descriptor (amd_kernel_code_t)"}
_BLOCK_START = re.compile(r"^\s*\.(amdgpu_metadata|amdhsa_kernel|amd_kernel_code_t)\b")
_KERNEL_INFO = re.compile(r"^\s*; Kernel info:")
COLLAPSED_LINES = 8  # metadata blocks this long or longer are collapsed
LAZY_LINES = 8000  # listing lines from which a page renders its sections on demand
LAZY_KERNELS = 40  # kernels from which a page renders its sections on demand

#: Sorts the kernel table by the clicked column (numbers by `data-v`); renders a lazy section when it is opened
#: or an anchor in it is the page's target. In CDATA, so the page stays well-formed XML.
_SCRIPT = """//<![CDATA[
for (const table of document.querySelectorAll("table.kernels")) {
  table.querySelectorAll("th").forEach((th, column) => th.addEventListener("click", () => {
    const sign = th.dataset.dir === "up" ? -1 : 1;
    th.dataset.dir = sign === 1 ? "up" : "down";
    const key = (row) => row.cells[column].dataset.v ?? row.cells[column].textContent;
    const body = table.tBodies[0];
    Array.from(body.rows).sort((a, b) => {
      const x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
      return sign * (isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny);
    }).forEach((row) => body.appendChild(row));
  }));
}
async function render(details) {
  const inert = details.querySelector(":scope > script.inert");
  if (!inert) return;
  inert.classList.remove("inert");
  const bytes = Uint8Array.from(atob(inert.textContent), (c) => c.charCodeAt(0));
  const html = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  inert.insertAdjacentHTML("afterend", html);
  inert.remove();
}
document.addEventListener("toggle", (event) => {
  if (event.target.classList.contains("lazy") && event.target.open) render(event.target);
}, true);
async function reveal() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id) return;
  const line = /^(.*)-L([0-9]+)$/.exec(id);
  for (const details of document.querySelectorAll("details.lazy")) {
    const holds = line && details.dataset.lines === line[1]
      && +details.dataset.first <= +line[2] && +line[2] <= +details.dataset.last;
    if (details.id === id || holds) { details.open = true; await render(details); }
  }
  const target = document.getElementById(id);
  if (!target) return;
  for (let node = target.parentElement; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;  // a collapsed metadata block around the line
  }
  target.scrollIntoView();
}
window.addEventListener("hashchange", reveal);
reveal();
//]]>"""


@dataclass(slots=True)
class _Source:
    """One source file of one module as the page shows it."""

    prefix: str  # anchor prefix, unique over the page
    file: SourceFile
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def anchor(self, line: int) -> str | None:
        return f"{self.prefix}-L{line}" if 0 < line <= self.file.line_count else None


class _Page:
    """The anchors of every listing on the page."""

    def __init__(self, modules: list[Module], diagnostics: list[Diagnostic]) -> None:
        kernels = sum(len(module.kernels) for module in modules)
        lines = sum(source.line_count for module in modules for source in module.sources.values())
        self.lazy = kernels >= LAZY_KERNELS or lines >= LAZY_LINES  # sections rendered when opened
        self.sources: list[dict[str, _Source]] = []
        self.kernel_ids: list[dict[str, str]] = []
        used: set[str] = set()
        for number, module in enumerate(modules, 1):
            paths = [path for path in [module.path, *sorted(set(module.sources) - {module.path})] if path in module.sources]
            self.sources.append({path: _Source(f"f{number}" if index == 0 else f"f{number}i{index}", module.sources[path])
                                 for index, path in enumerate(paths)})
            ids = {}
            for kernel in module.kernels:
                base = f"f{number}-k-" + re.sub(r"[^\w.-]", "_", kernel.name)
                unique, count = base, 1
                while unique in used:
                    count += 1
                    unique = f"{base}-{count}"
                used.add(unique)
                ids[kernel.name] = unique
            self.kernel_ids.append(ids)
        #: (listing path, line) -> (anchor, "k.hip:7") of the source line it was compiled from (its source view)
        self.source_links: dict[Line, tuple[str, str]] = {}
        self.unplaced: list[Diagnostic] = []
        for diagnostic in dict.fromkeys(diagnostics):  # one module's findings may repeat in another's include
            home = next((sources[diagnostic.path] for module, sources in zip(modules, self.sources, strict=True)
                         if diagnostic.path in sources
                         and (diagnostic.kernel is None or any(k.name == diagnostic.kernel for k in module.kernels))), None)
            if home is not None:
                home.diagnostics.append(diagnostic)
            else:
                self.unplaced.append(diagnostic)

    def line_link(self, module_index: int, path: str, line: int | None, text: str) -> str:
        source = self.sources[module_index].get(path)
        anchor = source.anchor(line) if source is not None and line is not None else None
        return f'<a href="#{anchor}">{escape(text)}</a>' if anchor else escape(text)


def _count_text(diagnostics: list[Diagnostic]) -> str:
    counts = Counter(d.severity for d in diagnostics)
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 and s != Severity.INFO else ''}" for s in reversed(Severity) if counts[s]]
    total = f"{len(diagnostics)} finding{'s' if len(diagnostics) != 1 else ''}"
    return f"{total} ({', '.join(parts)})" if parts else total


def _message(page: _Page, module_index: int, diagnostic: Diagnostic) -> str:
    """The message with 'line N' and 'path:N' turned into links to the listing ('path:N' in the same file: 'line N')."""
    paths = sorted(page.sources[module_index], key=len, reverse=True)
    alternatives = [rf"(?P<path>{'|'.join(map(re.escape, paths))}):(?P<at>\d+)(?::\d+)?"] if paths else []
    pattern = re.compile("|".join([*alternatives, r"\bline (?P<line>\d+)\b"]))
    out, last = [], 0
    for match in pattern.finditer(diagnostic.message):
        out.append(escape(diagnostic.message[last:match.start()]))
        if match.group("line"):
            out.append(page.line_link(module_index, diagnostic.path, int(match.group("line")), match.group(0)))
        else:
            line = int(match.group("at"))
            out.append(page.line_link(module_index, match.group("path"), line, _place(match.group("path"), line, diagnostic.path)))
        last = match.end()
    return "".join(out) + escape(diagnostic.message[last:])


def _place(path: str, line: int | None, home: str) -> str:
    """'line N' in the file at hand, 'name:N' in another (an included file)."""
    return f"line {line}" if path == home else f"{Path(path).name}:{line}"


def _finding_html(page: _Page, module_index: int, diagnostic: Diagnostic) -> str:
    notes = "".join(
        f"<li>{escape(note.message)}"
        + (f" — {page.line_link(module_index, note.path, note.line, _place(note.path, note.line, diagnostic.path))}"
           if note.path and note.line else "")
        + "</li>"
        for note in diagnostic.notes)
    return (f'<span class="severity">{diagnostic.severity}</span>: {_message(page, module_index, diagnostic)} '
            f'<span class="rule">[{escape(diagnostic.code)} {escape(diagnostic.name)}]</span>'
            + (f'<ul class="notes">{notes}</ul>' if notes else ""))


def _toc(page: _Page, modules: list[Module]) -> str:
    files = []
    for index, module in enumerate(modules):
        found = [d for source in page.sources[index].values() for d in source.diagnostics]
        files.append(f'<li><a href="#f{index + 1}">{escape(module.path)}</a> <span class="note">{_count_text(found)}'
                     f"; {len(module.kernels)} kernel{'s' if len(module.kernels) != 1 else ''}</span></li>")
    return f'<nav class="toc"><b>Files</b><ul>{"".join(files)}</ul></nav>'


#: (header, report key) of the kernel table's resource columns
_TABLE_RESOURCES = (("VGPR", "vgpr"), ("AGPR", "agpr"), ("SGPR", "sgpr"), ("LDS bytes", "lds_bytes"),
                    ("scratch bytes", "scratch_bytes"))


def _kernel_table(page: _Page, modules: list[Module], reports: list[dict[str, Any]],
                  baselines: list[dict[str, Any] | None] | None) -> str:
    """One row per kernel (click a column to sort): occupancy, limiter, resources, findings, change against the
    baseline when one is given."""
    index_of = {module.path: index for index, module in enumerate(modules)}
    header = ["kernel", "location", "target", "waves/SIMD", "limited by", *(name for name, _ in _TABLE_RESOURCES),
              "findings", *(["against the baseline"] if baselines is not None else [])]
    body = []
    for number, report in enumerate(reports):
        index = index_of.get(report["path"])
        if index is None or report["name"] not in page.kernel_ids[index]:
            continue
        found = sum(1 for source in page.sources[index].values() for d in source.diagnostics if d.kernel == report["name"])
        link = f'<a href="#{page.kernel_ids[index][report["name"]]}">{escape(report["name"])}</a>'
        place = page.line_link(index, report["path"], report.get("line"), f"{Path(report['path']).name}:{report.get('line')}")
        waves = report.get("waves_per_simd")
        shown_waves = "-" if waves is None else f"{waves}/{report['max_waves_per_simd']}"
        cells = [f"<td>{link}</td>", f"<td>{place}</td>", f"<td>{escape(str(report.get('target')))}</td>",
                 f'<td class="number" data-v="{waves if waves is not None else -1}">{shown_waves}</td>',
                 f"<td>{escape(', '.join(report.get('limiter') or ()) or '-')}</td>",
                 *(f'<td class="number">{report.get(key, "-")}</td>' for _, key in _TABLE_RESOURCES),
                 f'<td class="number">{found}</td>']
        if baselines is not None:
            rank, text = baseline_change(report, baselines[number]) if waves is not None else (4, "no target")
            cells.append(f'<td data-v="{rank}">{escape(text)}</td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    headers = "".join(f'<th title="sort by {escape(name)}">{escape(name)}</th>' for name in header)
    return (f'<table class="kernels occupancy"><thead><tr>{headers}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def _occupancy_section(report: dict[str, Any]) -> str:
    rows = "".join(
        f'<tr class="{"limiter" if name in report["limiter"] else ""}"><td>{escape(name)}</td>'
        f'<td class="number">{waves}</td></tr>'
        for name, waves in report["limits"].items())
    steps = "".join(f"<li>{escape(step)}</li>" for step in report["next_step"])
    file = next((name for name in report["limits"] if name.startswith("VGPR")), "VGPR")
    registers = f"{file} {report['vgpr']}" + (f" (VGPRs {report['arch_vgpr']}, AGPRs {report['agpr']})" if report["agpr"] else "")
    if (report.get("allocated_vgpr") or 0) > report["vgpr"]:
        registers += f", {report['allocated_vgpr']} allocated"
    wg_min = report.get("wg_size_min", report["wg_size"])
    work_group = f"{wg_min}..{report['wg_size']}" if wg_min < report["wg_size"] else str(report["wg_size"])
    flat = [axis for axis, curves in report["what_if"].items() if is_flat(curves)]
    charts = "".join(svg for axis, svg in report_charts(report).items() if axis not in flat)
    notes = "".join(f'<p class="flat">{escape(flat_note(report, axis))}</p>' for axis in flat)
    return (
        '<div class="overview"><div>'
        f"<p><b>{report['waves_per_simd']} of {report['max_waves_per_simd']} waves per SIMD</b>"
        f"{escape(spread_text(report['over_sizes'], report['wg_size_min'], report['wg_size'], 'pass --wg-size'))}"
        f"{escape(allocated_text(report))}, "
        f"{report['waves_per_cu']} per {report['cu_unit']}, wave{report['wave_size']}<br/>{registers}, "
        f"SGPR {report['sgpr']}, LDS {report['lds_bytes']} bytes, scratch {report['scratch_bytes']} bytes/lane<br/>"
        f"work-group {work_group} ({escape(report['wg_size_source'])})"
        + (f"<br/>pressure: {escape(pressure_text(report['pressure'], report['path']))}" if "pressure" in report else "")
        + "</p>"
        + (f"<p>next step:</p><ul>{steps}</ul>" if steps else "")
        + f'</div><table class="occupancy"><tr><th>resource</th><th>waves/SIMD</th></tr>{rows}</table></div>'
        f'<div class="charts">{charts}</div>{notes}'
    )


def _simulation_section(page: _Page, module_index: int, module: Module, simulation: dict[str, Any]) -> str:
    busy = "".join(f'<tr><td>{escape(unit)}</td><td class="number">{share:.0%}</td></tr>'
                   for unit, share in simulation["utilization"].items())
    total = max(1, sum(simulation["stalls"].values()))
    stalls = "".join(f'<tr><td>{escape(reason)}</td><td class="number">{cycles / total:.0%}</td></tr>'
                     for reason, cycles in sorted(simulation["stalls"].items(), key=lambda item: -item[1]))
    hot = "".join(
        f"<li>{page.line_link(module_index, item.get('path', module.path), item['line'], _place(item.get('path', module.path), item['line'], module.path))}"
        + (f" (expanded at {page.line_link(module_index, module.path, item['expanded_at'], 'line ' + str(item['expanded_at']))})"
           if "expanded_at" in item else "")
        + f": stalled here {item['share']:.0%} ({escape(item['reason'])})</li>"
        for item in simulation.get("hot_lines", []))
    path = simulation.get("path")
    path_line = f"<p>Path: {escape(path_text(path, simulation['trace_length']))}; lines it never runs are dimmed (∅)</p>" \
        if path else ""
    launch = simulation.get("launch")
    warnings = "".join(f'<p class="sim-warning">warning: {escape(w)}</p>'
                       for w in [*(path or {}).get("warnings", []), *simulation.get("warnings", []),
                                 *(launch or {}).get("warnings", [])])
    model = "".join(f"<p>{escape(line)}</p>" for line in model_lines(simulation))
    launch_line = f"<p><b>Launch time</b>: {escape(launch_text(launch))}</p>" if launch else ""
    return (
        f"{launch_line}<p><b>Simulation</b>: {simulation['waves']} waves{groups_text(simulation)} on one {simulation.get('unit', 'CU')}, {simulation['cycles']} cycles, "
        f"{simulation['clocks_per_wave']} clocks/wave, stall rate {simulation['stall_rate']:.0%} (share of wave time, all reasons; "
        f"SIMD idle on memory {simulation.get('wait_rate', 0):.0%}). "
        f"<b>{escape(simulation['bottleneck'])}</b></p>{model}{path_line}{warnings}"
        '<div class="overview">'
        f'<table class="occupancy"><tr><th>unit</th><th>busy</th></tr>{busy}</table>'
        + (f'<table class="occupancy"><tr><th>stall reason</th><th>share</th></tr>{stalls}</table>' if stalls else "")
        + (f"<div>hot spots (share of all stall cycles):<ul>{hot}</ul></div>" if hot else "")
        + "</div>"
    )


Line = tuple[str, int]  # (path, line)


@dataclass(slots=True)
class _LinePressure:
    """The most VGPRs and AGPRs live into an instruction a listing line shows, and, at a macro call, `.rept` or
    `.include`, the same per body line it expands."""

    vgprs: int = 0
    agprs: int = 0
    bodies: dict[Line, tuple[int, int]] = field(default_factory=dict)


def _source_view(listing: _Source, prefix: str, path: str, located: dict[int, tuple], pressure: dict[Line, _LinePressure],
                 stalls: dict[Line, _LineStalls], links_back: dict[Line, tuple[str, str]]) -> str:
    """A compiled source beside its listing (as Radeon GPU Analyzer's source/ISA view): per source line its
    instructions (linked to the listing), the most live VGPRs/AGPRs among them and their simulated stalls; each
    listing line links back."""
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound

    text = Path(path).read_text(errors="replace")
    try:
        lexer = get_lexer_for_filename(path.replace(".hip", ".cpp").replace(".cl", ".c"), stripnl=False, ensurenl=False)
    except ClassNotFound:
        lexer = get_lexer_for_filename("x.txt", stripnl=False, ensurenl=False)
    code = highlight(text, lexer, HtmlFormatter(nowrap=True)).split("\n")
    rows_of: dict[int, list[int]] = {}
    for listing_line, (source_path, line, _) in sorted(located.items()):
        if source_path == path:
            rows_of.setdefault(line, []).append(listing_line)
    rows = []
    for number, html in enumerate(code, 1):
        listed = rows_of.get(number, [])
        live = max(((pressure[listing.file.path, n].vgprs, pressure[listing.file.path, n].agprs)
                    for n in listed if (listing.file.path, n) in pressure), default=None)
        share = sum(stalls[listing.file.path, n].share for n in listed if (listing.file.path, n) in stalls)
        links = " ".join(f'<a href="#{listing.anchor(n)}">{n}</a>' for n in listed[:6]) + (" …" if len(listed) > 6 else "")
        rows.append(f'<tr class="line" id="{prefix}-L{number}"><td class="number">{number}</td>'
                    f'<td class="source">{f"{len(listed)} instr.: {links}" if listed else ""}</td>'
                    f'<td class="live">{"" if live is None else f"v {live[0]} / a {live[1]}"}</td>'
                    f'<td class="stall">{f"{share:.1%}" if share else ""}</td><td class="code">{html}</td></tr>')
        for n in listed:
            links_back[listing.file.path, n] = (f"{prefix}-L{number}", f"{Path(path).name}:{number}")
    return ('<table class="listing"><colgroup><col class="number"/><col class="source"/><col class="live"/>'
            '<col class="stall"/><col class="code"/></colgroup><tr><th>line</th><th>instructions</th><th>live VGPRs / '
            f'AGPRs</th><th>simulated stalls</th><th>source</th></tr>{"".join(rows)}</table>')


def _expanded_view(page: _Page, module_index: int, module: Module, kernel: Kernel) -> str:
    """The kernel's instructions as the assembler sees them (macros, `.rept` and symbolic registers expanded), each
    linked to its source line and to the call sites it was expanded at; empty for a kernel that expands nothing."""
    instructions = kernel.instructions
    if not any(instruction.where.chain for instruction in instructions):
        return ""
    texts = [instruction_text(i.mnemonic, i.operands, i.modifiers)
             + (f" :: {instruction_text(i.pair.mnemonic, i.pair.operands, i.pair.modifiers)}" if i.pair else "")
             for i in instructions]
    code = highlight("\n".join(texts) + "\n", AMDGPULexer(stripnl=False, ensurenl=False), HtmlFormatter(nowrap=True))
    rows = []
    for number, (instruction, html) in enumerate(zip(instructions, code.split("\n"), strict=False)):
        where = instruction.where
        links = [page.line_link(module_index, where.path, where.line, _place(where.path, where.line, module.path))]
        links += [f"← {page.line_link(module_index, step.path, step.line, _place(step.path, step.line, module.path))} "
                  f"({escape(f'macro {step.name}' if step.kind == 'macro' else step.name if step.kind != 'include' else 'include')})"
                  for step in where.chain]
        rows.append(f'<tr><td class="number">{number}</td><td class="source">{" ".join(links)}</td>'
                    f'<td class="code">{html}</td></tr>')
    return (f'<details class="expanded-view"><summary>expanded: the {len(instructions)} instructions after macros, '
            f'<code>.rept</code> and symbols, each linked to its source line</summary><table class="listing">'
            '<colgroup><col class="number"/><col class="source"/><col class="code"/></colgroup>'
            f'{"".join(rows)}</table></details>')


def _pressure_by_line(module: Module) -> dict[Line, _LinePressure]:
    """(path, line) -> its pressure. An instruction counts at its own line and, in each file it was expanded from,
    at the outermost call site there (the line of the file being viewed)."""
    pressure: dict[Line, _LinePressure] = {}
    for kernel in module.kernels:
        liveness = AnalysisManager(module, kernel).get(LivenessAnalysis)
        if liveness is None:
            continue
        for instruction, vgprs, agprs in zip(kernel.instructions, liveness.live_vgprs, liveness.live_agprs, strict=True):
            where = instruction.where
            for path, line in where.per_file().items() if where.chain else ((where.path, where.line),):
                entry = pressure.setdefault((path, line), _LinePressure())
                entry.vgprs, entry.agprs = max(entry.vgprs, vgprs), max(entry.agprs, agprs)
                if (path, line) != (where.path, where.line):
                    v, a = entry.bodies.get((where.path, where.line), (0, 0))
                    entry.bodies[where.path, where.line] = (max(v, vgprs), max(a, agprs))
    return pressure


@dataclass(slots=True)
class _LineStalls:
    """A listing line's share of its kernel's stall cycles, the wave-cycles by reason, and at a call site the share
    per body line it expands."""

    share: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    bodies: dict[Line, float] = field(default_factory=dict)


def _stalls_by_line(module: Module, reports: list[dict[str, Any]]) -> dict[Line, _LineStalls]:
    """(path, line) -> its stalls from `report --simulate`, counted at the line and at each call site it was expanded
    from (as `_pressure_by_line`)."""
    stalls: dict[Line, _LineStalls] = {}
    for report in reports:
        simulation = report.get("simulation")
        if report["path"] != module.path or simulation is None:
            continue
        total = max(1, sum(simulation["stalls"].values()))
        for row in simulation.get("line_stalls", []):
            body = (row["path"], row["line"])
            share = row["cycles"] / total
            sites = [(s["path"], s["line"]) for s in row.get("expanded_from", ())]
            if all(path != body[0] for path, _ in sites):
                sites.append(body)  # no call site in the body's own file: the line shows its own
            for site in sites:
                entry = stalls.setdefault(site, _LineStalls())
                entry.share += share
                entry.reasons.update(row["reasons"])
                if site != body:
                    entry.bodies[body] = entry.bodies.get(body, 0.0) + share
    return stalls


def _bodies_title(bodies: dict[Line, Any], home: str, show: Callable[[Any], str]) -> str:
    """A tooltip naming what a call site's body lines contribute, most first."""
    ranked = sorted(bodies.items(), key=lambda item: item[1], reverse=True)[:8]
    more = f"; and {len(bodies) - 8} more lines" if len(bodies) > 8 else ""
    return "expanded from " + "; ".join(f"{_place(path, line, home)}: {show(value)}" for (path, line), value in ranked) + more


def _short_reason(reason: str) -> str:
    """'waiting on lgkmcnt' -> 'lgkmcnt wait', 'LDS pipe busy' -> 'LDS pipe'."""
    return f"{reason.removeprefix('waiting on ')} wait" if reason.startswith("waiting on ") else reason.removesuffix(" busy")


def _block_end(lines: list[str], number: int) -> tuple[int, str] | None:
    """If a metadata block starts at line `number`: its last line and what it is."""
    match = _BLOCK_START.match(lines[number - 1])
    if match:
        end_pattern = re.compile(rf"^\s*\.end_{match.group(1)}\b")
        end = next((n for n in range(number + 1, len(lines) + 1) if end_pattern.match(lines[n - 1])), None)
        return (end, f"{_BLOCKS[match.group(1)]}: {lines[number - 1].strip()}") if end is not None else None
    if _KERNEL_INFO.match(lines[number - 1]):  # LLVM's resource summary, one comment line per figure
        end = number
        while end < len(lines) and lines[end].lstrip().startswith(";"):
            end += 1
        return end, "LLVM's kernel info comments"
    return None


def _segments(lines: list[str]) -> list[tuple[int, int, str | None]]:
    """(first, last, what) line ranges (1-based, inclusive): long metadata blocks get what they are, the rest None."""
    segments: list[tuple[int, int, str | None]] = []
    start = number = 1
    while number <= len(lines):
        block = _block_end(lines, number)
        if block is not None and block[0] - number + 1 >= COLLAPSED_LINES:
            if start < number:
                segments.append((start, number - 1, None))
            segments.append((number, block[0], block[1]))
            start = number = block[0] + 1
            continue
        number += 1
    if start <= len(lines):
        segments.append((start, len(lines), None))
    return segments


def _never_run(module: Module, reports: list[dict[str, Any]]) -> set[tuple[str, int]]:
    """(path, line) of the lines no simulated kernel's path executes (empty without `--simulate`)."""
    return {(row["path"], row["line"]) for report in reports if report["path"] == module.path
            for row in report.get("simulation", {}).get("lines_never_run", [])}


def _lazy(text: str, summary: str, *, element_id: str = "", lines: tuple[str, int, int] | None = None) -> str:
    """A section the page's script renders when it is opened (or linked to): `text` kept inert until then, gzipped
    and in base64 (a kernel library's listing is tens of megabytes of markup, a tenth of that compressed)."""
    attributes = f' id="{element_id}"' if element_id else ""
    if lines is not None:
        attributes += f' data-lines="{lines[0]}" data-first="{lines[1]}" data-last="{lines[2]}"'
    packed = base64.b64encode(gzip.compress(text.encode(), compresslevel=6, mtime=0)).decode("ascii")
    return (f'<details class="lazy"{attributes}><summary>{summary}</summary>'
            f'<script type="application/octet-stream" class="inert">{packed}</script></details>')


def _listing(page: _Page, module_index: int, source: _Source, pressure: dict[Line, _LinePressure],
             stalls: dict[Line, _LineStalls], never_run: set[Line], starts: dict[int, str] | None = None) -> str:
    """The listing; with `starts` (line -> kernel name), one lazy section per kernel's stretch of lines."""
    path = source.file.path
    lines = source.file.raw_lines
    text = "\n".join(lines) + "\n"
    code = highlight(text, AMDGPULexer(stripnl=False, ensurenl=False), HtmlFormatter(nowrap=True)).split("\n")
    mine = {line: values for (where, line), values in pressure.items() if where == path}
    with_agprs = any(entry.agprs for entry in mine.values())
    scale = max((entry.vgprs + entry.agprs for entry in mine.values()), default=0) or 1
    stall_here = {line: values for (where, line), values in stalls.items() if where == path}
    stall_scale = max((entry.share for entry in stall_here.values()), default=0) or 1

    def registers(counts: tuple[int, int]) -> str:
        return f"v {counts[0]} / a {counts[1]}" if with_agprs else f"{counts[0]} VGPRs"
    by_line: dict[int, list[Diagnostic]] = {}
    for diagnostic in source.diagnostics:
        by_line.setdefault(diagnostic.line, []).append(diagnostic)
    columns = 4 if stalls else 3
    colgroup = ('<colgroup><col class="number"/><col class="live"/>' + ('<col class="stall"/>' if stalls else "")
                + '<col class="code"/></colgroup>')

    def row(number: int) -> str:
        anchor = source.anchor(number)
        live = ""
        if number in mine:
            entry = mine[number]
            v, a = entry.vgprs, entry.agprs
            meter = (f'<span class="meter"><span class="v" style="width:{100 * v / scale:.0f}%"></span>'
                     f'<span class="a" style="width:{100 * a / scale:.0f}%"></span></span>')
            live = meter + (f"v {v:>3} / a {a:>3}" if with_agprs else f"{v:>3}")
            if entry.bodies:
                title = _bodies_title(entry.bodies, path, registers)
                live = f'<span class="expanded" title="{escape(title)}">{live}</span>'
        stall = ""
        if number in stall_here:
            stalled = stall_here[number]
            reasons = stalled.reasons
            detail = ", ".join(f"{reason} {cycles}" for reason, cycles in reasons.most_common()) + " wave-cycles"
            if stalled.bodies:
                detail += "; " + _bodies_title(stalled.bodies, path, lambda share: f"{share:.1%}")
            stall = (f'<span title="{escape(detail)}"><span class="meter"><span class="s" '
                     f'style="width:{100 * stalled.share / stall_scale:.0f}%"></span></span>{stalled.share:>5.1%} '
                     f"{escape(_short_reason(max(reasons, key=reasons.__getitem__)))}</span>")
        back = page.source_links.get((path, number))
        origin = f' <a class="origin" href="#{back[0]}">{escape(back[1])}</a>' if back else ""
        cells = [f'<td class="number"><a href="#{anchor}">{number}</a></td>', f'<td class="live">{live}</td>',
                 *([f'<td class="stall">{stall}</td>'] if stalls else []),
                 f'<td class="code">{code[number - 1] if number - 1 < len(code) else ""}{origin}</td>']
        dimmed = " not-run" if (path, number) in never_run else ""
        out = [f'<tr class="line{dimmed}" id="{anchor}">{"".join(cells)}</tr>']
        for diagnostic in by_line.get(number, []):
            out.append(f'<tr class="finding {diagnostic.severity}"><td></td><td colspan="{columns - 1}">'
                       f"{_finding_html(page, module_index, diagnostic)}</td></tr>")
        return "".join(out)

    header = ('<tr><th>line</th><th>'
              + ('live <span class="legend-v">VGPRs</span> / <span class="legend-a">AGPRs</span>' if with_agprs
                 else '<span class="legend-v">live VGPRs</span>')
              + "</th>" + ("<th>simulated stalls</th>" if stalls else "") + "<th>code</th></tr>")
    segments = _segments(lines)
    firsts = [first for first, _, _ in segments]

    def tables(low: int, high: int) -> str:
        parts = []
        for first, last, what in segments[max(bisect_right(firsts, low) - 1, 0):]:
            if first > high:
                break
            first, last = max(first, low), min(last, high)
            if first > last:
                continue
            table = f'<table class="listing">{colgroup}{"".join(row(n) for n in range(first, last + 1))}</table>'
            if what is None:
                parts.append(table)
            else:
                opened = " open=\"open\"" if any(first <= n <= last for n in by_line) else ""
                parts.append(f'<details class="block"{opened}><summary>lines {first}–{last}: {escape(what)} '
                             f"({last - first + 1} lines)</summary>{table}</details>")
        return "".join(parts)

    head = f'<table class="listing">{colgroup}{header}</table>'
    if starts is None:
        return head + tables(1, len(lines))
    bounds = sorted({1, *(line for line in starts if 1 <= line <= len(lines))})
    parts = [head]
    for first, following in zip(bounds, [*bounds[1:], len(lines) + 1]):
        last = following - 1
        found = sum(len(by_line.get(n, ())) for n in range(first, last + 1))
        what = f"kernel {escape(starts[first])}" if first in starts else "before the first kernel"
        summary = f"lines {first}–{last}: {what}" + (f", {found} finding{'s' if found != 1 else ''}" if found else "")
        parts.append(_lazy(tables(first, last), summary, lines=(source.prefix, first, last)))
    return "".join(parts)


def _file_section(page: _Page, index: int, module: Module, reports: list[dict[str, Any]]) -> str:
    sources = page.sources[index]
    found = [d for source in sources.values() for d in source.diagnostics]
    out = [f'<section class="file" id="f{index + 1}"><h2>{escape(module.path)}</h2>']
    if found:
        items = "".join(
            f'<li class="{d.severity}">{page.line_link(index, d.path, d.line, _place(d.path, d.line, module.path))} '
            f"{_finding_html(page, index, d)}</li>"
            for d in sorted(found, key=lambda d: (d.path != module.path, d.path, d.line)))
        out.append(f'<details open="open"><summary>{_count_text(found)}</summary><ol class="findings">{items}</ol></details>')
    kernels = {kernel.name: kernel for kernel in module.kernels}
    for report in reports:
        if report["path"] != module.path or report["name"] not in page.kernel_ids[index]:
            continue
        start = page.line_link(index, module.path, report.get("line"), f"line {report.get('line')}")
        kernel_id = page.kernel_ids[index][report["name"]]
        title = (f"{escape(report['kind'])} <code>{escape(report['name'])}</code> "
                 f"({escape(str(report['target']))}), {start}")
        kernel = kernels.get(report["name"])
        details = ((_occupancy_section(report) if "waves_per_simd" in report else "")
                   + (_simulation_section(page, index, module, report["simulation"]) if "simulation" in report else "")
                   + (_expanded_view(page, index, module, kernel) if kernel is not None else ""))
        if page.lazy:
            waves = (f": {report['waves_per_simd']} of {report['max_waves_per_simd']} waves/SIMD"
                     if "waves_per_simd" in report else "")
            out.append(f'<section class="kernel">{_lazy(details, f"<b>{title}</b>{waves}", element_id=kernel_id)}</section>')
        else:
            out.append(f'<section class="kernel" id="{kernel_id}"><h3>{title}</h3>{details}</section>')
    pressure = _pressure_by_line(module)
    stalls = _stalls_by_line(module, reports)
    never_run = _never_run(module, reports)
    starts = {kernel.where.line: kernel.name for kernel in module.kernels if kernel.where.path == module.path}
    listing_source = sources.get(module.path)
    if listing_source is not None and ".loc" in listing_source.file.text:
        from ..model.debuglines import debug_lines

        located = debug_lines(listing_source.file.text, module.path).locations
        shown = sorted({path for path, _, _ in located.values() if Path(path).is_file()})
        for number, source_path in enumerate(shown):
            view = _source_view(listing_source, f"{listing_source.prefix}s{number}", source_path, located, pressure,
                                stalls, page.source_links)
            out.append(_lazy(view, f"<b>Source: {escape(source_path)}</b>") if page.lazy else
                       f"<h3>Source: {escape(source_path)}</h3>{view}")
    for path, source in sources.items():
        listing = _listing(page, index, source, pressure, stalls, never_run,
                           starts if page.lazy and path == module.path else None)
        if path == module.path:
            out.append(f"<h3>Listing</h3>{listing}")
        else:
            opened = ' open="open"' if source.diagnostics else ""
            out.append(f'<details class="include"{opened}><summary><b>included: {escape(path)}</b> '
                       f"({source.file.line_count} lines, {_count_text(source.diagnostics)})</summary>{listing}</details>")
    out.append("</section>")
    return "".join(out)


def write_html(out: TextIO, modules: list[Module], reports: list[dict[str, Any]], diagnostics: list[Diagnostic],
               baselines: list[dict[str, Any] | None] | None = None) -> None:
    """The page; `baselines` (aligned with `reports`: each kernel's snapshot entry or None) adds the change."""
    page = _Page(modules, diagnostics)
    css = HtmlFormatter().get_style_defs("td.code")
    kernels = sum(len(m.kernels) for m in modules)
    out.write(f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><title>amdgpu-lint report</title>'
              f"<style>{_STYLE}{css}</style></head><body>")
    out.write(f"<h1>amdgpu-lint {__version__} report</h1><p>{len(modules)} file(s), {kernels} kernel(s), "
              f"{_count_text(list(dict.fromkeys(diagnostics)))}</p>")
    if len(modules) > 1:
        out.write(_toc(page, modules))
    if len(reports) > 1:
        out.write(f"<h2>Kernels</h2>{_kernel_table(page, modules, reports, baselines)}")
    if page.unplaced:
        items = "".join(f'<li class="{d.severity}">{escape(d.path)}:{d.line} <span class="severity">{d.severity}</span>: '
                        f'{escape(d.message)} <span class="rule">[{escape(d.code)} {escape(d.name)}]</span></li>'
                        for d in page.unplaced)
        out.write(f'<h2>Other findings</h2><ol class="findings">{items}</ol>')
    out.writelines(_file_section(page, index, module, reports) for index, module in enumerate(modules))
    if len(reports) > 1 or page.lazy:
        out.write(f"<script>{_SCRIPT}</script>")
    out.write("</body></html>\n")
