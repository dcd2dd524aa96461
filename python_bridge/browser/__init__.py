"""The browser edition: the exhibit's game in the visitor's own browser, on SIMH's pdp1 compiled to WebAssembly,
the one game driver and the reference beside it in Pyodide (CPython as WebAssembly), in a Web Worker.

``page_game`` (the exhibit's session owned in the Worker: the page's messages answered, a game's record
offered), ``inbox`` (the session's inbox, fed by waiting on the page), ``pyodide_port`` (the machine's port
called from Pyodide), ``settings`` (the folder's ``settings.toml``), ``worker`` (what web/worker.mjs runs) and
``folder`` (``make web``: the static folder, built on the host).  A front end beside ``kiosk`` and ``online``:
it imports neither.

May import: ``driver``, ``exhibit``, ``machine``, ``reference``, ``tools`` and the standard library (and, in the
Worker only, Pyodide's own modules).
"""
