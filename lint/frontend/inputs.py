"""Inputs that are not assembly: LLVM IR (`.ll`, `.bc`), code objects (`.o`, `.hsaco`, `.co`,
clang offload bundles) and Triton cache entries (`.amdgcn` next to its `.json`).

Each is turned into assembly text the rest of the tool reads as usual. Generated listings are
written under the system temp directory (never next to the user's files) and the diagnostics
point at them; a note on every diagnostic names the original input. Which paths are such inputs is
`options.is_other_input`'s answer; what a conversion needs (hashing, temp files, tools) is imported when one runs.
"""

from __future__ import annotations

import json
import os
import re
import struct
from dataclasses import dataclass, replace
from pathlib import Path

from ..model.ir import ReadProblem, SourceFile
from .options import IR_SUFFIXES, TRITON_SUFFIX, BuildOptions, is_source_input
from .source import split_lines

OBJDUMP_VARIABLE = "AMDGPU_LINT_OBJDUMP"  # path to an llvm-objdump with AMDGPU, or "none"

_BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
_COMPRESSED_BUNDLE_MAGIC = b"CCOB"
_ELF_MAGIC = b"\x7fELF"
_NT_AMDGPU_METADATA = 32
_TARGET_CPU = re.compile(r'"target-cpu"="(gfx[0-9a-z]+)"')


@dataclass(slots=True, repr=False, init=False, eq=False)
class Prepared:
    """Assembly made from one input, ready to lint."""

    source: SourceFile
    options: BuildOptions
    origin: str  # what the user passed, for notes
    described: str  # how the listing was made
    generated: bool = True  # the listing was written to a temp path
    target: str = ""  # the target a source was compiled for, where it was compiled for several (named in findings)
    notes: tuple[str, ...] = ()  # what the compile had to do differently (flags it added), said once per file

    def __init__(self, source: SourceFile, options: BuildOptions, origin: str, described: str, generated: bool = True,
                 target: str = "", notes: tuple[str, ...] = ()) -> None:
        self.source = source
        self.options = options
        self.origin = origin
        self.described = described
        self.generated = generated
        self.target = target
        self.notes = notes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Prepared) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.source, self.options, self.origin, self.described, self.generated, self.target, self.notes) == (
            other.source, other.options, other.origin, other.described, other.generated, other.target,
            other.notes)


class InputError(Exception):
    """The input cannot be turned into assembly at all."""


def prepare(path: Path, options: BuildOptions, buffer: str | None = None) -> list[Prepared]:
    """Turn `path` into one or more assembly listings (an offload bundle holds several, a HIP or OpenCL source one
    per target of `--mcpu`; a source's unsaved `buffer` text is compiled instead of the file, when given)."""
    if is_source_input(path, options):
        return _from_source(path, options, buffer)
    if path.suffix in IR_SUFFIXES:
        return [_from_ir(path, options)]
    if path.suffix == TRITON_SUFFIX:
        return [_from_triton(path, options)]
    return _from_code_object_file(path, options)


def _listing_path(origin: Path, data: bytes, name: str) -> Path:
    import hashlib
    import tempfile

    digest = hashlib.sha256(data).hexdigest()[:16]
    directory = Path(tempfile.gettempdir()) / "amdgpu-lint" / digest
    directory.mkdir(parents=True, exist_ok=True)
    return directory / name


def _write_listing(origin: Path, data: bytes, name: str, text: str) -> str:
    target = _listing_path(origin, data, name)
    target.write_text(text, encoding="utf-8")
    return str(target)


# ---- LLVM IR


def _from_ir(path: Path, options: BuildOptions) -> Prepared:
    data = path.read_bytes()
    try:
        import llvmlite.binding as llvm
    except ImportError:
        raise InputError("LLVM IR input needs llvmlite (pip install 'amdgpu-lint[ir]')") from None
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    try:
        if path.suffix == ".bc":
            module = llvm.parse_bitcode(data)
        else:
            module = llvm.parse_assembly(data.decode("utf-8", errors="replace"))
        module.verify()
    except RuntimeError as error:
        raise InputError(f"LLVM cannot read the IR: {_first_line(str(error))}") from None
    if module.triple and not module.triple.startswith("amdgcn"):
        raise InputError(f"the IR targets {module.triple}, not amdgcn-amd-amdhsa")
    cpu = options.mcpu or _ir_cpu(str(module))
    if not cpu:
        raise InputError("no target processor: the IR names no \"target-cpu\"; pass --mcpu (or set mcpu in the config)")
    module.triple = "amdgcn-amd-amdhsa"
    machine = llvm.Target.from_triple("amdgcn-amd-amdhsa").create_target_machine(cpu=cpu.split(":")[0], opt=2)
    try:
        assembly = machine.emit_assembly(module)
    except RuntimeError as error:
        raise InputError(f"LLVM could not compile the IR for {cpu}: {_first_line(str(error))}") from None
    shown = _write_listing(path, data + cpu.encode(), f"{path.stem}.{cpu.split(':')[0]}.s", assembly)
    described = f"compiled from {path} for {cpu} by llvmlite's LLVM {'.'.join(map(str, llvm.llvm_version_info))}"
    return Prepared(split_lines(shown, assembly), replace(options, mcpu=None), str(path), described)


def _ir_cpu(text: str) -> str | None:
    match = _TARGET_CPU.search(text)
    return match.group(1) if match else None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "unknown error"


# ---- HIP and OpenCL


def _from_source(path: Path, options: BuildOptions, buffer: str | None = None) -> list[Prepared]:
    """One listing per target of `--mcpu` (comma-separated), compiled device-only (frontend/compile.py)."""
    from .compile import OPENCL_SUFFIXES, compile_listing, find_compiler, from_compile_database

    opencl = path.suffix in OPENCL_SUFFIXES
    targets = [cpu.strip() for cpu in (options.mcpu or "").split(",") if cpu.strip()]
    if not targets:
        raise InputError("a HIP or OpenCL source needs its targets: pass --mcpu gfx942 (or gfx942,gfx90a)")
    compiler = find_compiler(options.compiler, opencl)
    if compiler is None:
        wanted = "clang" if opencl else "hipcc"
        raise InputError(f"no compiler for {path.name}: install ROCm ({wanted}, /opt/rocm/llvm/bin) or Debian's "
                         "clang-22 (apt-get install clang-22), set $HIPCC or $ROCM_PATH, or pass --compiler")
    database = _compile_database(path)
    project = from_compile_database(path, database)
    flags = [*options.compile_flags, *project.flags]
    notes = [*options.input_notes, *(f"{database}: {flag} left out" for flag in project.dropped)]
    prepared = []
    for cpu in targets:
        listing = compile_listing(path, cpu, compiler, flags, opencl, buffer)
        described = (f"compiled from {path}{' as open in the editor' if buffer is not None else ''} for {cpu} by {compiler.path} "
                     f"({compiler.chosen})" + "".join(f"; {note}" for note in [*notes, *listing.notes]))
        prepared.append(Prepared(split_lines(listing.path, listing.text), replace(options, mcpu=None), str(path),
                                 described, target=cpu if len(targets) > 1 else "", notes=listing.notes))
    return prepared


def _compile_database(source: Path) -> Path | None:
    """The nearest `compile_commands.json` at or above the source's directory (or in a `build/` there), as clangd
    looks for it."""
    for directory in (source.resolve().parent, *source.resolve().parents):
        for candidate in (directory / "compile_commands.json", directory / "build" / "compile_commands.json"):
            if candidate.is_file():
                return candidate
    return None


# ---- Triton


def _from_triton(path: Path, options: BuildOptions) -> Prepared:
    """A Triton cache entry: the `.amdgcn` listing lints in place; its `.json` gives the target
    and the launch (num_warps x warp_size work-items per group, `shared` bytes of dynamic LDS: Triton's
    LDS is one `extern` array sized at launch, and the listing declares none of it)."""
    source = split_lines(str(path), path.read_bytes().decode("utf-8", errors="replace"))
    described = "Triton kernel"
    metadata_path = path.with_suffix(".json")
    if metadata_path.is_file():
        try:
            metadata = json.loads(metadata_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            source.problems.append(ReadProblem("input-conversion", f"{metadata_path}: not readable JSON ({error}); "
                                               "linting without Triton's launch parameters", 1))
            metadata = {}
        target = metadata.get("target") if isinstance(metadata.get("target"), dict) else {}
        arch = target.get("arch") if isinstance(target.get("arch"), str) else None
        warp_size = target.get("warp_size")
        if not isinstance(warp_size, int):
            warp_size = 64
        warps = metadata.get("num_warps")
        if options.mcpu is None and arch:
            options = replace(options, mcpu=arch)
        if isinstance(warps, int) and warps > 0 and options.wg_size is None and options.launch is None:
            options = replace(options, wg_size=(warps * warp_size,) * 2)
            described += f" ({metadata_path.name}: {arch or 'no arch'}, num_warps {warps} x warp_size {warp_size})"
        shared = metadata.get("shared")
        if isinstance(shared, int) and not isinstance(shared, bool) and shared >= 0 and options.launch_lds is None:
            options = replace(options, launch_lds=shared)
    return Prepared(source, options, str(path), described, generated=False)


# ---- code objects


def _from_code_object_file(path: Path, options: BuildOptions) -> list[Prepared]:
    data = path.read_bytes()
    if data.startswith(_COMPRESSED_BUNDLE_MAGIC):
        raise InputError("compressed offload bundle: unbundle it first (clang-offload-bundler -unbundle)")
    if data.startswith(_BUNDLE_MAGIC):
        entries = [(name, blob) for name, blob in _bundle_entries(data) if "amdgcn" in name and blob.startswith(_ELF_MAGIC)]
        if not entries:
            raise InputError("offload bundle has no amdgcn code object")
        return [_from_code_object(path, blob, options, name) for name, blob in entries]
    if not data.startswith(_ELF_MAGIC):
        raise InputError("not an ELF code object or clang offload bundle")
    return [_from_code_object(path, data, options, None)]


def _bundle_entries(data: bytes) -> list[tuple[str, bytes]]:
    """(id, bytes) of each entry in a clang offload bundle."""
    position = len(_BUNDLE_MAGIC)
    try:
        (count,) = struct.unpack_from("<Q", data, position)
        position += 8
        entries = []
        for _ in range(count):
            offset, size, id_size = struct.unpack_from("<QQQ", data, position)
            position += 24
            name = data[position:position + id_size].decode("ascii", errors="replace")
            position += id_size
            entries.append((name, data[offset:offset + size]))
    except struct.error:
        raise InputError("truncated offload bundle header") from None
    return entries


@dataclass(slots=True, repr=False, init=False, eq=False)
class _CodeObject:
    """What a code object holds that linting needs."""

    target: str
    metadata: dict
    descriptors: dict[str, bytes]  # kernel name -> 64-byte kernel descriptor

    def __init__(self, target: str, metadata: dict, descriptors: dict[str, bytes]) -> None:
        self.target = target
        self.metadata = metadata
        self.descriptors = descriptors

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _CodeObject) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.target, self.metadata, self.descriptors) == (other.target, other.metadata, other.descriptors)


def _read_code_object(data: bytes) -> _CodeObject:
    try:
        import msgpack
        from elftools.common.exceptions import ELFError
        from elftools.elf.elffile import ELFFile
        from elftools.elf.sections import NoteSection, SymbolTableSection
    except ImportError:
        raise InputError("code object input needs pyelftools and msgpack (pip install 'amdgpu-lint[objects]')") from None
    import io

    try:
        elf = ELFFile(io.BytesIO(data))
        metadata: dict = {}
        for section in elf.iter_sections():
            if not isinstance(section, NoteSection):
                continue
            for note in section.iter_notes():
                if note["n_name"] == "AMDGPU" and note["n_type"] in (_NT_AMDGPU_METADATA, "NT_AMDGPU_METADATA"):
                    raw = note["n_descdata"]
                    metadata = msgpack.unpackb(raw.encode("latin-1") if isinstance(raw, str) else raw, raw=False)
        descriptors: dict[str, bytes] = {}
        symbols = elf.get_section_by_name(".symtab")
        for symbol in symbols.iter_symbols() if isinstance(symbols, SymbolTableSection) else ():
            if not symbol.name.endswith(".kd") or not isinstance(symbol["st_shndx"], int):
                continue
            section = elf.get_section(symbol["st_shndx"])
            start = symbol["st_value"] - (section["sh_addr"] if elf.header["e_type"] != "ET_REL" else 0)
            descriptors[symbol.name[:-3]] = section.data()[start:start + 64]
        flags, abi_version = elf.header["e_flags"], elf.header["e_ident"]["EI_ABIVERSION"]
    except (ELFError, ValueError, KeyError, struct.error) as error:
        raise InputError(f"unreadable ELF code object: {error}") from None
    target = metadata.get("amdhsa.target", "") if isinstance(metadata, dict) else ""
    if not target:  # no metadata note: the ELF header names the processor
        from ..model.targets import target_id_from_elf_flags

        from_flags = target_id_from_elf_flags(flags, abi_version if isinstance(abi_version, int) else 2)
        target = f"amdgcn-amd-amdhsa--{from_flags}" if from_flags else ""
    return _CodeObject(target, metadata if isinstance(metadata, dict) else {}, descriptors)


def _descriptor_directives(descriptor: bytes, target_cpu: str, sgpr_count: int | None) -> list[str]:
    """`.amdhsa_*` lines for one 64-byte kernel descriptor (AMDGPUUsage, "Kernel Descriptor").
    The SGPR field is granulated (and reserved on gfx10+), so the metadata's exact count is used
    when there is one, as LLVM's occupancy does."""
    group, private, kernarg = struct.unpack_from("<III", descriptor, 0)
    rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", descriptor, 44)
    (properties,) = struct.unpack_from("<H", descriptor, 56)
    from ..model.targets import extra_sgprs, parse_target_id

    target = parse_target_id(target_cpu) if target_cpu else None
    wave32 = bool(properties & (1 << 10)) and target is not None and target.major >= 10
    granule = target.vgpr_encoding_granule(32 if wave32 else 64) if target else 4
    blocks_sgprs = 0 if target is not None and target.major >= 10 else ((rsrc1 >> 6) & 0xF) * 8 + 8
    # the counts include the reserved extras; those the target always reserves are added back, and the XNACK mask
    # where the target id makes llvm-mc want `.amdhsa_reserve_xnack_mask 1` (xnack on or 'any')
    xnack = target is not None and "xnack" in target.supported_features and target.features.get("xnack") is not False
    unavoidable = extra_sgprs(target, False, False, xnack) if target is not None else 0
    lines = [
        f".amdhsa_group_segment_fixed_size {group}",
        f".amdhsa_private_segment_fixed_size {private}",
        f".amdhsa_kernarg_size {kernarg}",
        f".amdhsa_next_free_vgpr {((rsrc1 & 0x3F) + 1) * granule}",
        f".amdhsa_next_free_sgpr {max(0, (sgpr_count if sgpr_count is not None else blocks_sgprs) - unavoidable)}",
        ".amdhsa_reserve_vcc 0",
        f".amdhsa_user_sgpr_count {(rsrc2 >> 1) & 0x1F}",
    ]
    if target is not None and 7 <= target.major <= 10 and not target.is_gfx94_plus:
        lines.append(".amdhsa_reserve_flat_scratch 0")
    if target is not None and "xnack" in target.supported_features:
        lines.append(f".amdhsa_reserve_xnack_mask {int(xnack)}")
    if target is not None and target.has_gfx90a_insts:
        lines.append(f".amdhsa_accum_offset {((rsrc3 & 0x3F) + 1) * 4}")
    if target is not None and target.major >= 10:
        lines.append(f".amdhsa_wavefront_size32 {int(wave32)}")
        lines.append(f".amdhsa_workgroup_processor_mode {(rsrc1 >> 29) & 1}")
    return lines


def find_objdump() -> str | None:
    """An llvm-objdump that knows AMDGPU: $AMDGPU_LINT_OBJDUMP, else the usual names on PATH."""
    import shutil

    chosen = os.environ.get(OBJDUMP_VARIABLE)
    if chosen:
        return None if chosen.lower() == "none" else chosen
    candidates = [f"llvm-objdump-{v}" for v in range(26, 16, -1)] + ["/opt/rocm/llvm/bin/llvm-objdump", "llvm-objdump"]
    return next((found for found in map(shutil.which, candidates) if found), None)


def _disassemble(objdump: str, data: bytes, cpu: str) -> str:
    """Disassembly with symbolized branch targets, as assembly we can read."""
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".o") as handle:
        handle.write(data)
        handle.flush()
        try:
            run = subprocess.run([objdump, "-d", "--symbolize-operands", f"--mcpu={cpu}", handle.name],
                                 capture_output=True, text=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise InputError(f"{objdump} failed: {error}") from None
    if run.returncode != 0 or "elf64-amdgpu" not in run.stdout:
        raise InputError(f"{objdump} cannot disassemble AMDGPU code: {_first_line(run.stderr or run.stdout)}")
    lines: list[str] = []
    function = ""
    header = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
    padding: list[str] = []  # s_nops after an s_endpgm: the code's alignment, unless code or a label follows
    ended = False
    for text in run.stdout.split("\n"):
        match = header.match(text)
        if match:
            name = match.group(1)
            if re.fullmatch(r"L\d+", name):
                lines += padding
                lines.append(f".L{function}_{name}:")
            else:
                function = name
                lines += ["", f".globl {name}", f".type {name},@function", f"{name}:"]
            padding, ended = [], False
            continue
        if text.startswith("\t"):
            code = re.sub(r"\b(L\d+)\b", rf".L{function}_\1", text.split("//")[0].rstrip())
            if ended and code.split()[:1] in (["s_nop"], ["s_code_end"]):
                padding.append(code)
                continue
            lines += padding
            lines.append(code)
            padding, ended = [], code.split()[:1] == ["s_endpgm"]
    return "\n".join(lines)


def _from_code_object(path: Path, data: bytes, options: BuildOptions, bundle_id: str | None) -> Prepared:
    import yaml

    code_object = _read_code_object(data)
    cpu = code_object.target.rsplit("--", 1)[-1] if code_object.target else (options.mcpu or "")
    if not cpu:
        raise InputError("the code object names no processor (no amdhsa.target metadata, an unknown e_flags machine); "
                         "pass --mcpu")
    problems: list[str] = []
    objdump = find_objdump()
    body = ""
    if objdump:
        try:
            body = _disassemble(objdump, data, cpu.split(":")[0])
        except InputError as error:
            problems.append(f"{error}; only resources and occupancy were checked")
    else:
        problems.append(f"no llvm-objdump with the AMDGPU target on PATH (or ${OBJDUMP_VARIABLE}): instruction "
                        "rules (waits, hazards, register reads) were skipped; resources and occupancy come from "
                        "the kernel descriptors and metadata")
    kernels = [k for k in code_object.metadata.get("amdhsa.kernels", []) if isinstance(k, dict)]
    names = [str(k.get(".name")) for k in kernels] or list(code_object.descriptors)
    text = [f'.amdgcn_target "{code_object.target or "amdgcn-amd-amdhsa--" + cpu}"', ".text"]
    if body:
        text.append(body)
    else:
        for name in names:
            text += [f".globl {name}", f".type {name},@function", f"{name}:", "  s_endpgm"]
    text.append(".rodata")
    for name in names:
        descriptor = code_object.descriptors.get(name)
        if descriptor is None or len(descriptor) < 64:
            problems.append(f"kernel {name} has no kernel descriptor ({name}.kd)")
            continue
        sgprs = next((k.get(".sgpr_count") for k in kernels if k.get(".name") == name), None)
        directives = _descriptor_directives(descriptor, cpu, sgprs if isinstance(sgprs, int) else None)
        text += [f".amdhsa_kernel {name}"] + [f"  {line}" for line in directives]
        text.append(".end_amdhsa_kernel")
    if code_object.metadata:
        text += [".amdgpu_metadata", yaml.safe_dump(code_object.metadata, sort_keys=False).rstrip(), ".end_amdgpu_metadata"]
    listing = "\n".join(text) + "\n"
    suffix = f".{bundle_id.rsplit('-', 1)[-1]}" if bundle_id else ""
    shown = _write_listing(path, data, f"{path.name}{suffix}.s", listing)
    source = split_lines(shown, listing)
    for problem in problems:
        source.problems.append(ReadProblem("input-conversion", problem, 1))
    origin = f"{path}[{bundle_id}]" if bundle_id else str(path)
    how = f"disassembled by {Path(objdump).name}" if objdump and body else "descriptors and metadata only"
    return Prepared(source, replace(options, mcpu=None), origin, f"read from code object {origin} ({how})")
