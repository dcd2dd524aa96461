"""Every benchmark and study that prints figures: measured on the host, printed, never asserted.

``figures`` (the PDP-1's ``bench`` measurements), ``figures_page`` (docs/figures.md, every figure the
docs quote, from its command), ``pictures`` (the docs' screenshots of the exhibit's pages: ``pictures``),
``reference_speed`` (the reference engine's search speed: ``bench-ref``), ``contract_study`` (the level
contract's rows: ``bench-contract``), ``strength`` (the default level, played by the reference, against
OpenSpiel's bots: ``bench-strength``),
``openspiel_layout`` (OpenSpiel's mancala board and actions mapped to our pits), ``first_visit`` (a
first-time visitor's game at the kiosk's settings, played by the reference), ``kiosk_visit`` (what a
visitor waits for at the kiosk, in Debian's Chromium: ``bench-kiosk``), ``online_load`` (what one host
serves online: ``bench-online``), ``online_visitor`` (its simulated visitor), ``online_cluster_load``
(one server on SQLite against N on PostgreSQL behind HAProxy: ``bench-online --servers N``),
``failover`` (a visitor's server lost, timed: ``bench-online --kills K``).

May import: ``checking``, ``driver``, ``kiosk``, ``machine``, ``online`` (its cluster, run as processes),
``reference``, ``tools``, the standard library and, inside its functions, the optional ``open_spiel`` and
``playwright``.
"""
