"""The SIMH wrapper as a library for any PDP-1 program, through the ``pdp1`` pytest fixture.

The programs here are small ones written for these tests, not Kalah: they show that the wrapper
knows nothing of the Kalah program, and they are what docs/testing-pdp1-programs.md describes.
"""

from __future__ import annotations

import os

import pytest

from python_bridge.machine.simh import AssemblyFailed, BreakpointReached, MachineHalted, Simh, live_simulators
from tests.processes import pdp1_below

pytestmark = pytest.mark.simh

# Types "k" (ask for a key), then "y" when "x" is struck (any other key is ignored), then halts at 0100.
# The test waits for the "k": SIMH flushes the terminal's input as the machine starts, so a key typed then is lost.
X_TO_Y = """x to y
100/	hlt
ask,	lio (char rk
	tyo
go,	szf i 1		/ wait for a key
	jmp .-1
	clf 1
	cli
	tyi
	dio key
	lac key
	sas (char rx	/ skip when it is x
	jmp go
	lio (char ry
	tyo
	jmp 100
key,	0
	constants
	start ask
"""

# Leaves 3 + 4 in AC and halts: no typewriter at all.
ADD = """add
100/	lac a
	add b
	hlt
a,	3
b,	4
	start 100
"""

# Counts up in a loop for ever: for breakpoints, steps and examine.
COUNT = """count
100/	idx n
	jmp 100
n,	0
	start 100
"""

# Reads the test word and the sense switches into AC and IO, then halts.
PANEL = """panel
100/	lat
	cli
	szs 60		/ skip when sense switch 6 is off
	lio (1
	hlt
	constants
	start 100
"""


def test_type_a_key_expect_the_answer_and_the_halt(pdp1) -> None:
    pdp1.read_in_source(X_TO_Y)
    pdp1.expect("k")        # the program runs: no key typed from now on is thrown away
    pdp1.type("a")          # ignored: the program waits for x
    pdp1.expect("a")        # SIMH echoes every key it takes
    pdp1.type("x")
    pdp1.expect("y")
    assert pdp1.wait_for_halt() == 0o100


def test_a_halt_leaves_its_value_in_ac(pdp1) -> None:
    pdp1.read_in_source(ADD)
    assert pdp1.wait_for_halt() == 0o102
    assert pdp1.examine("ac") == 7


def test_fast_load_breakpoint_step_and_examine(pdp1) -> None:
    program = pdp1.load_source(COUNT)
    pdp1.set_breakpoint(0o101)
    pdp1.go(0o100)
    stop = pdp1.wait_for_stop()
    assert isinstance(stop, BreakpointReached) and stop.pc == 0o101
    assert pdp1.examine(program.symbols["n"]) == 1
    pdp1.clear_breakpoint()
    before = pdp1.instructions()
    _, pc = pdp1.step(10)
    assert pdp1.instructions() - before == 10 and pc == 0o101
    assert pdp1.examine(program.symbols["n"]) == 6
    pdp1.deposit(program.symbols["n"], 0o777)
    pdp1.step(2)            # jmp 100, idx n
    assert pdp1.examine(program.symbols["n"]) == 0o1000


def test_switches_and_test_word_reach_the_program(pdp1) -> None:
    pdp1.load_source(PANEL)
    pdp1.set_test_word(0o123456)
    pdp1.set_switches(0o001)  # sense switch 6 on, switch 1 off
    pdp1.go(0o100)
    assert pdp1.wait_for_halt() == 0o104
    assert pdp1.examine("ac") == 0o123456 and pdp1.examine("io") == 1


@pytest.mark.pdp1(memory_words=8192, multiply_divide=True, timeout=5)
def test_the_mark_configures_the_machine(pdp1) -> None:
    shown = pdp1.command("show cpu")
    assert "8192W" in shown and "multiply/divide" in shown and "no multiply" not in shown
    assert pdp1.timeout == 5


def test_source_that_does_not_assemble_is_reported_with_macro1s_message(pdp1) -> None:
    with pytest.raises(AssemblyFailed) as failure:
        pdp1.read_in_source("bad\n100/\tlac nowhere\n\tstart 100\n", name="bad.mac")
    assert "bad.mac" in str(failure.value) and "undefined symbol" in str(failure.value)


def test_several_machines_are_all_closed_after_the_test(pdp1_factory) -> None:
    first, second = pdp1_factory(), pdp1_factory()
    first.read_in_source(ADD)
    second.read_in_source(ADD)
    assert first.pid != second.pid
    assert isinstance(pytest.raises(MachineHalted, first.expect, "never").value, MachineHalted)


def test_nothing_is_left_running() -> None:
    assert not list(live_simulators())


def test_the_end_of_run_guard_sees_a_running_pdp1_and_not_a_closed_one() -> None:
    """What tests/conftest.py looks for at the end of each worker's session."""
    with Simh() as sim:
        assert sim.pid in pdp1_below(os.getpid())
    assert sim.pid not in pdp1_below(os.getpid())


def test_the_kit_pages_smallest_test_runs_as_a_file_of_its_own(tmp_path) -> None:
    """docs/testing-pdp1-programs.md, "The smallest test": its test, outside this project and with no conftest,
    through the plugin's entry point alone."""
    import subprocess
    import sys
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "testing-pdp1-programs.md").read_text()
    section = page.split("## The smallest test", 1)[1]
    (tmp_path / "test_example.py").write_text(section.split("```python\n", 1)[1].split("```", 1)[0])
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_example.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
