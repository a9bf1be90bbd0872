"""Kernel metadata: `.amdhsa_kernel` descriptors, `.amdgpu_metadata` YAML, `.amd_kernel_code_t`."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from ..model.ir import USER_SGPRS
from ..model.targets import Target

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

REQUIRED: Final = "required"
FROM_TARGET: Final = "target"

#: `.amdhsa_<name>` directives with their defaults (AMDGPUUsage, amdhsa-kernel-directives-table).
AMDHSA_DIRECTIVES: Final[dict[str, int | str]] = {
    "group_segment_fixed_size": 0,
    "private_segment_fixed_size": 0,
    "kernarg_size": 0,
    "user_sgpr_count": 0,
    "user_sgpr_private_segment_buffer": 0,
    "user_sgpr_dispatch_ptr": 0,
    "user_sgpr_queue_ptr": 0,
    "user_sgpr_kernarg_segment_ptr": 0,
    "user_sgpr_dispatch_id": 0,
    "user_sgpr_flat_scratch_init": 0,
    "user_sgpr_private_segment_size": 0,
    "user_sgpr_kernarg_preload_length": 0,
    "user_sgpr_kernarg_preload_offset": 0,
    "wavefront_size32": FROM_TARGET,
    "uses_dynamic_stack": 0,
    "named_barrier_count": 0,
    "system_sgpr_private_segment_wavefront_offset": 0,
    "enable_private_segment": 0,
    "system_sgpr_workgroup_id_x": 1,
    "system_sgpr_workgroup_id_y": 0,
    "system_sgpr_workgroup_id_z": 0,
    "system_sgpr_workgroup_info": 0,
    "system_vgpr_workitem_id": 0,
    "next_free_vgpr": REQUIRED,
    "next_free_sgpr": REQUIRED,
    "accum_offset": REQUIRED,
    "reserve_vcc": 1,
    "reserve_flat_scratch": 1,
    "reserve_xnack_mask": FROM_TARGET,
    "float_round_mode_32": 0,
    "float_round_mode_16_64": 0,
    "float_denorm_mode_32": 0,
    "float_denorm_mode_16_64": 3,
    "dx10_clamp": 1,
    "ieee_mode": 1,
    "round_robin_scheduling": 0,
    "fp16_overflow": 0,
    "tg_split": FROM_TARGET,
    "workgroup_processor_mode": FROM_TARGET,
    "memory_ordered": 1,
    "forward_progress": 1,
    "shared_vgpr_count": 0,
    "inst_pref_size": 0,
    "exception_fp_ieee_invalid_op": 0,
    "exception_fp_denorm_src": 0,
    "exception_fp_ieee_div_zero": 0,
    "exception_fp_ieee_overflow": 0,
    "exception_fp_ieee_underflow": 0,
    "exception_fp_ieee_inexact": 0,
    "exception_int_div_zero": 0,
}


_WORD_MAXIMUM = (1 << 32) - 1
#: The largest value llvm-mc 22 takes for each `.amdhsa_` directive on any target: the width of its field in the
#: descriptor (1 for an enable bit). llvm-mc takes any .amdhsa_user_sgpr_count, but the descriptor holds 32 user
#: SGPRs at most, and any .amdhsa_next_free_sgpr from gfx10 on (it ignores it there).
AMDHSA_MAXIMA: Final[dict[str, int]] = {
    **dict.fromkeys(AMDHSA_DIRECTIVES, 1),
    "group_segment_fixed_size": _WORD_MAXIMUM, "private_segment_fixed_size": _WORD_MAXIMUM,
    "kernarg_size": _WORD_MAXIMUM, "user_sgpr_count": 32, "user_sgpr_kernarg_preload_length": 32,
    "user_sgpr_kernarg_preload_offset": 511, "named_barrier_count": (1 << 18) - 1, "system_vgpr_workitem_id": 3,
    "next_free_vgpr": 1024, "next_free_sgpr": _WORD_MAXIMUM, "accum_offset": 256, "float_round_mode_32": 3,
    "float_round_mode_16_64": 3, "float_denorm_mode_32": 3, "float_denorm_mode_16_64": 3, "shared_vgpr_count": 15,
    "inst_pref_size": 255,
}


#: Kernel metadata entries the analyses read as counts or sizes.
_COUNTS = frozenset((".agpr_count", ".vgpr_count", ".sgpr_count", ".vgpr_spill_count", ".sgpr_spill_count",
                     ".group_segment_fixed_size", ".private_segment_fixed_size", ".kernarg_segment_size",
                     ".wavefront_size", ".max_flat_workgroup_size"))


def _is_count(value: Any) -> bool:
    return type(value) is int and 0 <= value <= _WORD_MAXIMUM


def unusable_counts(document: dict[str, Any]) -> list[str]:
    """What is wrong with each count or size in the kernels' entries that is no integer from 0 to 2^32 - 1
    (`.agpr_count: abc`); `usable_entry` leaves them out."""
    kernels = document.get("amdhsa.kernels")
    return [f"kernel '{entry.get('.name')}': '{key}' is {value!r}, not a count (0 to {_WORD_MAXIMUM})"
            for entry in (kernels if isinstance(kernels, list) else []) if isinstance(entry, dict)
            for key, value in entry.items() if key in _COUNTS and not _is_count(value)]


def usable_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A kernel's metadata entry without the counts and sizes `unusable_counts` reports."""
    return {key: value for key, value in entry.items() if key not in _COUNTS or _is_count(value)}


def needs_accum_offset(target: Target | None) -> bool:
    return target is not None and target.has_gfx90a_insts


def target_default(name: str, target: Target | None) -> int | None:
    """Default of a directive whose default comes from the target's features."""
    if target is None:
        return None
    features = target.features
    if name == "wavefront_size32":
        return int(target.major >= 10 and not features.get("wavefrontsize64", False))
    if name == "reserve_xnack_mask":
        return int("xnack" in target.supported_features and features.get("xnack", True) and target.major < 11)
    if name == "tg_split":
        return int(features.get("tgsplit", False))
    if name == "workgroup_processor_mode":
        return int(target.major >= 10 and not features.get("cumode", False))
    return None


#: descriptor directives llvm-mc refuses with architected flat scratch (gfx942, gfx950, gfx11+), and one it refuses without
_NOT_WITH_ARCHITECTED: Final = frozenset(("user_sgpr_private_segment_buffer", "user_sgpr_flat_scratch_init",
                                   "system_sgpr_private_segment_wavefront_offset", "reserve_flat_scratch"))
_ONLY_WITH_ARCHITECTED: Final = frozenset(("enable_private_segment",))


def against_target(name: str, value: int | None, target: Target | None) -> str | None:
    """What llvm-mc 22 says of `.amdhsa_<name> <value>` on `target`; None where it accepts it."""
    if target is None:
        return None
    if name in _NOT_WITH_ARCHITECTED and target.architected_flat_scratch:
        return f"'.amdhsa_{name}' is not supported with architected flat scratch ({target.name})"
    if name in _ONLY_WITH_ARCHITECTED and not target.architected_flat_scratch:
        return f"'.amdhsa_{name}' needs architected flat scratch (gfx942, gfx950, gfx11+), which {target.name} has not"
    if name != "reserve_xnack_mask":
        return None
    if target.major < 8:
        return "'.amdhsa_reserve_xnack_mask' requires gfx8+"
    xnack = target.features.get("xnack")
    supported = "xnack" in target.supported_features
    wanted = int(supported and xnack is not False)
    if value is None or value == wanted:
        return None
    setting = "not a feature of " + target.name if not supported else (
        "off (xnack-)" if xnack is False else "on (xnack+)" if xnack else "'any' (the target id names no setting)")
    return f"'.amdhsa_reserve_xnack_mask {value}' does not match the target id: xnack is {setting}, so it must be {wanted}"


def implied_user_sgpr_count(values: dict[str, Any]) -> int:
    """User SGPRs the enables imply; the assembler uses this when .amdhsa_user_sgpr_count is absent."""
    count = sum(size for key, size in USER_SGPRS.items() if values.get(key))
    return count + (values.get("user_sgpr_kernarg_preload_length") or 0)


def fill_descriptor_defaults(values: dict[str, Any], target: Target | None) -> list[str]:
    """Add defaults for omitted directives in place; return the required ones that are missing."""
    if "user_sgpr_count" not in values:
        values["user_sgpr_count"] = implied_user_sgpr_count(values)
    defaults, required = _descriptor_defaults(target, tuple(sorted(target.features.items())) if target else ())
    for name, default in defaults:
        if name not in values:
            values[name] = default
    return [name for name in required if name not in values]


@lru_cache(maxsize=64)
def _descriptor_defaults(target: Target | None, features: tuple[tuple[str, bool], ...]
                         ) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    """(each directive's default on the target, in the table's order; the directives it requires), for a target
    with these features (a Target's equality leaves them out)."""
    defaults: list[tuple[str, int]] = []
    required: list[str] = []
    for name, default in AMDHSA_DIRECTIVES.items():
        if default == REQUIRED:
            if name != "accum_offset" or needs_accum_offset(target):
                required.append(name)
        elif default == FROM_TARGET:
            value = target_default(name, target)
            if value is not None:
                defaults.append((name, value))
        else:
            assert isinstance(default, int)
            defaults.append((name, default))
    return tuple(defaults), tuple(required)


class MetadataError(ValueError):
    """The `.amdgpu_metadata` block is not valid YAML (message says where)."""

    def __init__(self, message: str, line_offset: int):
        super().__init__(message)
        self.line_offset = line_offset


def _plain_string(loader: Any, node: Any) -> Any:
    """LLVM's `!str` tag: the scalar as it is."""
    return loader.construct_scalar(node)


@lru_cache(maxsize=1)
def _loader():
    """PyYAML's safe loader (imported on first use) that also reads LLVM's `!str ''` tag."""
    import yaml

    base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when PyYAML has it

    Loader: type[yaml.SafeLoader] = type("Loader", (base,), {"__doc__": "The safe loader with LLVM's `!str` tag."})
    Loader.add_constructor("!str", _plain_string)
    return Loader


class _NotPlain(Exception):
    """The document is not in the shape LLVM writes; PyYAML reads it."""


_KEY = re.compile(r"(\.?[A-Za-z_][\w.\-]*):(?: +(.*))?\Z", re.ASCII)
_WORDS = re.compile(r"[A-Za-z_][\w.\-]*(?: [\w.\-]+)*\Z", re.ASCII)
_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,18})\Z")  # longer: PyYAML's to read (or refuse)
_QUOTED = re.compile(r"'((?:[^']|'')*)'\Z")
#: Plain words YAML 1.1 reads as booleans, nulls or floats (the reader takes only true and false, as values).
_RESERVED = frozenset(["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", ".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"])


def _scalar(text: str) -> Any:
    """A value as PyYAML reads it, for the forms LLVM writes: integers, true/false, words, quoted and
    `!str` strings, and flow lists of integers."""
    if _INT.match(text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    if _WORDS.match(text) and text not in _RESERVED:
        return text
    quoted = _QUOTED.match(text[5:] if text.startswith("!str '") else text)
    if quoted:
        return quoted.group(1).replace("''", "'")
    if text.startswith("[") and text.endswith("]"):
        items = text[1:-1].split(",")
        if items == [""] or items == [" "]:
            return []
        if all(_INT.match(item.strip()) for item in items):
            return [int(item) for item in items]
    raise _NotPlain


def _skip_blank(lines: list[str], at: int) -> int:
    """The first line at or after `at` that is not blank (len(lines) if none is)."""
    while at < len(lines) and not lines[at].strip():
        at += 1
    return at


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(lines: list[str], at: int, indent: int) -> tuple[Any, int]:
    """The mapping or sequence whose first line is lines[at], indented by `indent`; and the line after it."""
    if lines[at][indent : indent + 2] == "- ":
        items = []
        while (at := _skip_blank(lines, at)) < len(lines) and (depth := _depth(lines[at])) >= indent:
            line = lines[at]
            if depth > indent or line[indent : indent + 2] != "- " or line[indent + 2 : indent + 3] in (" ", "-"):
                raise _NotPlain
            if _KEY.match(line, indent + 2):  # a mapping that starts on the item's line
                lines[at] = " " * (indent + 2) + line[indent + 2 :]
                item, at = _block(lines, at, indent + 2)
            else:
                item, at = _scalar(line[indent + 2 :]), at + 1
            items.append(item)
        return items, at
    mapping: dict[str, Any] = {}
    while (at := _skip_blank(lines, at)) < len(lines) and (depth := _depth(lines[at])) >= indent:
        line = lines[at]
        key = _KEY.match(line, indent) if depth == indent else None
        if key is None or key.group(1) in _RESERVED:
            raise _NotPlain
        if key.group(2) is not None:
            mapping[key.group(1)], at = _scalar(key.group(2)), at + 1
            continue
        nested = _skip_blank(lines, at + 1)
        if nested == len(lines) or _depth(lines[nested]) <= indent:
            raise _NotPlain  # a null value
        mapping[key.group(1)], at = _block(lines, nested, _depth(lines[nested]))
    return mapping, at


def _read_llvm_metadata(text: str) -> dict[str, Any] | None:
    """The document when it has the shape LLVM writes (block mappings and sequences, the scalars of
    `_scalar`), read without PyYAML; None for anything else."""
    if "\t" in text or "#" in text or '"' in text:
        return None
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if start < len(lines) and lines[start] == "---":
        start += 1
    end = next((i for i in range(start, len(lines)) if lines[i] == "..."), len(lines))
    if any(line.strip() for line in lines[end + 1 :]):
        return None
    body = lines[start:end]
    first = next((i for i, line in enumerate(body) if line.strip()), None)
    if first is None or body[first][0] == " ":
        return None
    try:
        document, stop = _block(body, first, 0)
    except (_NotPlain, RecursionError):
        return None
    return document if isinstance(document, dict) and stop == len(body) else None


def parse_metadata_yaml(text: str) -> dict[str, Any]:
    """Parse the YAML document of an `.amdgpu_metadata` block: the shape LLVM writes by a small
    reader of its own, anything else by PyYAML (imported then: loading it costs a small file more
    than reading its metadata)."""
    document = _read_llvm_metadata(text)
    if document is not None:
        return document
    import yaml

    try:
        document = yaml.load(text, Loader=_loader())
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise MetadataError(f"invalid YAML in .amdgpu_metadata: {problem}", mark.line if mark else 0) from None
    except ValueError as unreadable:  # a scalar PyYAML cannot convert: a date that is none, an integer of 5,000 digits
        reason = str(unreadable).split(";")[0]
        raise MetadataError(f"invalid YAML in .amdgpu_metadata: a value cannot be read ({reason})", 0) from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise MetadataError(".amdgpu_metadata must be a YAML mapping", 0)
    return document


_KERNEL_CODE_FIELD = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*(.*?)\s*\Z")


def parse_kernel_code_t(text: str) -> tuple[dict[str, tuple[int, str]], list[tuple[int, str]]]:
    """Parse `key = value` lines of an `.amd_kernel_code_t` block.

    Returns ({key: (line offset, value text)}, [(line offset, bad line)]).
    """
    fields: dict[str, tuple[int, str]] = {}
    bad: list[tuple[int, str]] = []
    for offset, raw in enumerate(text.split("\n")):
        line = raw.split(";", 1)[0].split("//", 1)[0]
        if not line.strip():
            continue
        match = _KERNEL_CODE_FIELD.match(line)
        if match is None:
            bad.append((offset, line.strip()))
            continue
        fields[match.group(1)] = (offset, match.group(2))
    return fields, bad


#: Code properties of a code object v2 kernel (`.amd_amdgpu_hsa_metadata`'s `CodeProps`) that size it.
V2_CODE_PROPS = ("GroupSegmentFixedSize", "PrivateSegmentFixedSize", "NumVGPRs", "NumSGPRs")
_V2_KERNELS = re.compile(r"^[ \t{]*Kernels:", re.MULTILINE)
_V2_ITEM = re.compile(r"^([ \t]*)-[ \t]", re.MULTILINE)
_V2_NAME = re.compile(r"\bName:[ \t]*'?([\w.$@]+)")
_V2_PROP = re.compile(r"\b(" + "|".join(V2_CODE_PROPS) + r"):[ \t]*(\d+)\b")


def read_v2_code_props(text: str) -> dict[str, dict[str, tuple[int, int, int]]]:
    """Each kernel's sizing `CodeProps` in a code object v2 `.amd_amdgpu_hsa_metadata` block, by name:
    {key: (value, line offset in the block, column)}. LLVM 14 read flow mappings inside block sequences (as
    MIOpen writes them), which YAML readers refuse, so the entries are found by their `-` items under
    `Kernels:` and each entry's first `Name:` is its kernel."""
    kernels = _V2_KERNELS.search(text)
    if kernels is None:
        return {}
    items = list(_V2_ITEM.finditer(text, kernels.end()))
    if not items:
        return {}
    indent = items[0].group(1)
    starts = [item.start() for item in items if item.group(1) == indent] + [len(text)]
    found: dict[str, dict[str, tuple[int, int, int]]] = {}
    for start, end in pairwise(starts):
        entry = text[start:end]
        name = _V2_NAME.search(entry)
        if name is None:
            continue
        props: dict[str, tuple[int, int, int]] = {}
        for prop in _V2_PROP.finditer(entry):
            at = start + prop.start()
            props.setdefault(prop.group(1), (int(prop.group(2)), text.count("\n", 0, at), at - text.rfind("\n", 0, at)))
        found[name.group(1)] = props
    return found


_V3_KERNELS = re.compile(r"^[ \t]*amdhsa\.kernels:", re.MULTILINE)


def v3_key_position(text: str, kernel: str, key: str) -> tuple[int, int] | None:
    """Where `key` of `kernel`'s entry is in an `.amdgpu_metadata` block's text: (line offset, column), or None."""
    kernels = _V3_KERNELS.search(text)
    if kernels is None:
        return None
    items = list(_V2_ITEM.finditer(text, kernels.end()))
    if not items:
        return None
    indent = items[0].group(1)
    starts = [item.start() for item in items if item.group(1) == indent]
    ends = [*starts[1:], len(text)]
    named = re.compile(r"\.name:[ \t]*['\"]?" + re.escape(kernel) + r"['\"]?[ \t]*$", re.MULTILINE)
    wanted = re.compile(r"(?:^|[-\s{,])(" + re.escape(key) + r"):", re.MULTILINE)
    for start, end in zip(starts, ends, strict=True):
        if named.search(text, start, end):
            found = wanted.search(text, start, end)
            if found is None:
                return None
            at = found.start(1)
            return text.count("\n", 0, at), at - text.rfind("\n", 0, at)
    return None
