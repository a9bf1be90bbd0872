"""Generate lint/isa/tables/operand_fields.json: what llvm-mc 22 takes inside structured operand fields, per processor.

For every processor of tables/mnemonics.jsonl, llvm-mc-22 is asked (its printer names what it knows, its parser
says what it takes):

- `swizzle`: whether `ds_swizzle_b32 ... offset:swizzle(FFT,0)` and `swizzle(ROTATE,0,0)` assemble;
- `hwreg`: the hardware register names it takes: every name it prints for `hwreg(0)` .. `hwreg(63)` on any
  processor, and each with `WAVE_` or `SQ_` added or removed after `HW_REG_`, tried on each;
- `sendmsg` / `sendmsg_rtn`: per message name printed anywhere (for `s_sendmsg N` and `s_sendmsg_rtn_b32 s0,
  sendmsg(N)`), whether it is supported, the operation names it takes (None: no operations), whether it
  needs one, the operations that take a stream and the operation numbers 0-7 it takes; and the largest
  numeric message id;
- `waitcnt`: the largest vmcnt/expcnt/lgkmcnt `s_waitcnt` takes, and the counter names it knows;
- `depctr`: the counters of `s_waitcnt_depctr` / `s_wait_alu` and the largest value of each;
- `delay_alu`: the value names of s_delay_alu's instid0/instid1 and instskip fields (those it prints, and the
  value-0 names `NO_DEP` and `SAME`, which it does not).

And once, per SOPK mnemonic with a 16-bit immediate (`s_movk_i32 s0, imm`; and s_waitcnt_depctr's and
s_wait_alu's raw immediate), the range of values it takes (`sopk`); and the scalar instructions of one
immediate operand that refuse a symbol there (`no_symbol`: `s_nop x`).

Usage: python scripts/gen_operand_fields.py [--llvm-mc llvm-mc-22]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from gen_mnemonic_verdicts import read_table

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "lint" / "isa" / "tables"
OUT = TABLES / "operand_fields.json"
LLVM_MC = "llvm-mc-22"
_ERROR = re.compile(r"^[^:\n]+:(\d+):\d+: error: (.*)$", re.MULTILINE)
_PRINTED = re.compile(r"^\s+(\S+)\s+(.*?)\s*(?:;.*)?$", re.MULTILINE)
_COUNTERS = ("vmcnt", "expcnt", "lgkmcnt", "vscnt", "vmcnt_sat", "expcnt_sat", "lgkmcnt_sat")
#: SOPK values tried: the edges of the signed and the unsigned 16-bit ranges
_SOPK_VALUES = (-32769, -32768, -1, 0, 32767, 65535, 65536)


class Probe:
    """llvm-mc on one processor."""

    def __init__(self, llvm_mc: str, mcpu: str, scratch: Path):
        self.llvm_mc, self.mcpu, self.scratch = llvm_mc, mcpu, scratch

    def errors(self, lines: list[str]) -> list[str | None]:
        """llvm-mc's error for each line (None: accepted)."""
        path = self.scratch / "probe.s"
        path.write_text("\n".join(lines) + "\n")
        run = subprocess.run([self.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={self.mcpu}", "-filetype=null",
                              str(path)], capture_output=True, text=True, check=False)
        found: dict[int, str] = {}
        for line, message in _ERROR.findall(run.stderr):
            found.setdefault(int(line), message)
        return [found.get(number) for number in range(1, len(lines) + 1)]

    def printed(self, lines: list[str]) -> list[str]:
        """The operand text llvm-mc prints back for each line it accepts."""
        path = self.scratch / "print.s"
        path.write_text("\n".join(lines) + "\n")
        run = subprocess.run([self.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={self.mcpu}", str(path)],
                             capture_output=True, text=True, check=False)
        return [operands for mnemonic, operands in _PRINTED.findall(run.stdout) if not mnemonic.startswith(".")]


def processors() -> list[str]:
    configurations = read_table()["configurations"]
    return list(dict.fromkeys(name.split(":")[0] for name in configurations))


def _names(texts: list[str], pattern: str) -> set[str]:
    return {name for text in texts for name in re.findall(pattern, text)}


def largest(probe: Probe, template: str, values: range) -> int:
    errors = probe.errors([template.format(value) for value in values])
    return max((value for value, error in zip(values, errors, strict=True) if error is None), default=-1)


def gather_names(probes: list[Probe]) -> dict[str, list[str]]:
    """Every name llvm-mc prints for a hardware register, message, operation or s_delay_alu value anywhere."""
    hwreg: set[str] = set()
    messages: set[str] = set()
    rtn: set[str] = set()
    operations: set[str] = set()
    delay: set[str] = set()
    depctr: set[str] = set()
    for probe in probes:
        depctr |= _names(probe.printed(["s_waitcnt_depctr 0", "s_wait_alu 0"]), r"depctr_\w+")
        hwreg |= _names(probe.printed([f"s_getreg_b32 s1, hwreg({i})" for i in range(64)]), r"HW_REG_\w+")
        sent = probe.printed([f"s_sendmsg {(op << 4) | msg}" for msg in range(256) for op in range(8)])
        messages |= _names(sent, r"\bMSG_\w+")
        operations |= _names(sent, r"\b(?:GS_OP|SYSMSG_OP)_\w+")
        rtn |= _names(probe.printed([f"s_sendmsg_rtn_b32 s0, sendmsg({i})" for i in range(256)]), r"\bMSG_\w+")
        delay |= _names(probe.printed([f"s_delay_alu {value}" for value in (*range(16), *range(0, 128, 16),
                                                                             *range(0, 2048, 128))]),
                        r"\((\w+)\)")
    # a register's other spellings llvm-mc may take but never prints: with and without WAVE_ / SQ_ after HW_REG_
    for name in list(hwreg):
        for short, long in (("HW_REG_", "HW_REG_WAVE_"), ("HW_REG_", "HW_REG_SQ_")):
            hwreg.add(name.replace(long, short) if name.startswith(long) else name.replace(short, long, 1))
    delay |= {"NO_DEP", "SAME"}  # the value-0 names, which the printer leaves out (rdna-hazards.md names them)
    return {"hwreg": sorted(hwreg), "sendmsg": sorted(messages), "sendmsg_rtn": sorted(rtn),
            "operations": sorted(operations), "delay_alu": sorted(delay), "depctr": sorted(depctr)}


def message_facts(probe: Probe, prefix: str, names: list[str], operations: list[str]) -> dict:
    """Per message name: None (not supported), or [operations or None, whether one is needed, stream operations]."""
    facts: dict[str, list | None] = {}
    bare = probe.errors([f"{prefix}sendmsg({name})" for name in names])
    with_op = probe.errors([f"{prefix}sendmsg({name}, 0)" for name in names])
    for name, error, op_error in zip(names, bare, with_op, strict=True):
        if error is not None and "not supported on this GPU" in error:
            facts[name] = None
            continue
        if op_error is not None and "does not support operations" in op_error:
            facts[name] = [None, False, [], []]
            continue
        taken = [op for op, found in zip(operations, probe.errors([f"{prefix}sendmsg({name}, {op})"
                                                                    for op in operations]), strict=True)
                 if found is None]
        streams = [op for op, found in zip(taken, probe.errors([f"{prefix}sendmsg({name}, {op}, 1)"
                                                                 for op in taken]), strict=True) if found is None]
        numbers = [op for op, found in enumerate(probe.errors([f"{prefix}sendmsg({name}, {op})" for op in range(8)]))
                   if found is None]
        facts[name] = [taken, error is not None and "missing message operation" in error, streams, numbers]
    return facts


def processor_facts(probe: Probe, names: dict[str, list[str]], mnemonics: set[str]) -> dict:
    swizzle = probe.errors(["ds_swizzle_b32 v5, v1 offset:swizzle(FFT,0)",
                            "ds_swizzle_b32 v5, v1 offset:swizzle(ROTATE,0,0)"])
    hwreg = probe.errors([f"s_getreg_b32 s1, hwreg({name})" for name in names["hwreg"]])
    facts: dict = {
        "swizzle_fft": swizzle[0] is None, "swizzle_rotate": swizzle[1] is None,
        "hwreg": [name for name, error in zip(names["hwreg"], hwreg, strict=True) if error is None],
        "sendmsg": message_facts(probe, "s_sendmsg ", names["sendmsg"], names["operations"]),
        "sendmsg_max": largest(probe, "s_sendmsg sendmsg({})", range(257)),
    }
    if "s_sendmsg_rtn_b32" in mnemonics:
        facts["sendmsg_rtn"] = message_facts(probe, "s_sendmsg_rtn_b32 s0, ", names["sendmsg_rtn"], [])
        facts["sendmsg_rtn_max"] = largest(probe, "s_sendmsg_rtn_b32 s0, sendmsg({})", range(257))
    if "s_waitcnt" in mnemonics:
        counters = probe.errors([f"s_waitcnt {name}(0)" for name in _COUNTERS])
        facts["waitcnt"] = {name: largest(probe, f"s_waitcnt {name}({{}})", range(130)) for name in _COUNTERS[:3]}
        facts["waitcnt_counters"] = [name for name, error in zip(_COUNTERS, counters, strict=True) if error is None]
    depctr = next((mnemonic for mnemonic in ("s_waitcnt_depctr", "s_wait_alu") if mnemonic in mnemonics), None)
    if depctr is not None:
        taken = [name for name, error in zip(names["depctr"], probe.errors([f"{depctr} {name}(0)"
                                                                             for name in names["depctr"]]), strict=True)
                 if error is None]
        facts["depctr"] = {name: largest(probe, f"{depctr} {name}({{}})", range(-1, 33)) for name in taken}
    if "s_delay_alu" in mnemonics:
        instid = probe.errors([f"s_delay_alu instid0({name})" for name in names["delay_alu"]])
        skip = probe.errors([f"s_delay_alu instskip({name})" for name in names["delay_alu"]])
        facts["delay_alu"] = {
            "instid": [name for name, error in zip(names["delay_alu"], instid, strict=True) if error is None],
            "instskip": [name for name, error in zip(names["delay_alu"], skip, strict=True) if error is None]}
    return facts


def sopk_ranges(llvm_mc: str, scratch: Path, table: dict) -> dict[str, list[int]]:
    """[lowest, highest] value each SOPK mnemonic with a 16-bit immediate takes, on the first processor that has it."""
    ranges: dict[str, list[int]] = {}
    configurations = table["configurations"]
    for mnemonic, verdicts in sorted(table["mnemonics"].items()):
        if not re.fullmatch(r"s_(movk|cmovk|addk|mulk|cmpk_\w+)_[iu]32|s_waitcnt_(vs|vm|exp|lgkm)cnt|s_waitcnt_depctr"
                            r"|s_wait_alu", mnemonic):
            continue
        pattern = table["patterns"][verdicts] if isinstance(verdicts, int) else verdicts
        where = next((configurations[i] for i, code in enumerate(pattern) if code == 0), None)
        if where is None:
            continue
        probe = Probe(llvm_mc, where.split(":")[0], scratch)
        destination = "null, " if mnemonic.startswith("s_waitcnt_") and not where.startswith("gfx10") else "s0, "
        if mnemonic in ("s_waitcnt_depctr", "s_wait_alu"):
            destination = ""  # its one operand is the immediate
        errors = probe.errors([f"{mnemonic} {destination}{value}" for value in _SOPK_VALUES])
        taken = [value for value, error in zip(_SOPK_VALUES, errors, strict=True) if error is None]
        if taken:
            ranges[mnemonic] = [min(taken), max(taken)]
    return ranges


def symbol_refusing(llvm_mc: str, scratch: Path, table: dict) -> list[str]:
    """Scalar instructions of one immediate operand (`s_nop 1`) that refuse a symbol there (`s_nop x`: no
    relocation fits), each tried on the first processor that has it."""
    configurations = table["configurations"]
    by_processor: dict[str, list[str]] = {}
    for mnemonic, verdicts in sorted(table["mnemonics"].items()):
        pattern = table["patterns"][verdicts] if isinstance(verdicts, int) else verdicts
        where = next((configurations[i] for i, code in enumerate(pattern) if code == 0), None)
        if mnemonic.startswith("s_") and where is not None:
            by_processor.setdefault(where.split(":")[0], []).append(mnemonic)
    refusing: list[str] = []
    for processor, mnemonics in by_processor.items():
        probe = Probe(llvm_mc, processor, scratch)
        numbers = probe.errors([f"{mnemonic} 1" for mnemonic in mnemonics])
        symbols = probe.errors([f"{mnemonic} undefined_symbol" for mnemonic in mnemonics])
        refusing += [mnemonic for mnemonic, number, symbol in zip(mnemonics, numbers, symbols, strict=True)
                     if number is None and symbol == "invalid operand for instruction"]
    return sorted(refusing)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default=LLVM_MC)
    args = parser.parse_args()
    table = read_table()
    configurations = table["configurations"]
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        probes = [Probe(args.llvm_mc, name, scratch) for name in processors()]
        names = gather_names(probes)
        rows: list[dict] = []
        where: dict[str, int] = {}
        for probe in probes:
            column = configurations.index(probe.mcpu)
            mnemonics = {m for m, v in table["mnemonics"].items()
                         if (table["patterns"][v] if isinstance(v, int) else v)[column] == 0}
            facts = processor_facts(probe, names, mnemonics)
            if facts not in rows:
                rows.append(facts)
            where[probe.mcpu] = rows.index(facts)
            print(f"{probe.mcpu}: row {where[probe.mcpu]}", file=sys.stderr)
        names["hwreg"] = sorted({name for row in rows for name in row["hwreg"]})  # the spellings that exist
        document = {"source": f"{args.llvm_mc} (scripts/gen_operand_fields.py)", "names": names,
                    "processors": where, "rows": rows, "sopk": sopk_ranges(args.llvm_mc, scratch, table),
                    "no_symbol": symbol_refusing(args.llvm_mc, scratch, table)}
    OUT.write_text(json.dumps(document, separators=(",", ":"), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
