"""Tests of python_bridge.checking: the level's contract on the PDP-1 (the checks' other tests are by
command, in tests/commands)."""
