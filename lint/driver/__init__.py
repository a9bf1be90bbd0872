"""The driver: which files, which settings, which rules; runs the rules over each kernel's analyses.

session (flags + configuration -> settings, files -> results; what the front doors share) ->
linter (module -> rules -> suppressions -> diagnostics); rule is the contract every rule module
implements; report builds the per-kernel report document; baseline keys the snapshots of
`amdgpu-lint baseline`.
"""
