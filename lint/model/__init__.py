"""The shared model every stage reads: targets and devices, the IR and its operand nodes, expressions,
diagnostics, and a bounded memo table."""
