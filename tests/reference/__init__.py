"""Tests of python_bridge.reference: the rules, the search, the solver, the proof, the notation."""
