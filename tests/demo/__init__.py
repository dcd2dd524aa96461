"""Tests of python_bridge.demo: the demonstration and its parts."""
