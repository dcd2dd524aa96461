"""Tests of python_bridge.commands: the commands' command lines."""
