"""The PDP-1 online: many visitors at once, each in a browser of their own, each game on an emulated
PDP-1 of its own, every move cross-checked; on one host, or past it.

``settings`` (the ``[online]`` section and the command line, every value bounded); the games kept by
ID: ``store`` (what a store is), ``store_sql`` (the one schema, versioned, and its SQL),
``store_sqlite`` (the embedded default, under the state folder) and ``store_postgres`` (PostgreSQL,
past one host), ``database`` (the one a setting names, opened); ``leases`` (one owner a game: the
leases a server holds, renewed); ``game`` (one visitor's game: the exhibit's ``GameSession`` -- the one
game driver with a page as its front end -- on a thread and an emulator of its own); ``lobby`` (how
many machines run at once, the waiting line, first come first served); ``site`` (the games and pages one
server process holds, one line for the whole site, the searches' worker processes), ``app`` (aiohttp's
handlers: the page, ``/ws``, the records by ID, ``/health``, ``/metrics``) and ``server`` (serving them);
``browser_records`` (the browser edition's finished games, sent by their pages, checked, then kept);
``upkeep``, ``backup`` and ``stats`` (records kept ``keep_days``, backups that restore games, figures for
curators); ``scratch_postgres`` and
``cluster`` (PostgreSQL, N servers and HAProxy on one machine: ``make online-cluster`` and the tests).

The page, its session and the server guard are the exhibit's (``exhibit``); nothing here is the kiosk's.

May import: ``checking`` (a browser's record checked), ``driver``, ``exhibit``, ``demo`` (the paper picture),
``machine``, ``reference``, ``tools`` and the standard library (and aiohttp; psycopg only where PostgreSQL is used).
"""
