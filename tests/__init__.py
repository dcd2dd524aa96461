"""The tests, a package so that helpers import as ``tests.<folder>.<module>`` and two folders may hold test files
of the same name (pytest's default import mode needs the ``__init__.py`` files for that)."""
