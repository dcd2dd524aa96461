"""The kiosk's deployment: systemd's notify protocol against a socket the test opens (and the real
server speaking it), `make install-kiosk` staged in a folder, and the units checked by
`systemd-analyze verify`.  The screen session itself runs in test_screen_session.py."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from pathlib import Path

import pytest

from python_bridge.kiosk.config import load_config
from python_bridge.kiosk.sdnotify import notify, watchdog_interval
from tests.kiosk.kiosk_support import ROOT, KioskServer, render_unit, screen_programs, write_config
from tests.programs import need

UNITS = ("kalah-kiosk.service", "kalah-kiosk-screen.service")


@pytest.fixture
def notify_socket(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    sock.bind(str(path))
    sock.settimeout(10)
    yield sock, str(path)
    sock.close()


def test_notify_sends_one_datagram_to_the_socket_or_nothing(notify_socket, monkeypatch) -> None:
    sock, path = notify_socket
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False  # outside systemd: nothing, no error
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert notify("READY=1", "STATUS=serving") is True
    assert sock.recv(4096) == b"READY=1\nSTATUS=serving"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # systemd may name an abstract socket: @name
    abstract.bind(f"\0kalah-test-{os.getpid()}")
    abstract.settimeout(5)
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", f"@kalah-test-{os.getpid()}")
        assert notify("WATCHDOG=1") and abstract.recv(100) == b"WATCHDOG=1"
    finally:
        abstract.close()
    monkeypatch.setenv("NOTIFY_SOCKET", str(Path(path).parent / "nobody-listens"))
    assert notify("WATCHDOG=1") is False
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_USEC", "soon")
    assert watchdog_interval() is None


@pytest.mark.simh
def test_the_server_says_ready_feeds_the_watchdog_and_says_stopping(notify_socket, tmp_path, kalah_tape) -> None:
    sock, path = notify_socket
    server = KioskServer(write_config(tmp_path / "kiosk"), env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"})
    received: list[str] = []
    with server:
        deadline = time.monotonic() + 20
        while sum(m.startswith("WATCHDOG=1") for m in received) < 3 and time.monotonic() < deadline:
            received.append(sock.recv(4096).decode())
        server.stop()
        sock.settimeout(5)
        received.append(sock.recv(4096).decode())
    assert received[0].startswith("READY=1\n") and f"MAINPID={server_pid(received[0])}" in received[0]
    assert sum(m.startswith("WATCHDOG=1") for m in received) >= 3
    assert received[-1] == "STOPPING=1"


def server_pid(ready: str) -> str:
    return next(line.split("=")[1] for line in ready.splitlines() if line.startswith("MAINPID="))


def _install(stage: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "deploy" / "install.sh")], env={**os.environ, "DESTDIR": str(stage)},
                          capture_output=True, text=True, timeout=120)


def test_install_kiosk_stages_the_project_the_configuration_and_the_units(tmp_path) -> None:
    stage = tmp_path / "stage"
    done = _install(stage)
    assert done.returncode == 0, done.stderr
    etc = stage / "etc" / "kalah-kiosk"
    config = load_config(etc / "kiosk.toml")
    assert config.state_dir == Path("/var/lib/kalah-kiosk") and len(config.control_token) >= 16
    env = (etc / "browser.env").read_text()
    assert f"KALAH_KIOSK_URL=http://127.0.0.1:8360/?control={config.control_token}\n" in env
    assert oct((etc / "kiosk.toml").stat().st_mode & 0o777) == "0o640"
    prefix = stage / "opt" / "kalah-kiosk"
    assert (prefix / "python_bridge" / "kiosk" / "server.py").exists() and not (prefix / ".venv").exists()
    assert os.access(prefix / "deploy" / "kiosk-session.sh", os.X_OK)
    for unit in UNITS:
        text = (stage / "etc" / "systemd" / "system" / unit).read_text()
        assert not re.search(r"@[A-Z_]+@", text), unit  # every placeholder filled in
        assert "/opt/kalah-kiosk" in text
    service = (stage / "etc" / "systemd" / "system" / UNITS[0]).read_text()
    assert "Type=notify" in service and "WatchdogSec=" in service and "Restart=always" in service
    assert "--config /etc/kalah-kiosk/kiosk.toml" in service
    screen = (stage / "etc" / "systemd" / "system" / UNITS[1]).read_text()
    assert "PAMName=kalah-kiosk-screen" in screen and "TTYPath=/dev/tty7" in screen
    assert "User=kalah-screen" in screen and "/usr/bin/cage -d -s -- /opt/kalah-kiosk/deploy/kiosk-session.sh" in screen
    assert "pam_systemd.so" in (stage / "etc" / "pam.d" / "kalah-kiosk-screen").read_text()
    assert "KALAH_KIOSK_ROTATE=0" in (etc / "screen.env").read_text()
    assert oct((etc / "browser.env").stat().st_mode & 0o777) == "0o600"  # the token: systemd reads it, as root
    # again (an update): the project and units are replaced, the screen's old unit removed, the operator's
    # configuration and screen settings kept
    (stage / "etc" / "systemd" / "system" / "kalah-kiosk-browser.service").write_text("[Service]\n")
    (etc / "screen.env").write_text("KALAH_KIOSK_ROTATE=90\n")
    again = _install(stage)
    assert again.returncode == 0 and "kalah-kiosk-browser.service removed" in again.stdout
    assert not (stage / "etc" / "systemd" / "system" / "kalah-kiosk-browser.service").exists()
    assert load_config(etc / "kiosk.toml").control_token == config.control_token
    assert (etc / "screen.env").read_text() == "KALAH_KIOSK_ROTATE=90\n"


def test_the_units_pass_systemd_analyze_verify(tmp_path) -> None:
    analyze = need("systemd-analyze")
    screen_programs()  # verify checks that ExecStart's program (cage) is there
    for unit in UNITS:  # rendered as install.sh does, with this checkout as PREFIX (its .venv exists)
        (tmp_path / unit).write_text(render_unit(unit, ROOT, tmp_path, tmp_path / "state"))
    (tmp_path / "browser.env").write_text("KALAH_KIOSK_URL=http://127.0.0.1:8360/\n")
    done = subprocess.run([analyze, "verify", *(str(tmp_path / u) for u in UNITS)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "ignoring" not in done.stderr, done.stderr
