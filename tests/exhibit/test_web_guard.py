"""The guard every server of ours puts around its pages (``exhibit.web_guard``): the kiosk answers to its
names on its own port; the online exhibit, behind a proxy, to its public names on any port, by http or
https.  A real aiohttp server on loopback, real requests."""

from __future__ import annotations

import asyncio

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from python_bridge.exhibit.web_guard import guarded_app, without_port


def test_a_port_is_taken_off_a_host_name_but_not_off_an_ipv6_address() -> None:
    assert without_port("localhost:8362") == "localhost" and without_port("localhost") == "localhost"
    assert without_port("[::1]:8361") == "[::1]" and without_port("[::1]") == "[::1]"
    assert without_port("example.org:") == "example.org:"


def _answers(app: web.Application, requests: list[dict[str, str]]) -> list[int]:
    async def ask() -> list[int]:
        async def hello(request: web.Request) -> web.Response:
            return web.Response(text="hello")

        app.router.add_get("/", hello)
        async with TestClient(TestServer(app)) as client:
            statuses = []
            for headers in requests:
                answer = await client.get("/", headers=headers)
                statuses.append(answer.status)
                assert answer.headers["Server"] == "guarded"
            return statuses

    return asyncio.run(ask())


def test_behind_a_proxy_the_public_names_on_any_port_by_http_or_https() -> None:
    app = guarded_app(["museum.example", "localhost"], ["museum.example", "localhost"], "guarded", "this site",
                      any_port=True)
    statuses = _answers(app, [
        {"Host": "museum.example"}, {"Host": "museum.example:8362"}, {"Host": "localhost:443"},
        {"Host": "museum.example", "Origin": "https://museum.example"},
        {"Host": "museum.example:8362", "Origin": "http://museum.example:8362"},
        {"Host": "evil.example:8362"}, {"Host": "museum.example.evil.example"},
        {"Host": "museum.example", "Origin": "https://evil.example"},
        {"Host": "museum.example", "Origin": "ftp://museum.example"},
        {"Host": "museum.example", "Origin": "https://museum.example/path"},
    ])
    assert statuses == [200] * 5 + [403] * 5


def test_the_kiosk_answers_to_its_names_on_its_own_port_only() -> None:
    app = guarded_app(["localhost:8360"], ["http://localhost:8360"], "guarded", "this kiosk")
    statuses = _answers(app, [{"Host": "localhost:8360", "Origin": "http://localhost:8360"},
                              {"Host": "localhost:8361"}, {"Host": "localhost"},
                              {"Host": "localhost:8360", "Origin": "https://localhost:8360"}])
    assert statuses == [200, 403, 403, 403]


def test_the_access_log_keeps_a_network_never_a_whole_address() -> None:
    from python_bridge.exhibit.web_guard import logged_address

    assert logged_address("203.0.113.77") == "203.0.113.0/24"
    assert logged_address("2001:db8:1234:5678::9") == "2001:db8:1234::/48"
    assert logged_address("::ffff:198.51.100.23") == "198.51.100.0/24"  # an IPv4 visitor on an IPv6 socket
    assert logged_address("203.0.113.77", "none") == "-" and logged_address(None) == "-"
    assert logged_address("not an address") == "-"


def test_a_free_port_is_below_the_ephemeral_range_and_bindable() -> None:
    """No outgoing connection can take it between the answer and the server's bind; two in a row differ."""
    import socket

    from python_bridge.exhibit.web_guard import LOWEST_FREE_PORT, _ephemeral_start, free_port

    ports = [free_port() for _ in range(3)]
    assert len(set(ports)) == 3 and all(LOWEST_FREE_PORT <= p < _ephemeral_start() for p in ports)
    with socket.socket() as server:
        server.bind(("127.0.0.1", ports[-1]))
