"""## What it finds
Directives the AMDGPU assembler does not know: typos such as `.amdhsa_next_free_vgrp`, GNU-as
directives LLVM does not implement, `.amdhsa_*` keys that do not exist, and C-preprocessor
directives amdgpu-lint cannot follow (function-like `#define`).

## Why it matters
llvm-mc rejects an unknown directive; a misspelt `.amdhsa_*` key means the kernel descriptor
silently keeps its default (for example no `.amdhsa_reserve_vcc 0`).

## Example
```
.amdhsa_kernel gemm
  .amdhsa_next_free_vgrp 128     ; typo: the descriptor has no VGPR count
```

## How to fix
Use the directive the message suggests, or remove it.
"""

import difflib
from collections.abc import Iterator
from functools import lru_cache

from amdgpu_lint.diagnostics import Diagnostic, Severity
from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.frontend.metadata import AMDHSA_DIRECTIVES
from amdgpu_lint.frontend.preprocessor import RAW_BLOCKS

CODE = "AGL002"
NAME = "unknown-directive"
SEVERITY = Severity.WARNING
SUMMARY = "directive the assembler does not know"

#: Directives LLVM's ELF assembler and the AMDGPU target accept (the preprocessor's own are
#: handled before statements reach the IR).
KNOWN_DIRECTIVES = frozenset(
    """.text .data .bss .rodata .section .pushsection .popsection .previous .subsection
    .globl .global .local .weak .weakref .hidden .protected .internal .type .size .symver
    .p2align .p2alignw .p2alignl .align .balign .balignw .balignl .org .nops
    .byte .short .hword .word .long .int .quad .octa .2byte .4byte .8byte .value .single .float
    .double .ascii .asciz .string .zero .space .skip .fill .incbin .uleb128 .sleb128 .reloc
    .file .loc .loc_mark_labeled .ident .comm .lcomm .addrsig .addrsig_sym .end .abort
    .altmacro .noaltmacro .print .lto_discard .lto_set_conditional .prefalign .linker_option
    .amdgcn_target .amdhsa_code_object_version .amdhsa_kernel .end_amdhsa_kernel
    .amdgpu_hsa_kernel .amdgpu_lds .amdgpu_info
    .amd_amdgpu_isa .amdgcn.next_free_vgpr .amdgcn.next_free_sgpr .amd_amdgpu_pal_metadata
    .extern .common .line .align32 .base64 .cold .loc_label .stabs .no_dead_strip .lazy_reference .reference
    .private_extern .symbol_resolver .weak_definition .weak_reference .weak_def_can_be_hidden .tdata .tbss
    .cg_profile .memtag .pseudoprobe .macros_on .macros_off .code16 .code16gcc
    .dc .dc.a .dc.b .dc.d .dc.l .dc.s .dc.w .dc.x .dcb .dcb.b .dcb.d .dcb.l .dcb.s .dcb.w .dcb.x
    .ds .ds.b .ds.d .ds.l .ds.p .ds.s .ds.w .ds.x""".split()
) | frozenset(RAW_BLOCKS) | frozenset(RAW_BLOCKS.values())

_PREFIXES = (".cfi_", ".cv_", ".seh_", ".debug_")
#: Code-object-v2 directives that LLVM 22 accepts only when the OS is not amdhsa.
_NON_HSA_ONLY = frozenset((".amd_kernel_code_t", ".amdgpu_hsa_kernel"))
#: Code-object-v2 directives LLVM 22 no longer accepts for any OS.
_REMOVED = frozenset((".hsa_code_object_version", ".hsa_code_object_isa"))
_CANDIDATES = sorted(KNOWN_DIRECTIVES | {f".amdhsa_{key}" for key in AMDHSA_DIRECTIVES})


@lru_cache(maxsize=4096)
def is_known(name: str) -> bool:
    if name in KNOWN_DIRECTIVES or name.startswith(_PREFIXES):
        return True
    return name.startswith(".amdhsa_") and name[len(".amdhsa_") :] in AMDHSA_DIRECTIVES


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
    module = context.module
    # amdhsa by its triple or, without `.amdgcn_target`, by what only amdhsa files contain
    hsa = "amdhsa" in (module.target_triple or "") or (module.target_triple is None and (
        (module.code_object_version or 0) >= 3 or any(kernel.descriptor_where for kernel in module.kernels)))
    for statement, where in context.module.directives:
        if statement.name in _REMOVED:
            yield context.diagnostic(
                where, f"'{statement.name}' is a code-object-v2 directive that LLVM 22 no longer accepts; remove it"
                " (the code object version comes from .amdhsa_code_object_version or the assembler's option)")
            continue
        if hsa and statement.name in _NON_HSA_ONLY:
            yield context.diagnostic(
                where,
                f"'{statement.name}' is a code-object-v2 directive that LLVM 22 rejects for amdhsa targets; "
                "describe the kernel with .amdhsa_kernel instead",
            )
            continue
        if is_known(statement.name):
            continue
        guess = difflib.get_close_matches(statement.name, _CANDIDATES, n=1, cutoff=0.75)
        hint = f"; did you mean '{guess[0]}'?" if guess else ""
        yield context.diagnostic(where, f"unknown directive '{statement.name}'{hint}")
