"""The exhibit's page: plain HTML, CSS and JavaScript modules in ``static/``, the same for every front end.

Why one page: the kiosk's touch screen and a visitor's browser online show the same board, paper and
cards in the same four languages; a front end only says which it is (``data-site`` on the body), and the
page adapts (the online page's waiting line and game links).
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
INDEX = STATIC_DIR / "index.html"


def page_html(site: str | None = None) -> str:
    """The page as a front end serves it: ``site`` (such as ``"online"``) marked on its body."""
    html = INDEX.read_text(encoding="utf-8")
    return html if site is None else html.replace("<body ", f'<body data-site="{site}" ', 1)
