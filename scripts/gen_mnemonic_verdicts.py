"""Generate lint/isa/tables/mnemonics.jsonl: what llvm-mc 22 says of each mnemonic on each processor and mode.

A bare mnemonic on a line of its own tells llvm-mc's verdict on the mnemonic apart from its operands:
"too few operands" (or no error) means the target has some form of it; "instruction not supported on
this GPU", "sdwa variant of this instruction is not supported", "instruction requires wavesize=32" and
the like reject the mnemonic itself, whatever its operands. This script

1. gathers candidate mnemonics: every instruction llvm-mc's disassembler prints for each processor when
   fed a sweep of opcode fields, every name of the assembler's own mnemonic table (read from the shared
   library llvm-mc loads; it holds the instructions no encoding prints, such as gfx6's `buffer_wbinvl1_sc`),
   the instruction-table and spelling mnemonics already in lint/isa/tables, and each of those with every
   encoding suffix (`_e32`, `_e64`, `_dpp`, `_sdwa`, `_e64_dpp`); the names are only candidates, every
   verdict comes from assembling them;
2. assembles them all, bare, for every processor LLVM 22 knows in each wave size (wave64 on gfx10 and later
   as well as the default), and records each line's first error;
3. keeps the mnemonics some configuration accepts and writes, per mnemonic, the index of its verdict
   pattern: one verdict per configuration (0: the target has it, else 1 + the index of llvm-mc's message);
4. does the same for special registers (`tba`, `ttmp12`, `null`, ...), each read by `s_mov_b32` and `s_mov_b64`.

The file (`render`): a header line with the configurations, the messages and their one-character codes, each
pattern as a string of one code per configuration (`.` where the target has the mnemonic) and the registers'
patterns; then a line per mnemonic, `["name",pattern]`, sorted by name, which lint/isa/mnemonics.py finds by a
binary search when it is first asked about it (decoding every row was 49M instructions of each start).
`read_table` gives the other generators the table as `generate` made it.

Usage: python scripts/gen_mnemonic_verdicts.py [--llvm-mc llvm-mc-22] [--check]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "lint" / "isa" / "tables"
OUT = TABLES / "mnemonics.jsonl"
#: every processor of LLVM 22 (its own names; the marketing names are aliases of these)
PROCESSORS = [
    "gfx600", "gfx601", "gfx602", "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705", "gfx801", "gfx802",
    "gfx803", "gfx805", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c",
    "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032", "gfx1033",
    "gfx1034", "gfx1035", "gfx1036", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152",
    "gfx1153", "gfx1200", "gfx1201", "gfx1250", "gfx1251",
    "gfx9-generic", "gfx9-4-generic", "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic",
]
#: special registers whose availability differs between processors (each probed as a 32- and a 64-bit source)
REGISTERS = (
    "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi", "flat_scratch", "flat_scratch_lo", "flat_scratch_hi",
    "xnack_mask", "xnack_mask_lo", "xnack_mask_hi", "null", "vccz", "execz", "scc", "lds_direct", "src_lds_direct",
    "src_vccz", "src_execz", "src_scc", "shared_base", "shared_limit", "private_base", "private_limit",
    "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit", "pops_exiting_wave_id",
    "src_pops_exiting_wave_id", "src_flat_scratch_base_lo", "src_flat_scratch_base_hi",
    *(f"ttmp{number}" for number in range(16)),
)
#: one processor of each instruction set (what the others add or lack is found by the bare probes of them all)
DISASSEMBLED = frozenset(("gfx600", "gfx700", "gfx801", "gfx802", "gfx810", "gfx900", "gfx904", "gfx906", "gfx908", "gfx90a",
                          "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1013", "gfx1030", "gfx1100", "gfx1150", "gfx1200",
                          "gfx1250", "gfx1251"))
SUFFIXES = ("_e32", "_e64", "_dpp", "_sdwa", "_e64_dpp")
#: llvm-mc's answers that mean the mnemonic exists on the target (its operands are what is wrong)
_EXISTS = re.compile(r"too few operands|invalid operand|not a valid operand|operands are not valid|expected|unknown token"
                     r"|missing register|unexpected token|invalid register")
_ERROR = re.compile(r"^[^:\n]+:(\d+):\d+: error: (.*)$", re.MULTILINE)
_PRINTED = re.compile(r"^\s+([a-z_][a-z0-9_.]*)", re.MULTILINE)
_NAME = re.compile(rb"[a-z][a-z0-9_.]*")
#: the codes of llvm-mc's messages in a pattern (`.`: the target has the mnemonic; as in the other probe tables)
_ALPHABET = "".join(chr(code) for code in range(33, 127) if chr(code) not in ".\"\\ ")
_STRING = re.compile(rb"(?<=\x00)(?:v|s|ds|buffer|tbuffer|flat|global|scratch|image|cluster|tensor)_[a-z0-9_]+(?=\x00)")


def configurations(llvm_mc: str) -> list[tuple[str, tuple[str, ...]]]:
    """(processor, -mattr) per processor and wave size llvm-mc knows, then each gfx11+ one with real-true16 flipped
    from llvm-mc's default (after the others, so that their positions do not move)."""
    found, extra_modes = [], []
    for processor in PROCESSORS:
        probe = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", "-filetype=null"],
                               input="", capture_output=True, text=True, check=False)
        if "not a recognized processor" in probe.stderr:
            continue
        found.append((processor, ()))
        flip = true16_flip(processor, Path(tempfile.gettempdir()), llvm_mc)
        wave64 = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", "-mattr=+wavefrontsize64",
                                 "-filetype=null"], input="v_cmp_eq_u32 vcc, v0, v1\n", capture_output=True, text=True,
                                check=False)
        if _major(processor) >= 10 and "error" not in wave64.stderr:
            found.append((processor, ("+wavefrontsize64",)))
        if flip is not None:
            extra_modes.append((processor, (flip,)))
            if _major(processor) >= 10 and "error" not in wave64.stderr:
                extra_modes.append((processor, ("+wavefrontsize64", flip)))
    return found + extra_modes


def true16_flip(processor: str, directory: Path, llvm_mc: str) -> str | None:
    """The -mattr that flips real-true16 from llvm-mc's default on a gfx11+ processor (on for gfx11, off for
    gfx12), or None before gfx11."""
    if _major(processor) < 11:
        return None
    path = directory / "true16.s"
    path.write_text("v_add_f16 v0.l, v1.l, v2.l\n")
    run = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", "-filetype=null", str(path)],
                         capture_output=True, text=True, check=False)
    return "-real-true16" if "error" not in run.stderr else "+real-true16"


def _major(processor: str) -> int:
    if processor.endswith("-generic"):
        return int(processor[3:].split("-")[0])
    return int(processor[3:-2])


def _sweep_words() -> list[int]:
    """First dwords covering the opcode fields of the 32- and 64-bit encodings."""
    # VOP2/VOPC/VOP3/VOP3P/SOP2/SOPK/SOPC/SOPP and memory; VOP3P's op_sel_hi bits set and clear
    words = [(high << 16) | low for high in range(1 << 16) for low in (0x0101, 0x4000)]
    words += [(top << 23) | (op << 8) for top in range(1 << 9) for op in range(1 << 8)]  # SOP1: op in [15:8]
    words += [(top << 25) | (op << 9) | 0x01 for top in range(1 << 7) for op in range(1 << 8)]  # VOP1: op in [16:9]
    for src0 in (0xF9, 0xFA, 0xE9):  # SDWA, DPP and DPP8 forms of VOP1/VOP2/VOPC
        words += [(0x3F << 25) | (op << 9) | src0 for op in range(1 << 8)]
        words += [(0x3E << 25) | (op << 17) | src0 for op in range(1 << 8)]
        words += [(op << 25) | src0 for op in range(1 << 6)]
    return words


def write_sweep(directory: Path) -> Path:
    """The sweep as llvm-mc's disassembler reads it: a line of bytes per candidate, two tails each."""
    path = directory / "sweep.txt"
    # second dwords: zeros (sources s0), a DPP/SDWA control word, and three aligned VGPR sources (v2, v4, v8) with
    # op_sel_hi set, for the encodings that take only VGPRs (MFMA, WMMA)
    vgpr_sources = (0x102 | 0x104 << 9 | 0x108 << 18 | 3 << 27).to_bytes(4, "little")
    tails = (bytes(12), bytes([0x01, 0x01, 0x00, 0x00, 0xFA, 0x00, 0xFF, 0x00]) + bytes(4), vgpr_sources + bytes(8))
    with path.open("w") as out:
        for word in _sweep_words():
            for tail in tails:
                out.write(" ".join(f"0x{byte:02x}" for byte in word.to_bytes(4, "little") + tail) + "\n")
    return path


def disassemble(llvm_mc: str, processor: str, mattr: tuple[str, ...], sweep: Path) -> str:
    """What llvm-mc's disassembler prints for the sweep on one configuration."""
    command = [llvm_mc, "--disassemble", "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", str(sweep)]
    command += [f"-mattr={','.join(mattr)}"] if mattr else []
    return subprocess.run(command, capture_output=True, text=True, check=False).stdout


def matcher_mnemonics(llvm_mc: str) -> set[str]:
    """The names of the assembler's mnemonic table, as they sit in the LLVM library llvm-mc loads (a run of
    length-prefixed lower-case names around `s_endpgm`), and the library's other strings named like instructions;
    empty where the library is not found."""
    linked = subprocess.run(["ldd", shutil.which(llvm_mc) or llvm_mc], capture_output=True, text=True, check=False)
    library = next((Path(path) for path in re.findall(r"=> (\S*libLLVM[^ ]*\.so[^ ]*)", linked.stdout)), None)
    if library is None:
        return set()
    data = library.read_bytes()
    names: set[str] = set()
    for anchor in re.finditer(rb"\x08s_endpgm(?=[\x01-\x40][a-z])", data):
        starts, position = {anchor.start()}, anchor.start() - 1
        while position > 0 and anchor.start() - position < 1 << 20 and min(starts) - position <= 64:
            length = data[position]  # a name ending right where a known one starts is one more of the run
            if 0 < length <= 64 and position + 1 + length in starts and _NAME.fullmatch(data[position + 1 : position + 1 + length]):
                starts.add(position)
            position -= 1
        position, run = min(starts), []
        while 0 < data[position] <= 64 and _NAME.fullmatch(data[position + 1 : position + 1 + data[position]]):
            run.append(data[position + 1 : position + 1 + data[position]].decode())
            position += 1 + data[position]
        if len(run) > len(names):
            names = set(run)
    # and the names the library holds as strings of their own (the assembler also takes the internal `_t16` and
    # `_fake16` names of gfx11+ true16 instructions)
    return names | {name.decode() for name in _STRING.findall(data)}


def table_mnemonics() -> set[str]:
    """Every mnemonic of the instruction-syntax tables (with their known additions) and the spellings."""
    from amdgpu_lint.isa import PAGES, page_mnemonics

    names = {name for page in PAGES for name in page_mnemonics(page)}
    spellings = json.loads((TABLES / "spellings.json").read_text())
    for group in spellings.get("groups", []):
        names.update(group)
    return names


def with_suffixes(names: set[str]) -> set[str]:
    bases = {re.sub(r"(_e32|_e64|_e64_dpp|_dpp|_sdwa)$", "", name) for name in names if name.startswith("v_")}
    return names | bases | {base + suffix for base in bases for suffix in SUFFIXES}


def verdicts(llvm_mc: str, processor: str, mattr: tuple[str, ...], names: list[str], directory: Path) -> list[str]:
    """llvm-mc's first error for each line (a bare mnemonic, or a probe) ('' where none)."""
    path = directory / "probe.s"
    path.write_text("\n".join(names) + "\n")
    command = [llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", "-filetype=null", str(path)]
    command += [f"-mattr={','.join(mattr)}"] if mattr else []
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    found = [""] * len(names)
    for line, message in _ERROR.findall(run.stderr):
        index = int(line) - 1
        if not found[index]:
            found[index] = message
    return found


def register_verdicts(llvm_mc: str, processor: str, mattr: tuple[str, ...], directory: Path) -> list[str]:
    """llvm-mc's message refusing each of REGISTERS on the configuration as both a 32- and a 64-bit source
    ('' where either is accepted)."""
    lines = [line for name in REGISTERS for line in (f"s_mov_b32 s0, {name}", f"s_mov_b64 s[0:1], {name}")]
    answers = verdicts(llvm_mc, processor, mattr, lines, directory)
    found = []
    for name, narrow, wide in zip(REGISTERS, answers[::2], answers[1::2], strict=True):
        refused = [answer for answer in (narrow, wide) if "not available on this GPU" in answer
                   or "not supported on this GPU" in answer]
        found.append(refused[0] if len(refused) == 2 else "")
    return found


def generate(llvm_mc: str) -> dict:
    configs = configurations(llvm_mc)
    names = table_mnemonics() | matcher_mnemonics(llvm_mc)
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        sweep = write_sweep(directory)
        for processor, mattr in configs:
            if not mattr and processor in DISASSEMBLED:  # the wave size and the stepping change no encoding's name
                names.update(_PRINTED.findall(disassemble(llvm_mc, processor, mattr, sweep)))
        candidates = sorted(with_suffixes({name for name in names if "." not in name}))
        columns = [verdicts(llvm_mc, processor, mattr, candidates, directory) for processor, mattr in configs]
        register_columns = [register_verdicts(llvm_mc, processor, mattr, directory) for processor, mattr in configs]
    messages: list[str] = []
    patterns: dict[str, int] = {}

    def pattern_of(answers: list[str]) -> int:
        codes = []
        for answer in answers:
            if not answer or _EXISTS.search(answer):
                codes.append(0)
                continue
            if answer not in messages:
                messages.append(answer)
            codes.append(1 + messages.index(answer))
        return patterns.setdefault(",".join(map(str, codes)), len(patterns))

    mnemonics: dict[str, int] = {}
    for row, name in enumerate(candidates):
        answers = [column[row] for column in columns]
        if all(answer == "invalid instruction" for answer in answers):
            continue  # no configuration has it: not an instruction at all
        mnemonics[name] = pattern_of(answers)
    registers = {name: pattern_of([column[row] for column in register_columns]) for row, name in enumerate(REGISTERS)}
    return {
        "source": f"{llvm_mc} (bare mnemonics; scripts/gen_mnemonic_verdicts.py)",
        "configurations": [processor + "".join(":" + feature[1:] + feature[0] for feature in mattr)
                           for processor, mattr in configs],
        "messages": messages,
        "patterns": [[int(code) for code in pattern.split(",")] for pattern in patterns],
        "mnemonics": mnemonics,
        "registers": registers,
    }


def render(table: dict) -> str:
    """The table as written to OUT (see the module's docstring)."""
    codes = _ALPHABET[: len(table["messages"])]
    assert len(codes) == len(table["messages"]), "more messages than codes"

    def coded(pattern: list[int]) -> str:
        return "".join(codes[code - 1] if code else "." for code in pattern)

    header = {"source": table["source"], "configurations": table["configurations"], "messages": table["messages"],
              "codes": codes, "patterns": [coded(pattern) for pattern in table["patterns"]],
              "registers": table["registers"]}
    lines = [json.dumps(header, separators=(",", ":"), sort_keys=True)]
    lines += [json.dumps([name, table["mnemonics"][name]], separators=(",", ":")) for name in sorted(table["mnemonics"])]
    return "\n".join(lines) + "\n"


def read_table(path: Path = OUT) -> dict:
    """The written table as `generate` returns it (patterns as lists of codes, the mnemonics as a dict)."""
    header, *lines = path.read_text().splitlines()
    table = json.loads(header)
    number = {code: index + 1 for index, code in enumerate(table.pop("codes"))}
    table["patterns"] = [[number.get(code, 0) for code in pattern] for pattern in table["patterns"]]
    table["mnemonics"] = dict(map(json.loads, lines))
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--check", action="store_true", help="compare with the committed table; exit 1 on a difference")
    args = parser.parse_args()
    table = generate(args.llvm_mc)
    text = render(table)
    if args.check:
        return 0 if OUT.read_text() == text else 1
    OUT.write_text(text)
    print(f"{len(table['mnemonics'])} mnemonics, {len(table['registers'])} registers, {len(table['patterns'])} patterns, "
          f"{len(table['configurations'])} configurations, {len(text)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
