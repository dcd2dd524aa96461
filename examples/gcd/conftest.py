"""The PDP-1 test kit of pdp1-kalah: the ``pdp1`` and ``pdp1_factory`` fixtures."""

pytest_plugins = ["python_bridge.machine.pytest_plugin"]
