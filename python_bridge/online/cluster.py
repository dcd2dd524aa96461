"""Past one host, on one machine: a scratch PostgreSQL cluster, N online servers sharing it on loopback
ports, and HAProxy in front of them on one port; for a trial (``make online-cluster``) and for the tests,
which kill its parts on purpose.

Why real parts: the faults that matter past one host (a server killed or stopped, the database restarted,
a page sent elsewhere by the load balancer) are the real programs' behaviour: Debian's PostgreSQL and
HAProxy, and the project's own server as a process.  HAProxy's configuration is the shipped template
(``deploy/online/haproxy.cfg``) with this cluster's ports and server lines written in.  Every process is
started with a deadline and stopped by ``stop``: the servers by SIGTERM (their games kept and leases
given up), then anything left, their pdp1s included, by SIGKILL.  Each part has a bound of its own (the
servers one together, never one each added up), so a stop ends within 45 s whatever state the parts were
left in: a service manager's stop timeout would otherwise kill PostgreSQL uncleanly.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from ..exhibit.procinfo import descendants
from ..exhibit.web_guard import free_port
from .scratch_postgres import ScratchPostgres

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "online" / "haproxy.cfg"
HAPROXY = "/usr/sbin/haproxy"
DEFAULT_PORT = 8362
START_TIMEOUT_S = 30.0
SERVERS_STOP_S = 15.0  # all the servers together, from their SIGTERM, before those left are killed
HAPROXY_STOP_S = 5.0
POSTGRES_STOP_S = 10.0  # pg_ctl's fast stop, before the postmaster is killed
KILLED_GONE_S = 5.0  # a process killed (SIGKILL) waited for
SERVER_LINES = re.compile(r"^    (server|use-server) s\d+ .*\n", re.M)


class ClusterError(Exception):
    """A part of the cluster could not be started: one line saying which and why."""


@dataclass
class ClusterServer:
    """One online server of the cluster: its HAProxy name (``s1``...), port, process and health's name."""

    label: str
    port: int
    log: Path
    proc: subprocess.Popen | None = None
    name: str = ""
    seen: set[int] = field(default_factory=set)  # every process below it (its pdp1s), to be sure none is left

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid if self.proc is not None else 0

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def look_below(self) -> None:
        if self.proc is not None:
            self.seen.update(descendants(self.proc.pid))


def get_json(url: str, timeout: float = 5.0) -> tuple[int, dict]:
    """A JSON answer and its status (an HTTP error's body too)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def haproxy_config(port: int, servers: list[ClusterServer], maxconn: int) -> str:
    """The shipped template with this cluster's frontend port and one server line a server."""
    text = TEMPLATE.read_text()
    text = text.replace("bind 127.0.0.1:8362", f"bind 127.0.0.1:{port}", 1)
    text = text.replace("maxconn 400 on-marked-down", f"maxconn {maxconn} on-marked-down", 1)
    lines = "".join(f"    use-server {s.label} if {{ urlp(server) -m str {s.label} }}\n" for s in servers)
    lines += "".join(f"    server {s.label} 127.0.0.1:{s.port} check cookie {s.label}\n" for s in servers)
    text, found = SERVER_LINES.subn("", text)
    if not found:
        raise ClusterError(f"{TEMPLATE} has no server lines to replace")
    return text.rstrip("\n") + "\n" + lines


class Cluster:
    """``start()``: PostgreSQL, the servers, HAProxy, each waited for; ``stop()``: all of it, nothing left."""

    def __init__(self, servers: int, port: int = DEFAULT_PORT, *, pace: str = "fast", max_games: int | None = None,
                 extra_settings: str = "", folder: Path | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kalah-cluster-", dir=folder))
        self.port = port
        self.servers_stop_s = SERVERS_STOP_S  # the servers' one bound at a stop (a test of the bound may shorten it)
        self.url = f"http://127.0.0.1:{port}"
        self.postgres = ScratchPostgres()  # (a folder of its own: the database's user reaches it)
        self.settings = self.folder / "online.toml"
        lines = ["[online]", f'pace = "{pace}"', 'trusted_proxies = ["127.0.0.1"]']
        if "per_ip_games" not in extra_settings:
            lines.append("per_ip_games = 1000")  # (every visitor of a trial on one machine comes from it)
        if max_games is not None:
            lines.append(f"max_games = {max_games}")
        # extra_settings: more [online] lines, then sections of its own ([game], [choices])
        self.settings.write_text("\n".join(lines) + "\n" + extra_settings)
        self.max_games = max_games
        self.servers = [ClusterServer(f"s{n + 1}", free_port(), self.folder / f"server-s{n + 1}.log")
                        for n in range(servers)]
        self.haproxy: subprocess.Popen | None = None
        self.haproxy_log = self.folder / "haproxy.log"

    # -- starting --------------------------------------------------------------------------------------
    def start(self) -> "Cluster":
        try:
            self.postgres.start()
            for server in self.servers:
                self.start_server(server, wait=False)
            for server in self.servers:
                self.wait_healthy(server)
            self._start_haproxy()
        except BaseException:
            self.stop()
            raise
        return self

    def start_server(self, server: ClusterServer, wait: bool = True) -> None:
        """(Again) start one server on its port, on the cluster's database."""
        state = self.folder / f"state-{server.label}"
        with open(server.log, "ab") as out:
            server.proc = subprocess.Popen(
                [sys.executable, "-m", "python_bridge", "online", "--config", str(self.settings),
                 "--port", str(server.port), "--state-dir", str(state), "--database", self.postgres.url,
                 "--label", server.label],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        if wait:
            self.wait_healthy(server)

    def wait_healthy(self, server: ClusterServer, timeout: float = START_TIMEOUT_S) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not server.running():
                raise ClusterError(f"server {server.label} exited: {_tail(server.log)}")
            try:
                status, health = get_json(server.url + "/health")
                if status == 200:
                    server.name = health["server"]
                    return health
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise ClusterError(f"server {server.label} did not answer /health in {timeout:.0f} s: {_tail(server.log)}")

    def wait_for_health(self, server: ClusterServer, condition, status: int = 200,
                        timeout: float = START_TIMEOUT_S) -> dict:
        """The server's health once it answers ``status`` and satisfies ``condition``."""
        deadline = time.monotonic() + timeout
        last: dict = {}
        while time.monotonic() < deadline:
            try:
                code, last = get_json(server.url + "/health")
                if code == status and condition(last):
                    return last
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise ClusterError(f"server {server.label}: health not as expected in {timeout:.0f} s: {last}")

    def _start_haproxy(self) -> None:
        if not os.access(HAPROXY, os.X_OK):
            raise ClusterError(f"{HAPROXY} is missing: Debian's haproxy (make setup MODE=cluster installs it)")
        config = self.folder / "haproxy.cfg"
        config.write_text(haproxy_config(self.port, self.servers, self._maxconn()))
        with open(self.haproxy_log, "ab") as out:
            self.haproxy = subprocess.Popen([HAPROXY, "-f", str(config), "-db"], stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.haproxy.poll() is not None:
                raise ClusterError(f"haproxy exited: {_tail(self.haproxy_log)}")
            try:
                if get_json(self.url + "/health")[0] == 200:
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise ClusterError(f"haproxy did not answer on port {self.port} in {START_TIMEOUT_S:.0f} s")

    def _maxconn(self) -> int:
        """Connections HAProxy gives one server: its games and as many pages waiting besides."""
        games = self.max_games or 400
        return 2 * games

    # -- faults ---------------------------------------------------------------------------------------
    def signal(self, server: ClusterServer, sig: int) -> None:
        server.look_below()
        if server.proc is not None and server.proc.poll() is None:
            os.kill(server.proc.pid, sig)
            if sig == signal.SIGKILL:
                server.proc.wait(10)

    # -- stopping -------------------------------------------------------------------------------------
    def stop(self) -> None:
        """Every part stopped, whatever state it was left in (a server stopped by SIGSTOP included)."""
        for server in self.servers:
            server.look_below()
            if server.running():
                os.kill(server.proc.pid, signal.SIGCONT)
                server.proc.terminate()
        deadline = time.monotonic() + self.servers_stop_s  # one for them all: never a bound a server, added up
        for server in self.servers:
            if server.proc is not None:
                _end(server.proc, max(0.0, deadline - time.monotonic()))
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()
            _end(self.haproxy, HAPROXY_STOP_S)
        for server in self.servers:  # a pdp1 of a server killed outright, if its hang-up did not end it
            for pid in server.seen:
                if _command_of(pid) == "pdp1":
                    with contextlib.suppress(ProcessLookupError):  # (it may end meanwhile)
                        os.kill(pid, signal.SIGKILL)
        self.postgres.stop(within=POSTGRES_STOP_S)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _end(proc: subprocess.Popen, within: float) -> None:
    """Wait ``within`` seconds for a process told to stop; then kill it."""
    try:
        proc.wait(within)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(KILLED_GONE_S)


def _command_of(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def _tail(log: Path) -> str:
    try:
        lines = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return lines[-1][:300] if lines else "(nothing said)"


