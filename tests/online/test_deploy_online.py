"""What ships for past one host: HAProxy's template is a configuration Debian's haproxy accepts, as
shipped and as ``make online-cluster`` writes it; the units run the server as no root, restarted, its
state under ``StateDirectory=``, named in HAProxy by its port; ``online-cluster`` prints where it serves
and each server, and Ctrl-C (SIGINT) or SIGTERM leaves nothing behind, in time, however often it comes."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from python_bridge.exhibit.procinfo import descendants
from python_bridge.exhibit.web_guard import free_port
from python_bridge.online.cluster import TEMPLATE, ClusterServer, haproxy_config
from python_bridge.online.settings import OnlineSettings
from tests.kiosk.kiosk_support import ROOT
from tests.online.cluster_support import STOP_AT_MOST_S
from tests.processes import still_running
from tests.programs import need

UNITS = ROOT / "deploy" / "online"
STOPS = 2  # (the old handler deadlocked at the first stop in every run of the flood: two stops make it sure)
TOLD_EVERY_S = 0.00002  # (a sleep this short lasts about a system call: thousands of signals a second)
TOLD_AT_MOST = 200_000


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


@dataclass
class Started:
    """``online-cluster`` running, as it said: its process, HAProxy's pid, each server's, the postmaster's."""

    proc: subprocess.Popen
    haproxy: int
    servers: list[int]
    postmaster: int

    @property
    def pids(self) -> set[int]:
        return {self.haproxy, *self.servers, self.postmaster}


def _online_cluster(servers: int, *, own_group: bool = False) -> Started:
    """``online-cluster --servers N`` started (in a process group of its own, as ``make`` runs it, with
    ``own_group``), once it has said where it serves and HAProxy answers."""
    need("/usr/sbin/haproxy")
    need("/usr/lib/postgresql/15/bin/initdb")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "python_bridge", "online-cluster", "--servers", str(servers),
                             "--port", str(port), "--pace", "fast"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=own_group)
    try:
        lines = [proc.stdout.readline() for _ in range(servers + 2)]
        assert lines[0].startswith(f"online-cluster: http://127.0.0.1:{port}/ (HAProxy, pid "), lines
        pids = []
        for n, line in enumerate(lines[1:servers + 1], 1):
            assert line.startswith(f"  server s{n}: ") and ", pid " in line, line
            pids.append(int(line.split(", pid ")[1].split(",")[0]))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
            assert answer.status == 200
    except BaseException:
        _kill(proc)
        raise
    return Started(proc, int(lines[0].split("pid ")[1].split(")")[0]), pids, int(lines[0].rsplit("pid ", 1)[1]))


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


@pytest.mark.simh
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_online_cluster_says_where_it_serves_and_leaves_nothing_behind(sig, kalah_tape, tmp_path) -> None:
    cluster = _online_cluster(2)
    try:
        below = _below(cluster.proc.pid)
        cluster.proc.send_signal(sig)
        assert cluster.proc.wait(60) == 0
    finally:
        _kill(cluster.proc)
    left = still_running(sorted(cluster.pids | below), within=10)
    assert not left, f"left behind: {left}"


@pytest.mark.simh
def test_online_cluster_stopped_as_make_stops_it_after_faults_ends_everything_in_time(kalah_tape) -> None:
    """``make online-cluster`` stopped after faults, several times over: one server killed (``kill -9``),
    another stopped (``kill -STOP``) past its lease, then continued; then SIGTERM to the process group, and
    the command told again, as ``make`` passes its own SIGTERM on (and again and again, SIGINT too, as an
    operator's Ctrl-C would: each may come while the last is being handled).  Every time the command ends
    in ``STOP_AT_MOST_S`` and nothing it started is left.

    (A handler that set a ``threading.Event`` deadlocked when a second signal came while the first held
    the Event's lock: the cluster was then never stopped.  The race is narrow; signals sent densely while
    the stop runs, on each of ``STOPS`` clusters, find it.)"""
    lease = OnlineSettings().lease_seconds
    for cycle in range(STOPS):
        cluster = _online_cluster(2, own_group=True)
        try:
            killed, stopped = cluster.servers
            os.kill(killed, signal.SIGKILL)
            os.kill(stopped, signal.SIGSTOP)
            time.sleep(lease * 1.1 if cycle == 0 else 0.2)  # past its lease once; the lightest faults after
            os.kill(stopped, signal.SIGCONT)
            below = set(descendants(cluster.proc.pid))  # (its servers' processes, and anything they started)
            began = time.monotonic()
            os.killpg(cluster.proc.pid, signal.SIGTERM)  # (as make's group: the command's; its parts have their own)
            told = _told_again(cluster.proc, began + STOP_AT_MOST_S)
            with contextlib.suppress(subprocess.TimeoutExpired):
                cluster.proc.wait(max(0.0, began + STOP_AT_MOST_S - time.monotonic()))
            took = time.monotonic() - began
        finally:
            _kill(cluster.proc)
        left = still_running(sorted(cluster.pids | below), within=5)
        for pid in left:  # (a failed stop's parts ended here, for the tests after this one)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        said = cluster.proc.stderr.read()
        # once stopped, Python gives the signals back to their default as it exits: one of ours may end it
        ended = cluster.proc.returncode in (0, -signal.SIGTERM, -signal.SIGINT) and "online-cluster: stopped" in said
        assert took <= STOP_AT_MOST_S and ended and not left, f"stop {cycle + 1} (told {told} times): exit " \
            f"{cluster.proc.returncode} after {took:.1f} s, left {left}; it said {said[-300:]!r}"


def _told_again(proc: subprocess.Popen, until: float) -> int:
    """SIGTERM and SIGINT by turns to ``proc`` every ``TOLD_EVERY_S`` or so until it ends (at most
    ``TOLD_AT_MOST`` of them, and never past ``until``); how many were sent."""
    told = 0
    while told < TOLD_AT_MOST and proc.poll() is None and time.monotonic() < until:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGINT if told % 2 else signal.SIGTERM)
        told += 1
        time.sleep(TOLD_EVERY_S)
    return told


def _below(pid: int) -> set[int]:
    deadline = time.monotonic() + 1
    found: set[int] = set()
    while time.monotonic() < deadline:
        found |= set(descendants(pid))
        time.sleep(0.1)
    return {p for p in found if p != os.getpid()}
