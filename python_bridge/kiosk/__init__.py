"""The museum kiosk: the exhibit in a gallery, on a touch screen left alone for weeks.

The exhibit itself (the page, the game session, the protocol, the server guard) is ``exhibit``'s; this
package is the gallery around it: ``config`` reads the operator's file (the exhibit's game settings and
the gallery's own); ``runner`` plays one session's games (visitor or attract mode, ``players``' demo
player between visitors) in a thread of its own, every move cross-checked; ``server`` is the aiohttp
web server with one controlling screen (``Hub``) and ``/health``; ``counters`` are what it counts,
``saved_game`` the game kept across a restart; ``sdnotify`` speaks to systemd; ``logs`` is the
rotating log; ``soak`` runs many attract games unattended, hurt on purpose.  The systemd units are in
``deploy/``.

May import: ``driver``, ``exhibit``, ``machine``, ``reference``, ``tools`` and the standard library.
"""
