"""The shape every probe generator in scripts/ writes its table in (tables/operands.jsonl, vop_forms.jsonl,
matrix_operands.jsonl, memory.jsonl, implicit_operands.jsonl): a JSON header line holding at least llvm-mc's
`messages`, then one JSON line per name (`["v_add_f32", ...]`), sorted by name (the generators write them so). A line
is found by a binary search of the text when first looked up (a small file looks up a few dozen of a table's
thousands; splitting and indexing them all was about 4% of its check) and decoded by its user."""

from __future__ import annotations

import json


class SortedLines:
    """The lines after a text's first, each `["name", ...]` and sorted by name, looked up by name."""

    def __init__(self, text: str):
        self._text = text
        self._start = text.find("\n") + 1  # the first line's start (0 when the text has no line but the header)
        self._found: dict[str, str | None] = {}

    def get(self, name: str) -> str | None:
        """The line named `name`, or None."""
        if name in self._found:
            return self._found[name]
        text, low, high = self._text, self._start, len(self._text)
        line: str | None = None
        while low and low < high:  # [low, high): the lines left, `low` a line's start (0: none left)
            start = text.rfind("\n", low - 1, (low + high) // 2) + 1
            quote = text.find('"', start + 2)
            key = text[start + 2 : quote]
            if key == name:
                end = text.find("\n", quote)
                line = text[start:] if end < 0 else text[start:end]
                break
            if key < name:
                low = text.find("\n", quote) + 1
            else:
                high = start
        self._found[name] = line
        return line

    def names(self) -> list[str]:
        """Every line's name, in order (reads them all)."""
        return [json.loads(line)[0] for line in self._text[self._start :].splitlines()] if self._start else []

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __getitem__(self, name: str) -> str:
        line = self.get(name)
        if line is None:
            raise KeyError(name)
        return line


class ProbeTable:
    """A table's header and its undecoded lines by name."""

    def __init__(self, text: str):
        self.facts: dict = json.loads(text[: text.find("\n")] if "\n" in text else text)
        self._messages: list[str] = self.facts["messages"]
        self._lines = SortedLines(text)


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
