"""Throughput of amdgpu-lint on generated gfx942 kernel files (a measurement, not a test).

Builds large files by compiling fixtures/llvm/*.ll with llvmlite for gfx942 and repeating the
kernels with renamed symbols, then reports:
- parse-only and full-check lines per second (in process, best of --repeat);
- cold-start wall time of `amdgpu-lint check` on a 2k-line file (new process, no cache);
- scaling: full check in a new process at 10k, 100k and (with --million) 1M lines, with peak RSS;
- when an llvm-mc with AMDGPU is on PATH, its `-filetype=obj` time on the same file and the
  ratio to ours (above 1.0: we are faster).

Usage: python bench/bench.py [--lines 100000] [--repeat 3] [--million]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

_METADATA = re.compile(r"\t\.amdgpu_metadata\n.*?\t\.end_amdgpu_metadata\n", re.S)


def kernel_sources(cpu: str) -> list[str]:
    from llvm_oracle import compile_ir

    sources = []
    for path in sorted((ROOT / "fixtures" / "llvm").glob("*.ll")):
        if "wmma" in path.name or ("mfma" in path.name and cpu not in ("gfx908", "gfx90a", "gfx942", "gfx950")):
            continue
        sources.append(compile_ir(path.read_text(), cpu))
    return sources


def renamed(assembly: str, copy: int, index: int) -> str:
    """One source's kernels with every symbol made unique to (copy, index); metadata kept once."""
    suffix = f"_c{copy}_{index}"
    names = re.findall(r"^\t\.type\t(\S+),@function", assembly, re.M)
    text = re.sub(r"(\.L[\w.$]+)", rf"\1{suffix}", assembly)
    for name in names:
        text = re.sub(rf"(?<![\w.$]){re.escape(name)}(?![\w$])", f"{name}{suffix}", text)
    return text if copy == index == 0 else _METADATA.sub("", text).replace('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n', "")


def build_file(lines: int, cpu: str = "gfx942") -> str:
    sources = kernel_sources(cpu)
    parts, total, copy = [], 0, 0
    while total < lines:
        for index, source in enumerate(sources):
            text = renamed(source, copy, index)
            parts.append(text)
            total += text.count("\n")
        copy += 1
    return "".join(parts)


def best_of(repeat: int, action) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


_MEASURE = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def run_process(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of one child process, started from a small wrapper so the
    child's high-water mark does not start at this (large) process's size."""
    output = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, check=True).stdout
    wall, rss_kb = output.split()
    return float(wall), int(rss_kb) // 1024


def find_llvm_mc() -> str | None:
    for name in [f"llvm-mc-{v}" for v in range(26, 16, -1)] + ["llvm-mc"]:
        found = shutil.which(name)
        if found and subprocess.run([found, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", "-o",
                                     os.devnull], input="s_endpgm\n", text=True, capture_output=True).returncode == 0:
            return found
    return None


def check_command(path: Path) -> list[str]:
    return [sys.executable, "-m", "amdgpu_lint", "check", "--no-config", "--no-cache", str(path)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--million", action="store_true", help="also measure a 1M-line file (slow)")
    args = parser.parse_args()

    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend import syntax
    from amdgpu_lint.frontend.builder import BuildOptions, build_module
    from amdgpu_lint.frontend.preprocessor import Preprocessor
    from amdgpu_lint.frontend.source import read_source
    from amdgpu_lint.rules import RULES

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "big_gfx942.s"
        path.write_text(build_file(args.lines))
        line_count = path.read_text().count("\n")
        source = read_source(path)
        distinct = len({line.text for line in source.lines})
        print(f"input: {line_count:,} lines, {len(source.lines):,} code lines, {distinct:,} distinct statements")

        def parse_only(cold: bool) -> None:
            if cold:
                syntax._statement_cache.clear()
            for _ in Preprocessor().run(read_source(path)):
                pass

        cold = best_of(args.repeat, lambda: parse_only(True))
        warm = best_of(args.repeat, lambda: parse_only(False))
        build = best_of(args.repeat, lambda: build_module(read_source(path), BuildOptions()))
        full = best_of(args.repeat, lambda: lint_file(path, BuildOptions(), list(RULES)))
        print(f"read + preprocess + parse (empty memo):  {cold:6.3f} s  {line_count / cold:>10,.0f} lines/s")
        print(f"read + preprocess + parse (warm memo):   {warm:6.3f} s  {line_count / warm:>10,.0f} lines/s")
        print(f"build IR:                                {build:6.3f} s  {line_count / build:>10,.0f} lines/s")
        print(f"full check (all rules):                  {full:6.3f} s  {line_count / full:>10,.0f} lines/s")

        small = Path(directory) / "small_gfx942.s"
        small.write_text(build_file(2_000))
        cold_start = min(run_process(check_command(small))[0] for _ in range(5))
        print(f"cold start, check on {small.read_text().count(chr(10)):,} lines (new process):  {cold_start * 1000:6.0f} ms")

        llvm_mc = find_llvm_mc()
        sizes = [10_000, args.lines] + ([1_000_000] if args.million else [])
        for size in sizes:
            sized = Path(directory) / f"sized_{size}.s"
            sized.write_text(build_file(size))
            count = sized.read_text().count("\n")
            wall, rss = run_process(check_command(sized))
            line = f"check, new process, {count:>9,} lines: {wall:7.3f} s  {count / wall:>9,.0f} lines/s  peak RSS {rss:5d} MB"
            if llvm_mc:
                mc = min(run_process([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj",
                                      "-o", os.devnull, str(sized)])[0] for _ in range(args.repeat))
                line += f"   llvm-mc {mc:6.3f} s, ratio {mc / wall:4.2f}"
            print(line)
        if not llvm_mc:
            print("(no llvm-mc with AMDGPU on PATH: ratio not measured)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
