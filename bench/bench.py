"""Speed and memory of amdgpu-lint on generated kernel files (a measurement, not a test).

Builds files by compiling fixtures/llvm/*.ll with llvmlite for gfx942 (or --cpu) and repeating the kernels with
symbols unique per copy and source (so llvm-mc assembles them too), then runs each command in a new
process, --runs times in paired rounds (ours and llvm-mc in turn, so both see the same machine load),
and prints min / median / max wall time, peak RSS and, when an llvm-mc with AMDGPU is on PATH (Debian's
llvm-mc-22), the ratio of our median to llvm-mc's `-filetype=obj` median on the same input:
- cold `check --no-cache` on a 36-line kernel, a 2k-line file, 10k, 100k (--lines) and (--million) 1M lines;
- `report --format json` on the 2k and 100k files (also as a ratio to `check`);
- `report --simulate --trip-count` on one loop kernel at several trip counts (ms per added trip: linearity);
- `check --jobs 1` against `--jobs 2` on four 25k-line files;
- `check --no-cache` of the 100k file with and without the user's assembler (`--assembler`);
- `check --format json` with a warm result cache on the 100k file.
`--profile` instead prints where a `check --no-cache` of the 100k file spends its time: cProfile's
exclusive time grouped by phase (time in shared helpers and the standard library goes to the phases
that called them, in proportion).

Usage: python bench/bench.py [--cpu gfx942] [--runs 5] [--lines 100000] [--million] [--trips 64,128,256,512] [--profile]
"""

from __future__ import annotations

import argparse
import os
import platform
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

_METADATA = re.compile(r"\t\.amdgpu_metadata\n.*?\t\.end_amdgpu_metadata\n", re.S)
_SAXPY_LOOP = ".LBB0_2"  # the loop label of fixtures/llvm/loop_saxpy.ll's kernel at -O2


def kernel_sources(cpu: str) -> list[str]:
    from llvm_oracle import compile_ir, fixture_supports

    return [compile_ir(path.read_text(), cpu) for path in sorted((ROOT / "fixtures" / "llvm").glob("*.ll"))
            if fixture_supports(path.name, cpu)]


def renamed(assembly: str, copy: int, index: int, cpu: str = "gfx942") -> str:
    """One source's kernels with every symbol made unique to (copy, index); metadata kept once."""
    suffix = f"_c{copy}_{index}"
    names = re.findall(r"^\t\.type\t(\S+),@function", assembly, re.M)
    text = re.sub(r"(\.L[\w.$]+)", rf"\1{suffix}", assembly)
    for name in names:
        text = re.sub(rf"(?<![\w.$]){re.escape(name)}(?![\w$])", f"{name}{suffix}", text)
    if copy == index == 0:
        return text
    return _METADATA.sub("", text).replace(f'\t.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"\n', "")


def build_file(lines: int, cpu: str = "gfx942") -> str:
    sources = kernel_sources(cpu)
    parts, total, copy = [], 0, 0
    while total < lines:
        for index, source in enumerate(sources):
            text = renamed(source, copy, index, cpu)
            parts.append(text)
            total += text.count("\n")
        copy += 1
    return "".join(parts)


def saxpy_listing(cpu: str = "gfx942") -> str:
    """LLVM's output for the saxpy loop kernel: one loop, a descriptor and metadata."""
    from llvm_oracle import compile_ir

    return compile_ir((ROOT / "fixtures" / "llvm" / "loop_saxpy.ll").read_text(), cpu)


def small_kernel(cpu: str = "gfx942") -> str:
    """The saxpy kernel's code alone, as a 36-line file (what an editor or pre-commit sees)."""
    code = saxpy_listing(cpu).split("\t.section\t.rodata")[0]
    return code + ".Lfunc_end0:\n\t.size\tsaxpy, .Lfunc_end0-saxpy\n"


@dataclass
class Series:
    """Wall seconds and peak RSS (MB) of one command over the rounds."""

    walls: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    def spread(self) -> str:
        return f"{min(self.walls):7.3f} {self.median:7.3f} {max(self.walls):7.3f}"


_MEASURE = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def run_process(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one child process, started from a small wrapper so the
    child's high-water mark does not start at this (large) process's size."""
    output = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, check=True).stdout
    wall, rss_kb = output.split()
    return float(wall), int(rss_kb) // 1024


def paired(commands: list[list[str]], runs: int) -> list[Series]:
    """Each command once per round, in turn, for `runs` rounds."""
    series = [Series() for _ in commands]
    for _ in range(runs):
        for command, measured in zip(commands, series, strict=True):
            wall, rss = run_process(command)
            measured.walls.append(wall)
            measured.rss.append(rss)
    return series


def find_llvm_mc(cpu: str = "gfx942") -> str | None:
    for name in [f"llvm-mc-{v}" for v in range(26, 16, -1)] + ["llvm-mc"]:
        found = shutil.which(name)
        if found and subprocess.run([found, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-filetype=obj", "-o",
                                     os.devnull], input="s_endpgm\n", text=True, capture_output=True).returncode == 0:
            return found
    return None


def lint(*argv: str) -> list[str]:
    return [sys.executable, "-m", "amdgpu_lint", *argv[:1], "--no-config", *argv[1:]]


class Bench:
    """Runs the measures and prints one table row each."""

    def __init__(self, directory: Path, runs: int, llvm_mc: str | None, cpu: str = "gfx942"):
        self.directory, self.runs, self.llvm_mc, self.cpu = directory, runs, llvm_mc, cpu
        self.check_medians: dict[Path, float] = {}
        print(f"{'measure':<50} {'lines':>9} {'min':>7} {'median':>7} {'max':>7} s {'RSS MB':>6} "
              f"{'llvm-mc s':>9} {'ratio':>6}")

    def file(self, name: str, text: str) -> Path:
        path = self.directory / name
        path.write_text(text)
        return path

    def assemble(self, paths: list[Path]) -> list[str]:
        """llvm-mc on `paths`, one after another, as one command."""
        runs = [[self.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={self.cpu}", "-filetype=obj", "-o", os.devnull, str(p)]
                for p in paths]
        return runs[0] if len(runs) == 1 else ["sh", "-c", " && ".join(" ".join(run) for run in runs)]

    def measure(self, label: str, command: list[str], paths: list[Path]) -> Series:
        """Ours against llvm-mc on the same inputs, in paired rounds; prints and returns ours."""
        commands = [command] + ([self.assemble(paths)] if self.llvm_mc else [])
        ours, *theirs = paired(commands, self.runs)
        lines = sum(path.read_text().count("\n") for path in paths)
        mc = f"{theirs[0].median:9.3f} {ours.median / theirs[0].median:5.1f}x" if theirs else f"{'-':>9} {'-':>6}"
        print(f"{label:<50} {lines:>9,} {ours.spread()}   {statistics.median(ours.rss):>6} {mc}", flush=True)
        return ours

    @staticmethod
    def note(text: str) -> None:
        print(f"{'':<52}{text}", flush=True)

    def checks(self, files: list[tuple[str, Path]]) -> None:
        paired([lint("check", "--no-cache", str(files[0][1]))], 1)  # bytecode compiled, files in the page cache
        for label, path in files:
            command = lint("check", "--no-cache", str(path))
            self.check_medians[path] = self.measure(f"check --no-cache, {label}", command, [path]).median

    def reports(self, paths: list[Path]) -> None:
        for path in paths:
            ours = self.measure("report --format json", lint("report", "--format", "json", str(path)), [path])
            self.note(f"report / check: {ours.median / self.check_medians[path]:.2f}x")

    def simulations(self, trips: list[int]) -> None:
        saxpy = self.file("saxpy.s", saxpy_listing(self.cpu))
        previous: tuple[int, float] | None = None
        for count in trips:
            trip_count = f"{_SAXPY_LOOP}={count}"
            ours = self.measure(f"report --simulate --trip-count {trip_count}",
                                lint("report", "--simulate", "--trip-count", trip_count, str(saxpy)), [saxpy])
            if previous is not None:
                self.note(f"{(ours.median - previous[1]) / (count - previous[0]) * 1000:.2f} ms per added trip")
            previous = (count, ours.median)

    def workers(self, lines: int) -> None:
        parts = [self.file(f"part_{n}.s", build_file(lines // 4, self.cpu)) for n in range(4)]
        medians = [self.measure(f"check --no-cache --jobs {jobs}, 4 files",
                                lint("check", "--no-cache", "--jobs", str(jobs), *map(str, parts)), parts).median
                   for jobs in (1, 2)]
        self.note(f"--jobs 2 speed-up: {medians[0] / medians[1]:.2f}x")

    def assembler(self, path: Path) -> None:
        """`check --no-cache` with the user's assembler (started before the lint, read after it) against without."""
        if not self.llvm_mc:
            return
        without, with_it = paired([lint("check", "--no-cache", "--assembler", "none", str(path)),
                                   lint("check", "--no-cache", "--assembler", self.llvm_mc, str(path))], self.runs)
        lines = path.read_text().count("\n")
        for label, series in (("check --no-cache --assembler none", without), ("check --no-cache --assembler llvm-mc", with_it)):
            print(f"{label:<50} {lines:>9,} {series.spread()}   {statistics.median(series.rss):>6}", flush=True)
        self.note(f"the assembler's cost: {(with_it.median / without.median - 1) * 100:+.1f}% wall (medians)")

    def warm_cache(self, path: Path) -> None:
        warm = lint("check", "--format", "json", str(path))
        paired([warm], 1)  # fills the cache
        self.measure("check --format json, warm cache", warm, [path])

    def run(self, lines: int, million: bool, trips: list[int]) -> None:
        sizes = [2_000, 10_000, lines] + ([1_000_000] if million else [])
        sized = {size: self.file(f"sized_{size}.s", build_file(size, self.cpu)) for size in sizes}
        self.checks([("36-line kernel", self.file("kernel_36.s", small_kernel(self.cpu)))]
                    + [(f"{size:,} lines", path) for size, path in sized.items()])
        self.reports([sized[2_000], sized[lines]])
        self.simulations(trips)
        self.workers(lines)
        self.assembler(sized[lines])
        self.warm_cache(sized[lines])


# Phases by module, relative to the repository; other code (shared helpers, the standard library)
# is charged to the phases that called it.
_PHASES = {
    "lint/frontend/source.py": "source splitting",
    "lint/frontend/preprocessor.py": "preprocessor",
    "lint/frontend/syntax.py": "statement parsing (Lark + memo)",
    "lint/frontend/": "IR build",
    "lint/model/ir.py": "IR build",
    "lint/model/nodes.py": "IR build",
    "lint/model/targets.py": "IR build",
    "lint/analyses/manager.py": "",
    "rules/": "rules",
    "lint/driver/rule.py": "rules",
    "lint/outputs/": "output",
    "lint/cli.py": "driver and CLI",
    "lint/driver/": "driver and CLI",
}


def phase_of(function: tuple[str, int, str]) -> str:
    """The phase a function's own time belongs to; "" when it is charged to its callers."""
    filename, _, name = function
    if name == "<module>" or filename.startswith("<frozen importlib"):
        return "imports"
    if f"{os.sep}lark{os.sep}" in filename:
        return "statement parsing (Lark + memo)"
    path = Path(filename)
    if not path.is_relative_to(ROOT):
        return ""
    relative = path.relative_to(ROOT).as_posix()
    if relative.startswith("lint/analyses/") and relative != "lint/analyses/manager.py":
        return f"analysis: {path.stem}"
    for prefix, phase in _PHASES.items():
        if relative == prefix or (prefix.endswith("/") and relative.startswith(prefix)):
            return phase
    return ""


def phase_times(stats: pstats.Stats) -> dict[str, float]:
    """Exclusive seconds per phase; a helper's time is split over its callers by the time each call edge took."""
    table = stats.stats  # function -> (primitive calls, calls, own time, cumulative time, callers)
    shares: dict[tuple, dict[str, float]] = {}

    def share_of(function: tuple, visiting: frozenset) -> dict[str, float]:
        if function in shares:
            return shares[function]
        own = phase_of(function)
        callers = {caller: edge[2] for caller, edge in table[function][4].items() if caller not in visiting}
        total = sum(callers.values())
        if own or total == 0:
            result = {own or "other": 1.0}
        else:
            result = defaultdict(float)
            for caller, seconds in callers.items():
                for phase, part in share_of(caller, visiting | {function}).items():
                    result[phase] += part * seconds / total
        shares[function] = result
        return result

    times: dict[str, float] = defaultdict(float)
    for function, (_, _, own_time, _, _) in table.items():
        for phase, part in share_of(function, frozenset()).items():
            times[phase] += own_time * part
    return times


def profile(directory: Path, lines: int, cpu: str) -> None:
    path = directory / f"sized_{lines}.s"
    path.write_text(build_file(lines, cpu))
    output = directory / "check.prof"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(output), "-m", "amdgpu_lint", "check", "--no-config",
                    "--no-cache", str(path)], stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    times = phase_times(pstats.Stats(str(output)))
    total = sum(times.values())
    print(f"check --no-cache, {path.read_text().count(chr(10)):,} lines, under cProfile: {wall:.2f} s wall, "
          f"{total:.2f} s profiled (the profiler slows small functions most: read the shares)")
    print(f"{'phase (exclusive time)':<40} {'s':>7} {'share':>7}")
    for phase, seconds in sorted(times.items(), key=lambda item: -item[1]):
        print(f"{phase:<40} {seconds:7.2f} {seconds / total:7.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", default="gfx942", help="the processor the files are compiled for")
    parser.add_argument("--runs", type=int, default=5, help="rounds per measure (median, min, max)")
    parser.add_argument("--lines", type=int, default=100_000, help="size of the large file")
    parser.add_argument("--million", action="store_true", help="also measure a 1M-line file (slow)")
    parser.add_argument("--trips", default="64,128,256,512", help="trip counts for the simulator")
    parser.add_argument("--profile", action="store_true", help="print the per-phase profile of the large file instead")
    args = parser.parse_args()
    # measure with bytecode cached, as an installed package has it (PYTHONDONTWRITEBYTECODE would leave
    # every run compiling the package's sources)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "lint"), str(ROOT / "rules")], check=True)
    with tempfile.TemporaryDirectory(prefix="amdgpu-lint-bench-") as directory:
        os.environ["AMDGPU_LINT_CACHE_DIR"] = str(Path(directory) / "cache")
        if args.profile:
            profile(Path(directory), args.lines, args.cpu)
            return 0
        llvm_mc = find_llvm_mc(args.cpu)
        print(f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} CPUs, "
              f"Python {platform.python_version()}, {args.runs} paired runs per measure, "
              f"llvm-mc: {llvm_mc or 'not found (absolute figures only)'}")
        trips = [int(n) for n in args.trips.split(",")]
        Bench(Path(directory), args.runs, llvm_mc, args.cpu).run(args.lines, args.million, trips)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
