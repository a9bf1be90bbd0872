"""Output formats for `check` and `report`."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from . import __version__
from .analyses.cfg import CFGAnalysis
from .diagnostics import Diagnostic
from .ir import Kernel, Module
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


def write_text(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, SourceFile], files: int) -> None:
    for diagnostic in diagnostics:
        out.write(
            f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: {diagnostic.severity}: "
            f"{diagnostic.message} [{diagnostic.code} {diagnostic.name}]\n"
        )
        for line in _snippet(sources.get(diagnostic.path), diagnostic):
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
    cfg = AnalysisManager(module, kernel).get(CFGAnalysis)
    return {
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


def write_report_json(out: TextIO, reports: list[dict[str, Any]]) -> None:
    json.dump({"version": __version__, "kernels": reports}, out, indent=2, default=str)
    out.write("\n")
