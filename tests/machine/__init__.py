"""Tests of python_bridge.machine: the SIMH wrapper, the Kalah program's tape and panel, cycles."""
