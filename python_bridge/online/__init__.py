"""The PDP-1 online: many visitors at once, each in a browser of their own, each game on an emulated
PDP-1 of its own, every move cross-checked.

``settings`` (the ``[online]`` section and the command line, every value bounded), ``store`` (the
games kept by ID: SQLite under the state folder, WAL, one transaction a move), ``game`` (one
visitor's game: the kiosk's ``GameSession`` -- the one game driver with a page as its front end --
on a thread and an emulator of its own), ``lobby`` (how many machines run at once, the waiting
line, first come first served), ``server`` (aiohttp: the page, ``/ws``, the records by ID,
``/health``).

May import: ``driver``, ``kiosk``, ``demo`` (the paper picture), ``machine``, ``reference``, ``tools``
and the standard library (and aiohttp).
"""
