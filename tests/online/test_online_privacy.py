"""What the online server's access log keeps of a visitor: by default their network (IPv4 /24, IPv6 /48),
never the whole address; with ``log_addresses = "none"``, nothing.  A real server, real requests; its log is
what it wrote."""

from __future__ import annotations

import pytest

from tests.online.online_support import OnlineServer, write_settings

pytestmark = pytest.mark.simh


@pytest.mark.parametrize("addresses, shown", [(None, "127.0.0.0/24"), ("none", "-")])
def test_the_log_keeps_no_whole_address(addresses: str | None, shown: str, tmp_path, kalah_tape) -> None:
    settings = write_settings(tmp_path / "conf")
    if addresses is not None:
        settings.write_text(settings.read_text().replace("[online]\n", f'[online]\nlog_addresses = "{addresses}"\n'))
    with OnlineServer(settings, tmp_path / "state") as server:
        assert server.get("/")[0] == 200
        assert server.get("/no-such-page")[0] == 404
    log = server.output()  # (all of it: the server has stopped)
    requests = [line for line in log.splitlines() if '"GET /' in line]
    assert len(requests) >= 2, log[-2000:]
    assert all(f' {shown} "GET /' in line for line in requests), requests
    assert "127.0.0.1 " not in log.replace("http://127.0.0.1", "")  # (the address it serves on is no visitor's)
