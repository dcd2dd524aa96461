"""What every web server of this project does before and around its own pages: the kiosk's one screen
and the online exhibit's many visitors share it, so the two cannot drift apart.

* ``guarded_app``: an aiohttp application whose every request must name one of the server's own hosts
  (no DNS rebinding) and, if it carries an Origin, one of its own origins (no page of another site
  drives it); an overlong path or query is 404 at once; a path the file system refuses is 404, never
  500; the ``Server`` header is a bare name, no Python or aiohttp version for a scanner to match; and
  every answer carries ``security_headers``: a Content-Security-Policy that lets a page load only from its
  own origin (scripts, styles, fonts, pictures, its WebSocket) and be framed only by the sites the
  server's setting names (none by default), no MIME sniffing, and no Referer sent from it.
* ``listen`` and ``stop_requested``: the site started on its address with the header timeout (an idle
  keep-alive connection closed after it), and the event SIGTERM or SIGINT sets; ``free_port``, a loopback
  port nobody listens on (for a server a run or a test starts).
* ``AccessLog``: one line a request, keeping no visitor's whole address (an IP address is personal data
  under the GDPR): IPv4 cut to its /24, IPv6 to its /48, or none at all, as the server's setting says.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import signal
import socket
import threading
from pathlib import Path
from typing import Iterable

from aiohttp import web, web_response
from aiohttp.abc import AbstractAccessLogger

MAX_PATH = 256  # longer paths (and query strings) are 404 at once: no file of ours is named so
CLIENT_MAX_BYTES = 4096  # no request of ours has a body larger


# The page's own origin only: it has no inline script or style (its modules and style sheet are files, its
# paper's spaces kept by xml:space), its fonts and pictures (its icon too) are its server's, and its socket is
# its own server's /ws ('self' covers ws: and wss: on the page's own host and port in CSP Level 3, as Chromium
# reads it: tests/exhibit/test_security_headers.py plays a game under it).  Nothing else: no plugin, no form.
PAGE_POLICY = ("default-src 'none'", "script-src 'self'", "style-src 'self'", "font-src 'self'",
               "img-src 'self'", "connect-src 'self'", "base-uri 'none'", "form-action 'none'")


# The browser edition's page runs the PDP-1 and Python as WebAssembly in a Worker of its own files, and offers
# its game's record as a file it makes: WebAssembly compiled ('wasm-unsafe-eval', no other eval), its Worker
# from its own origin, the record's link a blob: address.
WASM_POLICY = {"script-src 'self'": "script-src 'self' 'wasm-unsafe-eval'", "img-src 'self'": "img-src 'self' blob:"}


def security_headers(frame_ancestors: Iterable[str] = (), wasm: bool = False) -> dict[str, str]:
    """The headers every answer of ours carries: the policy above (``wasm``: the browser edition's), framed only by
    ``frame_ancestors`` (origins a museum embeds the page in; none by default), never sniffed for another type,
    and no Referer sent on."""
    ancestors = " ".join(frame_ancestors) or "'none'"
    policy = [WASM_POLICY.get(part, part) for part in PAGE_POLICY] + ["worker-src 'self'"] if wasm else PAGE_POLICY
    return {"Content-Security-Policy": "; ".join((*policy, f"frame-ancestors {ancestors}")),
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


ADDRESSES = ("truncated", "none")  # what the access log keeps of an address: its network, or nothing
NETWORK_BITS = {4: 24, 6: 48}


def logged_address(address: str | None, addresses: str = "truncated") -> str:
    """What the log keeps of ``address``: its /24 (IPv4) or /48 (IPv6) network, or ``-`` (none, or not an IP
    address, such as a Unix socket's peer)."""
    if addresses == "none" or not address:
        return "-"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return "-"
    if ip.version == 6 and ip.ipv4_mapped is not None:  # ::ffff:203.0.113.9 is an IPv4 visitor
        ip = ip.ipv4_mapped
    return str(ipaddress.ip_network(f"{ip}/{NETWORK_BITS[ip.version]}", strict=False))


class AccessLog(AbstractAccessLogger):
    """One line a request, its address cut to its network (``addresses``); a healthy ``/health`` is left out
    (a watchdog polls it every few seconds), and so is a refused kiosk screen (``/ws`` 503: its server logs
    the episode once)."""

    addresses = "truncated"

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        if request.path == "/health" and response.status == 200:
            return
        if request.path == "/ws" and response.status == 503:
            return
        self.logger.info('%s "%s %s" %d %.3f s', logged_address(request.remote, self.addresses), request.method,
                         request.path[:MAX_PATH], response.status, time)


def without_port(host: str) -> str:
    """``name`` of ``name:port`` (an IPv6 address in brackets keeps them)."""
    name, colon, port = host.rpartition(":")
    return name if colon and port.isdigit() and not name.endswith(":") else host


def guarded_app(hosts: Iterable[str], origins: Iterable[str], server_name: str, who: str,
                long_query_paths: frozenset[str] = frozenset(), any_port: bool = False,
                frame_ancestors: Iterable[str] = (), wasm: bool = False) -> web.Application:
    """An application answering only to ``hosts`` (Host headers) and ``origins``; ``who`` names the
    server in its refusals ("this kiosk"); ``long_query_paths`` may carry a query past ``MAX_PATH``
    (the handler judges it, as ``/ws`` judges a malformed game ID).  ``any_port``: the names are judged
    without their ports (a server behind a proxy is reached on the proxy's port, whatever it is), and
    ``origins`` are bare names, reached by http or https.  ``frame_ancestors``: the sites that may frame
    its pages (``security_headers``)."""
    hosts, origins = frozenset(hosts), frozenset(origins)
    headers = {**security_headers(frame_ancestors, wasm), "Server": server_name}

    def host_allowed(host: str | None) -> bool:
        if host is None:
            return False
        return (without_port(host) if any_port else host) in hosts

    def origin_allowed(origin: str) -> bool:
        if not any_port:
            return origin in origins
        scheme, _, rest = origin.partition("://")
        return scheme in ("http", "https") and "/" not in rest and without_port(rest) in origins
    # aiohttp names itself in the answers its parser gives to malformed requests, which no hook sees
    web_response.SERVER_SOFTWARE = server_name  # type: ignore[attr-defined]

    @web.middleware
    async def guard(request: web.Request, handler) -> web.StreamResponse:
        if len(request.path) > MAX_PATH or (len(request.query_string) > MAX_PATH
                                            and request.path not in long_query_paths):
            raise web.HTTPNotFound()
        if not host_allowed(request.headers.get("Host")):
            raise web.HTTPForbidden(text=f"{who} answers only to its own name\n")
        origin = request.headers.get("Origin")
        if origin is not None and not origin_allowed(origin):
            raise web.HTTPForbidden(text=f"pages of other sites may not use {who}\n")
        try:
            return await handler(request)
        except web.HTTPException:
            raise
        except OSError:  # a path the file system refuses (a name too long...): nothing is there
            raise web.HTTPNotFound() from None

    async def our_headers(request: web.Request, response: web.StreamResponse) -> None:
        """On every answer as it is prepared, whoever made it: a page, a file, a refusal, a WebSocket's."""
        response.headers.update(headers)

    app = web.Application(client_max_size=CLIENT_MAX_BYTES, middlewares=[guard])
    app.on_response_prepare.append(our_headers)
    return app


async def listen(app: web.Application, host: str, port: int, header_timeout: float,
                 addresses: str = "truncated") -> web.AppRunner:
    """``app`` served on ``host:port``, every request one line in ``aiohttp.access`` (``addresses``: what it
    keeps of the visitor's address); the runner to clean up (an address in use raises ``OSError``, nothing
    left open)."""
    log_class = type("AccessLog", (AccessLog,), {"addresses": addresses})
    runner = web.AppRunner(app, access_log_class=log_class, access_log=logging.getLogger("aiohttp.access"),
                           handle_signals=False, keepalive_timeout=header_timeout)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError:
        await runner.cleanup()
        raise
    return runner


LOWEST_FREE_PORT = 10_000  # the servers' own ports (8360, 8361, 8362) lie below it
EPHEMERAL = Path("/proc/sys/net/ipv4/ip_local_port_range")
_ports = {"next": None}  # the port this process tries next (each process walks the range from a place of its own)
_ports_lock = threading.Lock()


def free_port() -> int:
    """A loopback port free now, for a server a run or a test starts.

    Why not the kernel's choice (``bind(0)``): that is a port of the ephemeral range, which the kernel also
    gives to outgoing connections, and one could take it between this answer and the server's bind (a
    test failed so, by chance).  So the port is below that range, and each process walks it from a place of
    its own (its pid's), so that two test workers seldom try the same port at once."""
    low, high = LOWEST_FREE_PORT, _ephemeral_start() - 1
    with _ports_lock:
        port = _ports["next"] or low + (os.getpid() * 7919) % (high - low)
        for _ in range(high - low):
            port = port + 1 if port < high else low
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    continue
            _ports["next"] = port
            return port
    raise OSError("no free loopback port below the ephemeral range")


def _ephemeral_start() -> int:
    try:
        return int(EPHEMERAL.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def stop_requested(loop: asyncio.AbstractEventLoop) -> asyncio.Event:
    """An event set by SIGTERM (systemd stopping the service) or SIGINT (Ctrl-C)."""
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    return stop
