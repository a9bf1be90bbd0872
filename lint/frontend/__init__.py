"""The front end: source text in, IR out.

source (bytes -> lines and comments) -> preprocessor (macros, repeats, conditionals, includes)
-> syntax (one statement -> nodes; grammar reads what its hand-written reader leaves) -> builder
(statements + metadata -> ir.Module). inputs turns LLVM IR, code objects and Triton cache
entries into assembly first.
"""
