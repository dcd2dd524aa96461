"""``python -m tools.macro``: see tools.macro.cli."""

import sys

from .cli import main

sys.exit(main())
