"""`amdgpu-lint report --format html`: one self-contained page (no scripts, fonts or links
outside it): per kernel the occupancy table and what-if charts, then the highlighted listing
with live VGPR pressure per line and the findings under the lines they concern."""

from __future__ import annotations

from html import escape
from typing import Any, TextIO

from pygments import highlight
from pygments.formatters import HtmlFormatter

from .. import __version__
from ..analyses.liveness import LivenessAnalysis
from ..analyses.manager import AnalysisManager
from ..diagnostics import Diagnostic
from ..ir import Module
from .lexer import AMDGPULexer
from .plots import step_chart

_STYLE = """
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 32px; } h3 { font-size: 15px; }
table.occupancy { border-collapse: collapse; margin: 8px 0; }
table.occupancy td, table.occupancy th { border: 1px solid #ccc; padding: 3px 10px; text-align: left; }
tr.limiter td { background: #fde2e4; font-weight: bold; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } .charts svg { border: 1px solid #eee; }
table.listing { border-collapse: collapse; font-family: monospace; font-size: 12px; width: 100%; }
table.listing td { padding: 0 6px; white-space: pre; vertical-align: top; }
td.number { color: #999; text-align: right; width: 4em; }
td.pressure { width: 90px; } .bar { background: #7fb3d5; height: 10px; margin-top: 3px; }
td.count { color: #666; width: 3em; text-align: right; }
tr.finding td { white-space: normal; font-family: sans-serif; padding: 2px 8px 4px 3em; }
tr.error td { background: #fde2e4; } tr.warning td { background: #fff3cd; } tr.info td { background: #e8f4fd; }
"""


def _occupancy_section(report: dict[str, Any]) -> str:
    rows = "".join(
        f'<tr class="{"limiter" if name in report["limiter"] else ""}"><td>{escape(name)}</td><td>{waves}</td></tr>'
        for name, waves in report["limits"].items()
    )
    steps = "".join(f"<li>{escape(step)}</li>" for step in report["next_step"])
    charts = []
    for curve, label, key in (("vgprs", "VGPRs", "vgpr"), ("lds_bytes", "LDS bytes", "lds_bytes"), ("wg_size", "work-group size", "wg_size")):
        points = [tuple(point) for point in report["what_if"][curve]["combined"]]
        current = report[key]
        waves_now = next((w for x, w in reversed(points) if x <= current), points[0][1])
        charts.append(step_chart(f"occupancy vs {label}", label, points, max(report["what_if_range"][curve], current),
                                 report["max_waves_per_simd"], (current, waves_now)))
    return (
        f"<h3>{escape(report['kind'])} {escape(report['name'])} ({escape(str(report['target']))})</h3>"
        f"<p><b>{report['waves_per_simd']} of {report['max_waves_per_simd']} waves per SIMD</b>, "
        f"{report['waves_per_cu']} per {report['cu_unit']}; VGPR {report['vgpr']} (AGPR {report['agpr']}), "
        f"SGPR {report['sgpr']}, LDS {report['lds_bytes']} bytes, scratch {report['scratch_bytes']} bytes/lane, "
        f"work-group {report.get('wg_size_min', report['wg_size'])}..{report['wg_size']} "
        f"({escape(report['wg_size_source'])})</p>"
        f'<table class="occupancy"><tr><th>resource</th><th>waves/SIMD</th></tr>{rows}</table>'
        + (f"<ul>{steps}</ul>" if steps else "")
        + f'<div class="charts">{"".join(charts)}</div>'
    )


def _simulation_section(simulation: dict[str, Any]) -> str:
    busy = "".join(f"<tr><td>{escape(unit)}</td><td>{share:.0%}</td></tr>" for unit, share in simulation["utilization"].items())
    total = max(1, sum(simulation["stalls"].values()))
    stalls = "".join(f"<tr><td>{escape(reason)}</td><td>{cycles / total:.0%}</td></tr>"
                     for reason, cycles in sorted(simulation["stalls"].items(), key=lambda item: -item[1]))
    hot = "".join(f"<li>line {item['line']}: stalled here {item['share']:.0%} ({escape(item['reason'])})</li>"
                  for item in simulation.get("hot_lines", []))
    return (
        f"<p><b>Simulation</b>: {simulation['waves']} waves on one CU, {simulation['cycles']} cycles, "
        f"{simulation['clocks_per_wave']} clocks/wave, stall rate {simulation['stall_rate']:.0%}. "
        f"<b>{escape(simulation['bottleneck'])}</b></p>"
        f'<table class="occupancy"><tr><th>unit</th><th>busy</th></tr>{busy}</table>'
        + (f'<table class="occupancy"><tr><th>stall reason</th><th>share</th></tr>{stalls}</table>' if stalls else "")
        + (f"<ul>{hot}</ul>" if hot else "")
    )


def _pressure_by_line(module: Module, path: str) -> dict[int, int]:
    pressure: dict[int, int] = {}
    for kernel in module.kernels:
        liveness = AnalysisManager(module, kernel).get(LivenessAnalysis)
        if liveness is None:
            continue
        for instruction, live in zip(kernel.instructions, liveness.live_vgprs, strict=True):
            if instruction.where.path == path:
                line = instruction.where.line
                pressure[line] = max(pressure.get(line, 0), live)
    return pressure


def _listing(module: Module, path: str, diagnostics: list[Diagnostic]) -> str:
    source = module.sources.get(path)
    if source is None:
        return ""
    formatter = HtmlFormatter(nowrap=True)
    lexer = AMDGPULexer()
    pressure = _pressure_by_line(module, path)
    peak = max(pressure.values(), default=0) or 1
    by_line: dict[int, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.path == path:
            by_line.setdefault(diagnostic.line, []).append(diagnostic)
    rows = []
    for number, text in enumerate(source.raw_lines, 1):
        code = highlight(text, lexer, formatter).rstrip("\n") if text.strip() else ""
        live = pressure.get(number)
        bar = f'<div class="bar" style="width:{100 * live / peak:.0f}%"></div>' if live is not None else ""
        rows.append(f'<tr><td class="number">{number}</td><td class="pressure">{bar}</td>'
                    f'<td class="count">{"" if live is None else live}</td><td>{code}</td></tr>')
        for diagnostic in by_line.get(number, []):
            rows.append(f'<tr class="finding {diagnostic.severity}"><td colspan="4">{escape(str(diagnostic.severity))}: '
                        f"{escape(diagnostic.message)} [{diagnostic.code} {diagnostic.name}]</td></tr>")
    return ('<table class="listing"><tr><th>line</th><th>live VGPRs</th><th></th><th>code</th></tr>'
            + "".join(rows) + "</table>")


def write_html(out: TextIO, modules: list[Module], reports: list[dict[str, Any]], diagnostics: list[Diagnostic]) -> None:
    css = HtmlFormatter().get_style_defs("table.listing")
    out.write(f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>amdgpu-lint report</title>'
              f"<style>{_STYLE}{css}</style></head><body>")
    out.write(f"<h1>amdgpu-lint {__version__} report</h1><p>{len(modules)} file(s), "
              f"{sum(len(m.kernels) for m in modules)} kernel(s), {len(diagnostics)} finding(s)</p>")
    for module in modules:
        out.write(f"<h2>{escape(module.path)}</h2>")
        for report in reports:
            if report["path"] == module.path and "waves_per_simd" in report:
                out.write(_occupancy_section(report))
                if "simulation" in report:
                    out.write(_simulation_section(report["simulation"]))
        out.write(_listing(module, module.path, diagnostics))
    out.write("</body></html>\n")
