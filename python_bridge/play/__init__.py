"""The game at a terminal: the typewriter shown live, the visitor's lines typed, every game recorded;
and a saved record shown again move by move (``replay``), every move checked against the reference.

May import: ``driver``, ``machine``, ``reference``, ``tools`` and the standard library.
"""
