"""``demo --proof``: the story, the PDP-1's proof on SIMH, the check, at 1960 pace or fast."""

from __future__ import annotations

import io
import time

import pytest

from python_bridge.commands import demo as demo_cli
from python_bridge.demo.proof_show import run_proof_show
from python_bridge.reference.rules import Variants


def test_the_fast_segment_proves_6_1(kalah_tape) -> None:
    out = io.StringIO()
    assert run_proof_show(out, fast=True, seeds=(1,), deepen_seeds=()) == 0
    text = out.getvalue()
    assert "SHERSH.1[LET,JMC]" in text and "SHERSH.2[LET,JMC]" in text
    assert "takes the game's tape (kalah.rim) off the reader and mounts the analysis tape" in text
    assert "build/prove.rim:" in text and "reads in the analysis tape" in text
    assert "\nw 0\nabove yes nodes 190\n" in text
    assert "above yes nodes 190 -- agrees" in text
    assert "One seed a pit: the first player wins" in text


def test_the_paced_segment_takes_the_1960_time(kalah_tape) -> None:
    """At 1960 pace the proof's cycles (5 us each) set the time, and the typewriter types 10 characters a second."""
    out = io.StringIO()
    began = time.monotonic()
    assert run_proof_show(out, seeds=(1,), variants=Variants(empty_capture=True), deepen_seeds=()) == 0
    took = time.monotonic() - began
    text = out.getvalue()
    assert "above yes nodes 119 -- agrees" in text
    seconds_1960 = float(text.split("memory cycles: ")[1].split(" s on a real PDP-1")[0])
    typed = len("p 1 1 1 1 1 1 0 1 1 1 1 1 1 0 s") + len("ok") + len("w 0") + len("above yes nodes 119")
    assert took >= seconds_1960 + typed / 10


def test_the_deepening_beside_the_strong_indications(kalah_tape) -> None:
    """After McCarthy's "strong indications", the analysis tape deepens from the 4-seed start, each line
    typed as it is found and checked (to depth 6 here, with time to spare: a loaded machine may not
    reach a depth within the show's seconds)."""
    out = io.StringIO()
    assert run_proof_show(out, fast=True, seeds=(), deepen_seeds=(4,), deepen_to=6, deepen_seconds=600) == 0
    text = out.getvalue()
    typed = text.find("\nd 6\ndepth 1 value 1 nodes 3\ndepth 2 value 2 nodes 11\n")
    assert 0 < text.find("strong indications") < typed, text
    assert "lets it run 600 seconds of this computer's time from each start" in text
    assert "every line agrees (6 depths)" in text and "DISAGREES" not in text and "stops the machine" not in text
    captions = text.replace("\n   >> ", " ")
    assert "Four seeds a pit: looking 6 plies ahead, the first player finishes 3 ahead. An indication" in captions


@pytest.mark.parametrize("args", [["--proof", "--visitor"], ["--proof", "--pie-rule"], ["--proof", "--first", "pdp-1"]])
def test_proof_segment_refuses_other_shows_options(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:  # refused as the options are read, before any work
        demo_cli.main(args)
    assert refused.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
