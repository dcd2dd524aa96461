"""The checks: the machine compared with the reference, the project's proof that the PDP-1 is right.

``games`` (seeded cross-check games, through the one driver), ``fuzz`` (the diagnostic-mode
differential fuzz), ``parallel`` (work dealt to several emulators), ``proof`` (a proof on the PDP-1,
its cycles counted, checked against ``reference.prove``), ``deepening`` (the analysis tape's ``d``,
each depth checked), ``beside`` (the reference's work in a process of its own, beside the emulator),
``thinking`` (one search on the PDP-1, measured and checked: ``think``).

May import: ``driver``, ``machine``, ``reference``, ``tools`` and the standard library.
"""
