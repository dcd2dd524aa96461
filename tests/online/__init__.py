"""Tests of python_bridge.online: the PDP-1 online, on the real server, SIMH and SQLite."""
