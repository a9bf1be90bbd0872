"""The shape every probe generator in scripts/ writes its table in (tables/operands.jsonl, vop_forms.jsonl,
matrix_operands.jsonl, memory.jsonl): a JSON header line holding at least llvm-mc's `messages`, then one JSON line
per name (`["v_add_f32", ...]`). The lines are indexed by name at once and decoded when first looked up."""

from __future__ import annotations

import json


class ProbeTable:
    """A table's header and its undecoded lines by name."""

    def __init__(self, text: str):
        header, *lines = text.splitlines()
        self.facts: dict = json.loads(header)
        self._messages: list[str] = self.facts["messages"]
        self._lines: dict[str, str] = {line[2 : line.index('"', 2)]: line for line in lines}


class CodedProbeTable(ProbeTable):
    """A probe table whose verdicts are strings of one character per probe: `.` or a space where llvm-mc took the
    probe (or it was not made), else the code of its message."""

    def __init__(self, text: str):
        super().__init__(text)
        self._codes = {code: index for index, code in enumerate(self.facts["codes"])}
        self._probes = {name: index for index, name in enumerate(self.facts["probes"])}

    def _answer(self, verdicts: str, probe: str) -> str | None:
        """llvm-mc's message for `probe` in a line's verdicts, or None where it took it or it was not probed."""
        position = self._probes.get(probe)
        if position is None or position >= len(verdicts) or verdicts[position] in ". ":
            return None
        return self._messages[self._codes[verdicts[position]]]
