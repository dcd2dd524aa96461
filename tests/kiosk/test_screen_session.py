"""The kiosk's screen session, started as kalah-kiosk-screen.service starts it, on cage's headless
backend: the unit's own command line (cage running deploy/kiosk-session.sh) with the unit's environment
and its settings files, against a real kiosk server, the screen turned to portrait as the install doc
says.  Chromium's debugging port is the one thing added; through it (CDP, with Playwright's
connect_over_cdp) the test sees the page fill the upright screen, take control of the game, and play a
visitor's move on the real PDP-1.

What the headless backend stands in for: the screen and the input devices (WLR_BACKENDS=headless,
WLR_LIBINPUT_NO_DEVICES=1, the pixman renderer), and the login session that PAM and logind make on a
real machine (XDG_RUNTIME_DIR made here).  cage refuses to run as root, so a root test runs the session
as nobody with a /tmp of its own, as the unit runs it as its own user with PrivateTmp=yes."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.kiosk.kiosk_support import (
    ROOT,
    KioskServer,
    free_port,
    processes_using,
    render_unit,
    screen_programs,
    write_config,
)

pytestmark = pytest.mark.simh

TOKEN = "screen-session-token-0123"
SHOTS = ROOT / "artifacts" / "kiosk"
# the two things a headless test machine lacks: a GPU (the headless backend has none) and the user
# namespaces Chromium's sandbox is built on (a container may refuse them)
TEST_FLAGS = "--no-sandbox --disable-gpu --disable-dev-shm-usage"


def unit_settings(unit: str) -> tuple[list[str], dict[str, str]]:
    """The unit's ExecStart= as a command, and the environment systemd gives it: Environment= and the
    EnvironmentFile= files (KEY=VALUE lines; a leading - marks a file that may be missing)."""
    command: list[str] = []
    env: dict[str, str] = {}
    for line in unit.splitlines():
        key, _, value = line.partition("=")
        if key == "ExecStart":
            command = shlex.split(value)
        elif key == "Environment":
            name, _, setting = value.partition("=")
            env[name] = setting
        elif key == "EnvironmentFile":
            path = Path(value.removeprefix("-"))
            if path.exists() or not value.startswith("-"):
                for setting in path.read_text().splitlines():
                    if setting.strip() and not setting.startswith("#"):
                        name, _, setting = setting.partition("=")
                        env[name] = setting
    return command, env


@pytest.fixture
def session_folder():
    """A folder the session's user can reach (pytest's own is root's alone), outside the session's private
    /tmp: its home, its runtime folder."""
    folder = Path(tempfile.mkdtemp(prefix="kalah-screen-", dir="/var/tmp"))
    folder.chmod(0o755)
    for name in ("home", "run"):
        (folder / name).mkdir(mode=0o700)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_screen_session_shows_the_page_which_plays_a_move(session_folder, tmp_path, kalah_tape) -> None:
    screen_programs()
    from playwright.sync_api import sync_playwright

    config = write_config(tmp_path / "kiosk", idle=60, countdown=2, extra_kiosk="think_rate = 2000")
    config.write_text(config.read_text().replace("level = 3", "level = 1") + f'control_token = "{TOKEN}"\n')
    server = KioskServer(config)
    etc = session_folder / "etc"
    etc.mkdir()
    (etc / "browser.env").write_text(f"KALAH_KIOSK_URL={server.url}/?control={TOKEN}\n")
    shutil.copy(ROOT / "deploy" / "screen.env", etc / "screen.env")
    unit = render_unit("kalah-kiosk-screen.service", ROOT, etc, session_folder / "state")
    command, unit_env = unit_settings(unit)
    assert unit_env["KALAH_KIOSK_ROTATE"] == "0"  # screen.env's default: landscape
    assert command[0] == "/usr/bin/cage" and command[-1] == f"{ROOT}/deploy/kiosk-session.sh"
    # a portrait screen: screen.env's rotation (wlr-randr inside the session, Debian 13's cage), or on
    # Debian 12's cage 0.1.4, which cannot be turned from inside, the doc's drop-in giving cage -r
    unit_env["KALAH_KIOSK_ROTATE"] = "90"
    old_cage = "version 0.1." in subprocess.run([command[0], "-v"], capture_output=True, text=True).stdout
    if old_cage:
        command.insert(command.index("--"), "-r")

    # the unit's script, run from a copy the session's user can reach: the checkout may sit in a folder
    # only root can enter (a CI clone in a mktemp -d folder, mode 700); the script needs nothing beside it
    script = session_folder / "kiosk-session.sh"
    shutil.copy2(command[-1], script)
    script.chmod(0o755)
    command[-1] = str(script)

    if os.getuid() == 0:
        # as the unit runs it: as a user of its own, with a /tmp of its own (PrivateTmp=yes: Xwayland's
        # sockets and locks go with the session)
        nobody = pwd.getpwnam("nobody")
        for name in ("home", "run"):
            os.chown(session_folder / name, nobody.pw_uid, nobody.pw_gid)
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   # Xwayland's sockets in a folder of the namespace's own (PrivateTmp= in the unit); not all
                   # of /tmp, which may hold the checkout itself (a CI clone) and so the session's script
                   'mkdir -p /tmp/.X11-unix && mount -t tmpfs -o mode=1777 tmpfs /tmp/.X11-unix && '
                   'exec setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"', "sh", *command]
    port = free_port()
    env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": str(session_folder / "home"),
           "XDG_RUNTIME_DIR": str(session_folder / "run"),
           "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
           **unit_env, "KALAH_KIOSK_WAIT": "60",
           "KALAH_KIOSK_FLAGS": f"--remote-debugging-port={port} {TEST_FLAGS}"}
    assert env["XDG_SESSION_TYPE"] == "wayland"
    log_path = session_folder / "session.txt"
    profile = str(session_folder / "run" / "kalah-kiosk-profile")  # the session's own, in its runtime folder
    started = time.monotonic()
    with open(log_path, "w") as log:
        session = subprocess.Popen(command, env=env, cwd=session_folder, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        time.sleep(2)  # before the server: the session waits for it, with no browser yet
        assert session.poll() is None, log_path.read_text()
        assert "opening" not in log_path.read_text() and not processes_using(profile)
        with server:
            server.wait_for(lambda h: h["clients"] == 1, timeout=90, what="the screen's Chromium connected")
            with sync_playwright() as pw:
                browser = pw.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
                page = next(p for c in browser.contexts for p in c.pages if p.url.startswith(server.url))
                page.set_default_timeout(30_000)
                assert page.url == f"{server.url}/?control={TOKEN}"
                # kiosk mode: the page fills cage's output, no window frame, no bars; turned upright
                screen = page.evaluate("[innerWidth, innerHeight, screen.width, screen.height]")
                assert screen[:2] == screen[2:] and 0 < screen[0] < screen[1], screen
                page.wait_for_selector('[data-action="play"]', state="visible")
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / "screen-session-portrait.png"))  # to look at: what cage shows
                page.click('[data-action="play"]')
                server.wait_for(lambda h: h["mode"] == "visitor", what="a visitor's game")  # the page controls
                page.wait_for_selector('body[data-phase="your_turn"] #bottom-row .pit.legal, #rules:not([hidden])')
                if page.locator("#rules:not([hidden])").count():  # the rules card at the first game
                    page.click('[data-action="close-rules"]')
                page.wait_for_selector('body[data-phase="your_turn"] #bottom-row .pit.legal')
                question = server.health()["turn"]
                page.click("#bottom-row .pit.legal")
                # (not wait_for_function: the page's policy forbids the eval it polls with, in the screen's own
                # browser as anywhere)
                page.wait_for_selector("#paper:has-text('you play')", state="attached")
                server.wait_for(lambda h: h["turn"] > question, timeout=60, what="the PDP-1's reply")
                browser.close()  # the connection only: the session's Chromium goes on
            assert session.poll() is None, "the session ended"
            print(f"screen session: the page played a move {time.monotonic() - started:.1f} s after the start")
    finally:
        try:
            os.killpg(session.pid, signal.SIGTERM)
            session.wait(20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(session.pid, signal.SIGKILL)
            session.wait(5)
    output = log_path.read_text()
    assert "kiosk-session: the server answers after" in output, output
    assert ("this cage cannot turn the picture" if old_cage else "the picture turned 90 degrees") in output, output
    deadline = time.monotonic() + 10
    while processes_using(profile) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not processes_using(profile), "chromium processes left behind"
