"""Published exact values of Kalah(m, n) starts: the outside check on ``kalah_solver``.

Which rule set a table uses matters -- the values differ:

* Irving, Donkers & Uiterwijk, "Solving Kalah", ICGA Journal 23(3), 2000, play
  the **empty capture** rule (a last seed in an own empty pit is stored even
  opposite an empty pit), with the standard end and sweep.  Their Table 10 gives
  win/draw/loss for the first player for every m, n <= 6 except (6, 6); their
  Table 9 gives the first player's margin for m = 4, 5, 6.  (Tables as
  transcribed in a public re-implementation that replays the paper's perfect
  games; the margins agree with Table 10 everywhere.)
* Mark Rawlings (2015, reported in Wikipedia's *Kalah* article): Kalah(6, 6)
  with empty capture is a first-player win by 2.

For the standard rules (no capture opposite an empty pit) the brief names
Rawlings' Kalah(6, 4) value; this machine cannot solve (6, 4) in pure Python
within minutes, so no standard-rules value is registered here that could not be
checked.  Standard-rules values of small boards are checked instead against a
plain minimax over ``kalah_rules.play`` in the tests.
"""

from __future__ import annotations

IRVING_2000 = 'Irving, Donkers & Uiterwijk, "Solving Kalah", ICGA J. 23(3) 2000'
RAWLINGS_2015 = "M. Rawlings 2015 (Wikipedia, Kalah)"

# Table 10: row m, column n (1..6) -- W first-player win, D draw, L loss; empty capture.
_TABLE_10 = {1: "DLWLWD", 2: "WLLLWW", 3: "DWWWWL", 4: "WWWWWD", 5: "DDWWWW", 6: "WWWWW"}

EMPTY_CAPTURE_OUTCOME: dict[tuple[int, int], str] = {
    (m, n + 1): row[n] for m, row in _TABLE_10.items() for n in range(len(row))
}

# Table 9 margins (m = 4..6), and Rawlings' (6, 6); empty capture.
EMPTY_CAPTURE_MARGIN: dict[tuple[int, int], int] = {
    (4, 1): 2, (4, 2): 6, (4, 3): 8, (4, 4): 2, (4, 5): 2, (4, 6): 0,
    (5, 1): 0, (5, 2): 0, (5, 3): 8, (5, 4): 12, (5, 5): 2, (5, 6): 2,
    (6, 1): 2, (6, 2): 10, (6, 3): 2, (6, 4): 10, (6, 5): 12, (6, 6): 2,
}

MARGIN_SOURCE = {key: RAWLINGS_2015 if key == (6, 6) else IRVING_2000 for key in EMPTY_CAPTURE_MARGIN}


def outcome(margin: int) -> str:
    """W, D or L for the first player's margin."""
    return "W" if margin > 0 else "L" if margin < 0 else "D"


def check_empty_capture(m: int, n: int, margin: int) -> str:
    """How ``margin`` for Kalah(m, n) with empty capture compares with the published value.

    ``match (margin)`` or ``match (W/D/L)`` when it agrees, ``MISMATCH ...`` when
    it does not, ``unpublished`` when no table covers it.
    """
    if (m, n) in EMPTY_CAPTURE_MARGIN:
        published = EMPTY_CAPTURE_MARGIN[(m, n)]
        if published == margin:
            return f"match {published:+d} ({MARGIN_SOURCE[(m, n)]})"
        return f"MISMATCH: published {published:+d} ({MARGIN_SOURCE[(m, n)]})"
    if (m, n) in EMPTY_CAPTURE_OUTCOME:
        published_wdl = EMPTY_CAPTURE_OUTCOME[(m, n)]
        if published_wdl == outcome(margin):
            return f"match {published_wdl} ({IRVING_2000}, Table 10)"
        return f"MISMATCH: published {published_wdl} ({IRVING_2000}, Table 10)"
    return "unpublished"
