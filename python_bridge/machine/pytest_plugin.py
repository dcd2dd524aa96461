"""A pytest plugin for testing any PDP-1 program on Debian's SIMH: the ``pdp1`` fixture.

Registered by the project's ``pytest11`` entry point, named as this module is: pytest finds it in any
environment the project is installed in, with no ``conftest.py`` line; a ``pytest_plugins`` line or a
``-p`` option that names this module still works (pytest loads a plugin of one name once).  pytest
rewrites the asserts of an installed (not editable) project's modules for such a plugin, so no test runs
one of them through ``runpy`` (its loader has no code to give).  A test is as short as::

    def test_echo(pdp1):
        pdp1.read_in_source(ECHO)      # assemble with tools.macro, punch, read in: running
        pdp1.type("x")
        pdp1.expect("x")
        assert pdp1.wait_for_halt() == 0o100

``pdp1`` is a started ``Simh`` (4,096 words, no multiply/divide, full speed), closed after the
test whatever happened.  ``@pytest.mark.pdp1(memory_words=..., multiply_divide=..., timeout=...)``
changes the machine; ``pdp1_factory`` starts more than one.  Without ``/usr/bin/pdp1`` the tests
that use them fail, naming Debian's package: a skipped test would let a run pass that checked nothing.
docs/testing-pdp1-programs.md is the guide, with a worked example in examples/gcd/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import pytest

from .simh import PDP1_BINARY, MachineConfig, Simh

CONFIG_KEYS = {"memory_words", "multiply_divide", "throttle", "tto_time", "tti_time"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "pdp1(**settings): the emulated PDP-1's MachineConfig and timeout "
                                       "for the pdp1 fixture")


@pytest.fixture
def pdp1_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., Simh]]:
    """``start(**settings)`` starts another emulated PDP-1; every one is closed after the test."""
    if not Path(PDP1_BINARY).exists():
        pytest.fail(f"{PDP1_BINARY} is missing: install Debian's simh package (apt-get install simh)")
    started: list[Simh] = []

    def start(**settings: object) -> Simh:
        unknown = set(settings) - CONFIG_KEYS - {"timeout"}
        if unknown:
            raise TypeError(f"unknown PDP-1 settings: {sorted(unknown)}")
        timeout = float(settings.pop("timeout", 10.0))  # type: ignore[arg-type]
        sim = Simh(MachineConfig(**settings), timeout=timeout)  # type: ignore[arg-type]
        started.append(sim)
        return sim

    try:
        yield start
    finally:
        for sim in started:
            sim.close()


@pytest.fixture
def pdp1(request: pytest.FixtureRequest, pdp1_factory: Callable[..., Simh]) -> Simh:
    """One emulated PDP-1, as the test's ``pdp1`` mark sets it up (default: the basic 1960 machine)."""
    mark = request.node.get_closest_marker("pdp1")
    return pdp1_factory(**(mark.kwargs if mark else {}))
