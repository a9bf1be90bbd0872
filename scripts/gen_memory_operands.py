"""Generate lint/isa/tables/memory.jsonl: what llvm-mc 22 refuses in memory instructions, per processor.

For every processor of tables/mnemonics.jsonl and every memory mnemonic it has (MUBUF `buffer_*`, MTBUF
`tbuffer_*`, MIMG `image_*`, SMEM, FLAT `flat_*`/`global_*`/`scratch_*`, DS `ds_*`), the script finds an instance
llvm-mc assembles by trying operand shapes of the encoding (data widths, address forms), then probes it:

- each modifier of MODIFIERS appended, alone and with a few others (`lds tfe`) and twice, in every shape the
  modifier may ask for (`tfe` one more data dword, `d16` half, `lds` no data, `addr64` a 64-bit address, an atomic's
  returning form for `glc`): a modifier is refused where every shape is, with the message of the first;
- `offset:` (and the SMEM offset operand, `offset0:`/`offset1:`) at the boundaries of every width up to 32 bits,
  positive and negative: the accepted range and llvm-mc's message above and below it;
- a constant soffset (MUBUF/MTBUF): integer and float inline constants and literals;
- MIMG: the data width llvm-mc wants for each dmask size with and without `tfe` and `d16`, the address widths
  it takes for each `dim:` with and without `a16`, and whether `dim:` may be left out;
- MTBUF `format:`/`dfmt:`/`nfmt:` ranges, and which format names (as llvm-mc prints them) and pairs of them it takes.

Processors with the same mnemonics (tables/mnemonics.jsonl) that answer FINGERPRINT alike are probed once.
Each line of the table is `["mnemonic", [[facts, [processor index, ...]], ...]]`; the header lists the
processors, the processor index of each configuration of tables/mnemonics.jsonl, the messages (facts name them
by index) and the MTBUF format facts per processor. Facts never come from LLVM's tests.

Usage: python scripts/gen_memory_operands.py [--llvm-mc llvm-mc-22] [--only gfx900,...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from gen_mnemonic_verdicts import TABLES, read_table
from gen_mnemonic_verdicts import verdicts as assemble

OUT = TABLES / "memory.jsonl"
FAMILIES = (("tbuffer_", "mtbuf"), ("buffer_", "mubuf"), ("image_", "mimg"), ("flat_", "flat"), ("global_", "global"),
            ("scratch_", "scratch"), ("ds_", "ds"), ("s_load_", "smem"), ("s_buffer_", "smem"), ("s_store_", "smem"),
            ("s_scratch_", "smem"), ("s_atomic_", "smem"), ("s_atc_probe", "smem"), ("s_dcache_discard", "smem"))
#: modifiers probed, as written
MODIFIERS = ("glc", "slc", "dlc", "scc", "nt", "sc0", "sc1", "tfe", "lwe", "d16", "a16", "r128", "unorm", "da", "gds",
             "lds", "idxen", "offen", "addr64", "nv", "offset:0", "th:TH_LOAD_NT", "scope:SCOPE_SE",
             "dim:SQ_RSRC_IMG_1D", "dmask:0x1")
#: modifiers probed in pairs (each pair where both are taken alone)
PAIRED = ("tfe", "lds", "lwe", "d16", "a16", "glc", "dlc", "r128", "da", "offen", "idxen", "addr64")
#: offset probes: 0 and +-2^k, +-2^k - 1 (k < 33)
VALUES = sorted({0, *(sign * (1 << k) + delta for k in range(33) for sign in (1, -1) for delta in (0, -1))})
#: soffset constants: class -> two values of it
CONSTANTS = {"int": ("1", "64"), "negative": ("-1", "-16"), "literal": ("65", "0x1234"), "float": ("0.5", "-4.0"),
             "inv2pi": ("0.15915494", "0.15915494309189535"), "float_literal": ("3.0", "0.1")}
#: answers that refuse a modifier's name, not the value probed with it
NAMED = ("not a valid operand", "not supported")
#: answers about the operands' shape, which another written shape may not draw
SHAPED = ("must not use", "size does not match", "operands are not valid", "too few operands")
DIMS = ("1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY")
_PRINTED_FORMAT = re.compile(r"format:\[([A-Z0-9_,]+)\]")


def family(mnemonic: str) -> str | None:
    return next((name for prefix, name in FAMILIES if mnemonic.startswith(prefix)), None)


def vregs(first: int, count: int) -> str:
    return f"v{first}" if count == 1 else f"v[{first}:{first + count - 1}]"


def sregs(first: int, count: int) -> str:
    return f"s{first}" if count == 1 else f"s[{first}:{first + count - 1}]"


class Shape:
    """An instance's operands: data slots (first register, width), the address slot, the rest fixed."""

    def __init__(self, parts: list[object], tail: str = ""):
        self.parts = parts  # str, or ("data", first, width), ("addr", text), ("sdata", first, width)
        self.tail = tail

    def text(self, widths: dict[int, int | None] | None = None, address: str | None = None,
             extra_data: int | None = None, tail: bool = True) -> str:
        out = []
        if extra_data is not None:
            out.append(vregs(40, extra_data))
        for index, part in enumerate(self.parts):
            if isinstance(part, tuple) and part[0] == "data":
                width = part[2] if widths is None or index not in widths else widths[index]
                if width is None:
                    continue
                out.append(vregs(part[1], width))
            elif isinstance(part, tuple) and part[0] == "addr":
                out.append(address if address is not None else part[1])
            elif isinstance(part, tuple):
                out.append(sregs(part[1], part[2]))
            else:
                out.append(part)
        return ", ".join(out) + (f" {self.tail}" if self.tail and tail else "")

    def data_slots(self) -> list[tuple[int, int]]:
        return [(index, part[2]) for index, part in enumerate(self.parts)
                if isinstance(part, tuple) and part[0] == "data"]

    def has_address(self) -> bool:
        return any(isinstance(part, tuple) and part[0] == "addr" for part in self.parts)


def D(first: int, width: int) -> tuple[str, int, int]:
    return ("data", first, width)


def candidates(mnemonic: str, kind: str, major: int) -> list[Shape]:
    """Operand shapes to try for `mnemonic`, most likely first."""
    widths = (1, 2, 3, 4, 5, 8)
    found: list[Shape] = [Shape([])]
    if kind in ("mubuf", "mtbuf"):
        found += [Shape([D(0, w), ("addr", "off"), "s[8:11]", "s2"]) for w in widths]
        found += [Shape(["s[8:11]", "s2"]), Shape(["s[8:11]", "s2"], "lds"), Shape([("addr", "off"), "s[8:11]", "s2"], "lds")]
    elif kind == "mimg":
        sampler = any(word in mnemonic for word in ("sample", "gather", "get_lod"))
        dims = ("",) if major < 10 else (" dim:SQ_RSRC_IMG_1D", " dim:SQ_RSRC_IMG_2D_MSAA", " dim:SQ_RSRC_IMG_2D")
        for data, mask in ((1, 1), (4, 1), (2, 3), (2, 1), (4, 15)):
            for address in range(1, 17):
                for dim in dims:
                    parts: list[object] = [D(0, data), ("addr", vregs(20, address)), "s[8:15]"]
                    found.append(Shape(parts + (["s[16:19]"] if sampler else []), f"dmask:0x{mask:x}{dim}"))
        if "bvh" in mnemonic:
            found += [Shape([D(0, 4), ("addr", vregs(20, address)), "s[8:11]"]) for address in range(4, 17)]
    elif kind == "smem":
        for base in (2, 4):
            found += [Shape([("sdata", 0, w), sregs(8, base), "0x0"]) for w in (1, 2, 3, 4, 8, 16)]
            found += [Shape(["0x0", sregs(8, base), "0x0"]), Shape([sregs(8, base), "0x0"])]
    elif kind == "flat":
        for w in widths:
            found += [Shape([D(0, w), ("addr", "v[20:21]")]), Shape([("addr", "v[20:21]"), D(10, w)]),
                      Shape([D(0, w), ("addr", "v[20:21]"), D(10, w)])]
    elif kind == "global":
        found += [Shape([("addr", "v[20:21]"), "off"]), Shape([("addr", "v20"), "s[8:9]"]), Shape(["off"])]
        for w in widths:
            found += [Shape([D(0, w), ("addr", "v[20:21]"), "off"]), Shape([("addr", "v[20:21]"), D(10, w), "off"]),
                      Shape([D(0, w), ("addr", "v[20:21]"), D(10, w), "off"]),
                      Shape([D(0, w), ("addr", "v20"), "s[8:9]"]), Shape([("addr", "v20"), D(10, w), "s[8:9]"])]
    elif kind == "scratch":
        found += [Shape([("addr", "v20"), "off"]), Shape([("addr", "off"), "s2"])]
        for w in widths:
            found += [Shape([D(0, w), ("addr", "v20"), "off"]), Shape([("addr", "v20"), D(10, w), "off"]),
                      Shape([D(0, w), ("addr", "off"), "s2"]), Shape([("addr", "off"), D(10, w), "s2"])]
    elif kind == "ds":
        found += [Shape([("addr", "v20")]), Shape([("addr", "v20")], "gds"), Shape([], "gds")]
        for w in widths:
            found += [Shape([D(0, w), ("addr", "v20")]), Shape([("addr", "v20"), D(10, w)]),
                      Shape([("addr", "v20"), D(10, w), D(30, w)]), Shape([D(0, w), ("addr", "v20"), D(10, w)]),
                      Shape([D(0, w), ("addr", "v20"), D(10, w), D(30, w)]), Shape([D(0, w)]),
                      Shape([D(0, w), ("addr", "v20")], "gds")]
    return found


def variants(shape: Shape, kind: str, mnemonic: str, names: tuple[str, ...]) -> list[str]:
    """The instance with `names` appended, in each shape they may ask for."""
    slots = shape.data_slots()
    first = slots[0] if slots else None
    data_options: list[int | None] = [first[1]] if first else [None]
    if first is not None and kind in ("mubuf", "mtbuf", "mimg", "flat", "global", "scratch"):
        width = first[1]
        options: set[int | None] = {width}
        if "tfe" in names or "lwe" in names:
            options.add(width + 1)
        if "d16" in names:
            half = (width + 1) // 2
            options |= {half, half + 1, width + 1}
        if "lds" in names:
            options.add(None)
        data_options = sorted(options, key=lambda value: -1 if value is None else value)
    addresses: list[str | None] = [None]
    if shape.has_address() and kind in ("mubuf", "mtbuf"):
        if "offen" in names or "idxen" in names:
            addresses.append("v20")
        if "addr64" in names or ("offen" in names and "idxen" in names):
            addresses.append("v[20:21]")
    if "a16" in names and kind == "mimg":  # packed coordinates: no more dwords than without
        widest = next((int(part[1].split(":")[1][:-1]) - 19 if ":" in part[1] else 1) for part in shape.parts
                      if isinstance(part, tuple) and part[0] == "addr")
        addresses += [vregs(20, width) for width in range(1, widest + 1)]
    extras: list[int | None] = [None]
    if "atomic" in mnemonic and kind in ("flat", "global", "scratch") and first is not None:
        extras += sorted({first[1], (first[1] + 1) // 2})  # the returning form (cmpswap returns half its data)
    lines = []
    for data, address, extra in itertools.product(data_options, addresses, extras):
        widths = {first[0]: data} if first is not None else None
        text = shape.text(widths, address, extra)
        lines.append(f"{mnemonic} {text} {' '.join(names)}".replace("  ", " "))
        if shape.tail:  # the modifiers before the instance's own (`offset:4 gds`: llvm-mc reads some in order)
            lines.append(f"{mnemonic} {shape.text(widths, address, extra, tail=False)} {' '.join(names)} "
                         f"{shape.tail}".replace("  ", " "))
    return lines


def smem_offset_shape(shape: Shape) -> str:
    """An SMEM instance with its offset operand replaced by s2 (where `offset:` may follow)."""
    return shape.text().replace(", 0x0", ", s2") if shape.text().endswith("0x0") else shape.text()


class Prober:
    """Batches probe lines for one processor and hands back llvm-mc's first message for each."""

    def __init__(self, llvm_mc: str, processor: str, directory: Path):
        self.llvm_mc, self.processor, self.directory = llvm_mc, processor, directory

    def run(self, lines: list[str]) -> list[str]:
        answers: list[str] = []
        for start in range(0, len(lines), 40000):
            answers += assemble(self.llvm_mc, self.processor, (), lines[start:start + 40000], self.directory)
        return answers


def major(processor: str) -> int:
    if processor.endswith("-generic"):
        return int(processor[3:].split("-")[0])
    return int(processor[3:-2])


def base_shapes(prober: Prober, names: list[str]) -> dict[str, Shape]:
    """The first shape of each mnemonic llvm-mc assembles."""
    lines, owners = [], []
    for name in names:
        for shape in candidates(name, family(name) or "", major(prober.processor)):
            lines.append(f"{name} {shape.text()}".rstrip())
            owners.append((name, shape))
    found: dict[str, Shape] = {}
    for (name, shape), answer in zip(owners, prober.run(lines), strict=True):
        if not answer and name not in found:
            found[name] = shape
    return found


def probe_processor(prober: Prober, names: list[str], messages: list[str]) -> dict[str, dict]:
    """mnemonic -> facts on one processor."""
    shapes = base_shapes(prober, names)
    lines: list[str] = []
    owners: list[tuple[str, str, object]] = []

    def add(name: str, what: str, key: object, texts: list[str]) -> None:
        for text in texts:
            lines.append(text)
            owners.append((name, what, key))

    for name, shape in shapes.items():  # first the modifiers alone
        kind = family(name) or ""
        present = {word.split(":")[0] for word in shape.tail.split()}
        for text in MODIFIERS:
            if text.split(":")[0] not in present:
                add(name, "mod", text, variants(shape, kind, name, (text,)))
                if kind == "smem" and text == "offset:0":
                    add(name, "mod", text, [f"{name} {smem_offset_shape(shape)} offset:0"])
    first_owners, first_answers = owners[:], prober.run(lines)
    taken: dict[str, set[str]] = {}
    for (name, _, key), answer in zip(first_owners, first_answers, strict=True):
        if not answer:
            taken.setdefault(name, set()).add(str(key))
    lines.clear()
    owners.clear()
    for name, shape in shapes.items():
        kind = family(name) or ""
        base, bare = shape.text(), shape.text(tail=False)
        alone = taken.get(name, set())
        for text in sorted(alone):
            add(name, "twice", text, variants(shape, kind, name, (text, text)))
        for first, second in itertools.permutations([word for word in PAIRED if word in alone], 2):
            add(name, "pair", (first, second), variants(shape, kind, name, (first, second)))
        for value in VALUES:
            if kind == "smem" and base.endswith("0x0"):
                add(name, "range", "imm", [f"{name} {base[:-3]}{value}"])
                if "offset:0" in alone:
                    add(name, "range", "offset", [f"{name} {smem_offset_shape(shape)} offset:{value}"])
            elif kind not in ("mimg", "smem") and "offset:0" in alone:
                add(name, "range", "offset", [f"{name} {bare} offset:{value} {shape.tail}".rstrip()])
            if kind == "ds" and "2" in name[3:]:
                add(name, "range", "offset0", [f"{name} {bare} offset0:{value} {shape.tail}".rstrip()])
                add(name, "range", "offset1", [f"{name} {bare} offset1:{value} {shape.tail}".rstrip()])
        if kind in ("mubuf", "mtbuf") and shape.parts and shape.parts[-1] == "s2":
            for group, values in CONSTANTS.items():
                add(name, "const", group, [f"{name} {base.replace(', s2', ', ' + value)}" for value in values])
        if kind == "mimg" and shape.data_slots():
            add(name, "nodim", None, [f"{name} {base}".replace(" dim:SQ_RSRC_IMG_1D", "").replace(
                " dim:SQ_RSRC_IMG_2D_MSAA", "").replace(" dim:SQ_RSRC_IMG_2D", "")])
            probe_image(name, shape, add)
    print(f"{prober.processor}: {len(first_owners)} + {len(lines)} probes", file=sys.stderr)
    answers = prober.run(lines)
    collected: dict[str, dict[tuple[str, object], list[str]]] = {}
    for (name, what, key), answer in zip(first_owners + owners, first_answers + answers, strict=True):
        collected.setdefault(name, {}).setdefault((what, key), []).append(answer)
    return {name: summarize(name, shapes[name], collected.get(name, {}), messages) for name in shapes}


def probe_image(name: str, shape: Shape, add) -> None:
    """MIMG data widths per (dmask size, tfe, d16) and address widths per (dim, a16)."""
    sampler = "s[16:19]" in shape.parts
    address = next(part[1] for part in shape.parts if isinstance(part, tuple) and part[0] == "addr")
    tail_dim = re.search(r" dim:\S+", shape.tail)
    dim = tail_dim.group(0) if tail_dim else ""
    rest = ", s[8:15]" + (", s[16:19]" if sampler else "")
    for bits, tfe, d16 in itertools.product(range(1, 5), (0, 1), (0, 1)):
        mask = (1 << bits) - 1
        flags = (" tfe" if tfe else "") + (" d16" if d16 else "")
        texts = [f"{name} {vregs(0, width)}, {address}{rest} dmask:0x{mask:x}{dim}{flags}" for width in range(1, 6)]
        add(name, "data", (bits, tfe, d16), texts)
    dims = ("",) if not dim else tuple(f" dim:SQ_RSRC_IMG_{each}" for each in DIMS)
    mask = re.search(r"dmask:0x[0-9a-f]+", shape.tail)
    data = shape.data_slots()[0][1]
    for each, a16 in itertools.product(dims, (0, 1)):
        texts = [f"{name} {vregs(0, data)}, {vregs(20, width)}{rest} {mask.group(0) if mask else ''}{each}"
                 + (" a16" if a16 else "") for width in range(1, 17)]
        add(name, "address", (each.replace(" dim:SQ_RSRC_IMG_", ""), a16), texts)


def code(message: str, messages: list[str]) -> int:
    if message not in messages:
        messages.append(message)
    return messages.index(message)


def summarize(name: str, shape: Shape, found: dict[tuple[str, object], list[str]], messages: list[str]) -> dict:
    """The compact facts of one mnemonic on one processor."""
    facts: dict[str, object] = {"n": len(shape.text().split(",")) if shape.text() else 0}
    alone_ok = {key for (what, key), answers in found.items() if what == "mod" and "" in answers}
    refused = {}
    for (what, key), answers in found.items():
        if what == "mod" and "" not in answers and not any(words in answers[0] for words in SHAPED) and (
                ":" not in str(key) or any(words in answers[0] for words in NAMED)):
            refused[str(key).split(":")[0]] = code(answers[0], messages)
    if refused:
        facts["refused"] = refused
    twice = {str(key).split(":")[0]: code(answers[0], messages) for (what, key), answers in found.items()
             if what == "twice" and key in alone_ok and "" not in answers
             and not any(words in answers[0] for words in SHAPED)}
    if twice:
        facts["twice"] = twice
    pairs = {}
    for (what, key), answers in found.items():
        if what == "pair" and "" not in answers and all(word in alone_ok for word in key) and not any(  # type: ignore[union-attr]
                words in answers[0] for words in SHAPED):
            pairs[" ".join(key)] = code(answers[0], messages)  # type: ignore[arg-type]
    if pairs:
        facts["pairs"] = pairs
    ranges = {}
    for slot in ("imm", "offset", "offset0", "offset1"):
        answers = found.get(("range", slot))
        if answers is None:
            continue
        accepted = [value for value, answer in zip(VALUES, answers, strict=True) if not answer]
        if not accepted:
            continue
        low, high = min(accepted), max(accepted)
        inside = [answer for value, answer in zip(VALUES, answers, strict=True) if low <= value <= high]
        if any(inside):
            continue  # not one range
        above = next((answer for value, answer in zip(VALUES, answers, strict=True) if value > high), None)
        below = next((answer for value, answer in zip(reversed(VALUES), reversed(answers)) if value < low), None)
        ranges[slot] = [low, high, -1 if above is None else code(above, messages),
                        -1 if below is None else code(below, messages)]
    if ranges:
        facts["ranges"] = ranges
    constants = {group: code(answers[0], messages) for (what, group), answers in found.items()
                 if what == "const" and all(answers) and len(set(answers)) == 1}
    if constants:
        facts["soffset"] = constants
    nodim = found.get(("nodim", None))
    if nodim and nodim[0]:
        facts["dim"] = code(nodim[0], messages)
    data: list[str] = []
    mismatch = -1
    for bits, tfe, d16 in itertools.product(range(1, 5), (0, 1), (0, 1)):
        answers = found.get(("data", (bits, tfe, d16)))
        if answers is None:
            break
        ok = [width for width, answer in zip(range(1, 6), answers, strict=True) if not answer]
        data.append(str(ok[0]) if len(ok) == 1 else "-")
        sizes = [answer for answer in answers if "image data size" in answer]
        if sizes and mismatch < 0:
            mismatch = code(sizes[0], messages)
    if data and mismatch >= 0:
        facts["data"] = ["".join(data), mismatch]
    addresses: dict[str, list[int]] = {}
    address_message = -1
    for (what, key), answers in found.items():
        if what != "address":
            continue
        dim, a16 = key  # type: ignore[misc]
        mask = sum(1 << width for width, answer in zip(range(1, 17), answers, strict=True) if not answer)
        addresses.setdefault(dim, [0, 0])[a16] = mask
        sizes = [answer for answer in answers if "address size" in answer]
        if sizes and address_message < 0:
            address_message = code(sizes[0], messages)
    if addresses and address_message >= 0:
        facts["address"] = [addresses, address_message]
    return facts


def format_facts(prober: Prober, names: list[str], messages: list[str]) -> dict:
    """MTBUF format facts of one processor: numeric ranges, the names it takes alone and in pairs."""
    base = "tbuffer_load_format_x v0, off, s[8:11]"
    lines = [f"{base}, s2 format:{value}" for value in VALUES]
    lines += [f"{base}, dfmt:{value}, nfmt:1, s2" for value in VALUES]
    lines += [f"{base}, dfmt:1, nfmt:{value}, s2" for value in VALUES]
    lines += [f"{base}, s2 format:[{name}]" for name in names]
    data = [name for name in names if name.startswith("BUF_DATA_FORMAT_")]
    numeric = [name for name in names if name.startswith("BUF_NUM_FORMAT_")]
    pairs = [(first, second) for first in data for second in numeric] + [(first, second) for first in numeric
                                                                       for second in data]
    pairs += [(data[0], data[1]), (numeric[0], numeric[1]), (data[0], data[0])] if len(data) > 1 < len(numeric) else []
    lines += [f"{base}, s2 format:[{first},{second}]" for first, second in pairs]
    triple = f"{base}, s2 format:[{data[0]},{numeric[0]},{data[1]}]" if len(data) > 1 and numeric else None
    lines += [triple, f"{base}, s2 format:[]", f"{base}, dfmt:1, s2 format:[{numeric[0]}]"] if triple else []
    twice = [f"{base}, dfmt:1, dfmt:1, s2", f"{base}, nfmt:1, nfmt:1, s2", f"{base}, s2 format:1 format:1"]
    lines += twice
    answers = prober.run(lines)
    if all(answers[: len(VALUES)]):
        return {}
    facts: dict[str, object] = {}
    position = 0
    for field in ("format", "dfmt", "nfmt"):
        chunk = answers[position : position + len(VALUES)]
        position += len(VALUES)
        accepted = [value for value, answer in zip(VALUES, chunk, strict=True) if not answer]
        if accepted:
            low, high = min(accepted), max(accepted)
            above = next((answer for value, answer in zip(VALUES, chunk, strict=True) if value > high), "")
            below = next((answer for value, answer in zip(reversed(VALUES), reversed(chunk)) if value < low), "")
            facts[field] = [low, high, code(above, messages), code(below, messages)]
    singles = answers[position : position + len(names)]
    position += len(names)
    facts["names"] = {name: code(answer, messages) if answer else -1 for name, answer in
                      zip(names, singles, strict=True)}
    chunk = answers[position : position + len(pairs)]
    position += len(pairs)
    facts["pairs"] = {f"{first},{second}": code(answer, messages) if answer else -1
                      for (first, second), answer in zip(pairs, chunk, strict=True)}
    if triple:
        facts["triple"], facts["empty"], facts["both"] = (code(answer, messages) if answer else -1
                                                          for answer in answers[position : position + 3])
        position += 3
    for field, answer in zip(("dfmt", "nfmt", "format"), answers[position:], strict=True):
        if answer:
            facts[f"twice_{field}"] = code(answer, messages)
    return facts


def format_names(llvm_mc: str, processors: list[str], directory: Path) -> list[str]:
    """Every format name llvm-mc prints for `format:0` to `format:127` on any of the processors."""
    found: set[str] = set()
    path = directory / "formats.s"
    path.write_text("".join(f"tbuffer_load_format_x v0, off, s[8:11], s2 format:{value}\n" for value in range(128)))
    for processor in processors:
        run = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", str(path)],
                             capture_output=True, text=True, check=False)
        for names in _PRINTED_FORMAT.findall(run.stdout):
            found.update(names.split(","))
    return sorted(found)


def write_table(header: dict, rows: dict[str, list[list]], formats: dict[int, dict]) -> None:
    """Write the table with each distinct part of the facts once in the header (`parts`; facts name them by
    index), and each distinct set of format facts once (`format_sets`; `formats` names one per processor)."""
    parts: dict[str, int] = {}

    def part(value: object) -> int:
        return parts.setdefault(json.dumps(value, sort_keys=True, separators=(",", ":")), len(parts))

    format_sets: dict[str, int] = {}
    by_processor = {str(index): format_sets.setdefault(json.dumps(value, sort_keys=True, separators=(",", ":")),
                                                       len(format_sets)) for index, value in formats.items()}
    lines = []
    for name in sorted(rows):
        groups = [[{key: value if key == "n" or key == "dim" else part(value) for key, value in facts.items()},
                   members] for facts, members in rows[name]]
        lines.append(json.dumps([name, groups], separators=(",", ":")))
    header = {**header, "parts": [json.loads(text) for text in parts],
              "format_sets": [json.loads(text) for text in format_sets], "formats": by_processor}
    with OUT.open("w") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        out.writelines(line + "\n" for line in lines)


#: lines whose answers tell apart processors with the same mnemonics (d16 packing, a16, r128, dlc, offset widths)
FINGERPRINT = (
    "image_load v0, v0, s[0:7] dmask:0x3 d16", "image_load v[0:1], v0, s[0:7] dmask:0x3 d16",
    "image_load v0, v0, s[0:7] dmask:0x3 d16 dim:SQ_RSRC_IMG_1D",
    "image_load v[0:1], v0, s[0:7] dmask:0x3 d16 dim:SQ_RSRC_IMG_1D", "buffer_store_format_d16_xy v0, off, s[0:3], s0",
    "buffer_store_format_d16_xy v[0:1], off, s[0:3], s0", "image_load v0, v0, s[0:7] dmask:0x1 a16",
    "image_load v0, v0, s[0:7] dmask:0x1 r128", "global_load_dword v0, v[0:1], off dlc",
    "global_load_dword v0, v[0:1], off offset:-4096", "global_load_dword v0, v[0:1], off offset:4095",
    "flat_load_dword v0, v[0:1] offset:4095", "s_load_dword s0, s[0:1], -1", "s_load_dword s0, s[0:1], 0x100000",
    "buffer_load_dword v0, off, s[0:3], s0 offset:4095", "tbuffer_load_format_x v0, off, s[0:3], s0 format:127",
    "ds_read_b32 v0, v1 offset:65535 gds",
)


def representatives(llvm_mc: str, table: dict, processors: list[str], directory: Path) -> dict[str, str]:
    """processor -> the one probed for it: the first with the same mnemonic verdicts and the same answers to
    FINGERPRINT."""
    chosen: dict[tuple, str] = {}
    found = {}
    for processor in processors:
        column = table["configurations"].index(processor)
        key = (tuple(pattern[column] for pattern in table["patterns"]),
               tuple(assemble(llvm_mc, processor, (), list(FINGERPRINT), directory)))
        found[processor] = chosen.setdefault(key, processor)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--only", default="", help="comma-separated processors (for a quick look; not written)")
    args = parser.parse_args()
    table = read_table()
    configurations: list[str] = table["configurations"]
    processors = [name for name in configurations if ":" not in name]
    if args.only:
        processors = args.only.split(",")
    messages: list[str] = []
    rows: dict[str, dict[str, list[int]]] = {}
    formats: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        names_of_formats = format_names(args.llvm_mc, processors, directory)
        probed_for = representatives(args.llvm_mc, table, processors, directory)
        done: dict[str, tuple[dict, dict]] = {}
        for index, processor in enumerate(processors):
            if probed_for[processor] in done:  # the same facts as the processor probed for it
                found, formats[index] = done[probed_for[processor]]
                for name, facts in found.items():
                    rows.setdefault(name, {}).setdefault(json.dumps(facts, sort_keys=True), []).append(index)
                continue
            column = configurations.index(processor)
            names = sorted(name for name, pattern in table["mnemonics"].items()
                           if family(name) and not table["patterns"][pattern][column])
            prober = Prober(args.llvm_mc, processor, directory)
            found = probe_processor(prober, names, messages)
            for name, facts in found.items():
                rows.setdefault(name, {}).setdefault(json.dumps(facts, sort_keys=True), []).append(index)
            formats[index] = format_facts(prober, names_of_formats, messages)
            done[processor] = (found, formats[index])
            print(f"{processor}: {len(found)}/{len(names)} memory mnemonics probed", file=sys.stderr)
    if args.only:
        for name in sorted(rows):
            print(name, rows[name])
        print(messages)
        return 0
    group_of = [processors.index(name.split(":")[0]) for name in configurations]
    header = {"source": f"{args.llvm_mc} (memory instructions probed; scripts/gen_memory_operands.py)",
              "processors": processors, "configurations": group_of, "messages": messages}
    write_table(header, {name: [[json.loads(facts), members] for facts, members in groups.items()]
                         for name, groups in rows.items()}, formats)
    print(f"{len(rows)} mnemonics, {len(messages)} messages, {len(processors)} processors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
