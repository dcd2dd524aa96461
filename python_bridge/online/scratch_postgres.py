"""A PostgreSQL cluster of its own, in a scratch folder, for a trial on one machine and for the tests:
Debian's PostgreSQL (``initdb``, ``pg_ctl``) on a loopback port and a socket folder of its own, so that it
never meets a system cluster on 5432, and gone with its folder when stopped.

Why as another user: ``initdb`` refuses to run as root, and sessions and CI run as root; there the cluster
runs as Debian's ``postgres`` user (``runuser``), its folder made theirs.  Run by anyone else, it runs as
them.  Every command has a timeout; ``stop`` leaves no ``postgres`` process behind, whatever state the
cluster was left in.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from ..exhibit.health import alive
from ..exhibit.web_guard import free_port

POSTGRES_LIB = Path("/usr/lib/postgresql")
COMMAND_TIMEOUT_S = 60
DATABASE = "kalah"
PORT_TRIES = 3  # ports tried when the chosen one is taken before the server starts


class ScratchError(Exception):
    """The scratch cluster could not be made or started: one line saying why."""


def postgres_bin() -> Path:
    """Debian's newest PostgreSQL server programs (``/usr/lib/postgresql/N/bin``)."""
    versions = sorted((p for p in POSTGRES_LIB.glob("*/bin/initdb")), key=lambda p: int(p.parts[-3]), reverse=True)
    if not versions:
        raise ScratchError("PostgreSQL's server is not installed (Debian's postgresql package: make setup installs it)")
    return versions[0].parent


class ScratchPostgres:
    """``start()`` makes and starts the cluster (``url`` then names its database); ``stop()`` ends it."""

    def __init__(self, port: int | None = None, parent: Path | None = None) -> None:
        self.bin = postgres_bin()
        self.port = port or free_port()
        self.own_port = port is None  # (a port of its own choosing: another is chosen if this one is taken)
        self.folder = Path(tempfile.mkdtemp(prefix="kalah-postgres-", dir=parent))
        self.data = self.folder / "data"
        self.sockets = self.folder / "sockets"
        self.log = self.folder / "postgres.log"
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.started = False

    @property
    def url(self) -> str:
        """Its database's URL (on the port it listens on)."""
        return self._url(DATABASE)

    def _url(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _as_owner(self, *command: str | Path) -> list[str]:
        args = [str(c) for c in command]
        return ["runuser", "-u", self.user, "--", *args] if os.geteuid() == 0 else args

    def _run(self, *command: str | Path, timeout: float = COMMAND_TIMEOUT_S) -> str:
        try:
            done = subprocess.run(self._as_owner(*command), capture_output=True, text=True, timeout=timeout,
                                  cwd=self.folder)
        except subprocess.TimeoutExpired:
            raise ScratchError(f"{Path(str(command[0])).name} took over {timeout:.0f} s") from None
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines()
            raise ScratchError(f"{Path(str(command[0])).name} failed: {said[-1] if said else done.returncode}")
        return done.stdout

    def start(self) -> "ScratchPostgres":
        try:
            self.sockets.mkdir()
            if os.geteuid() == 0:
                owner = pwd.getpwnam(self.user)
                for path in (self.folder, self.sockets):
                    os.chown(path, owner.pw_uid, owner.pw_gid)
            self._run(self.bin / "initdb", "-D", self.data, "-A", "trust", "-U", self.user, "-E", "UTF8",
                      "--no-instructions")
            self._listen()
            self.started = True
            self._run(self.bin / "createdb", "-h", self.sockets, "-p", str(self.port), DATABASE)
        except (ScratchError, OSError, KeyError) as failure:
            self.stop()
            raise ScratchError(f"the scratch PostgreSQL could not start: {failure}") from None
        return self

    def _listen(self) -> None:
        """``pg_ctl start``; on another free port when this one was taken meanwhile (``free_port`` only says it
        was free when asked: another test's server or database may have taken it since), ``PORT_TRIES`` times."""
        for tried in range(1, PORT_TRIES + 1):
            try:
                self._pg_ctl("start", "-l", self.log)
                return
            except ScratchError:
                said = self.log.read_text(errors="replace") if self.log.exists() else ""
                if not self.own_port or "already in use" not in said or tried == PORT_TRIES:
                    raise
                self.port = free_port()

    def new_database(self, name: str) -> str:
        """Another empty database in the cluster (a test's own); its URL."""
        self._run(self.bin / "createdb", "-h", self.sockets, "-p", str(self.port), name)
        return self._url(name)

    def _pg_ctl(self, action: str, *more: str | Path, timeout: int = COMMAND_TIMEOUT_S) -> None:
        options = f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1"
        self._run(self.bin / "pg_ctl", action, "-D", self.data, "-w", "-t", str(timeout), "-m", "fast",
                  "-o", options, *more, timeout=timeout + 1)

    def halt(self) -> None:
        """Stop the server (fast: its connections cut), keeping the cluster to ``start_again``."""
        self._pg_ctl("stop")

    def start_again(self) -> None:
        self._pg_ctl("start", "-l", self.log)

    def restart(self) -> None:
        """Stop and start again (fast: its connections cut), as an operator's restart does."""
        self._pg_ctl("restart", "-l", self.log)

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self, within: float = COMMAND_TIMEOUT_S) -> None:
        """Stop the cluster and remove its folder; a postmaster that has not stopped ``within`` seconds is killed."""
        pid = self.postmaster_pid()
        if self.started:
            try:
                self._pg_ctl("stop", timeout=max(1, int(within) - 1))
            except ScratchError:
                pass
        if pid is not None and alive(pid):
            os.kill(pid, signal.SIGKILL)
            _wait_gone(pid)
        self.started = False
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "ScratchPostgres":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _wait_gone(pid: int, within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
