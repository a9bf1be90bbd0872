"""`report --format text` and the occupancy calculator's text: per-resource tables, next steps, what-if."""

from __future__ import annotations

from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

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
            _write_simulation_text(out, report["simulation"], report["path"])


def _write_occupancy_text(out: TextIO, report: dict[str, Any]) -> None:
    allocated = ""
    if report["allocated_vgpr"] is not None:
        allocated = f"; descriptor allocates VGPR {report['allocated_vgpr']}, SGPR {report['allocated_sgpr']}"
    out.write(f"  registers:     VGPR {report['vgpr']} (arch {report['arch_vgpr']}, AGPR {report['agpr']}), "
              f"SGPR {report['sgpr']} incl. extras{allocated}  [{report['usage_source']}]\n")
    if "pressure" in report:
        out.write(f"  pressure:      {pressure_text(report['pressure'], report['path'])}\n")
    launch = f" ({report['launch_lds_bytes']} requested at launch)" if report.get("launch_lds_bytes") else ""
    out.write(f"  memory:        LDS {report['lds_bytes']} bytes/work-group{launch}, scratch {report['scratch_bytes']} bytes/lane\n")
    mode = ", CU mode" if report["cumode"] else ""
    sizes = _sizes(report["wg_size_min"], report["wg_size"])
    out.write(f"  launch:        wave{report['wave_size']}{mode}, work-group {sizes} ({report['wg_size_source']})\n")
    spread = spread_text(report["over_sizes"], report["wg_size_min"], report["wg_size"], "pass --wg-size")
    out.write(f"  occupancy:     {report['waves_per_simd']} of {report['max_waves_per_simd']} waves/SIMD, "
              f"{report['waves_per_cu']} waves/{report['cu_unit']}{spread}{allocated_text(report)}\n")
    _write_limits(out, report, "    ")
    vgprs = max(report["vgpr"], report["allocated_vgpr"] or 0)  # what occupancy counts: LLVM pads on purpose
    _write_steps_and_what_if(out, report, "next step:     ", vgprs, report["lds_bytes"], report["wg_size"],
                             report["wg_size_min"] < report["wg_size"])
    if "launch" in report:
        launch = report["launch"]
        out.write(f"  grid:          {launch['workgroups']} work-groups, {launch['workgroups_per_device_wave']} at once on "
                  f"{launch['units']} {launch['unit']}s ({launch['workgroups_per_unit']} per {launch['unit']}, limited by "
                  f"{' and '.join(launch['limiter'])}): {launch['waves_of_workgroups']} wave(s), last one "
                  f"{launch['last_wave_efficiency']:.0%} full\n")


def pressure_text(pressure: dict[str, Any], path: str) -> str:
    """"allocates 112 VGPRs, at most 55 live at line 121; 40 SGPRs, at most 12 live at line 30" (AGPRs where the
    kernel has any); lines in another file than `path` carry its name."""
    parts = []
    for name, label in (("vgpr", "VGPRs"), ("agpr", "AGPRs"), ("sgpr", "SGPRs")):
        entry = pressure[name]
        if name == "agpr" and not entry["allocated"] and not entry["most_live"]:
            continue
        where = ""
        if entry["line"] is not None:
            where = f" at {entry['path']}:{entry['line']}" if entry["path"] != path else f" at line {entry['line']}"
        parts.append(f"{entry['allocated']} {label}, at most {entry['most_live']} live{where}")
    return "allocates " + "; ".join(parts)


#: (name, report key) of the resources a baseline comparison names when they moved
_COMPARED = (("VGPR", "vgpr"), ("AGPR", "agpr"), ("SGPR", "sgpr"), ("LDS", "lds_bytes"), ("Scratch", "scratch_bytes"))


def baseline_change(report: dict[str, Any], before: dict[str, Any] | None) -> tuple[int, str]:
    """(rank: a fall first, then a rise, a kernel new to the baseline, no change; text) of a kernel's occupancy
    against its baseline entry: "fell 8 → 7 (VGPR 64 → 65)"."""
    if before is None:
        return 2, "not in the baseline"
    now, was = report["waves_per_simd"], before.get("waves_per_simd")
    moved = [f"{name} {before[key]} → {report.get(key)}" for name, key in _COMPARED
             if key in before and before[key] != report.get(key)]
    detail = f" ({', '.join(moved)})" if moved else ""
    if isinstance(was, int) and now < was:
        return 0, f"fell {was} → {now}{detail}"
    if isinstance(was, int) and now > was:
        return 1, f"rose {was} → {now}{detail}"
    return 3, f"unchanged{detail}"


def allocated_text(document: dict[str, Any]) -> str:
    """" (LLVM's figure; 2 on the hardware, which gives each work-group 22016 bytes of LDS)" where the
    dispatcher's whole LDS units cost a wave LLVM's raw-byte figure does not see; empty otherwise."""
    if document.get("allocated_waves_per_simd") is None:
        return ""
    return (f" (LLVM's figure; {document['allocated_waves_per_simd']} on the hardware, which gives each work-group "
            f"{document['lds_allocated_bytes']} bytes of LDS)")


def _sizes(smallest: int, largest: int) -> str:
    return f"{smallest}..{largest}" if smallest < largest else f"{largest}"


def spread_text(spread: dict[str, Any], smallest: int, largest: int, advice: str) -> str:
    """" (LLVM's figure for work-groups of 1..1024; 8 at 1024, 4 at 256, 1 at 64: pass --wg-size)" when the
    launch is a range over which occupancy varies; empty otherwise."""
    if smallest >= largest or spread["fewest"] == spread["most"]:
        return ""
    points = {spread["most_at"]: spread["most"], spread["fewest_at"]: spread["fewest"]}
    if spread["at_256"] is not None:
        points.setdefault(256, spread["at_256"])
    at = ", ".join(f"{waves} at {size}" for size, waves in sorted(points.items(), key=lambda item: (-item[1], -item[0])))
    return f" (LLVM's figure for work-groups of {smallest}..{largest}; {at}: {advice})"


def _write_simulation_text(out: TextIO, simulation: dict[str, Any], path: str) -> None:
    out.write(f"  simulation:    {simulation['waves']} waves{groups_text(simulation)} on one {simulation.get('unit', 'CU')}, "
              f"{simulation['cycles']} cycles, "
              f"{simulation['clocks_per_wave']} clocks/wave, {simulation['work_items_per_cycle']} work-items/cycle, "
              f"stall rate {simulation['stall_rate']:.0%} (share of wave time, all reasons; SIMD idle on memory "
              f"{simulation.get('wait_rate', 0):.0%}), starve rate {simulation['starve_rate']:.0%}\n")
    if "path" in simulation:
        out.write(f"    path: {path_text(simulation['path'], simulation['trace_length'])}\n")
        out.writelines(f"    warning: {warning}\n" for warning in simulation["path"]["warnings"])
    out.writelines(f"    warning: {warning}\n" for warning in simulation.get("warnings", []))
    out.write(f"    {simulation['bottleneck']}\n")
    busy = ", ".join(f"{unit} {share:.0%}" for unit, share in simulation["utilization"].items())
    out.write(f"    utilization: {busy}\n")
    if simulation["stalls"]:
        total = sum(simulation["stalls"].values())
        stalls = ", ".join(f"{reason} {cycles / total:.0%}" for reason, cycles in
                           sorted(simulation["stalls"].items(), key=lambda item: -item[1]))
        out.write(f"    stalls by reason: {stalls}\n")
    out.writelines(f"    {_hot_place(hot, path)}: stalled here {hot['share']:.0%} ({hot['reason']})\n"
                   for hot in simulation.get("hot_lines", []))
    out.writelines(f"    {line}\n" for line in model_lines(simulation))
    if "launch" in simulation:
        out.write(f"  launch time:   {launch_text(simulation['launch'])}\n")
        out.writelines(f"    warning: {warning}\n" for warning in simulation["launch"]["warnings"])


def launch_text(launch: dict[str, Any]) -> str:
    """The launch's predicted time, its rounds of work-groups and what bounds it, in one line."""
    rounds = launch["rounds"]
    parts = []
    if launch["full_rounds"]:
        parts.append(f"{launch['full_rounds']} full round(s) of {rounds[0]['cycles']} cycles")
    if launch["tail_workgroups"]:
        parts.append(f"a tail round of {launch['tail_workgroups']} ({rounds[-1]['cycles']} cycles)")
    shares = ", ".join(f"{name} {share:.0%}" for name, share in
                       sorted(launch["bounds"].items(), key=lambda item: -item[1]))
    return (f"{launch['predicted_ms']:.4g} ms predicted on {launch['device']} at {launch['clock_mhz']} MHz: "
            f"{launch['workgroups']} work-groups, {launch['workgroups_at_once']} at once: {' + '.join(parts)}; "
            f"bound by {launch['bound']} ({shares})")


def model_lines(simulation: dict[str, Any]) -> list[str]:
    """What the device's memory system and a steady-state extrapolation made of the simulation, one line each."""
    lines = []
    if "memory" in simulation:
        memory = simulation["memory"]
        lines.append(f"memory: L2 hit rate {memory['l2_hit_rate']:.0%} (working set {memory['working_set_bytes']} of "
                     f"{memory['requested_bytes']} bytes requested, L2 {memory['l2_bytes']}), load latency "
                     f"{memory['load_latency']} cycles, DRAM {memory['dram_bytes_per_cycle_per_cu']} bytes/cycle per CU "
                     f"({memory['busy_cus']} CUs share {memory['device']}'s {memory['dram_gbs']:g} GB/s, "
                     f"{memory['dram_rate']})")
    if "extrapolated" in simulation:
        steady = simulation["extrapolated"]
        lines.append(f"steady state: the loop at line {steady['line']} ({steady['loop']}) simulated for "
                     f"{', '.join(map(str, steady['simulated_trips']))} trips, {steady['cycles_per_trip']} cycles/trip"
                     f"{'' if steady['steady'] else ' (not steady)'}, extended to {steady['trips_per_entry']} trips"
                     f"{_paces_text(steady.get('workgroup_paces'))}")
    return lines


def _paces_text(phases: list[dict[str, Any]] | None) -> str:
    """"; work-groups at different paces: 0 at 1648, 1 at 3296 cycles/trip until 0 finish, then 1 at 1628
    cycles/trip" for a round whose work-groups progress at different paces (each phase's); empty otherwise."""
    if not phases:
        return ""
    parts = [", ".join(f"{group} at {rate:g}" for group, rate in phase["cycles_per_trip"].items())
             + " cycles/trip" + (f" until {', '.join(map(str, phase['finishing']))} finish"
                                 if index + 1 < len(phases) else "") for index, phase in enumerate(phases)]
    return "; work-groups at different paces: " + ", then ".join(parts)


def groups_text(simulation: dict[str, Any]) -> str:
    """" (2 work-groups of 16)" or " (one work-group)"; empty for a document without it."""
    per_group = simulation.get("workgroup_waves")
    if not per_group:
        return ""
    groups = -(-simulation["waves"] // per_group)
    return " (one work-group)" if groups == 1 else f" ({groups} work-groups of {per_group})"


def _hot_place(hot: dict[str, Any], path: str) -> str:
    """'line 32' in the kernel's own file, 'body.inc:12' in another (an included or macro file), with the line of
    the kernel's file it was expanded at: 'body.inc:12 (expanded at line 40)'."""
    place = f"line {hot['line']}" if hot.get("path", path) == path else f"{Path(hot['path']).name}:{hot['line']}"
    return place + (f" (expanded at line {hot['expanded_at']})" if "expanded_at" in hot else "")


def path_text(path: dict[str, Any], length: int) -> str:
    """"412 instructions in 9 of 12 blocks; loops .LBB0_2 (line 40) x8, .LBB0_3 (line 52) 8 x 512; long branches 1;
    valu 200, vmem 40, ..." (a loop entered more than once: entries x trips per entry)."""
    loops = ", ".join(f"{loop['label']} (line {loop['line']}) {_trips_text(loop['entries'], loop['trips'])}"
                      + (" from --kernarg" if loop.get("from_kernargs") else "")
                      for loop in path["loops"] if loop["entries"]) or "none entered"
    classes = ", ".join(f"{name} {count}" for name, count in path["executed_by_class"].items())
    branches = f"; long branches followed {path['long_branches']}" if path["long_branches"] else ""
    return (f"{length} instructions in {path['blocks']} of {path['of_blocks']} blocks; loops {loops}{branches}; "
            f"executed {classes}")


def _trips_text(entries: int, trips: int) -> str:
    """"x8" for one entry, "8 x 512" for 8 entries of 512 trips, "4100 trips in 8 entries" when they differ."""
    if entries == 1:
        return f"x{trips}"
    if trips % entries == 0:
        return f"{entries} x {trips // entries}"
    return f"{trips} trips in {entries} entries"


def write_calculator_text(out: TextIO, document: dict[str, Any]) -> None:
    if document.get("arch") == "terascale":
        out.write(f"TeraScale (VLIW5/VLIW4): {document['wavefronts_per_cu']} wavefronts per CU "
                  f"(occupancy {document['occupancy']:.0%})\n")
        _write_limits(out, document, "  ", header=False)
        return
    inputs = document["inputs"]
    out.write(f"{document['target']}: {document['waves_per_simd']} of {document['max_waves_per_simd']} waves/SIMD, "
              f"{document['waves_per_cu']} waves per CU/WGP ({inputs['vgprs']} VGPRs, {inputs['sgprs']} SGPRs, "
              f"{inputs['lds_bytes']} bytes LDS, work-group {_sizes(inputs['wg_size_min'], inputs['wg_size'])}, "
              f"wave{inputs['wave_size']})"
              f"{spread_text(document['over_sizes'], inputs['wg_size_min'], inputs['wg_size'], 'pass one size')}"
              f"{allocated_text(document)}\n")
    _write_limits(out, document, "  ")
    _write_steps_and_what_if(out, document, "next step: ", inputs["vgprs"], inputs["lds_bytes"], inputs["wg_size"],
                             inputs["wg_size_min"] < inputs["wg_size"])
    if "thresholds" in document:
        out.write("  waves/SIMD  max VGPRs  max SGPRs  max LDS bytes\n")
        for row in document["thresholds"]:
            cells = [row["max_vgprs"], row["max_sgprs"], row["max_lds_bytes"]]
            text = ["-" if cell is None else str(cell) for cell in cells]
            out.write(f"  {row['waves_per_simd']:>10}  {text[0]:>9}  {text[1]:>9}  {text[2]:>13}\n")


def _write_limits(out: TextIO, document: dict[str, Any], indent: str, header: bool = True) -> None:
    """Waves each resource allows, the binding ones marked."""
    if header:
        out.write(f"{indent}resource          waves/SIMD\n")
    for name, waves in document["limits"].items():
        marker = "  <- limiter" if name in document["limiter"] else ""
        out.write(f"{indent}{name:<17} {waves:>3}{marker}\n")


def _write_steps_and_what_if(out: TextIO, document: dict[str, Any], step_label: str, vgprs: int, lds_bytes: int,
                             wg_size: int, ranged: bool) -> None:
    """The next steps to one more wave, then the occupancy as each input varies."""
    out.writelines(f"  {step_label}{step}\n" for step in document["next_step"])
    curves, ranges = document["what_if"], document.get("what_if_range", {})
    lines = (("VGPRs", "vgprs", vgprs, str), ("LDS", "lds_bytes", lds_bytes, _bytes),
             ("largest WG" if ranged else "work-group", "wg_size", wg_size, str))
    for label, key, current, show in lines:
        text = curve_text(curves[key]["combined"], current, ranges.get(key), show)
        out.write(f"  what-if {label + ':':<11} {text}\n")


def _bytes(count: int) -> str:
    return f"{count // 1024} KiB" if count and count % 1024 == 0 else f"{count} B"


def curve_text(points: list[list[int]], current: int, top: int | None, show=str, keep: int = 8) -> str:
    """A step curve as "≤ 64 → 8 waves, ≤ 72 → 7, …, now 368 → 1": each segment's last value, and where
    `current` falls."""
    segments = []
    for index, (_, waves) in enumerate(points):
        end = points[index + 1][0] - 1 if index + 1 < len(points) else top
        segments.append(f"≤ {show(end)} → {waves}" if end is not None else f"≥ {show(points[index][0])} → {waves}")
    if segments:
        segments[0] += " wave" if points[0][1] == 1 else " waves"
    if len(segments) > keep:
        segments = segments[:keep - 2] + ["…"] + segments[-1:]
    now = next((waves for x, waves in reversed(points) if x <= current), points[0][1] if points else None)
    return ", ".join(segments + [f"now {show(current)} → {now}"])
