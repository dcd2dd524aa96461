"""Two browsers through HAProxy, in Debian's Chromium, on a cluster of the project's own: the server of one
is killed, and that visitor's page shows "one moment", comes back by itself to the other server and
goes on at the same board and turn; the other visitor notices nothing.  Every WebSocket message the
pages receive is kept (an init script), so that the "one moment" is seen however short it was."""

from __future__ import annotations

import signal

import pytest

from python_bridge.exhibit.web_guard import free_port
from python_bridge.online.cluster import Cluster
from tests.online.cluster_support import server_of
from tests.online.online_support import YOUR_MOVE, start_in_browser
from tests.online.test_cluster import GAME
from tests.programs import need

pytestmark = pytest.mark.simh
KEEP_MESSAGES = """
(() => {
  window.seen = [];
  const Real = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Real(...args);
    socket.addEventListener("message", (event) => window.seen.push(JSON.parse(event.data)));
    return socket;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { OPEN: Real.OPEN, CLOSED: Real.CLOSED, CONNECTING: Real.CONNECTING,
                                    CLOSING: Real.CLOSING });
})();
"""


def _move(page) -> None:
    turn = page.evaluate("kiosk.state.turn")
    page.locator(YOUR_MOVE).first.tap()
    page.wait_for_function(f"kiosk.state.turn > {turn} || kiosk.state.phase === 'game_over'")


def test_two_browsers_through_haproxy_and_a_server_killed(browser_context, tmp_path, kalah_tape) -> None:
    need("/usr/sbin/haproxy")
    with Cluster(2, free_port(), pace="fast", max_games=4, extra_settings=GAME, folder=tmp_path) as cluster:
        browser_context.add_init_script(KEEP_MESSAGES)
        first = browser_context.pages[0] if browser_context.pages else browser_context.new_page()
        first_game = start_in_browser(first, cluster.url)
        browser_context.clear_cookies()  # the second browser: no server yet, so HAProxy picks the other
        second = browser_context.new_page()
        second_game = start_in_browser(second, cluster.url)
        victim = server_of(cluster, first_game)
        assert server_of(cluster, second_game) is not victim
        board = first.evaluate("JSON.stringify(kiosk.state.board)")
        turn = first.evaluate("kiosk.state.turn")
        second_seen = second.evaluate("window.seen.length")
        cluster.signal(victim, signal.SIGKILL)
        first.wait_for_function(f"window.seen.filter((m) => m.type === 'hello').length >= 2 && "
                                f"kiosk.state.phase === 'your_turn' && kiosk.state.turn === {turn}")
        assert first.evaluate("window.seen.some((m) => (m.state || m).notice === 'one_moment')")
        assert first.locator("#rules").is_hidden()  # a page coming back is not shown how to play again
        assert first.evaluate("JSON.stringify(kiosk.state.board)") == board
        assert first.evaluate("sessionStorage.getItem('kalah-game')") == first_game
        _move(first)
        _move(second)
        assert second.evaluate(f"window.seen.slice({second_seen}).filter((m) => m.type === 'hello').length") == 0
        assert server_of(cluster, first_game) is not victim
