"""Kalah on the PDP-1: everything on the host side of the emulated machine.

The packages, each allowed to import only those before it (a test keeps it so):

``reference``  the golden model: rules, notation, search contract, solver.  Imports nothing else here.
``machine``    the emulated PDP-1: the SIMH wrapper (a library for any PDP-1 program), the Kalah
               program on it, its front panel, typewriter transcript and diagnostic protocol.
``driver``     the one game driver (every game on the PDP-1), its cross-checker, restores and records.
``checking``   the machine compared with the reference: cross-check games, fuzz, proofs, deepening.
``play``       the game at a terminal.
``demo``       the historical demonstration at 1960 speed.
``kiosk``      the museum kiosk: server, runner, page.
``bench``      every benchmark and study that prints figures.
``commands``   ``python -m python_bridge <command>``: argument parsing only.  Nothing imports it.
"""
