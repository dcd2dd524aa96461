"""Tests of python_bridge.exhibit: what both front ends serve (the page, its protocol, its session, its guard)."""
