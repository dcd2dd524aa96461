"""``python -m python_bridge pictures`` as ``make pictures`` runs it: the kiosk's and the online server at their
shipped settings, Debian's Chromium, a seeded game each; every picture the docs show written at its size, not
blank, and named in a line of its own (the line ``make figures FIGURES=pictures`` keeps)."""

from __future__ import annotations

import pytest

from python_bridge.bench.pictures import PICTURES, look
from tests.programs import need
from tests.test_doc_pictures import blank

# make pictures' own run (two servers, Chromium, three seeded games: 20-30 s) is a long test (make test-slow, as
# the figures' other long commands); make test checks the pictures the docs show (tests/test_doc_pictures.py)
pytestmark = [pytest.mark.simh, pytest.mark.slow]


def test_make_pictures_takes_every_picture_the_docs_show(tmp_path, kalah_tape, bridge) -> None:
    need("/usr/bin/chromium")
    done = bridge("pictures", "--pictures", str(tmp_path / "pictures"), timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(PICTURES), lines
    for picture, line in zip(PICTURES, lines, strict=True):
        seen = look((tmp_path / "pictures" / picture.name).read_bytes())
        assert (seen.width, seen.height) == (picture.width, picture.height) and not blank(seen), (picture.name, seen)
        assert line.startswith(f"{picture.name}: {picture.width}x{picture.height}, {seen.colours} colours"), line
