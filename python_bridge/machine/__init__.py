"""The emulated PDP-1, and the Kalah program running on it.

``simh`` is our SIMH wrapper, a library for any PDP-1 program (not only Kalah): start Debian's
``pdp1`` with a configuration, read in or load a tape (or MACRO source, through ``tools.macro``),
set the switches, type, expect typewriter output, break, step, examine, deposit, count
instructions, and always close.  ``pytest_plugin`` gives tests a ``pdp1`` fixture over it.
``kalah_program`` is the Kalah tape on that machine (symbols, resume, deposit a game),
``front_panel`` its sense switches and test word, ``transcript`` the parser of what its
typewriter prints, ``diagnostic`` the model of its diagnostic-mode protocol.

May import: ``reference``, ``tools`` and the standard library.
"""
