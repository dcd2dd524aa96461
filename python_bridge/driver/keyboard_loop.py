"""The PDP-1 waiting for a key: where its keyboard loop is, and a look that stops it there.

Why apart: while a visitor decides, the kiosk looks at the waiting machine (its console lights, that
it still answers); the look must find the program in its keyboard loop, or the program has gone
astray, and the driver treats the machine as failed.
"""

from __future__ import annotations

from ..machine.simh import BreakpointReached, Simh


def keyboard_loop(symbols: dict[str, int]) -> tuple[int, int]:
    """The two words of ``getc``'s wait for a key (``szf i 1`` / ``jmp gc1``)."""
    return symbols["gc1"], symbols["gc1"] + 1


def stopped_astray(sim: Simh, loop: tuple[int, int]) -> str | None:
    """Stop the running machine: None when it stopped in ``loop``, else what is wrong, in a line."""
    try:
        pc = sim.stop()
    except BreakpointReached as reached:  # a breakpoint here would be the program gone astray
        pc = reached.pc
    if pc in loop:
        return None
    if pc is None:
        return "the PDP-1 should wait for a key but stopped elsewhere"
    return f"the PDP-1 should wait for a key but its PC is {pc:o}"
