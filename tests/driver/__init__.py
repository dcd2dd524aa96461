"""Tests of python_bridge.driver: the one game driver, the cross-checker, restores, the brief form, records."""
