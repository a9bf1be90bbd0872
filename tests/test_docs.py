"""docs/rules.md is generated from the rules; terminal colour follows NO_COLOR."""

import io

from amdgpu_lint.outputs.rules_doc import rules_markdown
from amdgpu_lint.outputs.text import write_text
from amdgpu_lint.rules import RULES
from conftest import ROOT, names


def test_rules_reference_is_current():
    assert (ROOT / "docs" / "rules.md").read_text() == rules_markdown(RULES), (
        "regenerate with: amdgpu-lint rules --format markdown > docs/rules.md")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_on_terminals_unless_no_color(snippet, monkeypatch):
    result = snippet.lint('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n s_branch .Lnope\n s_endpgm\n')
    assert names(result) == ["undefined-symbol"]
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = Terminal()
    write_text(coloured, result.diagnostics, result.module.sources, 1)
    assert "\033[1;31merror\033[0m" in coloured.getvalue() and "\033[" in coloured.getvalue().split("\n")[1]
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Terminal()
    write_text(plain, result.diagnostics, result.module.sources, 1)
    assert "\033[" not in plain.getvalue()
    piped = io.StringIO()
    monkeypatch.delenv("NO_COLOR")
    write_text(piped, result.diagnostics, result.module.sources, 1)
    assert "\033[" not in piped.getvalue()
