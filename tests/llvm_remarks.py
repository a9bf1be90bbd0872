"""Compile IR in a separate process with LLVM's kernel-resource-usage remarks switched on.

Run as a script: reads [{"ir", "cpu"}] as JSON on stdin, writes [{"asm", "remarks"}] where
remarks maps each function name to its fields (TotalSGPRs, VGPRs, AGPRs, Occupancy, ...).
The remark option is global in LLVM, so it stays out of the test process.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

_FIELD = re.compile(r"remark: [^\n]*?:\s+([A-Za-z ]+?)(?: \[[^\]]*\])?: (\S+)$", re.M)


def parse_remarks(text: str) -> dict[str, dict[str, str]]:
    functions: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        if "Function Name: " in line:
            current = functions.setdefault(line.split("Function Name: ", 1)[1].strip(), {})
        elif current is not None:
            match = _FIELD.match(line)
            if match:
                current[match.group(1).strip()] = match.group(2)
    return functions


def compile_all(jobs: list[dict]) -> list[dict]:
    process = subprocess.run([sys.executable, __file__], input=json.dumps(jobs), capture_output=True, text=True, check=True)
    return json.loads(process.stdout)


def _main() -> None:
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.set_option("", "-pass-remarks-analysis=kernel-resource-usage")
    target = llvm.Target.from_triple("amdgcn-amd-amdhsa")
    results = []
    for job in json.load(sys.stdin):
        with tempfile.TemporaryFile(mode="w+") as captured:
            saved = os.dup(2)
            os.dup2(captured.fileno(), 2)
            try:
                machine = target.create_target_machine(cpu=job["cpu"], opt=2)
                assembly = machine.emit_assembly(llvm.parse_assembly(job["ir"]))
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            captured.seek(0)
            results.append({"asm": assembly, "remarks": parse_remarks(captured.read())})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    _main()
