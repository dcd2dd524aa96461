"""The messages from the page (``exhibit.messages``): each checked, bad ones refused with the reason, floods limited."""

from __future__ import annotations

import pytest

from python_bridge.exhibit.messages import BadMessage, ClientMessage, TokenBucket, parse_message


@pytest.mark.parametrize("raw, words", [
    ("{", "not JSON"), ("[]", "not a JSON object"), ('{"type": "halt"}', "unknown message type"),
    ('{"type": "move"}', "pit number"), ('{"type": "move", "pit": 7}', "pit number"),
    ('{"type": "move", "pit": 2.0}', "pit number"), ('{"type": "swap", "pit": 2}', "unexpected field"),
    ('{"type": "touch", "x": ' + '"a"' * 1 + "}", "unexpected field"), ("x" * 600, "too long"),
    ('{"type": "choose"}', "exactly one of game or strength"),
    ('{"type": "choose", "game": "quick", "strength": "fair"}', "exactly one of game or strength"),
    ('{"type": "choose", "game": "huge"}', "game must be one of quick, classic"),
    ('{"type": "choose", "strength": 3}', "strength must be one of gentle, fair, full"),
    ('{"type": "move", "pit": 2}', "needs the turn it answers"), ('{"type": "swap"}', "needs the turn"),
    ('{"type": "move", "pit": 2, "turn": -1}', "needs the turn"), ('{"type": "swap", "turn": "3"}', "needs the turn"),
    ('{"type": "move", "pit": 2, "turn": true}', "needs the turn"), ('{"type": "play", "turn": 3}', "unexpected field"),
])
def test_messages_from_the_page_are_checked(raw: str, words: str) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_message(raw)
    assert words in str(refused.value)


def test_good_messages_and_the_flood_limit() -> None:
    assert parse_message('{"type": "move", "pit": 3, "turn": 7}') == ClientMessage("move", 3, 7)
    assert parse_message('{"type": "swap", "turn": 0}') == ClientMessage("swap", None, 0)
    assert parse_message('{"type": "new_game"}') == ClientMessage("new_game")
    assert parse_message('{"type": "choose", "strength": "gentle"}') == ClientMessage("choose",
                                                                                      choice=("strength", "gentle"))
    bucket = TokenBucket()
    allowed = sum(bucket.allow(100.0) for _ in range(50))  # fifty at once: the burst only
    assert allowed == 10 and not bucket.allow(100.0) and bucket.allow(100.3)


def test_the_pages_language_is_one_of_the_exhibits() -> None:
    assert parse_message('{"type": "language", "language": "pl"}') == ClientMessage("language", language="pl")
    for bad in ('{"type": "language", "language": "de"}', '{"type": "language"}',
                '{"type": "language", "language": ["pl"]}'):
        with pytest.raises(BadMessage, match="language must be one of en, pl, tl, az"):
            parse_message(bad)
