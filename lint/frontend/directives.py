"""Which directives the AMDGPU assembler (LLVM 22's ELF assembler and the AMDGPU target) accepts."""

from __future__ import annotations

from functools import lru_cache

from ..model.memo import Remembered
from .metadata import AMDHSA_DIRECTIVES
from .preprocessor import RAW_BLOCKS

#: Directives LLVM's ELF assembler and the AMDGPU target accept (the preprocessor's own are
#: handled before statements reach the IR).
KNOWN_DIRECTIVES = frozenset(
    [".text", ".data", ".bss", ".rodata", ".section", ".pushsection", ".popsection", ".previous", ".subsection", ".globl", ".global", ".local", ".weak", ".weakref", ".hidden", ".protected", ".internal", ".type", ".size", ".symver", ".p2align", ".p2alignw", ".p2alignl", ".align", ".balign", ".balignw", ".balignl", ".org", ".nops", ".byte", ".short", ".hword", ".word", ".long", ".int", ".quad", ".octa", ".2byte", ".4byte", ".8byte", ".value", ".single", ".float", ".double", ".ascii", ".asciz", ".string", ".zero", ".space", ".skip", ".fill", ".incbin", ".uleb128", ".sleb128", ".reloc", ".file", ".loc", ".loc_mark_labeled", ".ident", ".comm", ".lcomm", ".addrsig", ".addrsig_sym", ".end", ".abort", ".altmacro", ".noaltmacro", ".print", ".lto_discard", ".lto_set_conditional", ".prefalign", ".linker_option", ".amdgcn_target", ".amdhsa_code_object_version", ".amdhsa_kernel", ".end_amdhsa_kernel", ".amdgpu_hsa_kernel", ".amdgpu_lds", ".amdgpu_info", ".amd_amdgpu_isa", ".amdgcn.next_free_vgpr", ".amdgcn.next_free_sgpr", ".amd_amdgpu_pal_metadata", ".extern", ".common", ".line", ".align32", ".base64", ".cold", ".loc_label", ".stabs", ".no_dead_strip", ".lazy_reference", ".reference", ".private_extern", ".symbol_resolver", ".weak_definition", ".weak_reference", ".weak_def_can_be_hidden", ".tdata", ".tbss", ".cg_profile", ".memtag", ".pseudoprobe", ".macros_on", ".macros_off", ".code16", ".code16gcc", ".dc", ".dc.a", ".dc.b", ".dc.d", ".dc.l", ".dc.s", ".dc.w", ".dc.x", ".dcb", ".dcb.b", ".dcb.d", ".dcb.l", ".dcb.s", ".dcb.w", ".dcb.x", ".ds", ".ds.b", ".ds.d", ".ds.l", ".ds.p", ".ds.s", ".ds.w", ".ds.x"]
) | frozenset(RAW_BLOCKS) | frozenset(RAW_BLOCKS.values())

_PREFIXES = (".cfi_", ".cv_", ".seh_", ".debug_")
#: Code-object-v2 directives that LLVM 22 accepts only when the OS is not amdhsa.
NON_HSA_ONLY = frozenset((".amd_kernel_code_t", ".amdgpu_hsa_kernel"))
#: Code-object-v2 directives LLVM 22 no longer accepts for any OS.
REMOVED = frozenset((".hsa_code_object_version", ".hsa_code_object_isa"))


@lru_cache(maxsize=4096)
def is_known(name: str) -> bool:
    """Whether the assembler accepts the directive `name` (for some OS)."""
    if name in KNOWN_DIRECTIVES or name.startswith(_PREFIXES):
        return True
    return name.startswith(".amdhsa_") and name[len(".amdhsa_") :] in AMDHSA_DIRECTIVES


#: directive name -> is_notable, for the names seen (a file names few)
_notable: Remembered[str, bool] = Remembered(4096)


def is_notable(name: str) -> bool:
    """Whether a directive is one the module keeps for the unknown-directive rule: unknown, or
    accepted only for some OS or by older assemblers. (Asked for every directive: remembered in a table compiled
    code reads directly, where an `lru_cache` is a call by the interpreter's protocol.)"""
    notable = _notable.get(name)
    if notable is None:
        notable = _notable.add(name, name in REMOVED or name in NON_HSA_ONLY or not is_known(name))
    return notable
