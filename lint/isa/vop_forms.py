"""What llvm-mc 22 refuses in the DPP, DPP8 and SDWA forms of a VALU instruction and in its lane masks.

The form llvm-mc encodes is chosen by what is written: a `_dpp`, `_sdwa`, `_e32` or `_e64` suffix, or the
controls (`row_shl:1` and the other DPP controls make a DPP form, `dpp8:[...]` a DPP8 one, `dst_sel`/`src0_sel`
an SDWA one). tables/vop_forms.jsonl (written by scripts/gen_vop_forms.py, which probes instances llvm-mc's
disassembler prints of every form on every configuration) holds, per form and configuration, llvm-mc's verdict
on each kind of operand in each position of the DPP, DPP8 and SDWA forms (gfx8-9 DPP and SDWA take only VGPRs,
gfx9 SDWA takes SGPRs and inline constants but no literal), on `clamp` and an output modifier there (written
before the controls or after them: llvm-mc refuses them after the controls of a VOP3 DPP or an SDWA form), and,
from gfx10 on, on a lane mask of the other wave size (`vcc` for `vcc_lo`, `s[0:1]` for `s0` in wave32, and the
reverse in wave64); and, for the plain forms, the combinations of SGPRs and literals llvm-mc refuses for the
constant bus or for a second literal.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..model.nodes import Abs, Call, Node, Num, Reg, SpecialReg, UnOp
from .defuse import DPP_CONTROLS
from .mnemonics import NOT_AN_INSTRUCTION, mnemonic_verdicts, operand_kind, operand_verdicts
from .probe_table import CodedProbeTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_TABLE = Path(__file__).parent / "tables" / "vop_forms.jsonl"
_SDWA = frozenset(("dst_sel", "dst_unused", "src0_sel", "src1_sel"))
_FORM_NAMES = {"_dpp": "DPP", "_dpp8": "DPP8", "_sdwa": "SDWA"}
#: the DPP, DPP8 and SDWA controls
_CONTROLS = DPP_CONTROLS | _SDWA | {"row_mask", "bank_mask", "bound_ctrl", "fi", "dpp8"}
#: written modifiers judged by a probe: the probe's name
_MODIFIER_PROBES = {"clamp": "clamp", "mul": "mul", "div": "mul"}
#: refusals that depend on the probed instance's other operands, not on the one replaced
_OTHER_OPERANDS = ("constant bus", "unique literal")
_WIDE_MASKS = frozenset(("vcc", "exec"))
#: what an operand reads over the constant bus: ("literal", value), or a scalar register (file, first, count)
_Read = tuple[str, object, int] | None
_Row = tuple[dict[int, tuple[int, str]], dict[int, tuple[int, list[list[int]]]], dict[int, tuple[int, list[list]]]]
#: special registers by the file they are part of (`vcc_lo` is part of `vcc`)
_FAMILIES = {name: name.split("_lo")[0].split("_hi")[0] for name in (
    "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "flat_scratch", "flat_scratch_lo", "flat_scratch_hi",
    "xnack_mask", "xnack_mask_lo", "xnack_mask_hi", "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi")}
#: a written source: the probe kinds it may be (all must be refused), the source modifiers on its VGPR, and the
#: scalar register it reads (file, first, count) where it reads one
_Operand = tuple[tuple[str, ...], tuple[str, ...], tuple[str, int, int] | None]
_NARROW_MASKS = frozenset(("vcc_lo", "exec_lo"))
#: scalar registers without a probe of their own, by width: refused where SGPRs and `exec` of the width both are
_SCALAR_SPECIALS = {**dict.fromkeys(("vcc_hi", "exec_hi", "flat_scratch_lo", "flat_scratch_hi", "xnack_mask_lo",
                                     "xnack_mask_hi", "tba_lo", "tba_hi", "tma_lo", "tma_hi"), ("s1", "exec_lo")),
                    **dict.fromkeys(("flat_scratch", "xnack_mask", "tba", "tma"), ("s2", "exec"))}
_MASKS = frozenset(("vcc", "vcc_lo", "exec", "exec_lo", "m0"))



class VopForms(CodedProbeTable):
    """The table: its header read at once, a form's line decoded when first looked up."""

    def __init__(self, text: str):
        super().__init__(text)
        self._wave64 = ["wavefrontsize64+" in name.split(":") for name in self.facts["configurations"]]
        #: configurations in real-true16 mode (gfx11's default in LLVM 22, named on gfx12), whose probed instances
        #: wrote 16-bit operands as halves (`v4.l`): a whole VGPR put in among them is refused for the mix alone
        self._true16 = ["real-true16+" in name or (name.startswith("gfx11") and "real-true16-" not in name)
                        for name in self.facts["configurations"]]
        self._controls: dict[str, dict[int, dict[int, int]]] = {
            name: {member: dict(found) for found, members in groups for member in members}
            for name, groups in self.facts["controls"].items()}
        self._rows: dict[str, _Row] = {}

    def _row(self, key: str) -> _Row:
        """The form's probes, its lane masks and the constant-bus combinations refused, per configuration."""
        row = self._rows.get(key)
        if row is None:
            line = self._lines.get(key)
            forms, lanes, buses = json.loads(line)[1:] if line is not None else ([], [], [])
            row = self._rows[key] = ({member: (count, verdicts) for count, verdicts, members in forms
                                      for member in members},
                                     {member: (count, slots) for count, slots, members in lanes for member in members},
                                     {member: (count, refused) for count, refused, members in buses
                                      for member in members})
        return row

    def bus_refusal(self, key: str, column: int, reads: list[_Read]) -> str | None:
        """llvm-mc's message where the plain form `key` reads the scalar registers and literals of a combination
        the probes saw refused (for the constant bus, or a second literal) on one configuration: each in its
        operand, the registers different and not overlapping, the literals different."""
        entry = self._row(key)[2].get(column)
        if entry is None or entry[0] != len(reads):
            return None
        for scalars, literals, code in entry[1]:
            slots = [int(slot) for slot in scalars]
            wanted = [reads[slot] for slot in slots]
            if any(read is None or (read[0] == "literal") != (str(slot) in literals)
                   for slot, read in zip(slots, wanted, strict=True)):
                continue
            if _different([read for read in wanted if read is not None]):
                return self._messages[code - 1]
        return None

    def form_refusal(self, key: str, column: int, operands: list[_Operand], modifiers: list[str]) -> str | None:
        """llvm-mc's message for a modifier or an operand of the DPP, DPP8 or SDWA form `key` on one configuration,
        or None (also where no instance of the form with as many operands was probed there)."""
        entry = self._row(key)[0].get(column)
        if entry is None or entry[0] != len(operands):
            return None
        verdicts = entry[1]
        for index, name in enumerate(modifiers):
            probe = _MODIFIER_PROBES.get(name)
            if probe and any(earlier in _CONTROLS for earlier in modifiers[:index]):
                probe += "_after"  # written after a control, where llvm-mc's DPP and SDWA forms may refuse it
            answer = self._answer(verdicts, probe) if probe else None
            if answer is not None:
                return answer
        for slot, (choices, wrappers, _) in enumerate(operands):
            mixed = self._true16[column] and choices == ("v",)
            answers = [self._answer(verdicts, f"{slot}:{kind}") for kind in choices]
            if choices and not mixed and all(
                    answer is not None and not any(words in answer for words in _OTHER_OPERANDS) for answer in answers):
                return min(answer for answer in answers if answer is not None)
            for wrapper in wrappers:
                answer = self._answer(verdicts, f"{slot}:{wrapper}")
                if answer is not None and not any(words in answer for words in _OTHER_OPERANDS):
                    return answer
        return self._bus_refusal(verdicts, operands)

    def _bus_refusal(self, verdicts: str, operands: list[_Operand]) -> str | None:
        """The probe's constant-bus message where two different scalar registers are read in the operands after
        the first that take an SGPR alone (the probe gave them two different ones)."""
        answer = self._answer(verdicts, "bus")
        if answer is None or "constant bus" not in answer:
            return None
        read = {register for slot, (_, _, register) in enumerate(operands)
                if slot and register is not None and self._accepted(verdicts, f"{slot}:s1")}
        registers = [register for register in read if register[0] == "s"]
        if any(first != second and first[1] < second[1] + second[2] and second[1] < first[1] + first[2]
               for first in registers for second in registers):
            return None  # overlapping SGPR ranges: whether llvm-mc counts them once is not probed
        return answer if len(read) >= 2 else None

    def _accepted(self, verdicts: str, probe: str) -> bool:
        position = self._probes[probe]
        return position < len(verdicts) and verdicts[position] == "."

    def lane_refusal(self, key: str, column: int, operands: tuple[Node, ...]) -> str | None:
        """llvm-mc's message for a lane mask of the other wave size in form `key` on one gfx10+ configuration."""
        entry = self._row(key)[1].get(column)
        if entry is None or entry[0] != len(operands):
            return None
        wave64 = self._wave64[column]
        for slot, vcc, sgpr in entry[1]:
            operand = operands[slot]
            if isinstance(operand, SpecialReg):
                wrong = operand.name in (_NARROW_MASKS if wave64 else _WIDE_MASKS)
                code = vcc
            elif isinstance(operand, Reg) and operand.kind == "s" and operand.half is None:
                wrong = operand.count == (1 if wave64 else 2)
                code = sgpr
            else:
                continue
            if wrong and code:
                return self._messages[code - 1]
        return None

    def control_refusal(self, columns: tuple[int, ...], modifiers: tuple[tuple[str, Node | None], ...]) -> str | None:
        """llvm-mc's message for a DPP control value every configuration refuses (`bound_ctrl:2`), or None."""
        for name, value in modifiers:
            rows = self._controls.get(name)
            if rows is None or not isinstance(value, Num) or not isinstance(value.value, int):
                continue
            codes = {rows.get(column, {}).get(value.value, 0) for column in columns}
            if 0 not in codes:
                return self._messages[min(codes) - 1]
        return None

    def has_lane_masks(self, keys: list[str]) -> bool:
        """Whether a form of `keys` has lane masks on some configuration."""
        return any(key in self._lines and self._row(key)[1] for key in keys)

    def one_wave_size(self, columns: tuple[int, ...]) -> bool:
        return len({self._wave64[column] for column in columns}) == 1

    def wave64(self, column: int) -> bool:
        return self._wave64[column]


@cache
def vop_forms() -> VopForms:
    return VopForms(_TABLE.read_text())


def vop_form_refusal(instruction, target: str, columns: tuple[int, ...], masks: tuple[int, ...]) -> str | None:
    """llvm-mc's message for what it refuses in the DPP, DPP8 or SDWA form of a VALU instruction on every one of
    the configurations, or in its lane masks on every one of `masks`, or None."""
    mnemonic = instruction.mnemonic
    if instruction.pair is not None or not columns or not mnemonic.startswith("v_"):
        return None
    names = [name for name, _ in instruction.modifiers]
    suffix = _form_suffix(mnemonic, names)
    forms = vop_forms()
    message = None
    if suffix is not None:
        keys = _form_keys(mnemonic, suffix)
        kinds = [_operand(operand) for operand in instruction.operands]
        message = (suffix == "_dpp" and forms.control_refusal(columns, instruction.modifiers)) or None
        message = message or _variant_rejection(keys, suffix, columns) or _every(
            columns, keys, lambda key, column: forms.form_refusal(key, column, kinds, names))
        form = _FORM_NAMES[suffix]
    keys = _lane_keys(mnemonic, suffix)
    if message is None and suffix is None:
        reads = [_read(operand) for operand in instruction.operands]
        if sum(read is not None for read in reads) >= 2:
            probed = [operand_kind(operand) for operand in instruction.operands]
            refusal = operand_verdicts().refusal  # a form may refuse an operand's kind where another's bus is full
            message = _every(columns, keys, lambda key, column: forms.bus_refusal(key, column, reads)
                             or refusal(key, (column,), probed, names))
            form = "VOP"
    if message is None and forms.one_wave_size(masks) and forms.has_lane_masks(keys):
        # with the wave size unknown, llvm-mc may be asked for both at once (`+wavefrontsize32,+wavefrontsize64`)
        message = _every(masks, keys, lambda key, column: forms.lane_refusal(key, column, instruction.operands))
        form = "wave64" if forms.wave64(masks[0]) else "wave32"
    if message is None:
        return None
    return f"'{mnemonic}' ({form} form): {message} ({target}, as llvm-mc 22 says)"


def _form_suffix(mnemonic: str, names: list[str]) -> str | None:
    """`_dpp`, `_dpp8` or `_sdwa`: the form the suffix or the controls written choose, or None."""
    if "dpp8" in names:
        return "_dpp8"
    dpp = any(name in DPP_CONTROLS for name in names)
    sdwa = any(name in _SDWA for name in names)
    if dpp != sdwa:
        return "_dpp" if dpp else "_sdwa"
    if not dpp:
        for suffix in ("_sdwa", "_dpp"):
            if mnemonic.endswith(suffix):
                return suffix
    return None


def _base(mnemonic: str) -> str:
    return mnemonic.removesuffix("_dpp").removesuffix("_sdwa")


def _form_keys(mnemonic: str, suffix: str) -> list[str]:
    """The forms llvm-mc may encode the instruction in: a DPP one may be a VOP3 DPP one (gfx11+) where no suffix
    says which."""
    base = _base(mnemonic)
    keys = [base + suffix]
    if suffix != "_sdwa" and not base.endswith(("_e32", "_e64")):
        keys.append(base + "_e64" + suffix)
    return keys


def _exists(key: str, column: int) -> bool:
    """Whether the configuration has the form at all (a DPP8 form where it has the DPP one)."""
    return mnemonic_verdicts().rejection(key.removesuffix("8"), (column,)) is None


def _every(columns: tuple[int, ...], keys: list[str], judge: Callable[[str, int], str | None]) -> str | None:
    """The message where every configuration refuses the instruction in every form of `keys` it has, or None."""
    found: set[str] = set()
    for column in columns:
        present = [key for key in keys if _exists(key, column)]
        messages = [judge(key, column) for key in present]
        if not messages or any(message is None for message in messages):
            return None
        found.update(message for message in messages if message is not None)
    return min(found) if found else None


def _variant_rejection(keys: list[str], suffix: str, columns: tuple[int, ...]) -> str | None:
    """llvm-mc's message where the target has the instruction but none of the forms the controls choose
    (`v_mac_f32` has no SDWA form on gfx9)."""
    if suffix == "_dpp8":
        return None
    verdicts = mnemonic_verdicts()
    base = _base(keys[0]).removesuffix("_e64").removesuffix("_e32")
    if verdicts.rejection(base, columns) is not None and verdicts.rejection(base + "_e32", columns) is not None:
        return None
    messages = [verdicts.rejection(key, columns) for key in keys]
    if any(message is None or message == NOT_AN_INSTRUCTION for message in messages):
        return None
    return messages[0]


def _lane_keys(mnemonic: str, suffix: str | None) -> list[str]:
    """The forms that decide the instruction: the ones the suffix or the controls choose; for a mnemonic without
    either, each of its VOP2/VOPC and VOP3 forms (those the target has are judged, see `_every`)."""
    if suffix is not None:
        return _form_keys(mnemonic, suffix)
    if mnemonic.endswith(("_e32", "_e64")):
        return [mnemonic]
    known = operand_verdicts().knows
    if known(mnemonic):  # printed bare: a VOP3-only instruction (whose `_e64` spelling is the same form)
        return [mnemonic, *(key for key in (mnemonic + "_e32", mnemonic + "_e64") if known(key))]
    return [mnemonic + "_e32", mnemonic + "_e64"]  # a form the target has but no probe printed decides nothing


def _read(node: Node) -> _Read:
    """What a written source reads over the constant bus, its modifiers set aside; None where nothing or unknown."""
    while isinstance(node, (Call, Abs, UnOp)):
        if isinstance(node, UnOp) and isinstance(node.operand, Num):
            break
        inner = node.args[0] if isinstance(node, Call) and len(node.args) == 1 and node.name in ("neg", "abs", "sext") \
            else node.operand if isinstance(node, (Abs, UnOp)) else None
        if inner is None:
            return None
        node = inner
    if isinstance(node, Reg) and node.kind in ("s", "ttmp") and node.half is None:
        return (node.kind, node.index, node.count)
    if isinstance(node, SpecialReg) and node.name in _FAMILIES:
        return (_FAMILIES[node.name], 0, 1)
    if operand_kind(node) == "literal":
        value = -node.operand.value if isinstance(node, UnOp) and isinstance(node.operand, Num) else \
            node.value if isinstance(node, Num) else None
        return ("literal", value, 0) if value is not None else None
    return None


def _different(reads: list[tuple[str, object, int]]) -> bool:
    """Whether the registers are different and do not overlap, and the literals differ (of one type)."""
    for index, first in enumerate(reads):
        for second in reads[index + 1:]:
            if first[0] == "literal" or second[0] == "literal":
                if first[0] == second[0] and (type(first[1]) is not type(second[1]) or first[1] == second[1]):
                    return False
            elif first[0] == second[0]:
                start, other = int(first[1]), int(second[1])  # type: ignore[call-overload]
                if start < other + second[2] and other < start + first[2]:
                    return False
    return True


def _operand(node: Node) -> _Operand:
    """The probe kinds a written source may be, its modifiers (`neg`, `abs`, `sext`, `-`, `|x|`) set aside, and
    those modifiers where it is a VGPR; no kind where the probes do not decide it."""
    wrappers: list[str] = []
    while True:
        if isinstance(node, Call) and node.name in ("neg", "abs", "sext") and len(node.args) == 1:
            wrappers.append(node.name)
            node = node.args[0]
        elif isinstance(node, Abs):
            wrappers.append("abs")
            node = node.operand
        elif isinstance(node, UnOp) and node.op == "-" and not isinstance(node.operand, Num):
            wrappers.append("neg")
            node = node.operand
        else:
            break
    if isinstance(node, SpecialReg):
        kinds = (node.name,) if node.name in _MASKS else _SCALAR_SPECIALS.get(node.name, ())
        return kinds, (), (node.name, 0, 1) if kinds else None
    if isinstance(node, Reg) and node.half is None and node.kind in ("s", "ttmp") and node.count <= 2:
        scalar = f"s{node.count}"
        kinds = (scalar,) if node.kind == "s" else (scalar, "exec" if node.count == 2 else "exec_lo")
        return kinds, (), (node.kind, node.index, node.count)
    kind = operand_kind(node)
    if kind == "v":
        return ("v",), tuple(wrappers), None
    return ((kind,) if kind in ("iconst", "literal") else ()), (), None
