"""amdgpu-lint: static analysis for AMDGPU assembly."""

__version__ = "0.1.0"
