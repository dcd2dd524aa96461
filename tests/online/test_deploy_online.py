"""What ships for past one host: HAProxy's template is a configuration Debian's haproxy accepts, as
shipped and as ``make online-cluster`` writes it; the units run the server as no root, restarted, its
state under ``StateDirectory=``, named in HAProxy by its port; ``online-cluster`` prints where it serves
and each server, and Ctrl-C (SIGINT) or SIGTERM leaves nothing behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from python_bridge.exhibit.web_guard import free_port
from python_bridge.online.cluster import TEMPLATE, ClusterServer, haproxy_config
from tests.kiosk.kiosk_support import ROOT
from tests.processes import still_running
from tests.programs import need

UNITS = ROOT / "deploy" / "online"


def _valid(haproxy: str, config: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "haproxy.cfg"
    path.write_text(config)
    return subprocess.run([haproxy, "-c", "-f", str(path)], capture_output=True, text=True, timeout=30)


def test_the_haproxy_template_is_valid_as_shipped_and_as_the_cluster_writes_it(tmp_path) -> None:
    haproxy = need("/usr/sbin/haproxy")
    shipped = TEMPLATE.read_text()
    assert _valid(haproxy, shipped, tmp_path).returncode == 0
    for needed in ("balance leastconn", "timeout tunnel", "option httpchk", "http-check send meth GET uri /health",
                   "cookie KALAHSRV insert", "option redispatch", "# bind :443 ssl crt"):
        assert needed in shipped, needed
    servers = [ClusterServer(f"s{n}", 9000 + n, tmp_path / f"s{n}.log") for n in (1, 2, 3, 4)]
    written = haproxy_config(18362, servers, 8)
    checked = _valid(haproxy, written, tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "bind 127.0.0.1:18362" in written and written.count("    server s") == 4
    assert written.count("use-server s") == 4 and "maxconn 8 on-marked-down" in written


def test_the_units_run_no_root_restart_and_keep_state_under_state_directory() -> None:
    online = (UNITS / "kalah-online@.service").read_text()
    for needed in ("DynamicUser=yes", "Restart=always", "StateDirectory=kalah-online-%i", "--port %i",
                   "--label s%i", "EnvironmentFile=/etc/kalah/online.env", "KillMode=control-group"):
        assert needed in online, needed
    assert "User=root" not in online
    front = (UNITS / "kalah-haproxy.service").read_text()
    assert "/usr/sbin/haproxy -Ws -f $CONFIG" in front and "Restart=always" in front
    assert "-c -q" in front  # the configuration checked before it starts or reloads


@pytest.mark.simh
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_online_cluster_says_where_it_serves_and_leaves_nothing_behind(sig, kalah_tape, tmp_path) -> None:
    need("/usr/sbin/haproxy")
    need("/usr/lib/postgresql/15/bin/initdb")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "python_bridge", "online-cluster", "--servers", "2", "--port",
                             str(port), "--pace", "fast"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        assert lines[0].startswith(f"online-cluster: http://127.0.0.1:{port}/ (HAProxy, pid "), lines
        pids = [int(lines[0].split("pid ")[1].split(")")[0])]
        for n, line in enumerate(lines[1:3], 1):
            assert line.startswith(f"  server s{n}: ") and ", pid " in line, line
            pids.append(int(line.split(", pid ")[1].split(",")[0]))
        pids.append(int(lines[0].rsplit("pid ", 1)[1]))  # the postmaster
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
            assert answer.status == 200
        below = _below(proc.pid)
        proc.send_signal(sig)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    left = still_running(sorted(set(pids) | below), within=10)
    assert not left, f"left behind: {left}"


def _below(pid: int) -> set[int]:
    from python_bridge.exhibit.procinfo import descendants

    deadline = time.monotonic() + 1
    found: set[int] = set()
    while time.monotonic() < deadline:
        found |= set(descendants(pid))
        time.sleep(0.1)
    return {p for p in found if p != os.getpid()}
