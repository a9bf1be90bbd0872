"""How often the linter's own checks (no assembler) agree with llvm-mc 22 line by line.

For each input file and target, llvm-mc-22 assembles the file and its `error:` lines are the lines it
rejects; the linter lints the same file with the same target and its parse-level error findings are
the lines we reject. Prints recall (rejected lines we flag) and false errors (lines we flag that
llvm-mc accepts), per target and in all.

    python scripts/assembler_agreement.py --mixed            # ../shared/conformance/llvm/MC-mixed, its RUN targets
    python scripts/assembler_agreement.py --mcpu gfx942 probes/*.s
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "conformance" / "llvm"
LLVM_MC = "llvm-mc-22"
PARSE_LEVEL = frozenset(("parse-error", "unknown-directive", "undefined-symbol", "unknown-target", "unknown-instruction",
                         "invalid-encoding", "register-budget"))
_ERROR = re.compile(r"^[^:\n]+:(\d+):\d+: error: (.*)$", re.MULTILINE)
#: -mattr features that are target-id features (the rest do not change what the linter reads)
_TARGET_FEATURES = {"wavefrontsize64", "wavefrontsize32", "xnack", "sramecc", "cumode", "tgsplit", "real-true16"}


def target_id(mcpu: str, mattr: list[str]) -> str:
    """The target id the linter takes for llvm-mc's -mcpu/-mattr."""
    suffix = []
    for feature in mattr:
        sign, name = feature[0], feature[1:]
        if name == "wavefrontsize32":
            name, sign = "wavefrontsize64", "-" if sign == "+" else "+"
        if name in _TARGET_FEATURES:
            suffix.append(f":{name}{sign}")
    return mcpu + "".join(suffix)


def llvm_mc_errors(path: Path, triple: str, mcpu: str, mattr: list[str]) -> dict[int, str]:
    command = [LLVM_MC, f"-triple={triple}", f"-mcpu={mcpu}", "-filetype=null", str(path)]
    if mattr:
        command.insert(3, f"-mattr={','.join(mattr)}")
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    return {int(line): message for line, message in _ERROR.findall(run.stderr)}


def linter_errors(path: Path, target: str) -> dict[int, str]:
    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend.options import BuildOptions
    from amdgpu_lint.rules import RULES

    result = lint_file(path, BuildOptions(mcpu=target), list(RULES), keep_module=False)
    found: dict[int, str] = {}
    for d in result.diagnostics:
        if d.name in PARSE_LEVEL and str(d.severity) in ("error", "Severity.ERROR"):
            found.setdefault(d.line, f"[{d.name}] {d.message}")
    return found


def mixed_cases() -> list[tuple[Path, str, str, list[str]]]:
    files = json.loads((CORPUS / "manifest.json").read_text())["files"]
    cases = []
    for entry in files:
        if entry["kind"] != "mc-mixed":
            continue
        seen = set()
        for run in entry["error_runs"] + entry["encoding_runs"]:
            key = (run["mcpu"] or "generic", tuple(run["mattr"]))
            if key not in seen:
                seen.add(key)
                cases.append((CORPUS / entry["local"], run["triple"], key[0], list(key[1])))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--mixed", action="store_true", help="LLVM's MC-mixed tests on their RUN lines' targets")
    parser.add_argument("--mcpu", action="append", default=[], help="target for the files (repeatable)")
    parser.add_argument("--show", type=int, default=0, help="print this many missed and false lines per case")
    args = parser.parse_args()
    cases = mixed_cases() if args.mixed else [(f, "amdgcn-amd-amdhsa", m, []) for f in args.files for m in args.mcpu]
    totals: Counter[str] = Counter()
    per_target: dict[str, Counter[str]] = defaultdict(Counter)
    missed_messages: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as scratch:
        for path, triple, mcpu, mattr in cases:
            target = target_id(mcpu, mattr)
            copy = Path(scratch) / path.name
            copy.write_text(path.read_text(encoding="utf-8", errors="replace"), encoding="utf-8")
            theirs = llvm_mc_errors(copy, triple, mcpu, mattr)
            try:
                ours = linter_errors(copy, target)
            except Exception as error:  # noqa: BLE001 - a crash is a result here
                print(f"CRASH {path.name} [{target}]: {error!r}")
                totals["crashes"] += 1
                continue
            hit = theirs.keys() & ours.keys()
            false = ours.keys() - theirs.keys()
            counts = per_target[mcpu]
            for counter in (counts, totals):
                counter["rejected"] += len(theirs)
                counter["hit"] += len(hit)
                counter["false"] += len(false)
            for line in theirs.keys() - ours.keys():
                missed_messages[re.sub(r"'[^']*'|\d+", "_", theirs[line])] += 1
            if args.show:
                lines = copy.read_text().split("\n")
                print(f"== {path.name} [{target}]: {len(hit)}/{len(theirs)} hit, {len(false)} false")
                for line in sorted(theirs.keys() - ours.keys())[: args.show]:
                    print(f"  missed {line}: {lines[line - 1].strip()}  -- {theirs[line]}")
                for line in sorted(false)[: args.show]:
                    print(f"  FALSE  {line}: {lines[line - 1].strip()}  -- {ours[line]}")
    for mcpu, counts in sorted(per_target.items()):
        print(f"{mcpu:>12}: {counts['hit']:6}/{counts['rejected']:<6} {_share(counts)}  false {counts['false']}")
    print(f"{'all':>12}: {totals['hit']:6}/{totals['rejected']:<6} {_share(totals)}  false {totals['false']}"
          f"  crashes {totals['crashes']}")
    print("most missed llvm-mc messages:")
    for message, count in missed_messages.most_common(25):
        print(f"  {count:6}  {message}")
    return 0


def _share(counts: Counter[str]) -> str:
    return f"{100 * counts['hit'] / counts['rejected']:5.1f}%" if counts["rejected"] else "   -  "


if __name__ == "__main__":
    sys.exit(main())
