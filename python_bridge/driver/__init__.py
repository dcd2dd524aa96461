"""The one game driver: every game on the PDP-1 -- play, the demonstration, the kiosk, the cross-check
games -- runs through ``driver.driver.GameDriver``, and only what it needs lives here.

``driver`` (from read-in to record: the restore policy, the thinking stepped and counted, one parser
and one cross-checker a game), ``pacing`` (the 1960 pace: the reader's frames and the thinking stepped
at memory-cycle rate), ``restore`` (a game put back on a fresh emulator), ``crosscheck`` (every event
of a game checked against the reference engine; it lives here because the driver cannot run a move
without it), ``visitors`` (who answers the PDP-1's questions: the protocol and the reference's
players), ``keyboard`` (a visitor's keys at the host terminal: refused keys, type-ahead),
``game_records`` (the one game-record format: written by every front end, read back and replayed by
``replay``), ``record_files`` (record names no two sessions share), ``wording`` (counted nouns).

May import: ``machine``, ``reference``, ``tools`` and the standard library.
"""
