"""The exhibit: Kalah against the emulated PDP-1 on a page, whichever front end serves it.

What every front end shares lives here: the page (``page``, and its plain HTML, CSS and JavaScript in
``static/``); the protocol's messages (``messages``) and one connected page (``connection``); the game
session (``game_session``: one visitor's game on one PDP-1, a front end of the one game driver, its
waiting emulator suspended) with what it draws (``view``, ``paper``, ``lights``); the game settings
both servers read (``settings``); the guard around every server of ours (``web_guard``: Host and
Origin, the Server header, listening, stopping); and health and process figures (``health``,
``procinfo``).  The two front ends stand beside it: ``kiosk`` (a gallery's touch screen) and
``online`` (a web site); neither imports the other.

May import: ``driver``, ``machine``, ``reference``, ``tools`` and the standard library (and aiohttp).
"""
