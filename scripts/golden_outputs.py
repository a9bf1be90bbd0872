"""Golden digests of `check`'s output: every finding, in every format, on the bundled inputs and the
generated LLVM corpus (tests/test_identical_output.py compares the current code against them).

The inputs are the assembly files under fixtures/ (.s, .S, .asm) and fixtures/llvm/*.ll compiled by
llvmlite for every target of tests/test_llvm_corpus.py at -O0 and -O2. Each is linted in process from a
scratch workspace under fixed relative paths, once for all formats; the fixtures/golden/outputs.json
entry per input holds the exit code, a digest per finding (for the diff hint) and a digest per format.
Digests are the first 16 hex digits of SHA-256 of the output bytes, after normalising only what is not
a finding: the tool version (json, sarif), the workspace's absolute URI and the rules' prose (sarif).

Run `python scripts/golden_outputs.py` to compare, and `--write` ONLY when a change is meant to change
findings (a new rule, a fixed false positive); a speed change must leave every digest as it is.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # llvm_oracle (its compile cache) and the corpus's targets
GOLDEN = ROOT / "fixtures" / "golden" / "outputs.json"
FORMATS = ("text", "json", "sarif", "github", "gitlab")
ASSEMBLY_SUFFIXES = (".s", ".S", ".asm")
#: the directory linted as one input, also with worker processes and through the result cache
DIRECTORY_INPUT = "fixtures/examples"
_DIGEST_LENGTH = 16
_WORKSPACE_URI = "file:///workspace/"


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:_DIGEST_LENGTH]


def bundled_inputs() -> list[str]:
    """The assembly files under fixtures/, as repository-relative paths."""
    found = (p for p in (ROOT / "fixtures").rglob("*") if p.suffix in ASSEMBLY_SUFFIXES and p.is_file())
    return sorted(p.relative_to(ROOT).as_posix() for p in found)


def corpus_cases() -> list[tuple[Path, str, int]]:
    """(IR file, target, optimisation level) for each listing of tests/test_llvm_corpus.py."""
    from llvm_oracle import fixture_supports
    from test_llvm_corpus import TARGETS

    return [(ir, target, opt) for ir in sorted((ROOT / "fixtures" / "llvm").glob("*.ll"))
            for target in TARGETS if fixture_supports(ir.name, target) for opt in (0, 2)]


def prepare_workspace(directory: Path) -> list[str]:
    """Copy fixtures/ (with its includes) and write the compiled corpus into `directory`; the inputs,
    relative to it, bundled ones first. Compiles share llvm_oracle's in-process cache."""
    from llvm_oracle import compile_ir

    shutil.copytree(ROOT / "fixtures", directory / "fixtures", ignore=shutil.ignore_patterns("golden", "*.ll"))
    (directory / ".git").mkdir()  # the workspace is the repository root the CI formats name files from
    corpus = directory / "corpus"
    corpus.mkdir()
    names = []
    for ir, target, opt in corpus_cases():
        name = f"corpus/{ir.stem}_{target}_O{opt}.s"
        (directory / name).write_text(compile_ir(ir.read_text(), target, opt))
        names.append(name)
    return bundled_inputs() + names


def _without_version(text: str) -> str:
    """The tool's version (a top-level or SARIF driver field of its own line) replaced by a placeholder."""
    from amdgpu_lint import __version__

    field = rf'^( *"(?:version|semanticVersion)": ){re.escape(json.dumps(__version__))}(,?)$'
    return re.sub(field, r'\1"<version>"\2', text, flags=re.M)


_RULES_ARRAY = re.compile(r'^( *)"rules": \[\n.*?^\1\]', re.M | re.S)
_RULE_PROSE = ("shortDescription", "fullDescription", "help")


def _sarif_normalised(text: str) -> str:
    """SARIF with the version, the workspace's absolute URI and the rules' documentation text replaced;
    every other byte, layout included, as written."""
    text = _without_version(text).replace(json.dumps(Path.cwd().resolve().as_uri() + "/"), json.dumps(_WORKSPACE_URI))
    match = _RULES_ARRAY.search(text)
    if match is None:
        return text
    try:
        rules = json.loads(text[match.start() : match.end()].split(":", 1)[1])
    except json.JSONDecodeError:
        return text
    identities = [{key: value for key, value in rule.items() if key not in _RULE_PROSE} for rule in rules]
    return f"{text[: match.start()]}{match.group(1)}\"rules\": {json.dumps(identities)}{text[match.end() :]}"


def normalised(form: str, text: str) -> str:
    """What is compared of `check --format form`'s output: everything but the version, the workspace's
    absolute location and (sarif) the rules' documentation text."""
    if form == "json":
        return _without_version(text)
    if form == "sarif":
        return _sarif_normalised(text)
    return text


@dataclass(frozen=True)
class Output:
    """One `check` run: exit code, stdout and stderr."""

    code: int
    stdout: str
    stderr: str


def run_check(argv: list[str]) -> Output:
    """`amdgpu-lint check ...argv` in this process."""
    from amdgpu_lint.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(["check", "--no-config", *argv])
    return Output(code, stdout.getvalue(), stderr.getvalue())


def check_input(name: str, form: str, *options: str) -> Output:
    return run_check(["--no-cache", "--jobs", "1", *options, "--format", form, name])


def finding_digests(json_output: str) -> list[str]:
    """A digest per finding (all its fields, notes and fix) from `--format json` output."""
    return [_digest(json.dumps(d, sort_keys=True)) for d in json.loads(json_output)["diagnostics"]]


def headline(finding: dict) -> str:
    """The text format's first line of a `--format json` finding."""
    return (f"{finding['path']}:{finding['line']}:{finding['column']}: {finding['severity']}: "
            f"{finding['message']} [{finding['code']} {finding['name']}]")


def record(name: str) -> dict:
    """The golden entry of one input: exit code, finding digests, a digest per format."""
    outputs = {form: check_input(name, form) for form in FORMATS}
    json_output = outputs["json"]
    return {"exit": json_output.code, "findings": finding_digests(json_output.stdout), **format_digests(outputs)}


def format_digests(outputs: dict[str, Output]) -> dict[str, str]:
    return {form: _digest(normalised(form, output.stdout) + output.stderr) for form, output in outputs.items()}


@contextlib.contextmanager
def lint_once() -> Iterator[None]:
    """Lint each (paths, flags) once for all formats: memoise the driver's check_paths (where the CLI
    finds it) and build the argument parser once. Only repeated identical calls are answered from
    the memo, so the output of every run is still what `check` prints; calls with a result cache or
    worker processes are never memoised."""
    from amdgpu_lint import cli
    from amdgpu_lint.driver import session

    original = session.check_paths
    memo: dict[str, object] = {}

    @functools.wraps(original)
    def check_paths_once(*args, **kwargs):
        if kwargs.get("use_cache", True) or (kwargs.get("workers") or 0) > 1:
            return original(*args, **kwargs)
        key = repr((args, sorted(kwargs.items())))
        if key not in memo:
            memo[key] = original(*args, **kwargs)
        return memo[key]

    patched = [(session, "check_paths", check_paths_once)]
    if hasattr(cli, "check_paths"):
        patched.append((cli, "check_paths", check_paths_once))
    if hasattr(cli, "build_parser"):
        patched.append((cli, "build_parser", functools.lru_cache(maxsize=1)(cli.build_parser)))
    saved = [(module, attribute, getattr(module, attribute)) for module, attribute, _ in patched]
    try:
        for module, attribute, value in patched:
            setattr(module, attribute, value)
        yield
    finally:
        for module, attribute, value in saved:
            setattr(module, attribute, value)


@contextlib.contextmanager
def workspace() -> Iterator[list[str]]:
    """A scratch directory holding every input, made the working directory; yields the inputs."""
    previous = Path.cwd()
    # gitlab paths relative to the working directory; no GitHub job summary (and its mention in the notice)
    saved = {name: os.environ.pop(name) for name in ("CI_PROJECT_DIR", "GITHUB_STEP_SUMMARY", "AMDGPU_LINT_ASSEMBLER")
             if name in os.environ}
    os.environ["AMDGPU_LINT_ASSEMBLER"] = "none"  # the same findings with or without llvm-mc on PATH
    with tempfile.TemporaryDirectory(prefix="amdgpu-lint-golden-") as directory:
        inputs = prepare_workspace(Path(directory))
        os.chdir(directory)
        try:
            yield [*inputs, DIRECTORY_INPUT]
        finally:
            os.chdir(previous)
            os.environ.pop("AMDGPU_LINT_ASSEMBLER")
            os.environ.update(saved)


def compute() -> dict[str, dict]:
    """The golden entry of every input (run in a fresh workspace)."""
    with workspace() as inputs, lint_once():
        return {name: record(name) for name in inputs}


def differences(golden: dict[str, dict], current: dict[str, dict]) -> list[str]:
    """Human-readable lines for each input and format whose output changed."""
    lines = []
    for name in sorted(golden.keys() | current.keys()):
        old, new = golden.get(name), current.get(name)
        if old is None or new is None:
            lines.append(f"{name}: {'new input' if old is None else 'input gone'}")
            continue
        changed = [key for key in ("exit", *FORMATS) if old.get(key) != new.get(key)]
        if changed or old.get("findings") != new.get("findings"):
            lines.append(f"{name}: differs in {', '.join(changed) or 'findings'} "
                         f"({len(old.get('findings', []))} findings before, {len(new.get('findings', []))} now)")
    return lines


def first_differing_finding(name: str, golden_findings: list[str]) -> str:
    """Where `name`'s findings (run again) first part from the golden ones, aligned by digest, with the
    text format's headline of the finding concerned."""
    output = check_input(name, "json")
    findings = json.loads(output.stdout)["diagnostics"]
    matcher = difflib.SequenceMatcher(a=golden_findings, b=finding_digests(output.stdout), autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "delete":
            after = f", after: {headline(findings[new_start - 1])}" if new_start else " (the first)"
            return f"golden finding #{old_start + 1} is gone{after}"
        verb = "new" if tag == "insert" else f"changed (golden #{old_start + 1})"
        return f"finding #{new_start + 1} is {verb}: {headline(findings[new_start])}"
    return "every finding is unchanged; only a format's rendering differs"


def load_golden() -> dict[str, dict]:
    return json.loads(GOLDEN.read_text())["inputs"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the current outputs as the golden ones")
    args = parser.parse_args()
    current = compute()
    if args.write:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        note = "written by scripts/golden_outputs.py --write; compared by tests/test_identical_output.py"
        GOLDEN.write_text(json.dumps({"about": note, "inputs": current}, indent=1) + "\n")
        print(f"wrote {GOLDEN.relative_to(ROOT)}: {len(current)} inputs, "
              f"{sum(len(entry['findings']) for entry in current.values())} findings")
        return 0
    changed = differences(load_golden(), current)
    print("\n".join(changed) if changed else f"all {len(current)} inputs identical in {', '.join(FORMATS)}")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
