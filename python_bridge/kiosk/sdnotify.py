"""systemd's notify protocol, spoken directly: READY, WATCHDOG, STATUS and STOPPING datagrams.

Why directly: the protocol is one datagram of ``KEY=value`` lines sent to
the Unix socket named by ``$NOTIFY_SOCKET`` (a leading ``@`` is Linux's
abstract namespace); ten lines of code need no package to keep up to date.
Outside systemd the variable is unset and every call does nothing.

The service (``deploy/kalah-kiosk.service``) has ``Type=notify`` and
``WatchdogSec``: systemd counts the server started at ``READY=1``, and
restarts it when no ``WATCHDOG=1`` came for ``WatchdogSec``.  The server
sends one every half of ``$WATCHDOG_USEC`` while its game loop makes
progress, and none while it is stuck, so a stuck kiosk is restarted.
"""

from __future__ import annotations

import os
import socket


def notify_socket_address() -> str | None:
    """Where to send, from ``$NOTIFY_SOCKET``: a path, or an abstract name as ``"\\0name"``; None if unset."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return None
    if address.startswith("@"):
        return "\0" + address[1:]
    return address


def notify(*lines: str) -> bool:
    """Send ``lines`` (``"READY=1"``, ``"STATUS=..."``) as one datagram; False outside systemd or on failure."""
    address = notify_socket_address()
    if address is None:
        return False
    message = "\n".join(lines).encode("utf-8", errors="replace")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message)
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between two ``WATCHDOG=1`` (half of ``$WATCHDOG_USEC``), or None when systemd asks for none.

    ``$WATCHDOG_PID``, when set, must be this process (systemd's rule: the
    watchdog is meant for the service's main process only).
    """
    pid = os.environ.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(os.environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None
