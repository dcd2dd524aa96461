"""The museum kiosk: visitors play Kalah against the emulated PDP-1 on a touch screen.

``config`` reads the operator's file; ``game_session`` is one game on one
emulator shown to a page (the driver's front end, the page's state, turns,
paper, lights: what a server of many games reuses); ``runner`` is the
gallery around it, playing one session's games (visitor or attract mode) in a
thread of its own, every move cross-checked; ``server`` is the aiohttp web server (page, WebSocket,
health) and ``messages`` its protocol (turns, the controlling page); ``web_guard`` is what every
server of ours does around its pages (Host and Origin, the Server header, listening, stopping);
``health`` and ``counters`` are what ``/health`` checks and counts;
``sdnotify`` speaks to systemd; ``logs`` is the rotating log; ``soak`` runs
many attract games unattended, hurt on purpose.  The page itself is plain
HTML/CSS/JS in ``static/``; the systemd units are in ``deploy/``.

May import: ``driver``, ``machine``, ``reference``, ``tools`` and the standard library.
"""
