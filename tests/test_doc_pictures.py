"""The docs' pictures: the README and docs/kiosk.md show the kiosk's screen, docs/online.md the online page on a
phone and on a desktop, and every picture a page shows is one ``make pictures`` takes, of the size its alt text
names, small enough to keep, and not blank.

Why: a museum's designer decides by looking, and a picture that is missing, stretched, empty (a page that had
not loaded) or drawn by hand misleads more than no picture.  Cheap: it reads the committed files only; that the
command takes them is tests/bench/test_pictures.py's.
"""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest

from python_bridge.bench.pictures import FOLDER, PICTURES, Looked, look

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
SIZE = re.compile(r"(\d+)\s*[x×]\s*(\d+)")
MOST_BYTES = 300 * 1024
FEWEST_COLOURS = 1000  # a page with its board, paper and lamps has thousands; a blank or bare one a few
COMMONEST_AT_MOST = 0.8  # no one colour covers most of the picture
PHONE_WIDTH = 600  # narrower than this the page is a phone's (kiosk.css)
BY_NAME = {picture.name: picture for picture in PICTURES}


def shown(page: Path) -> list[tuple[str, Path]]:
    """The pictures ``page`` shows: each its alt text and its file."""
    return [(alt, (page.parent / target).resolve()) for alt, target in IMAGE.findall(page.read_text())]


SHOWN = [(page, alt, path) for page in PAGES for alt, path in shown(page)]


def _pictures_of(page: str) -> list:
    return [BY_NAME.get(path.name) for alt, path in shown(ROOT / page)]


def test_the_readme_and_the_kiosks_page_show_the_kiosks_screen() -> None:
    for page in ("README.md", "docs/kiosk.md"):
        assert any(p is not None and p.site == "kiosk" for p in _pictures_of(page)), f"{page} shows no kiosk screen"
    assert len(shown(ROOT / "README.md")) == 1, "the README shows one picture"


def test_the_online_page_shows_a_phone_and_a_desktop() -> None:
    online = [p for p in _pictures_of("docs/online.md") if p is not None and p.site == "online"]
    assert any(p.width < PHONE_WIDTH and p.height > p.width for p in online), "docs/online.md shows no phone"
    assert any(p.width >= 1280 and p.width > p.height for p in online), "docs/online.md shows no desktop"


def test_every_picture_shown_is_one_make_pictures_takes_and_every_one_is_shown() -> None:
    """None drawn or kept by hand: each is in docs/pictures and the command's list; none there is left unshown."""
    paths = {path for _, _, path in SHOWN}
    assert paths, "no page shows a picture"
    assert {path.parent for path in paths} == {FOLDER.resolve()}
    assert {path.name for path in paths} == set(BY_NAME), "the pages and make pictures' list differ"
    assert {path.name for path in FOLDER.glob("*")} == set(BY_NAME), "docs/pictures holds files no page shows"


@pytest.mark.parametrize(("page", "alt", "path"), SHOWN, ids=[f"{p.name}:{f.name}" for p, _, f in SHOWN])
def test_a_picture_is_there_at_the_size_its_text_names_and_not_blank(page: Path, alt: str, path: Path) -> None:
    sizes = SIZE.findall(alt)
    assert len(sizes) == 1, f"{page.name}: the alt text of {path.name} names no size (or more than one): {alt!r}"
    width, height = (int(n) for n in sizes[0])
    assert path.is_file(), f"{page.name} shows {path.name}, which is missing"
    png = path.read_bytes()
    assert len(png) <= MOST_BYTES, f"{path.name}: {len(png)} bytes"
    seen = look(png)  # (a ValueError for a file that is no PNG)
    assert (seen.width, seen.height) == (width, height), f"{path.name} is {seen.width}x{seen.height}, not {alt!r}"
    assert (BY_NAME[path.name].width, BY_NAME[path.name].height) == (width, height), "make pictures' size differs"
    assert not blank(seen), f"{path.name} looks blank: {seen.colours} colours, the commonest {seen.commonest:.0%} of it"


def blank(seen: Looked) -> bool:
    return seen.colours < FEWEST_COLOURS or seen.commonest > COMMONEST_AT_MOST


def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    """A PNG of 8-bit RGB rows, each already led by its filter byte."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def test_a_page_that_had_not_loaded_is_told_blank() -> None:
    """The judge itself: one colour (a page not drawn) is blank; a picture of a thousand colours and more is not."""
    one = look(_png(40, 30, [b"\0" + bytes((24, 27, 31)) * 40] * 30))
    assert (one.width, one.height, one.colours, one.commonest) == (40, 30, 1, 1.0) and blank(one)
    rows = [b"\0" + b"".join(bytes((x, y, (x * y) % 256)) for x in range(40)) for y in range(30)]
    many = look(_png(40, 30, rows))
    assert many.colours == 1200 and not blank(many)
