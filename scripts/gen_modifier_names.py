"""Generate lint/isa/tables/modifier_names.json: the names llvm-mc 22 takes in a `name:value` modifier somewhere.

llvm-mc reads a modifier `name:value` by the instruction's mnemonic; a name no instruction of any processor has
is "not a valid operand." on every line (`v_add_f32 v0, v1, v2 foo:1`, `s_nop 0 foo:1`). The candidates are the
names our own tables and generators use (the modifiers of the instruction-syntax rows, the modifier probes of
gen_operand_verdicts, gen_memory_operands, gen_vop_forms and gen_matrix_operands, the DPP controls the linter
reads) and every `name:` llvm-mc's disassembler prints in the sweep of gen_mnemonic_verdicts on one processor of
each instruction set. A candidate is kept when llvm-mc 22 takes it on some line: an instance the disassembler
printed with it, assembled back on its processor, or a line of PROBES (for the names the disassembler prints
only away from their default value). The candidates no line took are listed as `refused` (syntax-page names
such as `omod`, `offset12`, and flags such as `clamp`, which llvm-mc takes only bare).

Usage: python scripts/gen_modifier_names.py [--llvm-mc llvm-mc-22] [--sweeps DIR]
(DIR keeps each processor's disassembled sweep as <processor>.txt, read back when present)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gen_matrix_operands import VALUES as MATRIX_VALUES
from gen_memory_operands import MODIFIERS as MEMORY_MODIFIERS
from gen_mnemonic_verdicts import DISASSEMBLED, TABLES, disassemble, write_sweep
from gen_mnemonic_verdicts import verdicts as assemble
from gen_operand_verdicts import _INSTANCE
from gen_operand_verdicts import MODIFIERS as OPERAND_MODIFIERS
from gen_vop_forms import CONTROL_VALUES

OUT = TABLES / "modifier_names.json"
_NOT_VALID = "not a valid operand"
#: a `name:` in printed operands (not inside a register range `v[0:1]`)
_NAMED = re.compile(r"(?:^|[\s,])([a-z_][a-z0-9_]*):(?=\S)")
_WMMA = "v_wmma_f32_16x16x128_f8f6f4 v[0:7], v[2:17], v[4:19], v[8:15]"
#: lines that take a modifier the sweeps print only away from its default value: name -> (processor, line), ...
PROBES = {
    "mul": [("gfx900", "v_add_f32_e64 v0, v1, v2 mul:2")],
    "div": [("gfx900", "v_add_f32_e64 v0, v1, v2 div:2")],
    "neg_lo": [("gfx90a", "v_pk_add_f16 v0, v1, v2 neg_lo:[1,0]")],
    "neg_hi": [("gfx90a", "v_pk_add_f16 v0, v1, v2 neg_hi:[1,0]")],
    "op_sel": [("gfx90a", "v_pk_add_f16 v0, v1, v2 op_sel:[1,0]")],
    "op_sel_hi": [("gfx90a", "v_pk_add_f16 v0, v1, v2 op_sel_hi:[1,0]")],
    "cbsz": [("gfx90a", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] cbsz:1")],
    "abid": [("gfx90a", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] cbsz:1 abid:1")],
    "blgp": [("gfx90a", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] blgp:1")],
    "index_key": [("gfx1200", "v_swmmac_f16_16x16x32_f16 v[0:3], v[4:7], v[8:15], v16 index_key:1")],
    **{name: [("gfx1250", f"{_WMMA} {name}:MATRIX_FMT_BF8")] for name in ("matrix_a_fmt", "matrix_b_fmt")},
    "quad_perm": [("gfx900", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf")],
    "row_mask": [("gfx900", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,2,3] row_mask:0x1 bank_mask:0xf")],
    "bank_mask": [("gfx900", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0x1")],
    "bound_ctrl": [("gfx900", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf bound_ctrl:1")],
    "fi": [("gfx1030", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf fi:1")],
    "dpp8": [("gfx1030", "v_mov_b32_dpp v0, v1 dpp8:[1,0,2,3,4,5,6,7]")],
    **{name: [("gfx900", f"v_mov_b32_dpp v0, v1 {name}:1 row_mask:0xf bank_mask:0xf")]
       for name in ("row_shl", "row_shr", "row_ror", "wave_shl", "wave_shr", "wave_rol", "wave_ror")},
    "row_bcast": [("gfx900", "v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xf bank_mask:0xf")],
    "row_share": [("gfx1030", "v_mov_b32_dpp v0, v1 row_share:1 row_mask:0xf bank_mask:0xf")],
    "row_xmask": [("gfx1030", "v_mov_b32_dpp v0, v1 row_xmask:1 row_mask:0xf bank_mask:0xf")],
    "row_newbcast": [("gfx90a", "v_mov_b32_dpp v0, v1 row_newbcast:1 row_mask:0xf bank_mask:0xf")],
    "dst_sel": [("gfx900", "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1")],
    "dst_unused": [("gfx900", "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_SEXT")],
    "src0_sel": [("gfx900", "v_mov_b32_sdwa v0, v1 src0_sel:WORD_1")],
    "src1_sel": [("gfx900", "v_add_f32_sdwa v0, v1, v2 src1_sel:WORD_1")],
    "offset": [("gfx900", "global_load_dword v0, v[0:1], off offset:4")],
    "offset0": [("gfx900", "ds_write2_b32 v0, v1, v2 offset0:1")],
    "offset1": [("gfx900", "ds_write2_b32 v0, v1, v2 offset1:1")],
    "format": [("gfx1030", "tbuffer_load_format_x v0, off, s[0:3], 0 format:[BUF_FMT_32_FLOAT]")],
    "dfmt": [("gfx900", "tbuffer_load_format_x v0, off, s[0:3], dfmt:4, 0")],
    "nfmt": [("gfx900", "tbuffer_load_format_x v0, off, s[0:3], dfmt:4, nfmt:7, 0")],
    "dmask": [("gfx900", "image_load v0, v[0:3], s[0:7] dmask:0x1")],
    "dim": [("gfx1030", "image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D")],
    "th": [("gfx1200", "global_load_b32 v0, v[0:1], off th:TH_LOAD_NT")],
    "scope": [("gfx1200", "global_load_b32 v0, v[0:1], off scope:SCOPE_SE")],
    "wait_exp": [("gfx1100", "v_interp_p10_f32 v0, v1, v2, v3 wait_exp:1")],
    "wait_vdst": [("gfx1100", "lds_param_load v0, attr0.x wait_vdst:1")],
    "wait_va_vdst": [("gfx1200", "ds_param_load v0, attr0.x wait_va_vdst:1")],
    "wait_vm_vsrc": [("gfx1200", "ds_param_load v0, attr0.x wait_vm_vsrc:1")],
    "bitop3": [("gfx950", "v_bitop3_b32 v0, v1, v2, v3 bitop3:0x12")],
}


def candidates() -> set[str]:
    """The names our tables and generators use for modifiers (syntax-page names and flags among them)."""
    from amdgpu_lint.isa.defuse import DPP_CONTROLS

    names = {*OPERAND_MODIFIERS, *MATRIX_VALUES, *CONTROL_VALUES, *DPP_CONTROLS, *PROBES}
    names.update(text.split(":")[0] for text in MEMORY_MODIFIERS)
    for page in TABLES.glob("gfx*.jsonl"):
        for line in page.read_text().splitlines():
            for row in json.loads(line)[1] if line.startswith("[") else ():
                names.update(row.get("mods", ()))
    return names


def printed(processor: str, sweep: Path, keep: Path | None, llvm_mc: str) -> dict[str, list[str]]:
    """name -> a few instances the disassembler prints with `name:` on the processor."""
    saved = keep / f"{processor}.txt" if keep else None
    if saved is not None and saved.exists():
        text = saved.read_text()
    else:
        text = disassemble(llvm_mc, processor, (), sweep)
        if saved is not None:
            saved.write_text(text)
    found: dict[str, list[str]] = {}
    for mnemonic, rest in _INSTANCE.findall(text):
        if "/*" in rest:
            continue
        for name in _NAMED.findall(rest):
            lines = found.setdefault(name, [])
            if len(lines) < 3:
                lines.append(f"{mnemonic} {rest}")
    return found


#: values a candidate is written with on the instruction-syntax rows that list it
VALUES = ("1", "[1,0,0]", "[1,0]", "[1,0,0,0]", "0")


def row_lines(processor: str, names: set[str], per_name: int = 4) -> list[tuple[str, str]]:
    """(name, line) for up to `per_name` mnemonics whose instruction-syntax row on the processor lists the name:
    the instance probe_set writes of the row (without its optional operands), then the name with each of VALUES."""
    from amdgpu_lint.isa import instruction_set
    from amdgpu_lint.model.targets import parse_target_id
    from probe_set import instances

    target = parse_target_id(processor)
    table = instruction_set(target)
    found: list[tuple[str, str]] = []
    chosen: dict[str, int] = {}
    for mnemonic in sorted(table):
        variants = table.variants(mnemonic)
        for name in sorted(names & set(variants[0].modifiers) if variants else ()):
            if chosen.get(name, 0) >= per_name:
                continue
            chosen[name] = chosen.get(name, 0) + 1
            base = instances(mnemonic, variants[0], target.default_wave_size)[0]
            found += [("", base), *((name, f"{base} {name}:{value}") for value in VALUES)]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--sweeps", type=Path)
    args = parser.parse_args()
    names = candidates()
    lines: dict[str, list[tuple[str, str]]] = {name: list(probes) for name, probes in PROBES.items()}
    with tempfile.TemporaryDirectory() as scratch:
        sweep = write_sweep(Path(scratch))
        processors = sorted(DISASSEMBLED)
        with ProcessPoolExecutor(2) as pool:
            sweeps = list(pool.map(printed, processors, [sweep] * len(processors), [args.sweeps] * len(processors),
                                   [args.llvm_mc] * len(processors)))
        for processor, found in zip(processors, sweeps, strict=True):
            for name, instances in found.items():
                names.add(name)
                lines.setdefault(name, []).extend((processor, line) for line in instances)
        known: set[str] = set()
        for processor in sorted({processor for probes in lines.values() for processor, _ in probes}):
            asked = [(name, line) for name, probes in lines.items() if name in names
                     for where, line in probes if where == processor]
            answers = assemble(args.llvm_mc, processor, (), [line for _, line in asked], Path(scratch))
            known.update(name for (name, _), answer in zip(asked, answers, strict=True) if not answer)
        for processor in sorted(DISASSEMBLED - {"gfx600", "gfx1250", "gfx1251"}):  # those with syntax tables
            asked = row_lines(processor, names - known)
            answers = assemble(args.llvm_mc, processor, (), [line for _, line in asked], Path(scratch))
            base_taken = False
            for (name, _), answer in zip(asked, answers, strict=True):
                if not name:
                    base_taken = not answer
                elif base_taken and _NOT_VALID not in answer:
                    known.add(name)  # taken, or read as the name and refused for its value or its place
    table = {"source": f"{args.llvm_mc} (modifier names probed; scripts/gen_modifier_names.py)",
             "names": sorted(known), "refused": sorted(names - known)}
    OUT.write_text(json.dumps(table, indent=0, separators=(",", ":")) + "\n")
    print(f"{len(known)} names taken, {len(names) - len(known)} candidates refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
