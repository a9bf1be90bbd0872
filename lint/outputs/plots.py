"""Self-contained SVG step charts for the what-if curves (no plotting dependency).

Each chart draws one resource's own limit (`alone`: the other resources freed) and the kernel's
occupancy as that input varies (`combined`), so a curve never looks flat only because another
resource binds. The "now" label sits inside the plot area, on whichever side of the point has room."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WIDTH, HEIGHT = 440, 290
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 52, 44  # plot margins: title and legend above, x labels below
CHAR_WIDTH = 6.2  # average advance of an 11 px sans-serif character, for placing labels
TITLE_CHAR_WIDTH = 7.6  # the same for the 13 px bold title
LABEL_HEIGHT = 16
ALONE_COLOR, COMBINED_COLOR, NOW_COLOR = "#e6862e", "#1f6fb2", "#c0392b"
AXES = ("vgprs", "lds_bytes", "wg_size")


@dataclass(frozen=True, slots=True)
class Series:
    """One curve of a chart."""

    name: str
    points: list[tuple[int, int]]  # (x, waves) where the value changes
    color: str
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in SVG coordinates."""

    x: float
    y: float
    width: float
    height: float

    def contains(self, other: Box) -> bool:
        return (self.x <= other.x and self.y <= other.y and other.x + other.width <= self.x + self.width
                and other.y + other.height <= self.y + self.height)


def plot_box(width: int = WIDTH) -> Box:
    return Box(LEFT, TOP, width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM)


def x_ticks(maximum: int, most_intervals: int) -> list[int]:
    """0 and multiples of the smallest power of two that needs at most `most_intervals` steps up to `maximum`."""
    step = 1
    while maximum / step > most_intervals:
        step *= 2
    return list(range(0, maximum + step, step)) if maximum % step else list(range(0, maximum + 1, step))


def y_ticks(y_max: int) -> list[int]:
    step = 1 if y_max <= 10 else 2 if y_max <= 20 else 4
    return list(range(0, y_max + 1, step))


def tick_label(value: int, in_bytes: bool) -> str:
    return f"{value // 1024}K" if in_bytes and value and value % 1024 == 0 else str(value)


def waves_at(points: list[tuple[int, int]], x: int) -> int:
    """The step curve's value at x (the first step's below its start)."""
    return next((waves for start, waves in reversed(points) if start <= x), points[0][1])


def now_label_box(px: float, py: float, text: str, plot: Box) -> Box:
    """Where the label for the point (px, py) goes: up and to the right, flipped left or below
    where that would leave the plot area, and kept inside it."""
    width, gap = len(text) * CHAR_WIDTH + 8, 7
    x = px + gap if px + gap + width <= plot.x + plot.width else px - gap - width
    y = py - gap - LABEL_HEIGHT if py - gap - LABEL_HEIGHT >= plot.y else py + gap
    x = min(max(x, plot.x + 1), plot.x + plot.width - width - 1)
    y = min(max(y, plot.y + 1), plot.y + plot.height - LABEL_HEIGHT - 1)
    return Box(x, y, width, LABEL_HEIGHT)


def step_chart(title: str, x_label: str, series: list[Series], x_max: int, y_max: int, now: tuple[int, int], *,
               in_bytes: bool = False, most_intervals: int = 5, width: int = WIDTH) -> str:
    """Waves per SIMD against one input: each series a step curve, a legend, and the current point."""
    width = max(width, round(LEFT + len(title) * TITLE_CHAR_WIDTH + RIGHT))  # the title never clipped
    ticks = x_ticks(x_max, most_intervals)
    x_end = ticks[-1]
    plot = plot_box(width)

    def sx(x: float) -> float:
        return plot.x + min(x, x_end) / x_end * plot.width

    def sy(y: float) -> float:
        return plot.y + plot.height - y / max(y_max, 1) * plot.height

    parts = [f'<text x="{LEFT}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>']
    for waves in y_ticks(y_max):
        parts.append(f'<line x1="{plot.x}" x2="{plot.x + plot.width}" y1="{sy(waves):.1f}" y2="{sy(waves):.1f}" '
                     f'stroke="{"#999" if waves == 0 else "#e8e8e8"}"/>'
                     f'<text class="y-tick" x="{plot.x - 6}" y="{sy(waves) + 4:.1f}" text-anchor="end">{waves}</text>')
    for tick in ticks:
        parts.append(f'<line x1="{sx(tick):.1f}" x2="{sx(tick):.1f}" y1="{plot.y + plot.height}" '
                     f'y2="{plot.y + plot.height + 4}" stroke="#999"/>'
                     f'<text class="x-tick" x="{sx(tick):.1f}" y="{plot.y + plot.height + 16}" '
                     f'text-anchor="middle">{tick_label(tick, in_bytes)}</text>')
    legend_x = float(LEFT)
    for line in series:
        dash = ' stroke-dasharray="6 4"' if line.dashed else ""
        parts.append(f'<g class="series" data-name="{escape(line.name)}">'
                     f'<path d="{_step_path(line.points, sx, sy, x_end)}" fill="none" stroke="{line.color}" '
                     f'stroke-width="{2 if line.dashed else 3}"{dash}/>'
                     + _breakpoints(line, sx, sy, x_end, in_bytes) + "</g>")
        parts.append(f'<g class="legend"><line x1="{legend_x:.0f}" x2="{legend_x + 22:.0f}" y1="34" y2="34" '
                     f'stroke="{line.color}" stroke-width="{2 if line.dashed else 3}"{dash}/>'
                     f'<text x="{legend_x + 27:.0f}" y="38">{escape(line.name)}</text></g>')
        legend_x += 27 + len(line.name) * CHAR_WIDTH + 16
    x_now, waves_now = now
    px, py = sx(x_now), sy(waves_now)
    text = f"now: {x_now} → {waves_now} wave{'' if waves_now == 1 else 's'}"
    label = now_label_box(px, py, text, plot)
    parts.append(
        f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{plot.y}" y2="{plot.y + plot.height}" stroke="{NOW_COLOR}" '
        'stroke-dasharray="2 3"/>'
        f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4.5" fill="{NOW_COLOR}"/>'
        f'<g class="now"><rect x="{label.x:.1f}" y="{label.y:.1f}" width="{label.width:.1f}" height="{label.height}" '
        f'rx="3" fill="#fff" fill-opacity="0.9" stroke="{NOW_COLOR}"/>'
        f'<text x="{label.x + 4:.1f}" y="{label.y + 12:.1f}" fill="{NOW_COLOR}">{escape(text)}</text></g>')
    parts.append(f'<text x="{plot.x + plot.width / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle">{escape(x_label)}</text>'
                 f'<text x="13" y="{plot.y + plot.height / 2:.1f}" transform="rotate(-90 13 {plot.y + plot.height / 2:.1f})" '
                 'text-anchor="middle">waves per SIMD</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="what-if" width="{width}" height="{HEIGHT}" '
            f'viewBox="0 0 {width} {HEIGHT}" font-family="sans-serif" font-size="11">'
            f'<rect width="{width}" height="{HEIGHT}" fill="#fff"/>' + "".join(parts) + "</svg>\n")


def _breakpoints(line: Series, sx, sy, x_end: int, in_bytes: bool) -> str:
    """A marker at each step of the curve whose tooltip says where it changes: "≤ 64 → 8 waves, 65 → 7"
    (the text report's what-if breakpoints)."""
    markers = []
    for (before, waves_before), (x, waves) in zip(line.points, line.points[1:]):
        if x > x_end:
            break
        last = tick_label(x - 1, in_bytes) if before <= x - 1 else tick_label(before, in_bytes)
        tip = f"{line.name}: ≤ {last} → {waves_before}, from {tick_label(x, in_bytes)} → {waves}"
        markers.append(f'<circle class="breakpoint" cx="{sx(x):.1f}" cy="{sy(waves):.1f}" r="3" fill="{line.color}">'
                       f"<title>{escape(tip)}</title></circle>")
    return "".join(markers)


def is_flat(curves: dict[str, list]) -> bool:
    """Whether no curve of a what-if axis changes: the chart would show two straight lines."""
    return all(len({int(waves) for _, waves in points}) <= 1 for points in curves.values())


def flat_note(report: dict[str, Any], axis: str) -> str:
    """The one line that stands for a flat chart."""
    waves = int(report["what_if"][axis]["combined"][0][1])
    names = {"vgprs": "the VGPR count", "lds_bytes": "the LDS size", "wg_size": "the work-group size"}
    return (f"{names[axis].capitalize()} does not change the occupancy ({waves} wave{'s' if waves != 1 else ''}/SIMD "
            "over its whole range): chart left out.")


def _step_path(points: list[tuple[int, int]], sx, sy, x_end: int) -> str:
    """Horizontal runs joined by vertical steps; the first run starts at 0 (smaller inputs behave like the first)."""
    visible = [(x, waves) for x, waves in points if x <= x_end] or points[:1]
    path = f"M{sx(0):.1f},{sy(visible[0][1]):.1f}"
    for x, waves in visible[1:]:
        path += f" H{sx(x):.1f} V{sy(waves):.1f}"
    return path + f" H{sx(x_end):.1f}"


def what_if_charts(what_if: dict[str, dict[str, list]], ranges: dict[str, int], now: dict[str, int], y_max: int, *,
                   vgpr_file: str, launch_range: bool, title_prefix: str = "") -> dict[str, str]:
    """The three what-if charts, by axis. `vgpr_file` names the register file the VGPR axis counts
    (VGPR, VGPR+AGPR or VGPR/AGPR, as the limits table does); `launch_range` makes the work-group axis
    the launch bound's largest size."""
    registers = {"VGPR+AGPR": "VGPR+AGPR per lane (one unified file)",
                 "VGPR/AGPR": "VGPRs or AGPRs per lane (the larger of the two files)"}.get(vgpr_file, "VGPRs per lane")
    wg_label = "largest work-group size (launch bound)" if launch_range else "work-items per work-group"
    axes = {"vgprs": (vgpr_file, registers, 8, False), "lds_bytes": ("LDS", "LDS bytes per work-group", 5, True),
            "wg_size": ("work-group size", wg_label, 5, False)}
    charts = {}
    for axis in AXES:
        resource, x_label, intervals, in_bytes = axes[axis]
        curves = what_if[axis]
        alone = [(int(x), int(w)) for x, w in curves["alone"]]
        combined = [(int(x), int(w)) for x, w in curves["combined"]]
        current = now[axis]
        series = [Series("occupancy (all limits)", combined, COMBINED_COLOR),
                  Series(f"{resource} limit alone", alone, ALONE_COLOR, dashed=True)]
        charts[axis] = step_chart(f"{title_prefix}waves/SIMD vs {resource}", x_label, series, max(ranges[axis], current),
                                  y_max, (current, waves_at(combined, current)), in_bytes=in_bytes,
                                  most_intervals=intervals)
    return charts


def report_charts(report: dict[str, Any], *, title_prefix: str = "") -> dict[str, str]:
    """The what-if charts of one kernel of the report document."""
    vgpr_file = next((name for name in report["limits"] if name.startswith("VGPR")), "VGPR")
    # occupancy counts the VGPRs the descriptor allocates where it allocates more than the code uses
    now = {"vgprs": max(report["vgpr"], report.get("allocated_vgpr") or 0), "lds_bytes": report["lds_bytes"],
           "wg_size": report["wg_size"]}
    return what_if_charts(report["what_if"], report["what_if_range"], now, report["max_waves_per_simd"],
                          vgpr_file=vgpr_file, launch_range=report.get("wg_size_min", report["wg_size"]) < report["wg_size"],
                          title_prefix=title_prefix)


def write_plots(directory: Path, reports: list[dict[str, Any]]) -> list[Path]:
    """One SVG per what-if curve and kernel: <file>.<kernel>.<curve>.svg, where <file> is the input's name without
    its suffix, with as many of its directories as it takes to tell inputs of the same name apart
    (`a__k` and `b__k` for a/k.s and b/k.s)."""
    directory.mkdir(parents=True, exist_ok=True)
    names = _input_names([report["path"] for report in reports if "what_if" in report])
    written = []
    for report in reports:
        if "what_if" not in report:
            continue
        for curve, svg in report_charts(report, title_prefix=f"{report['name']} ({report['target']}): ").items():
            path = directory / f"{names[report['path']]}.{report['name']}.{curve}.svg"
            path.write_text(svg)
            written.append(path)
    return written


def _input_names(paths: list[str]) -> dict[str, str]:
    """Each input path -> the shortest tail of its parts (suffix dropped, joined by "__") no other input shares."""
    parts = {path: Path(path).resolve().with_suffix("").parts for path in dict.fromkeys(paths)}
    names: dict[str, str] = {}
    for path, mine in parts.items():
        depth = 1
        while depth < len(mine) and any(other != path and theirs[-depth:] == mine[-depth:]
                                         for other, theirs in parts.items()):
            depth += 1
        names[path] = "__".join(mine[-depth:])
    return names


def write_calculator_plot(path: Path, document: dict[str, Any]) -> None:
    """The three what-if curves of the occupancy calculator side by side in one SVG."""
    inputs = document["inputs"]
    vgpr_file = next((name for name in document["limits"] if name.startswith("VGPR")), "VGPR")
    now = {axis: inputs[axis] for axis in AXES}
    charts = what_if_charts(document["what_if"], document["what_if_range"], now, document["max_waves_per_simd"],
                            vgpr_file=vgpr_file, launch_range=inputs.get("wg_size_min", inputs["wg_size"]) < inputs["wg_size"])
    body = "".join(f'<g transform="translate({index * WIDTH},0)">{chart}</g>' for index, chart in enumerate(charts.values()))
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH * 3}" height="{HEIGHT}" '
                    f'viewBox="0 0 {WIDTH * 3} {HEIGHT}">{body}</svg>\n')
