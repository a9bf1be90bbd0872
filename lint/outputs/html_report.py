"""`amdgpu-lint report --format html`: one self-contained page (no scripts, fonts or links outside it).

Per file: its findings, then per kernel the occupancy table, what-if charts and simulation, then the
highlighted listing with live VGPRs and AGPRs per line, the simulated stalls per line, and the findings
under the lines they concern. Every listing line has an anchor (unique over the page), which findings,
their related locations and the simulator's hot spots link to; long metadata blocks are collapsed."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter

from .. import __version__
from ..analyses.liveness import LivenessAnalysis
from ..analyses.manager import AnalysisManager
from ..model.diagnostics import Diagnostic, Severity
from ..model.ir import Module, SourceFile
from .lexer import AMDGPULexer
from .plots import flat_note, is_flat, report_charts
from .report_text import allocated_text, path_text, pressure_text, spread_text

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
td.code { white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 8; }
td.number { text-align: right; } td.number a { color: #999; text-decoration: none; }
col.number { width: 4.5em; } col.live { width: 170px; } col.stall { width: 190px; }
td.live, td.stall { white-space: pre; overflow: hidden; font-size: 11px; color: #555; }
.meter { display: inline-block; width: 60px; height: 9px; background: #f1f1f1; margin-right: 6px; vertical-align: middle; }
.meter span { display: inline-block; height: 9px; vertical-align: top; }
.meter .v { background: #5b9bd5; } .meter .a { background: #9b59b6; } .meter .s { background: #e07b6a; }
tr.line:target td { background: #fff59d; }
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


def _toc(page: _Page, modules: list[Module], reports: list[dict[str, Any]]) -> str:
    files = []
    for index, module in enumerate(modules):
        found = [d for source in page.sources[index].values() for d in source.diagnostics]
        kernels = []
        for report in reports:
            if report["path"] != module.path or report["name"] not in page.kernel_ids[index]:
                continue
            mine = sum(1 for d in found if d.kernel == report["name"])
            occupancy = (f"{report['waves_per_simd']}/{report['max_waves_per_simd']} waves/SIMD, "
                         f"limited by {', '.join(report['limiter'])}" if "waves_per_simd" in report else "no target")
            kernels.append(f'<li><a href="#{page.kernel_ids[index][report["name"]]}">{escape(report["name"])}</a> '
                           f'<span class="note">{escape(occupancy)}; {mine} finding{"s" if mine != 1 else ""}</span></li>')
        files.append(f'<li><a href="#f{index + 1}">{escape(module.path)}</a> <span class="note">{_count_text(found)}</span>'
                     f'<ul>{"".join(kernels)}</ul></li>')
    return f'<nav class="toc"><b>Contents</b><ul>{"".join(files)}</ul></nav>'


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
        f"<li>{page.line_link(module_index, item.get('path', module.path), item['line'], 'line ' + str(item['line']))}: "
        f"stalled here {item['share']:.0%} ({escape(item['reason'])})</li>"
        for item in simulation.get("hot_lines", []))
    path = simulation.get("path")
    path_line = f"<p>Path: {escape(path_text(path, simulation['trace_length']))}; lines it never runs are dimmed (∅)</p>" \
        if path else ""
    warnings = "".join(f'<p class="sim-warning">warning: {escape(w)}</p>' for w in (path or {}).get("warnings", []))
    return (
        f"<p><b>Simulation</b>: {simulation['waves']} waves on one CU, {simulation['cycles']} cycles, "
        f"{simulation['clocks_per_wave']} clocks/wave, stall rate {simulation['stall_rate']:.0%} (share of wave time, all reasons; "
        f"SIMD idle on memory {simulation.get('wait_rate', 0):.0%}). "
        f"<b>{escape(simulation['bottleneck'])}</b></p>{path_line}{warnings}"
        '<div class="overview">'
        f'<table class="occupancy"><tr><th>unit</th><th>busy</th></tr>{busy}</table>'
        + (f'<table class="occupancy"><tr><th>stall reason</th><th>share</th></tr>{stalls}</table>' if stalls else "")
        + (f"<div>hot spots (share of all stall cycles):<ul>{hot}</ul></div>" if hot else "")
        + "</div>"
    )


def _pressure_by_line(module: Module) -> dict[tuple[str, int], tuple[int, int]]:
    """(path, line) -> the most VGPRs and the most AGPRs live into an instruction of that line."""
    pressure: dict[tuple[str, int], tuple[int, int]] = {}
    for kernel in module.kernels:
        liveness = AnalysisManager(module, kernel).get(LivenessAnalysis)
        if liveness is None:
            continue
        for instruction, vgprs, agprs in zip(kernel.instructions, liveness.live_vgprs, liveness.live_agprs, strict=True):
            key = (instruction.where.path, instruction.where.line)
            v, a = pressure.get(key, (0, 0))
            pressure[key] = (max(v, vgprs), max(a, agprs))
    return pressure


def _stalls_by_line(module: Module, reports: list[dict[str, Any]]) -> dict[tuple[str, int], tuple[float, dict[str, int]]]:
    """(path, line) -> share of its kernel's stall cycles and the wave-cycles by reason, from `report --simulate`."""
    stalls: dict[tuple[str, int], tuple[float, dict[str, int]]] = {}
    for report in reports:
        simulation = report.get("simulation")
        if report["path"] != module.path or simulation is None:
            continue
        total = max(1, sum(simulation["stalls"].values()))
        for row in simulation.get("line_stalls", []):
            key = (row["path"], row["line"])
            share, reasons = stalls.get(key, (0.0, {}))
            stalls[key] = (share + row["cycles"] / total, dict(Counter(reasons) + Counter(row["reasons"])))
    return stalls


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


def _listing(page: _Page, module_index: int, source: _Source, pressure: dict, stalls: dict,
             never_run: set[tuple[str, int]]) -> str:
    path = source.file.path
    lines = source.file.raw_lines
    text = "\n".join(lines) + "\n"
    code = highlight(text, AMDGPULexer(stripnl=False, ensurenl=False), HtmlFormatter(nowrap=True)).split("\n")
    mine = {line: values for (where, line), values in pressure.items() if where == path}
    with_agprs = any(a for _, a in mine.values())
    scale = max((v + a for v, a in mine.values()), default=0) or 1
    stall_here = {line: values for (where, line), values in stalls.items() if where == path}
    stall_scale = max((share for share, _ in stall_here.values()), default=0) or 1
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
            v, a = mine[number]
            meter = (f'<span class="meter"><span class="v" style="width:{100 * v / scale:.0f}%"></span>'
                     f'<span class="a" style="width:{100 * a / scale:.0f}%"></span></span>')
            live = meter + (f"v {v:>3} / a {a:>3}" if with_agprs else f"{v:>3}")
        stall = ""
        if number in stall_here:
            share, reasons = stall_here[number]
            detail = ", ".join(f"{reason} {cycles}" for reason, cycles in sorted(reasons.items(), key=lambda r: -r[1]))
            stall = (f'<span title="{escape(detail)} wave-cycles"><span class="meter"><span class="s" '
                     f'style="width:{100 * share / stall_scale:.0f}%"></span></span>{share:>5.1%} '
                     f"{escape(_short_reason(max(reasons, key=reasons.get)))}</span>")
        cells = [f'<td class="number"><a href="#{anchor}">{number}</a></td>', f'<td class="live">{live}</td>',
                 *([f'<td class="stall">{stall}</td>'] if stalls else []),
                 f'<td class="code">{code[number - 1] if number - 1 < len(code) else ""}</td>']
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
    parts = [f'<table class="listing">{colgroup}{header}</table>']
    for first, last, what in _segments(lines):
        table = f'<table class="listing">{colgroup}{"".join(row(n) for n in range(first, last + 1))}</table>'
        if what is None:
            parts.append(table)
        else:
            opened = " open=\"open\"" if any(first <= n <= last for n in by_line) else ""
            parts.append(f'<details class="block"{opened}><summary>lines {first}–{last}: {escape(what)} '
                         f"({last - first + 1} lines)</summary>{table}</details>")
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
    for report in reports:
        if report["path"] != module.path or report["name"] not in page.kernel_ids[index]:
            continue
        start = page.line_link(index, module.path, report.get("line"), f"line {report.get('line')}")
        out.append(f'<section class="kernel" id="{page.kernel_ids[index][report["name"]]}">'
                   f"<h3>{escape(report['kind'])} <code>{escape(report['name'])}</code> "
                   f"({escape(str(report['target']))}), {start}</h3>")
        if "waves_per_simd" in report:
            out.append(_occupancy_section(report))
        if "simulation" in report:
            out.append(_simulation_section(page, index, module, report["simulation"]))
        out.append("</section>")
    pressure = _pressure_by_line(module)
    stalls = _stalls_by_line(module, reports)
    never_run = _never_run(module, reports)
    for path, source in sources.items():
        listing = _listing(page, index, source, pressure, stalls, never_run)
        if path == module.path:
            out.append(f"<h3>Listing</h3>{listing}")
        else:
            opened = ' open="open"' if source.diagnostics else ""
            out.append(f'<details class="include"{opened}><summary><b>included: {escape(path)}</b> '
                       f"({source.file.line_count} lines, {_count_text(source.diagnostics)})</summary>{listing}</details>")
    out.append("</section>")
    return "".join(out)


def write_html(out: TextIO, modules: list[Module], reports: list[dict[str, Any]], diagnostics: list[Diagnostic]) -> None:
    page = _Page(modules, diagnostics)
    css = HtmlFormatter().get_style_defs("td.code")
    kernels = sum(len(m.kernels) for m in modules)
    out.write(f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><title>amdgpu-lint report</title>'
              f"<style>{_STYLE}{css}</style></head><body>")
    out.write(f"<h1>amdgpu-lint {__version__} report</h1><p>{len(modules)} file(s), {kernels} kernel(s), "
              f"{_count_text(list(dict.fromkeys(diagnostics)))}</p>")
    if len(modules) > 1 or kernels > 1:
        out.write(_toc(page, modules, reports))
    if page.unplaced:
        items = "".join(f'<li class="{d.severity}">{escape(d.path)}:{d.line} <span class="severity">{d.severity}</span>: '
                        f'{escape(d.message)} <span class="rule">[{escape(d.code)} {escape(d.name)}]</span></li>'
                        for d in page.unplaced)
        out.write(f'<h2>Other findings</h2><ol class="findings">{items}</ol>')
    out.writelines(_file_section(page, index, module, reports) for index, module in enumerate(modules))
    out.write("</body></html>\n")
