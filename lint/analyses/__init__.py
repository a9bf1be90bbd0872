"""Analyses over the IR, computed once per kernel and cached by the manager (manager.py).

Kernel passes (cfg, defuse, liveness, initialized, waitcnt, hazards, resources, prefetch) and the
engines they and the report use (occupancy, latency, launch, simulator, calculator).
"""
