"""A Pygments lexer for AMDGPU assembly (registered as `amdgpu-asm` through `pygments.lexers`)."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

__all__ = ["AMDGPULexer"]


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
            (r"^\s*#.*$", Comment.Preproc),
            (r"(?s)\.amdgpu_metadata\b.*?\.end_amdgpu_metadata", String.Doc),  # YAML, not assembly
            (r"(?s)\.amd_kernel_code_t\b.*?\.end_amd_kernel_code_t", String.Doc),
            (r"([A-Za-z_.$][\w.$]*|\d+)(:)", bygroups(Name.Label, Punctuation)),
            (r"\\(\w+|@|\(\))", Name.Variable),  # macro parameters: \arg, \@, \()
            (r"\.[A-Za-z_][\w.$]*", Keyword.Pseudo, "operands"),
            (r"[A-Za-z_][\w.]*", Keyword, "operands"),
        ],
        "comments": [
            (r";.*$", Comment.Single),
            (r"//.*$", Comment.Single),
            (r"/\*.*?\*/", Comment.Multiline),
        ],
        "operands": [
            (r"\n", Text, "#pop"),
            (r"[ \t]+", Whitespace),
            include("comments"),
            (r"::", Punctuation),
            (r"\\(\w+|@|\(\))", Name.Variable),
            (r'"(\\\\|\\[^\\]|[^"\\])*"', String),
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
