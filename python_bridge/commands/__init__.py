"""``python -m python_bridge <command>``: one module per command, argument parsing and nothing else.

Each module has ``main(argv) -> int``; ``validators`` holds what they share (bounded numbers,
variant flags, one-line errors with exit status 2).  The work itself is done by the other
packages.

May import: every package here.  Nothing but ``__main__`` imports it.
"""
