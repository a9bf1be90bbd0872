"""Analyses computed once per kernel and cached by the pass manager."""
