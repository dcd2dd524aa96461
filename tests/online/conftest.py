"""The online tests' databases: SQLite in the test's folder, and PostgreSQL in a scratch cluster of the
worker's own (Debian's PostgreSQL, started by the project's own machinery, ``online.scratch_postgres``),
a fresh database a test."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from python_bridge.online.scratch_postgres import ScratchPostgres
from tests.programs import need

BACKENDS = ("sqlite", "postgresql")
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster for this worker's tests, stopped (and its folder gone) at the end."""
    need("/usr/lib/postgresql/15/bin/initdb")  # Debian 12's; the set-up installs it
    need("/usr/sbin/runuser")  # initdb refuses root: the cluster runs as postgres
    with ScratchPostgres() as cluster:
        yield cluster


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> tuple[str, Path]:
    """A fresh, empty games database on each backend: (the ``database`` setting, the state folder)."""
    if request.param == "sqlite":
        return "", tmp_path / "state"
    cluster = request.getfixturevalue("postgres")
    return cluster.new_database(f"test{next(_numbers)}"), tmp_path / "state"
