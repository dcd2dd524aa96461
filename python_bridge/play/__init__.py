"""The game at a terminal: the typewriter shown live, the visitor's lines typed, every game recorded.

May import: ``checking``, ``machine``, ``reference`` and the standard library.
"""
