"""The command line: `amdgpu-lint check|report|baseline|occupancy|rules|explain`.

Parses flags, asks the driver (driver/session.py) to lint, and hands results to an output format.
Each command imports what only it needs (an output format, reports, baselines): a small `check`
starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from . import __version__
from .driver.config import ConfigError
from .driver.session import (
    Flags,
    Progress,
    UsageError,
    check_paths,
    check_text,
    config_for,
    jobs_for,
    lint_paths,
    processes_for,
    run_job,
)
from .model.devices import DEVICES
from .model.targets import UnknownTarget, parse_target_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

    from .driver.fixer import FixedFile
    from .driver.linter import FileResult
    from .model.diagnostics import Diagnostic, LineSource, Severity
    from .model.ir import Module

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
#: fewer files than this are linted without a progress bar
PROGRESS_MIN_FILES = 8


def _defsym(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{text}'")
    try:
        return name.strip(), int(value.strip(), 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"value of '{name}' must be an integer, got '{value}'") from None


def _branch_pattern(text: str) -> tuple[str, str]:
    label, sep, pattern = text.partition("=")
    pattern = pattern.strip().upper() if sep else "T"
    if not label.strip() or not pattern or set(pattern) - {"T", "N"}:
        raise argparse.ArgumentTypeError(f"expected LABEL or LINE, or either =PATTERN of T (taken) and N (not), got '{text}'")
    return label.strip(), pattern


def _positive(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text}'")
    return value


_BYTES = re.compile(r"(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?", re.IGNORECASE)


def _bytes(text: str) -> int:
    """A byte count: N, or N with K, M or G (KiB, MiB, GiB: powers of 1024)."""
    match = _BYTES.fullmatch(text.strip())
    value = float(match.group(1)) * 1024 ** " KMG".index(match.group(2).upper() or " ") if match else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a byte count such as 64M or 1048576, got '{text}'")
    return int(value)


def _wg_sizes(text: str) -> tuple[int, int]:
    """`N` (pinned) or `MIN,MAX` (a range of flat work-group sizes)."""
    parts = text.split(",")
    if len(parts) > 2:
        raise argparse.ArgumentTypeError(f"expected N or MIN,MAX, got '{text}'")
    smallest, largest = _positive(parts[0]), _positive(parts[-1])
    if not smallest <= largest <= 1024:
        raise argparse.ArgumentTypeError(f"work-group sizes must be 1 to 1024, smallest first, got '{text}'")
    return smallest, largest


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or directories (default: .)")
    parser.add_argument("--mcpu", help="target processor when the file has no .amdgcn_target (e.g. gfx942); for HIP "
                        "and OpenCL sources, the targets to compile for (gfx942,gfx90a)")
    parser.add_argument("--compiler", metavar="PROGRAM", help="the compiler for HIP and OpenCL sources (default: $HIPCC, "
                        "hipcc, ROCm's amdclang++, the newest clang++-NN on PATH)")
    parser.add_argument("--trust-repository-compiler", action="store_true",
                        help="run the compiler a repository's configuration names (not done otherwise)")
    parser.add_argument("--assembler", metavar="PROGRAM", help="the assembler run on assembly files alongside the lint, "
                        "each of its errors a finding (default: $AMDGPU_LINT_ASSEMBLER, ROCm's llvm-mc, the newest "
                        "llvm-mc-NN on PATH; 'none': do not run one)")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add a .include search directory")
    parser.add_argument("--defsym", action="append", default=[], type=_defsym, metavar="NAME=VALUE", help="define an assembler symbol")
    parser.add_argument("--no-config", action="store_true", help="ignore pyproject.toml / .amdgpu-lint.toml")
    parser.add_argument("--config", metavar="FILE", help="use this configuration for every input instead of looking for one")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOBS",
                        help="files and directories to leave out when walking directories (replaces the configured ones)")
    parser.add_argument("--extend-exclude", action="append", default=[], metavar="GLOBS",
                        help="more to leave out, on top of 'exclude' (.gitignore'd files are always left out)")
    parser.add_argument("--output", "-o", metavar="FILE", help="write output to FILE instead of stdout")
    launch = parser.add_argument_group("launch (for occupancy when the kernel does not say)")
    launch.add_argument("--wg-size", type=_wg_sizes, metavar="N|MIN,MAX",
                        help="work-items per work-group at launch, or the range of sizes it may have")
    launch.add_argument("--grid", metavar="X[,Y,Z]", help="work-groups launched, for the device-fill analysis")
    launch.add_argument("--device", metavar="NAME", help=f"device for --grid: {', '.join(sorted(d.name for d in DEVICES.values()))}")
    launch.add_argument("--cus", type=_positive, metavar="N", help="compute units of the device for --grid")
    launch.add_argument("--min-waves", type=_positive, metavar="N", help="occupancy every kernel should reach")
    parser.add_argument("--latency-table", metavar="FILE", help="JSON file overriding latency-table entries")
    parser.add_argument("--locations", choices=("source", "listing"), default="source",
                        help="findings on a compiler listing with debug lines: at the source line (default), or the listing's")


def _add_check_conventions(check: argparse.ArgumentParser) -> None:
    """Output and exit options shared with ruff."""
    check.add_argument("--output-format", "--format", dest="format", default="text",
                       choices=("text", "full", "concise", "json", "sarif", "github", "gitlab"),
                       help="text (or full): findings with their source line; concise: one line per finding")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour the text formats (auto: on a terminal, honouring NO_COLOR and FORCE_COLOR)")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary line, no progress bar")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings fail (2 still means an error)")
    check.add_argument("--statistics", action="store_true", help="print how many findings each rule made, not the findings")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="with '-' as the path: the name stdin is linted under (configuration, target, includes)")


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, with the terminal's width read once: argparse makes a formatter for each
    option it adds, and its own reads the width through shutil (imported for that alone, ~1% of a small check)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_help_width())


@cache
def _help_width() -> int:
    """What argparse would use: $COLUMNS, else the terminal's width, else 80; less 2."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        stdout = sys.__stdout__  # None without a console (pythonw)
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns if stdout is not None else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the command the arguments name, only that command (~60 options and
    seven parsers cost ~7 ms to make). Every command is there for anything else: help, a misspelt one."""
    parser = argparse.ArgumentParser(
        formatter_class=_HelpFormatter, prog="amdgpu-lint", description="Static analysis for AMDGPU assembly.",
        epilog="amdgpu-lint lsp runs the language server on stdin/stdout (needs the 'lsp' extra: pygls).")
    parser.add_argument("--version", action="version", version=f"amdgpu-lint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (summary, add_options) in _COMMANDS.items():
        if command not in _COMMANDS or command == name:
            add_options(commands.add_parser(name, help=summary, formatter_class=_HelpFormatter))
    return parser


def command_named(argv: list[str]) -> str | None:
    """The command the arguments name: the first that is not an option (the top level has no valued option)."""
    return next((argument for argument in argv if not argument.startswith("-")), None)


def _check_options(check: argparse.ArgumentParser) -> None:
    _add_input_options(check)
    _add_check_conventions(check)
    check.add_argument("--select", action="append", metavar="RULES", help="rules to run: codes, names, prefixes, ALL")
    check.add_argument("--extend-select", action="append", default=[], metavar="RULES",
                       help="rules to run on top of the selected (or configured) ones")
    check.add_argument("--ignore", action="append", metavar="RULES", help="rules to skip")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails (default: warning)")
    check.add_argument("--baseline", metavar="FILE", help="a snapshot from 'amdgpu-lint baseline' to compare occupancy with")
    check.add_argument("--jobs", "-j", type=_positive, metavar="N", help="processes linting files in parallel (default: the CPUs usable); a long file alone uses two")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    check.add_argument("--sarif-category", metavar="NAME",
                       help="sarif: GitHub code scanning category (automationDetails.id; default: the upload's own)")
    check.add_argument("--includers", action="store_true",
                       help="also lint the repository's assembly files that include a named file; a named header "
                            "(not .s/.S/.asm/.amdgcn) is linted only through them (the pre-commit hook uses this)")
    fixes = check.add_argument_group("fixes")
    fixes.add_argument("--fix", action="store_true",
                       help="apply the fixes findings carry (a missing wait or s_nop) to the files and report what remains")
    fixes.add_argument("--diff", action="store_true",
                       help="print those fixes as a unified diff instead, writing nothing (exit 1 if there are any)")
    fixes.add_argument("--unsafe-fixes", action="store_true",
                       help="also apply fixes that may change what the code does (e.g. code addressed by hand)")


def _report_options(report: argparse.ArgumentParser) -> None:
    _add_input_options(report)
    report.add_argument("--format", choices=("text", "json", "html"), default="text")
    report.add_argument("--baseline", metavar="FILE",
                        help="a snapshot from 'amdgpu-lint baseline': the GitHub job summary shows occupancy changes")
    report.add_argument("--plots", metavar="DIR", help="write the what-if curves of each kernel as SVG files into DIR")
    report.add_argument("--simulate", action="store_true",
                        help="simulate the kernel's waves on one CU, or WGP in WGP mode (a Scrutinizer-style model)")
    report.add_argument("--waves", type=_positive, metavar="N",
                        help="waves per CU (WGP) to simulate (default: the occupancy)")
    report.add_argument("--working-set", type=_bytes, metavar="BYTES",
                        help="distinct bytes the whole launch reads and writes (e.g. 64M), for the L2 hit rate of "
                             "the launch's predicted time (default: the bytes it requests, no reuse)")
    _add_path_options(report, "default 8")


def _add_path_options(parser: argparse.ArgumentParser, default: str) -> None:
    """How the simulated path goes: `report --simulate` and `baseline` (its main loop's cycles per trip)."""
    parser.add_argument("--trip-count", action="append", default=[], type=_defsym, metavar="LABEL=N",
                        help=f"iterations per entry of the loop that branches back to LABEL ({default}); the path "
                             "enters the loops named")
    parser.add_argument("--kernarg", action="append", default=[], type=_defsym, metavar="NAME=VALUE",
                        help="a kernel argument's value (by its metadata name): loops and branches on scalars "
                             "computed from it go the way the kernel would")
    parser.add_argument("--taken", action="append", default=[], type=_branch_pattern, metavar="LABEL|LINE[=PATTERN]",
                        help="conditional branches to LABEL, or the one at LINE (back-edges too), go as PATTERN says "
                             "at each arrival: T taken, N not, repeated (default T: always taken)")


def _baseline_options(baseline: argparse.ArgumentParser) -> None:
    _add_input_options(baseline)
    _add_path_options(baseline, "default 2; the main loop is among the loops named, when any is")


def _calculator_options(calculator: argparse.ArgumentParser) -> None:
    calculator.add_argument("--mcpu", help="target processor (e.g. gfx942)")
    calculator.add_argument("--arch", choices=("gcn", "terascale"), default="gcn",
                            help="terascale: Radeon HD 5000/6000 VLIW formula (the Radeon Compute Profiler's)")
    calculator.add_argument("--vgprs", type=int, default=1, metavar="N", help="architectural VGPRs (TeraScale: registers)")
    calculator.add_argument("--agprs", type=int, default=0, metavar="N", help="AGPRs (gfx908, gfx90a, gfx94x, gfx950)")
    calculator.add_argument("--sgprs", type=int, default=0, metavar="N", help="SGPRs including VCC/FLAT_SCRATCH/XNACK extras")
    calculator.add_argument("--lds", type=int, default=0, metavar="BYTES", help="LDS per work-group")
    calculator.add_argument("--wg-size", type=_wg_sizes, metavar="N|MIN,MAX",
                            help="work-items per work-group, or a range of sizes (LLVM's figure: the most waves over it; "
                                 "default: one wave)")
    waves = calculator.add_mutually_exclusive_group()
    waves.add_argument("--wave32", dest="wave_size", action="store_const", const=32)
    waves.add_argument("--wave64", dest="wave_size", action="store_const", const=64)
    calculator.add_argument("--cumode", action="store_true", help="gfx10+: CU mode instead of WGP mode")
    calculator.add_argument("--max-waves-cu", type=_positive, default=32, help="TeraScale: wavefronts a CU holds (default 32)")
    calculator.add_argument("--limits", action="store_true", help="print the VGPR/SGPR/LDS thresholds of every occupancy level")
    calculator.add_argument("--plot", metavar="FILE.svg", help="write the what-if curves as one SVG")
    calculator.add_argument("--format", choices=("text", "json"), default="text")
    calculator.add_argument("--output", "-o", metavar="FILE")


def _listing_options(listing: argparse.ArgumentParser) -> None:
    listing.add_argument("--format", choices=("text", "markdown"), default="text",
                         help="markdown: the rule reference (docs/rules.md)")


def _explain_options(explain: argparse.ArgumentParser) -> None:
    explain.add_argument("rule", metavar="NAME|CODE")


_COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "check": ("lint assembly files", _check_options),
    "report": ("describe each kernel: resources, occupancy, limiter, what-if", _report_options),
    "baseline": ("write each kernel's resources, occupancy and main-loop cycles as a JSON snapshot", _baseline_options),
    "occupancy": ("occupancy calculator: waves for given registers, LDS, work-group", _calculator_options),
    "rules": ("list every rule", _listing_options),
    "explain": ("show a rule's documentation", _explain_options),
}


def _flags(args: argparse.Namespace) -> Flags:
    """The driver's view of the command line. `report` and `baseline` run every rule; only `check` and
    `report --baseline` read a snapshot."""
    checking = args.command == "check"
    if args.config and args.no_config:
        raise UsageError("--config and --no-config contradict each other")
    baseline = getattr(args, "baseline", None)  # check, report
    return Flags(
        mcpu=args.mcpu, include_dirs=args.include_dirs, defsyms=args.defsym, use_config=not args.no_config,
        config_file=args.config, exclude=args.exclude, extend_exclude=args.extend_exclude,
        extend_select=args.extend_select if checking else [],
        wg_size=args.wg_size, grid=args.grid, device=args.device, cus=args.cus, min_waves=args.min_waves,
        latency_table=args.latency_table, locations=args.locations, compiler=args.compiler,
        trust_repository_compiler=args.trust_repository_compiler, assembler=args.assembler,
        select=(args.select or []) if checking else ["ALL"], ignore=(args.ignore or []) if checking else [],
        fail_on=args.fail_on if checking else None, baseline=baseline, use_baseline=checking or baseline is not None,
        includers=checking and args.includers,
    )


@contextmanager
def _output(path: str | None) -> Iterator[TextIO]:
    if path is None:
        yield sys.stdout
        return
    with open(path, "w", encoding="utf-8") as handle:
        yield handle


def _sources_for(diagnostics: list[Diagnostic], results: list[FileResult]) -> dict[str, LineSource]:
    """Source text for snippets and fingerprints: from the modules or the lines results quote, else read again."""
    from .frontend.source import read_source

    sources: dict[str, LineSource] = {path: source for r in results if r.module for path, source in r.module.sources.items()}
    for result in results:
        sources.update(result.quoted)
    for path in {d.path for d in diagnostics} - sources.keys():
        try:
            sources[path] = read_source(path)
        except OSError:
            continue
    return sources


def _progress_bar(args: argparse.Namespace) -> Progress | None:
    """A bar on stderr while many files are linted on a terminal (never with -q or when stderr is redirected)."""
    if args.quiet or not sys.stderr.isatty():
        return None

    def shown(results: Iterator[list[FileResult]], total: int) -> Iterable[list[FileResult]]:
        if total < PROGRESS_MIN_FILES:
            return results
        from tqdm import tqdm

        return tqdm(results, total=total, unit="file", desc="linting", leave=False, file=sys.stderr, dynamic_ncols=True)

    return shown


def _lint_for_check(args: argparse.Namespace) -> tuple[list[FileResult], list[Severity]]:
    """`check PATH...`, or `check -` for stdin named by --stdin-filename."""
    flags = _flags(args)
    if "-" in args.paths:
        if args.paths != ["-"]:
            raise UsageError("'-' (stdin) cannot be combined with other paths")
        return check_text(args.stdin_filename or "-", sys.stdin.read(), flags)
    if args.stdin_filename:
        raise UsageError("--stdin-filename names what '-' reads: give '-' as the path")
    return check_paths(args.paths, flags, workers=args.jobs, use_cache=not args.no_cache, progress=_progress_bar(args))


def _fix_files(args: argparse.Namespace) -> tuple[list[FileResult], list[Severity], int]:
    """`--fix`: fix every input, write the files that changed; what remains, and how many findings were fixed."""
    from .driver.fixer import write_fixed

    files, fail_levels = _fixed_in_memory(args)
    applied = 0
    for fixed in files:
        if not fixed.changed:
            continue
        try:
            write_fixed(fixed)
            applied += fixed.problems_fixed
        except OSError as error:
            fixed.result.error = f"{fixed.result.path}: not fixed: {error.strerror or error}"
    return [fixed.result for fixed in files], fail_levels, applied


def _fixed_in_memory(args: argparse.Namespace) -> tuple[list[FixedFile], list[Severity]]:
    from .driver.fixer import MAX_PASSES, fix_paths

    if "-" in args.paths:
        raise UsageError("--fix and --diff edit files: give paths, not standard input")
    files, fail_levels = fix_paths(args.paths, _flags(args), workers=args.jobs, unsafe=args.unsafe_fixes)
    for fixed in files:
        if not fixed.converged:
            print(f"amdgpu-lint: warning: {fixed.result.path}: fixes did not settle within {MAX_PASSES} passes; "
                  "the rest are reported", file=sys.stderr)
    return files, fail_levels


def run_diff(args: argparse.Namespace) -> int:
    """`--diff`: the fixes as a unified diff, nothing written; exit 1 when there is a fix or a failing finding left."""
    from .driver.fixer import unified_diff

    files, fail_levels = _fixed_in_memory(args)
    with _output(args.output) as out:
        for fixed in files:
            if fixed.changed:
                out.write(unified_diff(fixed))
    fixes = sum(fixed.problems_fixed for fixed in files)
    remaining = sum(len(fixed.result.diagnostics) for fixed in files)
    print(f"Would fix {fixes} problem{'s' if fixes != 1 else ''} ({remaining} remaining).", file=sys.stderr)
    errors = [fixed.result.error for fixed in files if fixed.result.error]
    for message in errors:
        print(f"amdgpu-lint: {message}", file=sys.stderr)
    if errors:
        return EXIT_USAGE
    failing = any(d.severity >= level for fixed, level in zip(files, fail_levels, strict=True)
                  for d in fixed.result.diagnostics)
    return EXIT_FINDINGS if fixes or failing else EXIT_CLEAN


MOST_NAMED_SKIPPED = 10  # files one note names as skipped for the same reason (the rest are counted)


def _print_notes(results: list[FileResult]) -> None:
    """On stderr: the files skipped, one note per reason; then how a file's listing was made differently (once
    per file, though it was compiled for several targets)."""
    skipped: dict[str, list[str]] = {}
    for result in results:
        if result.skipped:
            skipped.setdefault(result.skipped, []).append(result.path)
    for reason, paths in skipped.items():
        if len(paths) == 1:
            print(f"amdgpu-lint: note: {paths[0]}: skipped: {reason}", file=sys.stderr)
            continue
        named = ", ".join(paths[:MOST_NAMED_SKIPPED]) + (f" and {len(paths) - MOST_NAMED_SKIPPED} more"
                                                          if len(paths) > MOST_NAMED_SKIPPED else "")
        print(f"amdgpu-lint: note: skipped {len(paths)} files: {reason}: {named}", file=sys.stderr)
    for note in dict.fromkeys(note for result in results for note in result.notes):
        print(f"amdgpu-lint: note: {note}", file=sys.stderr)


def _assemblers(results: list[FileResult]) -> list[dict[str, str]]:
    """The user's assemblers the files were checked with (name, path, version), for the outputs' tool sections."""
    found = {result.assembler.path: result.assembler for result in results if result.assembler is not None}
    return [{"name": a.name, "path": a.path, "version": a.version} for a in found.values()]


def run_check(args: argparse.Namespace) -> int:
    if args.diff:
        return run_diff(args)
    fixed = None
    if args.fix:
        results, fail_levels, fixed = _fix_files(args)
    else:
        results, fail_levels = _lint_for_check(args)
    unreadable = [result.error for result in results if result.error]
    files = len(results) - len(unreadable)
    diagnostics: list[Diagnostic] = [d for result in results for d in result.diagnostics]
    sources = _sources_for(diagnostics, results) if args.format in ("text", "full", "sarif", "gitlab") else {}
    with _output(args.output) as out:
        if args.statistics:
            from .outputs.text import write_statistics

            write_statistics(out, diagnostics, as_json=args.format == "json")
        elif args.format == "json":
            from .outputs.json_format import write_json

            write_json(out, diagnostics, files, fixed=fixed, assemblers=_assemblers(results))
        elif args.format == "sarif":
            from .outputs.sarif import write_sarif
            from .rules import RULES

            write_sarif(out, diagnostics, RULES, sources, args.sarif_category, _assemblers(results))
        elif args.format == "github":
            from .outputs.github import append_step_summary, check_summary, write_github

            write_github(out, diagnostics, len(results))
            append_step_summary(check_summary(diagnostics, len(results)))
        elif args.format == "gitlab":
            from .outputs.gitlab import write_gitlab

            write_gitlab(out, diagnostics, sources)
        else:
            from .outputs.text import use_colour, write_text

            write_text(out, diagnostics, sources, files, colour=use_colour(out, args.color),
                       concise=args.format == "concise", summary=not args.quiet and files > 0, fixed=fixed)
    _print_notes(results)
    for message in unreadable:
        print(f"amdgpu-lint: {message}", file=sys.stderr)
    if unreadable:
        return EXIT_USAGE
    if args.exit_zero:
        return EXIT_CLEAN
    failing = any(d.severity >= level for result, level in zip(results, fail_levels, strict=True) for d in result.diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def run_report(args: argparse.Namespace) -> int:
    from .driver.report import kernel_reports
    from .outputs.json_format import write_report_json
    from .outputs.plots import write_plots
    from .outputs.report_text import write_report_text

    results, _ = lint_paths(args.paths, _flags(args))
    kernels = [(r.module, kernel) for r in results if r.module for kernel in r.module.kernels]
    simulation = ({"waves": args.waves, "trip_counts": dict(args.trip_count), "taken": dict(args.taken),
                   "kernargs": dict(args.kernarg), "working_set": args.working_set}
                  if args.simulate else None)
    reports = kernel_reports(kernels, processes_for(len(results), None), simulation)

    def before(module: Module, name: str) -> dict | None:
        from .rules.occupancy_regression import baseline_key

        snapshot = module.options.baseline if module.options is not None else None
        return snapshot["kernels"].get(baseline_key(module.path, name)) if snapshot else None

    if args.plots:
        for path in write_plots(Path(args.plots), reports):
            print(f"wrote {path}", file=sys.stderr)
    with _output(args.output) as out:
        if args.format == "json":
            write_report_json(out, reports)
        elif args.format == "html":
            from .outputs.html_report import write_html

            diagnostics = [d for r in results for d in r.diagnostics]
            baselines = [before(module, kernel.name) for module, kernel in kernels] if args.baseline else None
            write_html(out, [r.module for r in results if r.module], reports, diagnostics, baselines)
        else:
            write_report_text(out, reports)
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        from .outputs.github import append_step_summary, occupancy_summary

        rows = [(report, before(module, kernel.name)) for (module, kernel), report in zip(kernels, reports, strict=True)]
        append_step_summary(occupancy_summary("report", rows, args.baseline))
    _print_notes(results)
    errors = [result.error for result in results if result.error]
    for message in errors:
        print(f"amdgpu-lint: {message}", file=sys.stderr)
    return EXIT_USAGE if errors else EXIT_CLEAN


def run_baseline(args: argparse.Namespace) -> int:
    """Each kernel's resources, occupancy and main loop's cycles per trip, and every finding, keyed by paths
    relative to the key root (driver/baseline.py), so `check --baseline` matches them from any directory."""
    from .driver.baseline import (
        ROOT_DESCRIPTION,
        ROOT_ENTRY,
        finding_keys,
        key_root,
        relative_finding_key,
        relative_kernel_key,
        with_absolute_keys,
    )
    from .driver.report import kernel_report, performance_record
    from .rules.occupancy_regression import baseline_key
    from .rules.performance_regression import RECORD

    flags = _flags(args)
    paths = {"trip_counts": dict(args.trip_count), "taken": dict(args.taken), "kernargs": dict(args.kernarg)}
    kernels = {}
    findings = []
    errors = False
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    previous = _previous_snapshot(args.output) if summary else None
    rows = []
    replaced_by_root: dict[Path, dict] = {}  # the replaced snapshot's kernels, with in-memory keys
    for job in jobs_for(args.paths, flags):
        root = key_root(config_for(job.path, flags), args.output)
        if previous and root not in replaced_by_root:
            replaced_by_root[root] = with_absolute_keys(previous, root)["kernels"]
        replaced = replaced_by_root.get(root, {})
        for result in run_job(job):
            errors = errors or result.error is not None
            if result.module is None:
                continue
            findings += [relative_finding_key(key, root) for key in finding_keys(result.diagnostics, result.module.sources)]
            for kernel in result.module.kernels:
                report = kernel_report(result.module, kernel)
                rows.append((report, replaced.get(baseline_key(result.module.path, kernel.name))))
                if "waves_per_simd" in report:
                    entry = {key: report[key] for key in ("target", "vgpr", "arch_vgpr", "agpr", "sgpr", "lds_bytes",
                                                          "scratch_bytes", "wg_size", "waves_per_simd", "limiter")}
                    performance = performance_record(result.module, kernel, report, **paths)
                    if performance is not None:
                        entry[RECORD] = performance
                    kernels[relative_kernel_key(baseline_key(result.module.path, kernel.name), root)] = entry
    document = {"version": __version__, ROOT_ENTRY: ROOT_DESCRIPTION, "kernels": kernels, "findings": sorted(findings)}
    with _output(args.output) as out:
        json.dump(document, out, indent=2, sort_keys=True)
        out.write("\n")
    if summary:
        from .outputs.github import append_step_summary, occupancy_summary

        append_step_summary(occupancy_summary("baseline", rows, args.output if previous else None))
    return EXIT_USAGE if errors else EXIT_CLEAN


def _previous_snapshot(path: str | None) -> dict | None:
    """The snapshot `baseline -o path` replaces, if one is there (for the job summary's changes)."""
    if path is None:
        return None
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) and isinstance(document.get("kernels"), dict) else None


def run_calculator(args: argparse.Namespace) -> int:
    from .analyses.calculator import CalculatorError, Request, gcn_inputs, gcn_result, terascale
    from .outputs.plots import write_calculator_plot
    from .outputs.report_text import write_calculator_text

    try:
        if args.arch == "terascale":
            if args.wg_size and args.wg_size[0] != args.wg_size[1]:
                raise UsageError("--arch terascale takes one work-group size, not a range")
            document = terascale(args.vgprs, args.lds, args.wg_size[1] if args.wg_size else 64, args.max_waves_cu)
        else:
            if not args.mcpu:
                raise UsageError("occupancy needs --mcpu (or --arch terascale)")
            try:
                target = parse_target_id(args.mcpu)
            except UnknownTarget as error:
                raise UsageError(f"--mcpu: unknown processor {error}") from None
            request = Request(args.vgprs, args.agprs, args.sgprs, args.lds, args.wg_size, args.wave_size, args.cumode)
            document = gcn_result(target, gcn_inputs(target, request), args.limits)
    except CalculatorError as error:
        raise UsageError(str(error)) from None
    if args.plot:
        if not args.plot.endswith(".svg") or "what_if" not in document:
            raise UsageError("--plot writes an SVG (FILE.svg) for GCN targets")
        write_calculator_plot(Path(args.plot), document)
    with _output(args.output) as out:
        if args.format == "json":
            json.dump(document, out, indent=2)
            out.write("\n")
        else:
            write_calculator_text(out, document)
    return EXIT_CLEAN


def run_rules_listing(form: str = "text") -> int:
    from .rules import RULES

    if form == "markdown":
        from .outputs.rules_doc import rules_markdown

        sys.stdout.write(rules_markdown(RULES))
        return EXIT_CLEAN
    for rule in RULES:
        print(f"{rule.code}  {rule.name:<22} {rule.severity!s:<8} {rule.summary}")
    return EXIT_CLEAN


def _did_you_mean(text: str) -> str:
    from .driver.selection import near_miss
    from .rules import RULES

    return near_miss(text, RULES)


def run_explain(args: argparse.Namespace) -> int:
    from .rules import find_rule

    rule = find_rule(args.rule)
    if rule is None:
        raise UsageError(f"no rule named '{args.rule}'{_did_you_mean(args.rule)} (see 'amdgpu-lint rules')")
    print(f"{rule.code} {rule.name} ({rule.severity}): {rule.summary}\n")
    print(rule.explain)
    return EXIT_CLEAN


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(command_named(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        if args.command == "check":
            return run_check(args)
        if args.command == "report":
            return run_report(args)
        if args.command == "baseline":
            return run_baseline(args)
        if args.command == "occupancy":
            return run_calculator(args)
        if args.command == "rules":
            return run_rules_listing(args.format)
        return run_explain(args)
    except (UsageError, ConfigError) as error:
        print(f"amdgpu-lint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FINDINGS
    except OSError as error:
        print(f"amdgpu-lint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
