"""Tests of python_bridge.checking: cross-check, sessions, recovery, records, the level's contract, strength."""
