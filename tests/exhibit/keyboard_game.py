"""A visitor with a keyboard and no mouse, on any page of the exhibit (the kiosk's, online, the browser edition):
Tab to a control, start a game, and play it to its end with the arrow keys, Enter and Space.

Why one place: the page is one page whoever serves it, and "a whole game by keyboard alone" is asked of each of
its front ends; the keys a visitor presses are the same everywhere."""

from __future__ import annotations

from typing import Callable

YOUR_MOVE = 'body[data-mode="visitor"][data-phase="your_turn"] #bottom-row .pit.legal'
FOCUSED_PIT = "document.activeElement.closest('#bottom-row') ? Number(document.activeElement.dataset.pit) : null"
PLAYED = "(kiosk.paper.text.match(/you play \\d+/g) || []).length"
LAST_PLAYED = "(kiosk.paper.text.match(/you play (\\d+)/g) || []).slice(-1)[0] || ''"


def focused(page, selector: str) -> bool:
    return page.evaluate("(s) => document.activeElement.matches(s)", selector)


def tab_to(page, selector: str, *, backwards: bool = False, limit: int = 25) -> None:
    """Tab (or Shift+Tab) until the focus is on ``selector``: it must be reached within ``limit`` presses."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    assert focused(page, selector), f"Tab never reached {selector}"


def start_by_keyboard(page) -> None:
    """From attract mode, by keys alone: Tab to "play", Enter; the rules card opens by itself (checked elsewhere),
    Enter on its button closes it."""
    tab_to(page, '[data-action="play"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#rules:not([hidden])")
    page.wait_for_selector(YOUR_MOVE)
    assert focused(page, '[data-action="close-rules"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#rules", state="hidden")


def play_by_keyboard(page, on_first_pit: Callable[[], None] | None = None, most: int = 40) -> int:
    """The game on the page played to its end by keys alone: Tab to the visitor's row, the arrows along it to a
    legal pit (the first, then the last, in turn), Enter or Space; the paper must say "you play N" for each.
    ``on_first_pit`` runs with the focus on the first pit chosen.  The moves played."""
    tab_to(page, "#bottom-row .pit")
    moves = 0
    for turn in range(most):
        page.wait_for_selector(f'{YOUR_MOVE}, body[data-phase="game_over"]')
        if page.locator('body[data-phase="game_over"]').count():
            break
        legal = page.evaluate("kiosk.state.legal")
        target = legal[-1] if turn % 2 else legal[0]
        at = page.evaluate(FOCUSED_PIT)
        assert at is not None, "the focus left the visitor's row"
        while at != target:  # along the row, a pit a press
            page.keyboard.press("ArrowRight" if at < target else "ArrowLeft")
            moved = page.evaluate(FOCUSED_PIT)
            assert moved == at + (1 if at < target else -1), (at, moved, target)
            at = moved
        if turn == 0 and on_first_pit is not None:
            on_first_pit()
        played = page.evaluate(PLAYED)
        page.keyboard.press("Enter" if turn % 2 else " ")
        page.wait_for_function(f"({PLAYED}) > {played}")
        assert page.evaluate(PLAYED) == played + 1 and page.evaluate(LAST_PLAYED) == f"you play {target}"
        moves += 1
    return moves
