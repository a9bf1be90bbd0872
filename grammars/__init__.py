"""Lark grammars shipped with amdgpu-lint."""
