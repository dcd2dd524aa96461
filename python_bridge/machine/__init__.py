"""The emulated PDP-1, and the Kalah program running on it.

``simh`` is our SIMH wrapper, a library for any PDP-1 program (not only Kalah): start Debian's
``pdp1`` with a configuration, read in or load a tape (or MACRO source, through ``tools.macro``),
set the switches, type, expect typewriter output, break, step, examine, deposit, count
instructions, and always close.  It is three layers, each a module: ``simh_process`` (the ``pdp1``
process on a pty, reaped on every way out), ``simh_output`` (its output read once, in order, stops
raised), ``simh_console`` (the commands said alike to any transport) and ``simh`` (the pty's own
commands, and the public API); ``simh_errors`` holds the exceptions and SIMH's stop messages.
``wasm_simh`` is the same API over SIMH compiled to WebAssembly (``make web``), run in slices through
a ``wasm_port`` (node beside Python).  ``pytest_plugin`` gives tests a ``pdp1`` fixture over it.
``kalah_program`` is the Kalah tape on that machine (symbols, resume, deposit a game),
``front_panel`` its sense switches and test word, ``transcript`` the parser of what its
typewriter prints, ``diagnostic`` the model of its diagnostic-mode protocol.

May import: ``reference``, ``tools`` and the standard library.
"""
