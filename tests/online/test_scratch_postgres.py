"""The tests' own PostgreSQL (Debian's, started by the project): a port taken between its choice and the start
(another test's server, another worker's database) costs a start on another port, not a failed test."""

from __future__ import annotations

import socket

from python_bridge.online.scratch_postgres import ScratchPostgres
from tests.programs import need


def test_a_port_taken_before_the_start_is_left_for_another() -> None:
    need("/usr/lib/postgresql/15/bin/initdb")
    scratch = ScratchPostgres()
    chosen = scratch.port
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", chosen))
        taken.listen()
        try:
            scratch.start()
            assert scratch.port != chosen and f":{scratch.port}/" in scratch.url
            scratch.new_database("another")  # it answers on the port it took
        finally:
            scratch.stop()
