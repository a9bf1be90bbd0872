"""Output formats for `check` and `report`."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from .analyses.cfg import CFGAnalysis
from .diagnostics import Diagnostic
from .ir import Kernel, Module
from .analyses.resources import KernelResources, ResourceAnalysis
from .launch import fill
from .occupancy import what_if
from .passes import AnalysisManager
from .source import SourceFile

#: Descriptor fields shown by `report` in text form.
_REPORT_DESCRIPTOR_KEYS = (
    "next_free_vgpr", "next_free_sgpr", "accum_offset", "group_segment_fixed_size",
    "private_segment_fixed_size", "wavefront_size32", "workgroup_processor_mode",
)
_REPORT_METADATA_KEYS = (
    ".vgpr_count", ".agpr_count", ".sgpr_count", ".max_flat_workgroup_size", ".wavefront_size",
    ".group_segment_fixed_size", ".private_segment_fixed_size", ".reqd_workgroup_size",
    ".vgpr_spill_count", ".sgpr_spill_count",
)


def summarize(diagnostics: list[Diagnostic], files: int) -> dict[str, Any]:
    counts = Counter(str(d.severity) for d in diagnostics)
    return {
        "files": files,
        "diagnostics": len(diagnostics),
        "errors": counts.get("error", 0),
        "warnings": counts.get("warning", 0),
        "info": counts.get("info", 0),
    }


def _snippet(source: SourceFile | None, diagnostic: Diagnostic) -> list[str]:
    if source is None:
        return []
    text = source.line_text(diagnostic.line).replace("\t", " ")
    if not text.strip():
        return []
    if len(text) > 200:
        start = max(0, diagnostic.column - 80)
        text = text[start : start + 160]
        column = diagnostic.column - start
    else:
        column = diagnostic.column
    width = max(1, min(diagnostic.end_column, len(text) + 1) - column)
    gutter = f"{diagnostic.line:>5} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * (column - 1) + "^" + "~" * (width - 1)]


_ANSI = {"error": "\033[1;31m", "warning": "\033[1;33m", "info": "\033[1;36m", "note": "\033[1;36m"}
_RESET = "\033[0m"


def use_colour(out: TextIO) -> bool:
    """Colour on a terminal unless NO_COLOR is set (no-color.org)."""
    return hasattr(out, "isatty") and out.isatty() and not os.environ.get("NO_COLOR")


def _highlighter():
    from pygments import highlight
    from pygments.formatters import TerminalFormatter

    from .lexer import AMDGPULexer

    lexer, formatter = AMDGPULexer(), TerminalFormatter()
    return lambda text: highlight(text, lexer, formatter).rstrip("\n")


def write_text(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, SourceFile], files: int) -> None:
    colour = use_colour(out)
    paint = _highlighter() if colour and diagnostics else None
    for diagnostic in diagnostics:
        severity = str(diagnostic.severity)
        if colour:
            severity = f"{_ANSI[severity]}{severity}{_RESET}"
        out.write(
            f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: {severity}: "
            f"{diagnostic.message} [{diagnostic.code} {diagnostic.name}]\n"
        )
        for number, line in enumerate(_snippet(sources.get(diagnostic.path), diagnostic)):
            if paint and number == 0:
                gutter, _, code = line.partition("| ")
                line = gutter + "| " + paint(code)
            out.write(line + "\n")
        for note in diagnostic.notes:
            where = f"{note.path}:{note.line}:{note.column}: " if note.path else ""
            out.write(f"{where}note: {note.message}\n")
    summary = summarize(diagnostics, files)
    if diagnostics:
        out.write(
            f"Found {summary['diagnostics']} problem{'s' if summary['diagnostics'] != 1 else ''} "
            f"({summary['errors']} errors, {summary['warnings']} warnings, {summary['info']} info) "
            f"in {files} file{'s' if files != 1 else ''}.\n"
        )
    else:
        out.write(f"No problems found in {files} file{'s' if files != 1 else ''}.\n")


def write_json(out: TextIO, diagnostics: list[Diagnostic], files: int) -> None:
    document = {
        "version": __version__,
        "diagnostics": [d.to_json() for d in diagnostics],
        "summary": summarize(diagnostics, files),
    }
    json.dump(document, out, indent=2)
    out.write("\n")


def kernel_report(module: Module, kernel: Kernel) -> dict[str, Any]:
    manager = AnalysisManager(module, kernel)
    cfg = manager.get(CFGAnalysis)
    resources = manager.get(ResourceAnalysis)
    report = {
        "path": module.path,
        "name": kernel.name,
        "target": str(module.target) if module.target else None,
        "family": module.target.family if module.target else None,
        "kind": "kernel" if kernel.is_kernel else "function",
        "line": kernel.where.line,
        "instructions": len(kernel.instructions),
        "basic_blocks": len(cfg.blocks),
        "code_object_version": module.code_object_version,
        "descriptor": kernel.descriptor or None,
        "metadata": kernel.metadata,
        "kernel_code_t": kernel.kernel_code_t,
    }
    if resources is not None and module.target is not None:
        report.update(resource_report(module, kernel, resources))
    return report


def resource_report(module: Module, kernel: Kernel, resources: KernelResources) -> dict[str, Any]:
    target = module.target
    occupancy = resources.occupancy
    curves = what_if(target, resources.inputs)
    report: dict[str, Any] = {
        "wave_size": resources.wave_size,
        "cumode": resources.cumode,
        "vgpr": resources.vgprs,
        "arch_vgpr": resources.arch_vgprs,
        "agpr": resources.agprs,
        "sgpr": resources.sgprs,
        "allocated_vgpr": resources.allocated_vgprs,
        "allocated_sgpr": resources.allocated_sgprs,
        "usage_source": resources.usage_source,
        "lds_bytes": resources.lds_bytes,
        "scratch_bytes": resources.scratch_bytes,
        "wg_size": resources.wg_size,
        "wg_size_source": resources.wg_size_source,
        "waves_per_simd": occupancy.waves_per_simd,
        "waves_per_cu": occupancy.waves_per_cu,
        "cu_unit": "WGP" if target.major >= 10 and not resources.cumode else "CU",
        "max_waves_per_simd": target.max_waves_per_simd,
        "limits": occupancy.limits,
        "limiter": occupancy.limiters,
        "next_step": occupancy.next_step,
        "what_if": {name: [list(point) for point in points] for name, points in curves.items()},
        "what_if_range": {"vgprs": target.addressable_vgprs, "lds_bytes": target.lds_per_workgroup, "wg_size": 1024},
    }
    launch = module.options.launch if module.options is not None else None
    if launch is not None:
        report["launch"] = fill(launch, target, occupancy.workgroups_per_cu, resources.cumode).to_json()
    return report


def _curve_text(points: list[list[int]], current: int) -> str:
    marked = []
    for index, (x, waves) in enumerate(points):
        following = points[index + 1][0] if index + 1 < len(points) else None
        here = x <= current and (following is None or current < following)
        marked.append(f"{x}->{waves}" + ("*" if here else ""))
    return ", ".join(marked)


def write_report_text(out: TextIO, reports: list[dict[str, Any]]) -> None:
    if not reports:
        out.write("No kernels found.\n")
    for report in reports:
        out.write(f"{report['path']}:{report['line']}: {report['kind']} {report['name']}\n")
        family = f" ({report['family']})" if report["family"] else ""
        out.write(f"  target:        {report['target'] or 'unknown'}{family}\n")
        out.write(f"  instructions:  {report['instructions']} in {report['basic_blocks']} basic blocks\n")
        descriptor = report["descriptor"] or {}
        shown = [f"{key}={descriptor[key]}" for key in _REPORT_DESCRIPTOR_KEYS if key in descriptor]
        if shown:
            out.write(f"  descriptor:    {' '.join(shown)}\n")
        metadata = report["metadata"] or {}
        shown = [f"{key[1:]}={metadata[key]}" for key in _REPORT_METADATA_KEYS if key in metadata]
        if shown:
            out.write(f"  metadata:      {' '.join(shown)}\n")
        if report["kernel_code_t"]:
            fields = report["kernel_code_t"]
            keys = [k for k in ("workitem_vgpr_count", "wavefront_sgpr_count", "workgroup_group_segment_byte_size") if k in fields]
            out.write(f"  kernel_code_t: {' '.join(f'{k}={fields[k]}' for k in keys) or f'{len(fields)} fields'}\n")
        if "waves_per_simd" in report:
            _write_occupancy_text(out, report)
        if "simulation" in report:
            _write_simulation_text(out, report["simulation"])


def _write_simulation_text(out: TextIO, simulation: dict[str, Any]) -> None:
    out.write(f"  simulation:    {simulation['waves']} waves on one CU, {simulation['cycles']} cycles, "
              f"{simulation['clocks_per_wave']} clocks/wave, {simulation['work_items_per_cycle']} work-items/cycle, "
              f"stall rate {simulation['stall_rate']:.0%}, starve rate {simulation['starve_rate']:.0%}\n")
    out.write(f"    {simulation['bottleneck']}\n")
    busy = ", ".join(f"{unit} {share:.0%}" for unit, share in simulation["utilization"].items())
    out.write(f"    utilization: {busy}\n")
    if simulation["stalls"]:
        total = sum(simulation["stalls"].values())
        stalls = ", ".join(f"{reason} {cycles / total:.0%}" for reason, cycles in
                           sorted(simulation["stalls"].items(), key=lambda item: -item[1]))
        out.write(f"    stalls by reason: {stalls}\n")
    for hot in simulation.get("hot_lines", []):
        out.write(f"    line {hot['line']}: stalled here {hot['share']:.0%} ({hot['reason']})\n")


def _write_occupancy_text(out: TextIO, report: dict[str, Any]) -> None:
    allocated = ""
    if report["allocated_vgpr"] is not None:
        allocated = f"; descriptor allocates VGPR {report['allocated_vgpr']}, SGPR {report['allocated_sgpr']}"
    out.write(f"  registers:     VGPR {report['vgpr']} (arch {report['arch_vgpr']}, AGPR {report['agpr']}), "
              f"SGPR {report['sgpr']} incl. extras{allocated}  [{report['usage_source']}]\n")
    out.write(f"  memory:        LDS {report['lds_bytes']} bytes/work-group, scratch {report['scratch_bytes']} bytes/lane\n")
    mode = ", CU mode" if report["cumode"] else ""
    out.write(f"  launch:        wave{report['wave_size']}{mode}, work-group {report['wg_size']} ({report['wg_size_source']})\n")
    out.write(f"  occupancy:     {report['waves_per_simd']} of {report['max_waves_per_simd']} waves/SIMD, "
              f"{report['waves_per_cu']} waves/{report['cu_unit']}\n")
    out.write("    resource          waves/SIMD\n")
    for name, waves in report["limits"].items():
        marker = "  <- limiter" if name in report["limiter"] else ""
        out.write(f"    {name:<17} {waves:>3}{marker}\n")
    for step in report["next_step"]:
        out.write(f"  next step:     {step}\n")
    curves = report["what_if"]
    out.write(f"  what-if VGPRs: {_curve_text(curves['vgprs'], report['vgpr'])}\n")
    out.write(f"  what-if LDS:   {_curve_text(curves['lds_bytes'], report['lds_bytes'])}\n")
    out.write(f"  what-if WG:    {_curve_text(curves['wg_size'], report['wg_size'])}\n")
    if "launch" in report:
        launch = report["launch"]
        out.write(f"  grid:          {launch['workgroups']} work-groups, {launch['workgroups_per_device_wave']} at once on "
                  f"{launch['units']} units: {launch['waves_of_workgroups']} wave(s), last one "
                  f"{launch['last_wave_efficiency']:.0%} full\n")


def write_plots(directory: Path, reports: list[dict[str, Any]]) -> list[Path]:
    """One SVG per what-if curve and kernel: <file>.<kernel>.<curve>.svg."""
    from .plots import step_chart

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    axes = {"vgprs": ("VGPRs per lane", "vgpr"), "lds_bytes": ("LDS bytes per work-group", "lds_bytes"),
            "wg_size": ("work-items per work-group", "wg_size")}
    for report in reports:
        if "what_if" not in report:
            continue
        for curve, points in report["what_if"].items():
            label, key = axes[curve]
            current = report[key]
            waves_now = next((w for x, w in reversed(points) if x <= current), points[0][1])
            x_max = max(report["what_if_range"][curve], current)
            svg = step_chart(f"{report['name']} ({report['target']}): occupancy vs {label}", label, [tuple(p) for p in points],
                             x_max, report["max_waves_per_simd"], (current, waves_now))
            path = directory / f"{Path(report['path']).stem}.{report['name']}.{curve}.svg"
            path.write_text(svg)
            written.append(path)
    return written


def write_calculator_text(out: TextIO, document: dict[str, Any]) -> None:
    if document.get("arch") == "terascale":
        out.write(f"TeraScale (VLIW5/VLIW4): {document['wavefronts_per_cu']} wavefronts per CU "
                  f"(occupancy {document['occupancy']:.0%})\n")
        for name, waves in document["limits"].items():
            marker = "  <- limiter" if name in document["limiter"] else ""
            out.write(f"  {name:<17} {waves:>3}{marker}\n")
        return
    inputs = document["inputs"]
    out.write(f"{document['target']}: {document['waves_per_simd']} of {document['max_waves_per_simd']} waves/SIMD, "
              f"{document['waves_per_cu']} waves per CU/WGP ({inputs['vgprs']} VGPRs, {inputs['sgprs']} SGPRs, "
              f"{inputs['lds_bytes']} bytes LDS, work-group {inputs['wg_size']}, wave{inputs['wave_size']})\n")
    out.write("  resource          waves/SIMD\n")
    for name, waves in document["limits"].items():
        marker = "  <- limiter" if name in document["limiter"] else ""
        out.write(f"  {name:<17} {waves:>3}{marker}\n")
    for step in document["next_step"]:
        out.write(f"  next step: {step}\n")
    curves = document["what_if"]
    out.write(f"  what-if VGPRs: {_curve_text(curves['vgprs'], inputs['vgprs'])}\n")
    out.write(f"  what-if LDS:   {_curve_text(curves['lds_bytes'], inputs['lds_bytes'])}\n")
    out.write(f"  what-if WG:    {_curve_text(curves['wg_size'], inputs['wg_size'])}\n")
    if "thresholds" in document:
        out.write("  waves/SIMD  max VGPRs  max SGPRs  max LDS bytes\n")
        for row in document["thresholds"]:
            cells = [row["max_vgprs"], row["max_sgprs"], row["max_lds_bytes"]]
            text = ["-" if cell is None else str(cell) for cell in cells]
            out.write(f"  {row['waves_per_simd']:>10}  {text[0]:>9}  {text[1]:>9}  {text[2]:>13}\n")


def write_calculator_plot(path: Path, document: dict[str, Any]) -> None:
    """The three what-if curves side by side in one SVG."""
    from .plots import step_chart

    inputs = document["inputs"]
    charts = []
    for curve, label, key, x_max in (("vgprs", "VGPRs", "vgprs", 512), ("lds_bytes", "LDS bytes", "lds_bytes", 163840),
                                      ("wg_size", "work-group size", "wg_size", 1024)):
        points = [tuple(p) for p in document["what_if"][curve]]
        current = inputs[key]
        waves_now = next((w for x, w in reversed(points) if x <= current), points[0][1])
        span = max(points[-1][0] * (2 if curve != "wg_size" else 1), current, 1)
        charts.append(step_chart(f"occupancy vs {label}", label, points, min(x_max, span),
                                 document["max_waves_per_simd"], (current, waves_now)))
    width = 560
    body = "".join(f'<g transform="translate({index * width},0)">{chart}</g>' for index, chart in enumerate(charts))
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * 3}" height="300">{body}</svg>\n')


def write_report_json(out: TextIO, reports: list[dict[str, Any]]) -> None:
    json.dump({"version": __version__, "kernels": reports}, out, indent=2, default=str)
    out.write("\n")
