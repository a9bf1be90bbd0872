"""Reading files: comments, line endings, encodings and binary input."""

import amdgpu_lint.frontend.source as source_module
import pytest
from amdgpu_lint.frontend.source import read_source, split_lines
from amdgpu_lint.model.ir import CodeLines, SourceFile


def texts(source):
    return [(line.number, line.text) for line in source.lines]


def test_comments_are_removed_and_kept():
    source = split_lines("t.s", "v_mov_b32 v0, v1 ; set v0\n// whole line\ns_nop 0 // trailing\n")
    assert texts(source) == [(1, "v_mov_b32 v0, v1"), (3, "s_nop 0")]
    assert source.comments == {1: "set v0", 2: "whole line", 3: "trailing"}


def test_block_comments_span_lines():
    source = split_lines("t.s", "s_nop 0 /* start\n still comment\n end */ s_endpgm\n")
    assert texts(source) == [(1, "s_nop 0"), (3, "s_endpgm")]
    assert source.lines[1].column == 9
    inline = split_lines("t.s", "s_nop /* x */ 0\n")
    assert inline.lines[0].text == "s_nop         0"


def test_comment_characters_inside_strings_are_code():
    source = split_lines("t.s", '.ascii "a;b//c" ; real comment\n')
    assert texts(source) == [(1, '.ascii "a;b//c"')]


@pytest.mark.parametrize("raw", ['\t.section\t.AMDGPU.gpr_maximums,"",@progbits', '  .ascii "a#b" , "c"  ',
                                 '.ascii "open', '.ascii "ends in \\', '\x0b.string "x"\x0c'])
def test_lines_with_strings_alone_are_all_code(raw):
    """The short way for a line whose only mark is a string reads it as the general scan does."""
    source = split_lines("t.s", raw + "\n")
    code, comment, in_block = source_module._split_code_and_comment(raw, False)
    assert (code, comment, in_block) == (raw, "", False)
    assert texts(source) == [(1, code.strip())] and not source.comments
    assert source.lines[0].column == len(code) - len(code.lstrip()) + 1


def test_division_is_not_a_comment():
    assert texts(split_lines("t.s", "s_mov_b32 s0, 8/2\n")) == [(1, "s_mov_b32 s0, 8/2")]


def test_crlf_and_cr_line_endings():
    source = split_lines("t.s", "s_nop 0\r\ns_nop 1\rs_endpgm\r\n")
    assert texts(source) == [(1, "s_nop 0"), (2, "s_nop 1"), (3, "s_endpgm")]


def test_hash_lines_are_preprocessor_lines():
    source = split_lines("t.S", '#include "x.h"\n  # 12 "file.c"\ns_nop 0\n')
    assert [line.is_cpp for line in source.lines] == [True, True, False]


def test_columns_are_one_based():
    assert split_lines("t.s", "\t  s_nop 0\n").lines[0].column == 4


def test_unterminated_block_comment(tmp_path):
    path = tmp_path / "t.s"
    path.write_text("s_nop 0\n/* never closed\ns_endpgm\n")
    source = read_source(path)
    assert [(p.rule, p.line) for p in source.problems] == [("parse-error", 2)]


def test_non_utf8_is_read_as_latin1(tmp_path):
    path = tmp_path / "t.s"
    path.write_bytes(b"s_nop 0\n; caf\xe9\ns_endpgm\n")
    source = read_source(path)
    assert [(p.rule, p.line, p.column) for p in source.problems] == [("invalid-encoding", 2, 6)]
    assert texts(source) == [(1, "s_nop 0"), (3, "s_endpgm")]


def test_utf8_bom_is_ignored(tmp_path):
    path = tmp_path / "t.s"
    path.write_bytes(b"\xef\xbb\xbfs_nop 0\n")
    assert texts(read_source(path)) == [(1, "s_nop 0")]


def test_binary_file_is_skipped_with_a_problem(tmp_path):
    path = tmp_path / "t.s"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\n\x00")
    source = read_source(path)
    assert len(source.lines) == 0
    assert source.problems[0].rule == "parse-error" and "binary" in source.problems[0].message


def test_text_is_kept_once_and_lines_are_offsets_into_it():
    text = "  s_nop 0 ; c\n\n/* a */ s_endpgm\ns_nop /* x */ 1\n# 1 \"f\"\n"
    source = split_lines("t.s", text)
    assert source.text == text
    assert source.raw_lines == ["  s_nop 0 ; c", "", "/* a */ s_endpgm", "s_nop /* x */ 1", '# 1 "f"']
    assert [source.line_text(n) for n in (0, 1, 2, 5, 6)] == ["", "  s_nop 0 ; c", "", '# 1 "f"', ""]
    assert list(source.lines.texts()) == ["s_nop 0", "s_endpgm", "s_nop         1", '# 1 "f"']
    # only a line whose code text is not in the file as written (a comment blanked out) is copied
    assert source.lines.replaced == {2: "s_nop         1"}
    assert [(line.number, line.column, line.is_cpp) for line in source.lines] == [(1, 3, False), (3, 9, False), (4, 1, False),
                                                                                  (5, 1, True)]


MIXED = (
    "\t.text\n  v_mov_b32 v0, v1  \n\n \t \n; comment\ns_nop 0 ; trailing\n.ascii \"a;b\"\n# 3 \"f.c\"\n"
    "s_nop 0 /* open\n still open\n\tclosed */ s_nop 1\n\ts_endpgm\t\n.size f, .Lend-f\nx\f y\n\x0bs_nop 2\n"
    "s_mov_b32 s0, 8/2\nlabel:\n  # 4 \"f.c\"\nv_add_u32 v0, v1, v2 // c\n\n"
)


def _one_by_one(text):
    """The lines read one at a time, the reference for reading them in bulk."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    expected = SourceFile("t.s", text, CodeLines("t.s", text))
    splitter = source_module._Splitter(expected)
    start = 0
    for number, raw in enumerate(text[:-1].split("\n") if text.endswith("\n") else text.split("\n"), 1):
        expected.line_starts.append(start)
        splitter.line(number, start, raw)
        start += len(raw) + 1
    return expected


@pytest.mark.parametrize("piece_chars", [1, 7, 1 << 18])
@pytest.mark.parametrize("text", [MIXED, MIXED * 3 + "tail", MIXED.replace("x\f y\n", "").replace("\x0bs_nop 2\n", "")])
def test_lines_read_in_bulk_are_the_lines_read_one_by_one(monkeypatch, text, piece_chars):
    monkeypatch.setattr(source_module, "_PIECE_CHARS", piece_chars)
    bulk, reference = split_lines("t.s", text), _one_by_one(text)
    assert list(bulk.line_starts) == list(reference.line_starts)
    assert list(bulk.lines) == list(reference.lines) and bulk.comments == reference.comments
    assert [(line.number, line.text, line.column) for line in bulk.lines][:3] == [
        (1, ".text", 2), (2, "v_mov_b32 v0, v1", 3), (6, "s_nop 0", 1)]
