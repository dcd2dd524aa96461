"""Tests of python_bridge.bench: the figures page, the strength study and OpenSpiel's rules, the first visit,
the contract study."""
