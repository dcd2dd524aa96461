"""SIMH 3.8.1's typewriter has one buffer for keys and printing: a key struck while the PDP-1 types
replaces the character being printed (pdp1_stddev.c: tyo loads tty_buf, the printer's service prints
tty_buf later, the keyboard's service overwrites it).  The bridge therefore types only whole lines,
only when the program has finished its question and waits in its line reader (docs/tools.md, "The
typewriter's one buffer"); this test shows the hazard it avoids is real."""

from __future__ import annotations

from python_bridge.machine.simh import MachineConfig, Simh

# Prints "b" (and waits for it), starts printing "a" without waiting, and waits for a key: the
# printer takes 5 million instructions (SIMH's tto time), so the key comes while "a" is being printed.
PRINTER = """printer
100/	lio (62
	tyo
	lio (61
	iot 3
wt,	szf i 1
	jmp wt
	clf 1
	tyi
	dio key
idle,	jmp idle
key,	0
	constants
	start 100
"""


def test_a_key_struck_while_the_pdp1_types_replaces_the_character_printed() -> None:
    with Simh(MachineConfig(tto_time=5_000_000, tti_time=100), timeout=20) as sim:
        program = sim.read_in_source(PRINTER)
        sim.expect("b")
        sim.type("x")
        typed = sim.expect("xx|xa")  # SIMH's echo of the key, then what the printer printed
        sim.stop()
        key = sim.examine(program.symbols["key"])
    assert typed.group(0) == "xx"  # the printer printed the key, not the program's "a"
    assert key & 0o77 == 0o27  # and the program read the x it was sent (FIO-DEC 27)
