"""The search contract's numbers, shared by the readable search (``search``) and the fast one (``fast_search``).

Why a module of their own: ``search`` (the specification, and the callers' one door) uses the fast
search, so the fast search cannot import ``search`` back; both read the numbers here, and ``search``
still offers them under its own name to every caller.
"""

from __future__ import annotations

INFINITY = 100  # larger than any margin (at most 72)
NODE_BUDGET = 4800  # positions the default level may visit for one move (the PDP-1's nbudg)
MIN_DEPTH, MAX_DEPTH = 1, 20  # the PDP-1 keeps a 24-word frame for each ply
PROGRESS_MASK = 0xFFFF  # a progress callback hears of a search every 65,536 nodes
TABLE_SIZE = 512  # one-word entries in the best-move table (a power of two: the key's low bits pick one)
TABLE_DEPTH = 4  # nodes with at least this many plies to go use the table (the root does not)
WORD = 0o777777  # the PDP-1's 18-bit word
PIT_BITS = 0o7  # an entry's low bits: the pit; the rest are the key's
