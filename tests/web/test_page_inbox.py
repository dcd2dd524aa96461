"""The game session's inbox in a Worker (``browser.inbox``): the page's messages are fetched while the session
waits for a command, each handed to the owner to check and submit; nothing is lost and nothing waits longer
than asked."""

from __future__ import annotations

import queue

import pytest

from python_bridge.browser.inbox import PageInbox


class Page:
    """The page's messages, given one a wait (None when a wait finds none), and the waits asked for."""

    def __init__(self, messages: list[str | None]) -> None:
        self.messages = list(messages)
        self.waits: list[float] = []

    def receive(self, seconds: float) -> str | None:
        self.waits.append(seconds)
        return self.messages.pop(0) if self.messages else None


def test_each_message_is_delivered_and_the_first_command_returned() -> None:
    page = Page(["touch", "move 1", "move 2"])
    delivered: list[str] = []
    inbox = PageInbox(page.receive, lambda raw: (delivered.append(raw), raw.startswith("move") and inbox.put(raw)))
    assert inbox.get(timeout=5) == "move 1"
    assert delivered == ["touch", "move 1"] and len(page.waits) == 2
    assert inbox.get(timeout=5) == "move 2"


def test_a_wait_with_nothing_ends_empty_and_a_look_does_not_wait() -> None:
    page = Page([None])
    inbox = PageInbox(page.receive, lambda raw: None)
    with pytest.raises(queue.Empty):
        inbox.get(timeout=0.01)
    with pytest.raises(queue.Empty):
        inbox.get_nowait()
    assert page.waits[-1] == 0.0 and all(w <= 0.01 for w in page.waits)


def test_what_was_queued_first_comes_first_without_asking_the_page() -> None:
    page = Page(["later"])
    inbox = PageInbox(page.receive, lambda raw: inbox.put(raw))
    inbox.put("first")
    assert inbox.get_nowait() == "first" and page.waits == []


def test_between_games_a_message_is_heard_at_once_and_no_wait_runs_out_after_it() -> None:
    """The owner between games answers the page itself (nothing queued): "play" must end the wait it came in,
    not the second that wait was allowed (the first question came a second late so)."""
    page = Page(["play"])
    delivered: list[str] = []
    inbox = PageInbox(page.receive, delivered.append)
    assert inbox.hear(1.0) and delivered == ["play"] and page.waits == [1.0]
    assert not inbox.hear(0.5) and page.waits == [1.0, 0.5] and inbox.empty()


def test_the_browsers_owner_starts_a_game_on_the_wait_that_heard_play() -> None:
    import logging

    from python_bridge.browser.page_game import PageGame
    from python_bridge.browser.settings import browser_settings

    page = Page([None, '{"type": "play"}'])
    posted: list[dict] = []
    owner = PageGame(browser_settings(""), posted.append, page.receive, logging.getLogger("test"),
                     transport=lambda *_: None)
    owner._wait_for_the_page()
    assert owner.asked == "play" and len(page.waits) == 2  # (one wait that heard nothing, one that heard "play")


def test_the_browsers_owner_takes_a_choice_after_a_game_for_the_next() -> None:
    import logging

    from python_bridge.browser.page_game import PageGame
    from python_bridge.browser.settings import browser_settings

    posted: list[dict] = []
    owner = PageGame(browser_settings(""), posted.append, Page([]).receive, logging.getLogger("test"),
                     transport=lambda *_: None)
    owner.over = True  # (a game has ended: the page shows the choices beside "New game")
    owner.deliver('{"type": "choose", "strength": "full"}')
    assert owner.session.choice["strength"] == "full"
    assert not [m for m in posted if m.get("type") == "rejected"], posted
