"""Tests of python_bridge.play: the terminal game as a user meets it."""
