"""What llvm-mc 22 says of a mnemonic on a processor, whatever its operands.

tables/mnemonics.jsonl (written by scripts/gen_mnemonic_verdicts.py, which assembles every candidate mnemonic
bare on every processor of LLVM 22 in each wave size, and for gfx11+ with real-true16 on and off) holds, per
mnemonic, a verdict per configuration: the target
has some form of it, or llvm-mc's message rejecting the mnemonic itself ("instruction not supported on this
GPU", "sdwa variant of this instruction is not supported", "instruction requires wavesize=32", ...). A mnemonic
no configuration accepts is not in the table. Special registers (`tba`, `ttmp12`, `null`, `src_shared_base`, ...)
have a verdict per configuration as well. A mnemonic's line is found and read when it is first asked about.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..model.nodes import Abs, Node, Num, Reg, SpecialReg, UnOp, signed_number
from ..model.targets import Target
from .probe_table import CodedProbeTable, ProbeTable

_TABLE = Path(__file__).parent / "tables" / "mnemonics.jsonl"
NOT_AN_INSTRUCTION = "invalid instruction"


class MnemonicVerdicts(ProbeTable):
    """The table, with the configuration index of each target looked up once. A verdict pattern is a string of
    one character per configuration: `.` where it has the mnemonic, else the code of llvm-mc's message."""

    def __init__(self, text: str):
        super().__init__(text)
        self._names: list[str] = self.facts["configurations"]
        self._columns = {name: index for index, name in enumerate(self._names)}
        self._codes = {code: index for index, code in enumerate(self.facts["codes"])}
        self._patterns: list[str] = self.facts["patterns"]
        self._registers: dict[str, int] = self.facts["registers"]

    def _pattern(self, mnemonic: str) -> str | None:
        line = self._lines.get(mnemonic)  # ["name",pattern]
        return None if line is None else self._patterns[int(line[line.rindex(",") + 1 : -1])]

    def _refusal(self, pattern: str, columns: tuple[int, ...]) -> str | None:
        """The message refusing on every one of the configurations, or None."""
        codes = {pattern[column] for column in columns}
        if len(codes) != 1 or "." in codes:
            return None
        return self._messages[self._codes[codes.pop()]]

    def columns(self, target: Target, wave_size: int | None) -> tuple[int, ...]:
        """The target's configurations: its processor (or generic target) in its wave size and true16 mode; every
        one of them where the wave size or the mode is not known; none when the table has no such processor."""
        name = target.generic or target.name
        if name not in self._columns:
            return ()
        waves = [""]
        if target.major >= 10 and f"{name}:wavefrontsize64+" in self._columns:
            waves = {32: [""], 64: [":wavefrontsize64+"]}.get(wave_size or 0, ["", ":wavefrontsize64+"])
        true16 = target.features.get("real-true16")
        chosen = []
        for wave in waves:
            base = name + wave
            flipped = next((f"{base}:real-true16{sign}" for sign in "+-" if f"{base}:real-true16{sign}" in self._columns),
                           None)
            if flipped is None:
                chosen.append(base)
            elif true16 is None:  # llvm-mc's default mode, or the other: a listing may have been made in either
                chosen += [base, flipped]
            else:
                chosen.append(flipped if true16 == flipped.endswith("+") else base)
        return tuple(self._columns[mode] for mode in chosen)

    def names(self, columns: tuple[int, ...]) -> list[str]:
        """The configurations' names (`gfx1100:wavefrontsize64+`)."""
        return [self._names[column] for column in columns]

    def knows(self, mnemonic: str) -> bool:
        return mnemonic in self._lines

    def mnemonics(self) -> list[str]:
        """Every mnemonic some configuration has (reads every line)."""
        return self._lines.names()

    def rejection(self, mnemonic: str, columns: tuple[int, ...]) -> str | None:
        """llvm-mc's message rejecting `mnemonic` on every one of the configurations, or None when one of them
        has a form of it."""
        pattern = self._pattern(mnemonic)
        if pattern is None:
            return NOT_AN_INSTRUCTION if columns else None
        return self._refusal(pattern, columns)

    def register_rejection(self, name: str, columns: tuple[int, ...]) -> str | None:
        """llvm-mc's message refusing special register `name` (`tba`, `ttmp12`, `null`, ...) on every one of the
        configurations, or None."""
        pattern = self._registers.get(name)
        if pattern is None or not columns:
            return None
        return self._refusal(self._patterns[pattern], columns)

    def accepting(self, mnemonic: str) -> list[str]:
        """The configurations that have a form of `mnemonic`."""
        pattern = self._pattern(mnemonic)
        if pattern is None:
            return []
        return [name for name, index in self._columns.items() if pattern[index] == "."]


@cache
def mnemonic_verdicts() -> MnemonicVerdicts:
    return MnemonicVerdicts(_TABLE.read_text())


_OPERANDS = Path(__file__).parent / "tables" / "operands.jsonl"
#: encoding suffixes of VALU mnemonics, the longest first
_FORM_SUFFIXES = ("_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa")
_NOT_VALID = "not a valid operand"
#: the VOP3 modifiers an `_e32` encoding has no field for
_FORM_FLAGS = frozenset(("clamp", "mul", "div"))
#: answers that refuse a modifier's name (not only the value probed)
_REFUSED_NAME = ("not a valid operand", "not supported on this GPU", "not supported for")
#: flags without a value: any refusal is of the name
_FLAGS = frozenset(("clamp", "glc", "slc", "dlc", "scc", "nt", "sc0", "sc1", "tfe", "lwe", "d16", "a16", "r128", "unorm",
                    "da", "gds", "lds", "idxen", "offen", "addr64", "nv"))
#: DPP and SDWA controls: a target without them (gfx6-7; SDWA from gfx11) refuses them on every instruction, which
#: is what no probed instance taking one shows (other modifiers exist on instructions the sweep may not print)
_WHOLE_SYNTAX = frozenset(("quad_perm", "row_shl", "row_share", "row_xmask", "wave_shl", "row_bcast", "dpp8", "dst_sel",
                           "src0_sel"))
#: DPP controls that only qualify another (appended alone, every instance refuses them)
_QUALIFIERS = frozenset(("fi", "bound_ctrl"))
#: modifiers that change what the operands must be (`offen` wants an address VGPR, `tfe`/`d16` another data width):
#: appended to an instance whose operands fit without them, they are refused for the operands' sake
_SHAPING = frozenset(("offen", "idxen", "addr64", "offset", "lds", "tfe", "lwe", "d16", "a16", "r128", "da"))
#: operand kinds that are registers (an immediate of a scalar or memory instruction is judged only on VALU ones)
_REGISTER_KINDS = frozenset(("v", "s", "a", "vcc", "exec", "m0", "null"))
#: refusals that depend on the probed instance's other operands, not on the one replaced
_OTHER_OPERANDS = ("constant bus", "unique literal")
#: modifiers judged by the probe of another in their family, where no probe of their own exists
_FAMILY = {
    "row_shr": "row_shl", "row_ror": "row_shl", "row_mirror": "row_shl", "row_half_mirror": "row_shl",
    "row_mask": "quad_perm", "bank_mask": "quad_perm", "wave_shr": "wave_shl", "wave_rol": "wave_shl",
    "wave_ror": "wave_shl", "dst_unused": "dst_sel", "src1_sel": "src0_sel",
}


class OperandVerdicts(CodedProbeTable):
    """tables/operands.jsonl: per mnemonic (as llvm-mc prints it) and configuration, whether llvm-mc takes each
    modifier and each kind of operand in each position. Lines are decoded when first looked up."""

    def __init__(self, text: str):
        super().__init__(text)
        self._unknown_modifiers: dict[int, frozenset[str]] = {
            int(column): frozenset(names) for column, names in self.facts["unknown_modifiers"].items()}
        self._rows: dict[str, dict[int, tuple[str, int]]] = {}
        self._probed: dict[str, frozenset[int]] = {}  # mnemonic -> the configurations any of its forms was probed in

    def _row(self, mnemonic: str) -> dict[int, tuple[str, int]]:
        row = self._rows.get(mnemonic)
        if row is None:
            line = self._lines.get(mnemonic)
            row = {}
            if line is not None:
                for verdicts, count, members in json.loads(line)[1]:
                    row.update(dict.fromkeys(members, (verdicts, count)))  # in C: no generator, one entry a group
            self._rows[mnemonic] = row
        return row

    def knows(self, mnemonic: str) -> bool:
        """Whether llvm-mc prints instances under the name `mnemonic` on some configuration."""
        return mnemonic in self._lines

    def refusal(self, mnemonic: str, columns: tuple[int, ...], kinds: list[str | None],
                modifiers: list[str]) -> str | None:
        """llvm-mc's message for a modifier or an operand kind every one of the configurations refuses on
        `mnemonic` with `len(kinds)` operands, or None (also where the probes do not cover the instruction)."""
        if not columns:
            return None
        found: set[str] = set()
        row = self._row(mnemonic)
        forms = self._forms(mnemonic)
        probed = self._probed.get(mnemonic)
        if probed is None:
            probed = self._probed[mnemonic] = frozenset(column for key in forms for column in self._row(key))
        for column in columns:
            if (column not in row and any(other in row for other in columns)) or (
                    column not in probed and any(other in probed for other in columns)):
                continue  # a mode no instance was probed in (real-true16 flipped from llvm-mc's default)
            message = (self._name_refusal(forms, column, modifiers) or self._form_refusal(mnemonic, column, modifiers)
                       or self._refusal_on(mnemonic, column, kinds, modifiers))
            if message is None:
                return None
            found.add(message)
        return min(found) if found else None

    def unknown_modifier(self, mnemonic: str, modifiers: tuple[tuple[str, Node | None], ...]) -> str | None:
        """llvm-mc's message for a `name:value` modifier whose name no instruction of any processor takes
        (tables/modifier_names.json, scripts/gen_modifier_names.py): llvm-mc reads it on none (`v_add_f32 v0, v1,
        v2 sdwa_sel:1`). Judged only on instructions the probes printed (whose modifiers the names were drawn
        from); a name of our tables the probes never saw taken with a value is left alone."""
        if not self._forms(mnemonic):
            return None
        known, refused = _modifier_names()
        for name, value in modifiers:
            if value is not None and name not in known and name not in refused:
                return _NOT_VALID + "."
        return None

    def _forms(self, mnemonic: str) -> list[str]:
        """The probed rows of every encoding form of a VALU mnemonic (bare, `_e32`, `_e64`, `_dpp`, `_sdwa`,
        `_e64_dpp`), whatever form it is written in; the mnemonic's own row for any other (none where the probes
        printed no instance)."""
        if not mnemonic.startswith("v_"):
            return [mnemonic] if mnemonic in self._lines else []
        base = next((mnemonic.removesuffix(suffix) for suffix in _FORM_SUFFIXES if mnemonic.endswith(suffix)), mnemonic)
        return [key for key in (base, *(base + suffix for suffix in _FORM_SUFFIXES)) if key in self._lines]

    def _name_refusal(self, forms: list[str], column: int, modifiers: list[str]) -> str | None:
        """"not a valid operand." for a modifier some form of the mnemonic refused so: llvm-mc reads a modifier's
        name by the mnemonic without its encoding suffix, for every form at once (`v_sqrt_f32_e64 v0, v4
        byte_sel:1` and `v_sqrt_f32 v0, v4 byte_sel:1` alike), whatever the operands."""
        for name in modifiers:
            if name in _WHOLE_SYNTAX or name in _FAMILY or name in _QUALIFIERS:
                continue  # judged above, or refused for want of another control
            for key in forms:
                entry = self._row(key).get(column)
                answer = self._answer(entry[0], name) if entry is not None else None
                if answer is not None and _NOT_VALID in answer:
                    return answer
        return None

    def _form_refusal(self, mnemonic: str, column: int, modifiers: list[str]) -> str | None:
        """llvm-mc's message for `clamp` or an output modifier on a VALU instruction written `_e32` where that form
        refused it, or written without a suffix where its `_e32` and `_e64` forms both did (and it has no SDWA
        form, which llvm-mc may choose instead), whatever the operands (VOPC's destination may be left out)."""
        flags = [name for name in modifiers if name in _FORM_FLAGS]
        if not flags or not mnemonic.startswith("v_"):
            return None
        if mnemonic.endswith("_e32"):
            keys = [mnemonic]
        elif mnemonic.endswith(_FORM_SUFFIXES):
            return None
        else:
            if mnemonic_verdicts().rejection(mnemonic + "_sdwa", (column,)) is None:
                return None
            keys = [key for key in (mnemonic + "_e64", mnemonic) if column in self._row(key)]
            if not keys:
                return None  # its VOP3 form was not probed there (an `_e32` form never takes them)
            keys.append(mnemonic + "_e32")
        entries = [entry for key in keys if (entry := self._row(key).get(column)) is not None]
        if not entries:
            return None
        found = None
        for name in flags:
            answers = [self._answer(entry[0], name) for entry in entries]
            if all(answer is not None and not any(words in answer for words in _OTHER_OPERANDS) for answer in answers):
                found = found or answers[0]
        return found

    def _refusal_on(self, mnemonic: str, column: int, kinds: list[str | None], modifiers: list[str]) -> str | None:
        unknown = self._unknown_modifiers.get(column, frozenset()) & _WHOLE_SYNTAX
        for name in modifiers:
            if name in unknown or _FAMILY.get(name) in unknown:
                return "not a valid operand."
        entry = self._row(mnemonic).get(column)
        if entry is None or mnemonic + "_e64" in self._lines:
            return None  # no instance; or one llvm-mc may encode as VOP3 when its operands ask, unlike the instance
        verdicts, count = entry
        if len(kinds) != count:
            return None  # another form than the one probed (an operand the syntax may leave out, or llvm-mc reads
            # a word as an operand where we read a modifier)
        for name in modifiers:
            if name in _WHOLE_SYNTAX or name in _FAMILY or name in _QUALIFIERS or name in _SHAPING:
                continue  # a DPP or SDWA control appended alone is refused for want of the others
            answer = self._answer(verdicts, name)
            if answer is not None and (name in _FLAGS or any(words in answer for words in _REFUSED_NAME)):
                return answer
        vector = mnemonic.startswith("v_")
        for slot, kind in enumerate(kinds):
            if kind is None or kind in ("v", "a") or (not vector and kind not in _REGISTER_KINDS):
                # a VGPR against an AGPR may be refused for the other operands' file (MFMA, ds_*_rtn on gfx90a);
                # a scalar or memory instruction's immediate is an offset or a field, not a literal
                continue
            answer = self._answer(verdicts, f"{slot}:{kind}")
            if answer is not None and not any(words in answer for words in _OTHER_OPERANDS):
                return answer
        return None


@cache
def operand_verdicts() -> OperandVerdicts:
    return OperandVerdicts(_OPERANDS.read_text())


_NAMES = Path(__file__).parent / "tables" / "modifier_names.json"


@cache
def _modifier_names() -> tuple[frozenset[str], frozenset[str]]:
    table = json.loads(_NAMES.read_text())
    return frozenset(table["names"]), frozenset(table["refused"])


_SPECIAL_KINDS = {"vcc": "vcc", "vcc_lo": "vcc", "exec": "exec", "exec_lo": "exec", "m0": "m0", "null": "null"}
_INV_2PI = 0.15915494309189535
_INLINE_FLOATS = frozenset((0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, _INV_2PI))
#: integers that are an inline float's bits in some operand type (f16, bf16, f32): not a literal there
_INLINE_FLOAT_BITS = frozenset((
    0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118,  # f16
    0x3F00, 0xBF00, 0x3F80, 0xBF80, 0x4080, 0xC080, 0x3E22,  # bf16
    0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000, 0xC0800000,
    0x3E22F983,  # f32
))


def operand_kind(node: Node) -> str | None:
    """The probe kind of a written operand (`v`, `s`, `a`, `iconst`, `literal`, `vcc`, `exec`, `m0`, `null`), or
    None where the probes do not decide it (symbols, expressions, a number inline in some operand type)."""
    node = signed_number(node)
    if isinstance(node, (Abs, UnOp)):
        node = node.operand
    if isinstance(node, Reg):  # a true16 half (`v0.l`) is not what the probes wrote
        return node.kind if node.kind in ("v", "s", "a") and node.half is None else None
    if isinstance(node, SpecialReg):
        return _SPECIAL_KINDS.get(node.name)
    if isinstance(node, Num):
        if isinstance(node.value, float):
            if abs(node.value - _INV_2PI) < 1e-6 and node.value != _INV_2PI:
                return None  # 1/(2*pi) as written rounds to the inline constant in some operand types
            return "iconst" if node.value in _INLINE_FLOATS else "literal"
        if -16 <= node.value <= 64 or (1 << 32) - 16 <= node.value < 1 << 32 or (1 << 64) - 16 <= node.value:
            return "iconst"  # -16..-1 written as their 32- or 64-bit patterns too
        return None if node.value & 0xFFFFFFFF in _INLINE_FLOAT_BITS or not -(1 << 31) <= node.value < 1 << 32 \
            else "literal"
    return None
