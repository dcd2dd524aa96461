"""gcd.mac on the emulated basic 1960 PDP-1: what it types, and what it costs in memory cycles.

Run from this folder: ``pytest`` (with pdp1-kalah installed, and Debian's simh).
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from python_bridge.machine.cycles import CycleCounter
from python_bridge.machine.simh import MachineHalted

SOURCE = (Path(__file__).parent / "gcd.mac").read_text()


def ask_and_answer(pdp1, a: int, b: int) -> int:
    """Answer the program's two questions (each key typed once it listens) and read what it types."""
    for question, number in (("a ", a), ("b ", b)):
        pdp1.expect(question)
        pdp1.type(f"{number}\r")
        pdp1.expect(f"{number}\r\n")  # SIMH's echo of the keys
    return int(pdp1.expect(r"(\d+)\r\n").group(1))


@pytest.mark.parametrize("a, b, answer", [(12, 18, 6), (1071, 462, 21), (17, 5, 1), (7, 7, 7), (65536, 4096, 4096)])
def test_it_types_the_divisor_of_two_typed_numbers(pdp1, a: int, b: int, answer: int) -> None:
    program = pdp1.read_in_source(SOURCE, name="gcd.mac")  # assembled, punched and read in: running
    assert ask_and_answer(pdp1, a, b) == answer
    assert pdp1.wait_for_halt() == program.symbols["done"]


def test_it_answers_again_after_continue(pdp1) -> None:
    program = pdp1.read_in_source(SOURCE, name="gcd.mac")
    for a, b in ((48, 36), (100, 75)):
        assert ask_and_answer(pdp1, a, b) == math.gcd(a, b)
        assert pdp1.wait_for_halt() == program.symbols["done"]
        pdp1.cont()


def euclid_steps(a: int, b: int) -> tuple[int, int]:
    """How many of gcd's subtraction steps take from a (a the larger), and how many from b."""
    from_a = from_b = 0
    while a != b:
        if a > b:
            a, from_a = a - b, from_a + 1
        else:
            b, from_b = b - a, from_b + 1
    return from_a, from_b


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gcd_takes_the_cycles_its_comment_says(pdp1, seed: int) -> None:
    """The routine's contract: 9 cycles, 10 a step from a, 12 a step from b (and 1 for the hlt that
    stops the count); and the right divisor."""
    rng = random.Random(seed)
    a, b = rng.randint(1, 3000), rng.randint(1, 3000)
    program = pdp1.load_source(SOURCE, name="gcd.mac")  # in core, stopped
    symbols = program.symbols
    pdp1.deposit(symbols["a"], a)
    pdp1.deposit(symbols["b"], b)
    pdp1.deposit("pc", symbols["tgcd"])
    counter = CycleCounter(pdp1)
    with pytest.raises(MachineHalted):
        counter.step(1_000_000)  # to the hlt after jsp gcd
    from_a, from_b = euclid_steps(a, b)
    assert counter.cycles == 9 + 10 * from_a + 12 * from_b + 1
    assert pdp1.examine("ac") == math.gcd(a, b)
    print(f"gcd({a}, {b}): {counter.instructions} instructions, {counter.cycles} cycles, "
          f"{counter.seconds * 1e3:.2f} ms on a 1960 PDP-1")
