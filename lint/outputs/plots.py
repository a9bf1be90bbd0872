"""Self-contained SVG step charts for the what-if curves (no plotting dependency)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 560, 300, 56, 16, 34, 46


def step_chart(title: str, x_label: str, points: list[tuple[int, int]], x_max: int, y_max: int,
               current: tuple[int, int]) -> str:
    """Occupancy (waves/SIMD) against one input; `points` are (x, waves) where waves change."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    x_min = points[0][0] if points else 0

    def sx(x: float) -> float:
        return LEFT + (x - x_min) / max(x_max - x_min, 1) * plot_w

    def sy(y: float) -> float:
        return TOP + plot_h - y / max(y_max, 1) * plot_h

    path: list[str] = []
    for index, (x, waves) in enumerate(points):
        end = points[index + 1][0] if index + 1 < len(points) else x_max
        path.append(f"{'M' if index == 0 else 'L'}{sx(x):.1f},{sy(waves):.1f} L{sx(end):.1f},{sy(waves):.1f}")
    ticks = []
    for waves in range(0, y_max + 1, max(1, y_max // 5)):
        ticks.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{sy(waves):.1f}" y2="{sy(waves):.1f}" stroke="#e5e5e5"/>'
                     f'<text x="{LEFT - 6}" y="{sy(waves) + 4:.1f}" text-anchor="end">{waves}</text>')
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        x = round(x_min + (x_max - x_min) * fraction)
        ticks.append(f'<text x="{sx(x):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{x}</text>')
    cx, cy = current
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'font-family="sans-serif" font-size="11">'
        f'<text x="{LEFT}" y="20" font-size="13" font-weight="bold">{escape(title)}</text>'
        + "".join(ticks)
        + f'<path d="{" ".join(path)}" fill="none" stroke="#1f6fb2" stroke-width="2"/>'
        f'<circle cx="{sx(min(cx, x_max)):.1f}" cy="{sy(cy):.1f}" r="5" fill="#d1495b"/>'
        f'<text x="{sx(min(cx, x_max)) + 8:.1f}" y="{sy(cy) - 8:.1f}" fill="#d1495b">now: {cx} → {cy}</text>'
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle">{escape(x_label)}</text>'
        f'<text x="14" y="{TOP + plot_h / 2:.1f}" transform="rotate(-90 14 {TOP + plot_h / 2:.1f})" '
        'text-anchor="middle">waves per SIMD</text></svg>\n'
    )


def write_plots(directory: Path, reports: list[dict[str, Any]]) -> list[Path]:
    """One SVG per what-if curve and kernel: <file>.<kernel>.<curve>.svg."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    axes = {"vgprs": ("VGPRs per lane", "vgpr"), "lds_bytes": ("LDS bytes per work-group", "lds_bytes"),
            "wg_size": ("work-items per work-group", "wg_size")}
    for report in reports:
        if "what_if" not in report:
            continue
        for curve, curves in report["what_if"].items():
            points = curves["combined"]
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


def write_calculator_plot(path: Path, document: dict[str, Any]) -> None:
    """The three what-if curves side by side in one SVG."""
    inputs = document["inputs"]
    charts = []
    for curve, label, key, x_max in (("vgprs", "VGPRs", "vgprs", 512), ("lds_bytes", "LDS bytes", "lds_bytes", 163840),
                                      ("wg_size", "work-group size", "wg_size", 1024)):
        points = [tuple(p) for p in document["what_if"][curve]["combined"]]
        current = inputs[key]
        waves_now = next((w for x, w in reversed(points) if x <= current), points[0][1])
        span = max(points[-1][0] * (2 if curve != "wg_size" else 1), current, 1)
        charts.append(step_chart(f"occupancy vs {label}", label, points, min(x_max, span),
                                 document["max_waves_per_simd"], (current, waves_now)))
    width = 560
    body = "".join(f'<g transform="translate({index * width},0)">{chart}</g>' for index, chart in enumerate(charts))
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * 3}" height="300">{body}</svg>\n')
