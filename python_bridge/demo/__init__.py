"""The historical demonstration: the panel, the tape read in, the PDP-1 at 1960 speed, captions.

``run`` (the whole show and what it leaves behind), ``show`` (the game with its presenter),
``tape_picture`` (the tape drawn from its bytes),
``paper`` (the typewriter paper as SVG), ``captions`` and ``script.txt`` (the presenter's script), ``proof_show``
(the ``--proof`` segment: McCarthy's result re-enacted).

May import: ``checking`` (the proof segment), ``driver``, ``machine``, ``reference``, ``tools`` and the
standard library.
"""
