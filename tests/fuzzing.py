"""Fuzzing the linter with mutants of the fixtures: every mutant is linted as `check` and `report` lint a file, in
a child process under an address-space limit (RLIMIT_AS), and each lint under a limit of CPU time (a profiling
timer: CPU the child spends, whatever else the machine runs). Anything raised (a traceback, MemoryError, the CPU
limit) or a child that dies is a finding.

tests/test_hostile_input.py runs a few hundred mutants; a longer run by hand:

    python tests/fuzzing.py --seed 1 --count 5000
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
#: What a mutant may be built from: assembly, and the headers the fixtures include.
SUFFIXES = (".s", ".S", ".inc", ".h", ".amdgcn")

#: Numbers that sit on or past a bound somewhere: register files, counters, 32/64 bits, Python's digit limit.
HOSTILE_NUMBERS = ("0", "-1", "1", "63", "64", "65", "101", "102", "106", "255", "256", "257", "1023", "1024",
                   "65535", "65536", "2147483647", "4294967295", "4294967296", "9223372036854775807",
                   "18446744073709551615", "18446744073709551616", "999999999999", "0x7fffffffffffffff",
                   "-9223372036854775808", "1" + "0" * 5000, "1e308", "0b" + "1" * 70, "077777777777777777777777")
#: Lines that ask for much from one statement: counts, sizes, ranges, recursion, nesting, bad files.
HOSTILE_LINES = (
    ".rept 1000000000\n s_nop 0\n.endr",
    ".rept 300\n.rept 300\n v_mov_b32 v0, 0\n.endr\n.endr",
    ".macro again\n again\n.endm\n again",
    ".macro grow a\n grow \\a\\a\\a\\a\n.endm\n grow x",
    ".irp r, " + ",".join(["v0"] * 2000) + "\n v_mov_b32 \\r, 0\n.endr",
    ".fill 1000000000000, 8, 0", ".space 99999999999999", ".zero -1", ".p2align 63", ".align 1<<40",
    ".set huge, 1<<62\n s_mov_b32 s0, huge*huge", ".set loop, loop+1\n s_mov_b32 s0, loop",
    ".if 1", ".endif", ".endr", ".endm", ".else", ".macro", ".rept", ".irp", ".amdhsa_kernel k",
    ".end_amdhsa_kernel", ".amdgpu_metadata", ".end_amdgpu_metadata",
    '.include "missing.inc"', '.include "/dev/zero"', '.include "/dev/stdin"',
    "v_add_f32 v[0:999999], v1, v2", "s_mov_b64 s[0:99999], 0", "s_mov_b32 ttmp[4:99999], 0",
    "v_mfma_f32_32x32x8f16 a[0:999999], v[0:1], v[2:3], a[0:999999]", "v_mov_b32 v[2000000000], 0",
    "s_nop 999999999999", "s_waitcnt vmcnt(999999999999)", "s_waitcnt lgkmcnt(-1)",
    "ds_read_b32 v1, v0 offset:4294967296", "global_load_dword v1, v[2:3], off offset:-99999999",
    "s_branch 999999999999", "s_cbranch_scc1 -999999999", "s_setprio 99999999", "s_sleep -5",
    " .amdhsa_next_free_vgpr 99999999999", " .amdhsa_next_free_sgpr -3", " .amdhsa_accum_offset 999999",
    " .amdhsa_group_segment_fixed_size 99999999999999999", " .amdhsa_private_segment_fixed_size 4294967295",
    " .amdhsa_user_sgpr_count 99999", " .amdhsa_wavefront_size32 7", " .amdhsa_next_free_vgpr (1<<63)",
    (".amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .vgpr_count: 99999999999\n"
     "    .wavefront_size: 99999\n    .max_flat_workgroup_size: 0\n...\n.end_amdgpu_metadata"),
    "; amdgpu-lint: min-waves=99999999999", "; amdgpu-lint: disable=", "; amdgpu-lint: disable-next-line=all",
    "1:\n s_branch 1b\n s_branch 1f", "s_getpc_b64 s[0:1]\n s_add_u32 s0, s0, 999999999999",
    "v_mov_b32 v0, " + "(" * 3000 + "1" + ")" * 3000, "v_mov_b32 v0, " + "1+" * 5000 + "1",
    "v_dual_mov_b32 v300, v1 :: v_dual_mov_b32 v2, v3", "v_mov_b32 v0, s[0:1]", "v_mov_b32 v0,", ":::",
    '.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"', '.amdgcn_target "amdgcn-amd-amdhsa--gfx9999"',
    '.amdgcn_target "amdgcn-amd-amdhsa--gfx600"', "k2:", ".globl k", ".type k,@function", ".size k, .-k",
)
_NUMBER = re.compile(r"(?<![\w.$])\d+\b")
#: A descriptor directive's or a metadata entry's value: what kernel-level analyses read.
_SETTING = re.compile(r"^([ \t]*(?:\.amdhsa_\w+[ \t]+|-?[ \t]*\.\w+:[ \t]+))(\S.*)$", re.MULTILINE)
_REGISTER = re.compile(r"\b([vsa])(\d+)\b")


def fixture_files() -> list[Path]:
    """The fixtures mutants are made from, in a fixed order."""
    return sorted(path for path in FIXTURES.rglob("*") if path.suffix in SUFFIXES and path.is_file())


def mutate(text: str, rng: random.Random, others: list[str]) -> str:
    """`text` changed by one to three edits: a hostile number, register or descriptor (or metadata) value, a line
    deleted, repeated, swapped, taken from another fixture or a hostile one inserted, the text cut short, or a
    character replaced."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        where = rng.randrange(len(lines))
        edit = rng.randrange(10)
        if edit == 9 and (settings := list(_SETTING.finditer(text))):
            found = rng.choice(settings)
            text = text[: found.start(2)] + rng.choice(HOSTILE_NUMBERS) + text[found.end(2):]
        elif edit == 0 and (numbers := list(_NUMBER.finditer(text))):
            found = rng.choice(numbers)
            text = text[: found.start()] + rng.choice(HOSTILE_NUMBERS) + text[found.end():]
        elif edit == 1 and (registers := list(_REGISTER.finditer(text))):
            found = rng.choice(registers)
            kind, first = found.group(1), int(found.group(2))
            wider = rng.choice((f"{kind}[{first}:{first + rng.choice((1, 255, 999999))}]",
                                f"{kind}{rng.choice((255, 256, 1023, 1024, 99999999))}", f"{kind}[{first}:0]"))
            text = text[: found.start()] + wider + text[found.end():]
        elif edit == 2:
            del lines[where]
            text = "\n".join(lines)
        elif edit == 3:
            lines[where:where] = [lines[where]] * rng.choice((1, 2, 100))
            text = "\n".join(lines)
        elif edit == 4:
            other = rng.randrange(len(lines))
            lines[where], lines[other] = lines[other], lines[where]
            text = "\n".join(lines)
        elif edit == 5:
            lines.insert(where, rng.choice(rng.choice(others).split("\n")))
            text = "\n".join(lines)
        elif edit == 6:
            lines.insert(where, rng.choice(HOSTILE_LINES))
            text = "\n".join(lines)
        elif edit == 7:
            text = text[: rng.randrange(len(text) + 1)]
        elif text:
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice('[]:,()"\\;#.|-+*~\t\n\x00\xe9\u2028') + text[at + 1:]
    return text


def mutants(seed: int, count: int) -> Iterator[tuple[Path, str]]:
    """`count` mutants (the fixture each is made from, its text), the same for the same seed."""
    rng = random.Random(seed)
    files = fixture_files()
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    for _ in range(count):
        chosen = rng.randrange(len(files))
        yield files[chosen], mutate(texts[chosen], rng, texts)


class _OutOfCpuTime(BaseException):
    """The profiling timer ran out: the lint took more CPU time than allowed (a BaseException, so that no
    `except Exception` in the linter takes it)."""


def _out_of_cpu_time(signum: int, frame: object) -> None:
    raise _OutOfCpuTime


def lint_mutant(directory: Path, fixture: Path, text: str, cpu_seconds: float) -> str | None:
    """Lint `text` as the fixture's file (beside copies of the headers it may include) with `check` and with
    `report --format json`: None, or what went wrong."""
    from amdgpu_lint.cli import main

    path = directory / fixture.name
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        for argv in (["check", "--no-cache", "--no-config", "-j", "1", str(path)],
                     ["report", "--no-config", "--format", "json", str(path)]):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as errors:
                code = main(argv)
            if code not in (0, 1) or "Traceback" in errors.getvalue():
                return f"`{argv[0]}` exited {code}: {errors.getvalue()[-2000:]}"
    except _OutOfCpuTime:
        return f"more than {cpu_seconds} s of CPU time"
    except BaseException as error:  # noqa: BLE001 - what the fuzzer looks for
        return "".join(traceback.format_exception(error))[-3000:]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return None


def _child(seed: int, count: int, start: int, memory_bytes: int, cpu_seconds: float) -> None:
    """In the child: lint mutants `start` on, printing `start N` before and a JSON finding (or `ok N`) after each."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    signal.signal(signal.SIGPROF, _out_of_cpu_time)
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        for header in fixture_files():
            if header.suffix in (".inc", ".h"):
                shutil.copy(header, directory / header.name)
        for number, (fixture, text) in enumerate(mutants(seed, count)):
            if number < start:
                continue
            print(f"start {number}", flush=True)
            problem = lint_mutant(directory, fixture, text, cpu_seconds)
            print(json.dumps({"mutant": number, "fixture": fixture.name, "problem": problem}) if problem
                  else f"ok {number}", flush=True)


@dataclass
class Findings:
    """What a fuzz run found: the mutants linted, and each problem by mutant number."""

    linted: int
    problems: dict[int, str]


def fuzz(seed: int, count: int, memory_bytes: int = 1 << 30, cpu_seconds: float = 30.0) -> Findings:
    """Lint `count` mutants in child processes (a new one after one dies, from the next mutant on)."""
    problems: dict[int, str] = {}
    linted = start = 0
    while start < count:
        command = [sys.executable, __file__, "--child", "--seed", str(seed), "--count", str(count),
                   "--start", str(start), "--memory", str(memory_bytes), "--cpu", str(cpu_seconds)]
        child = subprocess.run(command, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
        started = None
        for line in child.stdout.splitlines():
            if line.startswith("start "):
                started = int(line.split()[1])
            elif line.startswith("ok "):
                linted += 1
            elif line.startswith("{"):
                finding = json.loads(line)
                problems[finding["mutant"]] = f"{finding['fixture']}: {finding['problem']}"
                linted += 1
        if child.returncode == 0:
            break
        if started is None:
            raise RuntimeError(f"the fuzzing child failed before any mutant: {child.stderr[-2000:]}")
        problems[started] = f"the child died (exit {child.returncode}): {child.stderr[-2000:]}"
        linted += 1
        start = started + 1
    return Findings(linted, problems)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--memory", type=int, default=1 << 30, help="address-space limit of a child, bytes")
    parser.add_argument("--cpu", type=float, default=30.0, help="CPU seconds one mutant may take")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.seed, args.count, args.start, args.memory, args.cpu)
        return 0
    found = fuzz(args.seed, args.count, args.memory, args.cpu)
    for number, problem in sorted(found.problems.items()):
        print(f"--- mutant {number}\n{problem}\n")
    print(f"{found.linted} mutants linted, {len(found.problems)} with a problem")
    return 1 if found.problems else 0


if __name__ == "__main__":
    sys.exit(main())
