"""The kiosk's deployment: systemd's notify protocol against a socket the test opens (and the real
server speaking it), `make install-kiosk` staged in a folder, the units checked by
`systemd-analyze verify`, and the screen's session script waiting for /health before it opens
the page in the real Chromium."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.kiosk.kiosk_support import ROOT, KioskServer, Page, write_config
from python_bridge.kiosk.config import load_config
from python_bridge.kiosk.sdnotify import notify, watchdog_interval

UNITS = ("kalah-kiosk.service", "kalah-kiosk-browser.service")


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
    # again (an update): the project and units are replaced, the operator's configuration kept
    assert _install(stage).returncode == 0
    assert load_config(etc / "kiosk.toml").control_token == config.control_token


def test_the_units_pass_systemd_analyze_verify(tmp_path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    for unit in UNITS:  # rendered as install.sh does, with this checkout as PREFIX (its .venv exists)
        text = (ROOT / "deploy" / unit).read_text()
        for key, value in (("@PREFIX@", str(ROOT)), ("@ETC@", str(tmp_path)), ("@STATE@", str(tmp_path / "state")),
                           ("@USER@", "kalah-kiosk"), ("@DISPLAY_USER@", "kiosk")):
            text = text.replace(key, value)
        (tmp_path / unit).write_text(text)
    (tmp_path / "browser.env").write_text("KALAH_KIOSK_URL=http://127.0.0.1:8360/\n")
    done = subprocess.run([analyze, "verify", *(str(tmp_path / u) for u in UNITS)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "ignoring" not in done.stderr, done.stderr


@pytest.mark.simh
def test_the_session_script_waits_for_health_then_opens_the_controlling_page(tmp_path, kalah_tape) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not installed (the browser tests install it)")
    token = "session-test-token-0123"
    config = write_config(tmp_path / "kiosk")
    config.write_text(config.read_text() + f'control_token = "{token}"\n')
    server = KioskServer(config)
    env = {**os.environ, "KALAH_KIOSK_URL": f"{server.url}/?control={token}", "KALAH_KIOSK_BROWSER": chromium,
           "KALAH_KIOSK_PROFILE": str(tmp_path / "profile"), "KALAH_KIOSK_WAIT": "60",
           "KALAH_KIOSK_FLAGS": "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage"}
    out = open(tmp_path / "session.txt", "w")
    session = subprocess.Popen([str(ROOT / "deploy" / "kiosk-session.sh")], env=env, stdout=out,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        time.sleep(2)
        assert session.poll() is None  # still waiting for the server: no browser yet
        assert "opening" not in (tmp_path / "session.txt").read_text()
        with server:
            server.wait_for(lambda h: h["clients"] == 1, timeout=60, what="the kiosk's Chromium connected")

            async def watcher() -> None:  # the browser's page controls: a second page only watches
                async with Page(server) as other:
                    assert other.controls is False
                    await other.send({"type": "play"})
                    await other.until(lambda: other.rejected == ["this screen only watches"])

            asyncio.run(watcher())
    finally:
        try:
            os.killpg(session.pid, signal.SIGTERM)
            session.wait(15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(session.pid, signal.SIGKILL)
            session.wait(5)
        out.close()
    assert "the server answers after" in (tmp_path / "session.txt").read_text()
    deadline = time.monotonic() + 5
    while _using(tmp_path / "profile") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _using(tmp_path / "profile"), "chromium processes left behind"


def _using(profile: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(profile) in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            pass
    return found
