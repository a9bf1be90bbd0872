"""The committed ISA tables are exactly what the generator makes from LLVM's syntax pages."""

import subprocess
import sys

import pytest
from amdgpu_lint.isa import instruction_set, pages_with
from amdgpu_lint.model.targets import parse_target_id
from conftest import ROOT

SYNTAX = ROOT.parent / "shared" / "isa" / "llvm-syntax"


@pytest.mark.skipif(not SYNTAX.is_dir(), reason="../shared/isa/llvm-syntax is not present")
def test_committed_tables_match_a_regeneration():
    process = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_isa_tables.py"), "--check", "--syntax", str(SYNTAX)],
        capture_output=True, text=True,
    )
    assert process.returncode == 0, process.stderr


@pytest.mark.parametrize(
    "target, at_least",
    [("gfx803", 1500), ("gfx900", 1800), ("gfx906", 1860), ("gfx908", 1900), ("gfx90a", 1800), ("gfx942", 1850),
     ("gfx950", 1950), ("gfx1030", 1700), ("gfx1100", 2200), ("gfx1201", 1600)],
)
def test_every_target_has_a_full_table(target, at_least):
    assert len(instruction_set(parse_target_id(target))) >= at_least


def test_generation_specific_instructions():
    has = lambda target, mnemonic: mnemonic in instruction_set(parse_target_id(target))  # noqa: E731
    assert has("gfx908", "v_mfma_f32_32x32x8f16") and not has("gfx906", "v_mfma_f32_32x32x8f16")
    assert has("gfx950", "v_bitop3_b32") and not has("gfx942", "v_bitop3_b32")
    assert has("gfx906", "v_dot2_f32_f16") and not has("gfx900", "v_dot2_f32_f16")
    assert has("gfx1100", "v_wmma_f32_16x16x16_f16") and not has("gfx1030", "v_wmma_f32_16x16x16_f16")
    assert has("gfx1201", "s_wait_loadcnt") and not has("gfx1100", "s_wait_loadcnt")
    assert has("gfx1100", "global_load_b32") and has("gfx1030", "global_load_dword")
    assert "gfx908" in pages_with("v_mfma_f32_32x32x8f16")


def _gfx12_matrix_line(mnemonic: str, wave_size: int) -> str:
    """The instruction with every operand as wide as our table says for this wave size, in disjoint VGPRs."""
    (variant,) = instruction_set(parse_target_id("gfx1200")).variants(mnemonic)
    operands, base = [], 0
    for spec in variant.operands:
        width = spec.dwords(wave_size)
        operands.append(f"v{base}" if width == 1 else f"v[{base}:{base + width - 1}]")
        base += 16
    return f"{mnemonic} {', '.join(operands)}"


def test_gfx12_matrix_operand_widths_follow_the_wave_size():
    gfx12 = instruction_set(parse_target_id("gfx1200"))
    (wmma,) = gfx12.variants("v_wmma_f32_16x16x16_f16")
    assert [(spec.dwords(32), spec.dwords(64)) for spec in wmma.operands] == [(8, 4), (4, 2), (4, 2), (8, 4)]
    assert _gfx12_matrix_line("v_wmma_f32_16x16x16_f16", 64) == "v_wmma_f32_16x16x16_f16 v[0:3], v[16:17], v[32:33], v[48:51]"


def test_gfx12_matrix_operand_widths_are_what_llvm_mc_accepts(tmp_path):
    """Where llvm-mc-22 is installed: every gfx12 WMMA/SWMMAC at our widths assembles in its wave size,
    and at the other wave size's widths (where they differ) it does not."""
    import shutil

    if shutil.which("llvm-mc-22") is None:
        pytest.skip("llvm-mc-22 is not installed (Debian's llvm-22)")
    mnemonics = [m for m in instruction_set(parse_target_id("gfx1200")) if m.startswith(("v_wmma_", "v_swmmac_"))]
    assert len(mnemonics) == 22
    for wave_size, other in ((32, 64), (64, 32)):
        features = ["-mattr=+wavefrontsize64"] if wave_size == 64 else []
        ours = [_gfx12_matrix_line(m, wave_size) for m in mnemonics]
        theirs = [_gfx12_matrix_line(m, other) for m in mnemonics]
        source = tmp_path / f"wave{wave_size}.s"
        source.write_text("\n".join(ours + theirs) + "\n")
        run = subprocess.run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1200", *features, str(source)],
                             capture_output=True, text=True)
        rejected = {int(line.split(":")[1]) for line in run.stderr.splitlines() if ": error:" in line}
        assert rejected == set(range(len(ours) + 1, 2 * len(ours) + 1)), (wave_size, sorted(rejected))


PROBE_TABLES = ["operands.jsonl", "vop_forms.jsonl", "matrix_operands.jsonl", "memory.jsonl", "implicit_operands.jsonl",
                "mnemonics.jsonl"]


@pytest.mark.parametrize("table", PROBE_TABLES)
def test_a_probe_table_finds_each_line_by_name_and_no_other(table):
    """A probe table's lines are looked up by a binary search of its text, which needs them sorted by name: every
    line is found by its name, and a name between, before or after them is not."""
    from amdgpu_lint.isa.probe_table import SortedLines

    text = (ROOT / "lint" / "isa" / "tables" / table).read_text()
    by_name = {line[2 : line.index('"', 2)]: line for line in text.splitlines()[1:]}
    names = list(by_name)
    assert names == sorted(names) and len(names) > 100
    for lines in (SortedLines(text), SortedLines(text.rstrip("\n"))):
        assert all(lines.get(name) == line for name, line in by_name.items())
        absent = ["", "a", "~", *(name + "_" for name in names[::7]), *(name[:-1] for name in names[::7])]
        assert [name for name in absent if name not in by_name and name in lines] == []
        with pytest.raises(KeyError):
            lines["~"]
    assert SortedLines(text.splitlines()[0]).get(names[0]) is None  # a header alone
