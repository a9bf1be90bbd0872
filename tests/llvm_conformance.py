"""LLVM's own regression tests as a peer's test suite (../shared/conformance/llvm, not copied here).

`assembler_cases()` gives every positive MC and AsmParser file once per distinct target of its
positive RUN lines (the part a split file's RUN line assembles), with the RUN line's --defsym
and -I; `codegen_cases()` gives every CodeGen IR file once per -mcpu/-mattr of its RUN lines.
`lint_case()` lints one and returns its parse-level findings; `compile_codegen()` compiles the IR.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from amdgpu_lint.driver.linter import lint_file
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "conformance" / "llvm"
#: What llvm-mc accepting a file rules out.
PARSE_LEVEL = frozenset(("parse-error", "unknown-directive", "undefined-symbol", "unknown-target", "unknown-instruction",
                         "invalid-encoding"))
_POSITIVE_PART = re.compile(r"^#\s*RUN:\s*llvm-mc\b.*?(\S+\.s)\b", re.M)
_SPLIT = re.compile(r"^#--- (\S+)\n", re.M)


@dataclass(frozen=True)
class Case:
    local: str  # path inside the corpus
    text: str
    name: str  # the file name the text is linted under
    mcpu: str | None
    mattr: tuple[str, ...] = ()
    defsyms: tuple[tuple[str, int], ...] = ()
    include_dirs: tuple[str, ...] = ()
    amdgpu: bool = True  # False for AsmParser's x86 RUN lines: only the preprocessor is judged

    def __str__(self) -> str:
        return f"{self.local}[{self.mcpu or 'x86'}{''.join(self.mattr)}]"


@dataclass
class Outcome:
    case: Case
    findings: list[tuple[str, int, str]] = field(default_factory=list)


def available() -> bool:
    return (CORPUS / "manifest.json").is_file()


def _manifest() -> list[dict]:
    return json.loads((CORPUS / "manifest.json").read_text())["files"]


def _parts(path: Path, text: str) -> list[tuple[str, str]]:
    """The inputs a file's positive RUN lines assemble: the whole file, or named split-file parts."""
    pieces = _SPLIT.split(text)
    if len(pieces) == 1:
        return [(path.name, text)]
    wanted = set(_POSITIVE_PART.findall(text))
    named = dict(zip(pieces[1::2], pieces[2::2], strict=True))
    return [(name, named[name]) for name in sorted(wanted) if name in named]


def _mcpu(run: dict) -> str | None:
    if not run["triple"].startswith("amdgcn"):
        return None
    return run["mcpu"] or ("generic-hsa" if "amdhsa" in run["triple"] else "generic")


def assembler_cases() -> list[Case]:
    cases = []
    for entry in _manifest():
        if entry["kind"] not in ("mc-positive", "asmparser-positive"):
            continue
        path = CORPUS / entry["local"]
        text = path.read_text(encoding="utf-8", errors="replace")
        seen = set()
        for run in entry["positive_runs"]:
            defsyms = tuple((m.group(1), int(m.group(2), 0)) for flag in run["flags"]
                            for m in [re.match(r"--defsym (\w+)=(\S+)", flag)] if m)
            includes = (str(path.parent),) if any(flag.startswith("-I") for flag in run["flags"]) else ()
            key = (_mcpu(run), tuple(run["mattr"]), defsyms, includes)
            if key in seen:
                continue
            seen.add(key)
            for name, part in _parts(path, text):
                cases.append(Case(entry["local"], part, name, key[0], key[1], defsyms, includes,
                                  amdgpu=run["triple"].startswith("amdgcn")))
    return cases


def codegen_cases() -> list[tuple[str, str, str, str]]:
    """(corpus path, triple, -mcpu, -mattr) for every CodeGen file and distinct target of its RUN lines."""
    cases = []
    for entry in _manifest():
        if entry["kind"] != "codegen":
            continue
        seen = set()
        for run in entry["runs"]:
            key = (_full_triple(run["triple"]), run["mcpu"] or "generic", ",".join(run["mattr"]))
            if key not in seen:
                seen.add(key)
                cases.append((entry["local"], *key))
    return cases


def _full_triple(triple: str) -> str:
    arch, _, rest = triple.partition("-")
    parts = rest.split("-") if rest else []
    if len(parts) == 1:  # amdgcn-amdhsa
        parts = ["unknown", parts[0]]
    parts += [""] * (2 - len(parts))
    return "-".join([arch, parts[0] or "unknown", parts[1] or "unknown"])


_WORKER = """
import json, sys
import llvmlite.binding as llvm
llvm.initialize_all_targets(); llvm.initialize_all_asmprinters()
for line in sys.stdin:
    path, triple, cpu, features = json.loads(line)
    try:
        module = llvm.parse_assembly(open(path, encoding="utf-8").read())
        module.triple = triple
        machine = llvm.Target.from_triple(triple).create_target_machine(cpu=cpu, features=features, opt=2)
        print(json.dumps({"asm": machine.emit_assembly(module)}), flush=True)
    except Exception as error:
        print(json.dumps({"error": str(error).splitlines()[0][:200]}), flush=True)
"""


def compile_codegen(cases: list[tuple[str, str, str, str]], cache: Path) -> dict[tuple, str | None]:
    """LLVM 22's assembly for each case (None where LLVM refuses the IR for that target), from
    one llvmlite worker process (restarted past any input that makes LLVM abort), cached on disk."""
    import hashlib
    import subprocess
    import sys

    results: dict[tuple, str | None] = {}
    pending = []
    for case in cases:
        digest = hashlib.sha256(json.dumps([(CORPUS / case[0]).read_text(errors="replace"), *case[1:]]).encode()).hexdigest()
        stored = cache / f"{digest}.json"
        if stored.is_file():
            results[case] = json.loads(stored.read_text()).get("asm")
        else:
            pending.append((case, stored))
    while pending:
        worker = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        try:
            while pending:
                case, stored = pending[0]
                worker.stdin.write(json.dumps([str(CORPUS / case[0]), *case[1:]]) + "\n")
                worker.stdin.flush()
                answer = worker.stdout.readline()
                pending.pop(0)
                document = json.loads(answer) if answer else {"error": "LLVM aborted"}
                stored.parent.mkdir(parents=True, exist_ok=True)
                stored.write_text(json.dumps(document))
                results[case] = document.get("asm")
                if not answer:
                    break  # the worker died on this input: start a new one for the rest
        finally:
            worker.kill()
            worker.wait()
    return results


def lint_case(case: Case, directory: Path) -> Outcome:
    path = directory / case.name
    path.write_text(case.text, encoding="utf-8")
    options = BuildOptions(mcpu=case.mcpu, include_dirs=list(case.include_dirs), defsyms=dict(case.defsyms))
    result = lint_file(path, options, list(RULES))
    findings = [(d.name, d.line, d.message) for d in result.diagnostics if d.name in PARSE_LEVEL]
    if not case.amdgpu:
        # x86 instructions and the missing AMDGPU target are not ours to judge: the preprocessor is
        findings = [f for f in findings if f[0] not in ("unknown-target", "unknown-instruction")
                    and not (f[2].startswith("unexpected") and _is_instruction_line(case.text, f[1]))]
    return Outcome(case, findings)


def _is_instruction_line(text: str, line: int) -> bool:
    """Whether source line `line` is an instruction statement (not a directive, label or macro)."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return False
    statement = re.sub(r"^\s*([\w.$]+:\s*)*", "", lines[line - 1]).strip()
    return bool(statement) and not statement.startswith((".", "#"))



LLVM_MC = "llvm-mc-22"
_PRINTED_INSTRUCTION = re.compile(r"^\t([a-z_][\w.]*)(?:\s|$)")
_ENCODING_SUFFIX = re.compile(r"(_e32|_e64|_e64_dpp|_dpp|_sdwa)$")


def _normal(mnemonic: str) -> str:
    """Encoding suffixes dropped and every spelling of an instruction folded into one name."""
    from amdgpu_lint.isa.renames import printed_name

    return printed_name(_ENCODING_SUFFIX.sub("", mnemonic))


def llvm_mc_mnemonics(case: Case, directory: Path) -> list[str] | None:
    """The instruction stream llvm-mc 22 prints for the case (after every macro, loop and
    conditional), encoding suffixes dropped; None where llvm-mc is missing or refuses the file."""
    import shutil
    import subprocess

    if shutil.which(LLVM_MC) is None or not case.amdgpu:
        return None
    path = directory / case.name
    path.write_text(case.text, encoding="utf-8")
    command = [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={case.mcpu}"]
    command += [f"-mattr={','.join(case.mattr)}"] if case.mattr else []
    command += [f"--defsym={name}={value}" for name, value in case.defsyms]
    command += [f"-I{directory}" for directory in case.include_dirs] + [str(path)]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        return None
    stream = []
    for line in run.stdout.splitlines():
        match = _PRINTED_INSTRUCTION.match(line)
        if match and not match.group(1).startswith("."):
            stream.append(_normal(match.group(1)))
            second = re.search(r"::\s*([a-z_][\w.]*)", line)  # the other half of a VOPD pair
            if second:
                stream.append(_normal(second.group(1)))
    return stream


def our_mnemonics(case: Case, directory: Path) -> list[str]:
    """Our instruction stream for the case, each mnemonic as llvm-mc prints it (other accepted
    spellings read as their row), encoding suffixes dropped."""
    from amdgpu_lint.frontend.builder import build_module
    from amdgpu_lint.frontend.source import read_source
    from amdgpu_lint.isa import instruction_set

    path = directory / case.name
    path.write_text(case.text, encoding="utf-8")
    options = BuildOptions(mcpu=case.mcpu, include_dirs=list(case.include_dirs), defsyms=dict(case.defsyms))
    module = build_module(read_source(path), options)
    spellings = instruction_set(module.target).printed_names() if module.target else {}
    stream = []
    for kernel in module.kernels:
        for instruction in kernel.instructions:
            for half in (instruction, instruction.pair) if instruction.pair else (instruction,):
                stream.append(_normal(spellings.get(half.mnemonic, half.mnemonic)))
    return stream
