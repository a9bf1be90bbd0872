"""`.amdgpu_metadata` in the shape LLVM writes is read without PyYAML, to the same document."""

import pytest
import yaml
from amdgpu_lint.frontend.metadata import _loader, _read_llvm_metadata, parse_metadata_yaml

LLVM_DOCUMENT = """---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           !str 'true'
        .offset:         -8
        .type_name:      'char*'
        .value_kind:     by_value
    .language:       OpenCL C
    .name:           k
    .reqd_workgroup_size: [ 64, 1, 1 ]
    .uses_dynamic_stack: false
    .workgroup_processor_mode: true
  - .args:           []
    .name:           y
amdhsa.printf:
  - '1:1:4:%d\\n'
amdhsa.target:   'amdgcn-amd-amdhsa--gfx90a:xnack-'
amdhsa.version:
  - 1
  - 2
...
"""


def _same(a, b):
    """Equal with the same types throughout (True == 1 in Python, not in YAML)."""
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return type(b) is list and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def test_the_llvm_shape_reads_as_pyyaml_reads_it():
    read = _read_llvm_metadata(LLVM_DOCUMENT)
    assert read is not None
    assert _same(read, yaml.load(LLVM_DOCUMENT, Loader=_loader()))
    assert read["amdhsa.kernels"][0][".args"][1][".name"] == "true"


@pytest.mark.parametrize("line", [
    "    .flag: yes",  # a YAML 1.1 boolean
    "    .size: 0x10",  # hex, octal, floats: PyYAML's
    "    .size: 1.5",
    "    .name: \"k\"",  # double-quoted escapes
    "    .name:",  # null
    "    .name: k # comment",
    "    on: 1",  # a boolean key
    "    .name: a: b",
])
def test_anything_else_goes_to_pyyaml(line):
    text = LLVM_DOCUMENT.replace("    .name:           k", line)
    assert _read_llvm_metadata(text) is None
    parsed = parse_metadata_yaml(text) if line != "    .name: a: b" else None
    assert parsed is None or _same(parsed, yaml.load(text, Loader=_loader()))
