"""The machine compared with the reference, move by move: the project's proof that the PDP-1 is right.

``driver`` (the one game driver: every game on the PDP-1 -- play, the demonstration, the kiosk,
the cross-check -- from read-in to record, with its restore policy, its thinking stepped and counted
at the pace of a ``pacing.Pacer``, one parser and one cross-checker a game), ``crosscheck`` (every
event of a play-mode game checked), ``restore`` (a game put back on a fresh emulator),
``visitors`` (who answers the PDP-1's questions: the protocol and the reference's players),
``games`` (seeded cross-check games), ``fuzz`` (the diagnostic-mode differential fuzz), ``parallel`` (work
dealt to several emulators), ``proof`` (a proof on the PDP-1, its cycles counted, checked against
``reference.prove``), ``deepening`` (the analysis tape's ``d``, each depth checked), ``beside`` (the
reference's work in a process of its own, beside the emulator), ``figures`` (the ``bench``
measurements), ``figures_page`` (docs/figures.md, every figure the docs quote, from its command),
``strength`` (the default level, played by the reference, against OpenSpiel's bots: ``make bench-strength``)
and ``openspiel_layout`` (OpenSpiel's mancala board and actions mapped to our pits); shared by the commands a
visitor plays through: ``keyboard`` (the visitor's keys at the host terminal: refused keys, type-ahead),
``record_files`` (names no two sessions share),
``game_records`` (a saved record read back and replayed against the reference: ``replay``),
``wording`` (counted nouns).

May import: ``machine``, ``reference``, ``tools`` and the standard library (``strength`` also the
optional ``open_spiel``, inside its functions).
"""
