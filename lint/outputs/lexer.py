"""A Pygments lexer for AMDGPU assembly (registered as `amdgpu-asm` through `pygments.lexers`)."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

__all__ = ["AMDGPULexer"]

#: a macro parameter or pseudo-variable: `\arg`, `\@`, `\+`, `\()`
_MACRO_VARIABLE = r"\\(?:\w+|@|\+|\(\))"
#: a name, with macro variables anywhere in it (`load_\@`, `v_add_\type`, `\name`)
_NAME = rf"(?:[A-Za-z_.$]|{_MACRO_VARIABLE})(?:[\w.$]|{_MACRO_VARIABLE})*"
#: blocks of YAML (or other text) between a directive and its end directive
_TEXT_BLOCKS = ("amdgpu_metadata", "amd_amdgpu_hsa_metadata", "amdgpu_pal_metadata", "amd_kernel_code_t")


class AMDGPULexer(RegexLexer):
    """Registers, modifiers, directives, labels, numbers and comments; metadata YAML as one block."""

    name = "AMDGPU assembly"
    aliases: ClassVar[list[str]] = ["amdgpu-asm", "amdgcn"]
    filenames: ClassVar[list[str]] = ["*.amdgcn"]
    mimetypes: ClassVar[list[str]] = ["text/x-amdgpu-asm"]

    tokens: ClassVar[dict[str, list[Any]]] = {
        "root": [
            (r"\s+", Whitespace),
            include("comments"),
            (r"#.*$", Comment.Preproc),  # at a statement's start: `#include`, `#define`, a C-preprocessor line
            *((rf"(?si)\.{block}\b.*?\.end_{block}\b", String.Doc) for block in _TEXT_BLOCKS),  # YAML, not assembly
            (rf"({_NAME}|\d+)(:)", bygroups(Name.Label, Punctuation)),
            (rf"{_MACRO_VARIABLE}(?=[\w.$\\]*\s*=)", Name.Variable, "operands"),  # `\base = \base + 4` in a macro
            (r"\.(?=\s*=)", Name.Variable, "operands"),  # `. = 0x400`: the location counter
            (r"\.[\w$][\w.$]*", Keyword.Pseudo, "operands"),  # directives, `.2byte` too
            (_NAME, Keyword, "operands"),  # mnemonics, macro calls, `name = value`
        ],
        "comments": [
            (r";.*$", Comment.Single),
            (r"//.*$", Comment.Single),
            (r"(?s)/\*.*?\*/", Comment.Multiline),  # may span lines (license headers)
        ],
        "operands": [
            (r"\n", Text, "#pop"),
            (r"[ \t]+", Whitespace),
            include("comments"),
            (r"::", Punctuation),
            (_MACRO_VARIABLE, Name.Variable),
            (r'"(\\\\|\\[^\\]|[^"\\])*"', String),
            (r"'(\\.|[^\\'\n])'?", String.Char),  # `.byte 'c'`, `'\n'`
            (r"\b(v|s|a|acc|ttmp)\[", Name.Builtin, "range"),
            (r"\b(v|s|a|acc|ttmp)\d+(\.[lh])?\b", Name.Builtin),
            ((r"\b(vcc|vcc_lo|vcc_hi|exec|exec_lo|exec_hi|m0|scc|null|off|flat_scratch(_lo|_hi)?|"
              r"xnack_mask(_lo|_hi)?|src_\w+|lds_direct)\b"), Name.Builtin),
            (r"[A-Za-z_][\w]*(?=:)", Name.Attribute),
            (r"0[xX][0-9a-fA-F]+|0[bB][01]+|\d+\.\d*([eE][+-]?\d+)?|\d+", Number),
            (r"@?[A-Za-z_.$][\w.$@]*", Name),
            (r"[-+*/%|&^~!<>=]", Operator),
            (r"[(),:\[\]]", Punctuation),
        ],
        "range": [
            (r"\]", Name.Builtin, "#pop"),
            (r"[^\]\n]+", Name.Builtin),
        ],
    }
