"""The PDP-1 waiting for a key: where its keyboard loop is, and a look that stops it there.

Why apart: while a visitor decides, the kiosk looks at the waiting machine (its console lights, that
it still answers); the look must find the program in its keyboard loop, or the program has gone
astray, and the driver treats the machine as failed.
"""

from __future__ import annotations

from ..machine.simh import BreakpointReached, Simh

ON_THE_WAY = 2_000  # instructions: a program that has typed its question is in its keyboard loop well within these


def keyboard_loop(symbols: dict[str, int]) -> tuple[int, int]:
    """The two words of ``getc``'s wait for a key (``szf i 1`` / ``jmp gc1``)."""
    return symbols["gc1"], symbols["gc1"] + 1


def stopped_astray(sim: Simh, loop: tuple[int, int]) -> str | None:
    """Stop the running machine: None when it stopped in ``loop``, else what is wrong, in a line."""
    try:
        pc = reached_loop(sim, sim.stop(), loop)
    except BreakpointReached as reached:  # a breakpoint here would be the program gone astray
        pc = reached.pc
    if pc in loop:
        return None
    if pc is None:
        return "the PDP-1 should wait for a key but stopped elsewhere"
    return f"the PDP-1 should wait for a key but its PC is {pc:o}"


def reached_loop(sim: Simh, pc: int | None, loop: tuple[int, int]) -> int | None:
    """The stopped machine's PC once it has had ``ON_THE_WAY`` instructions to reach ``loop`` (``pc`` when it is
    there already): a look that came as the question's last character came out finds the program a few
    instructions short of its loop.  What it types meanwhile stays to be read."""
    if pc is None or pc in loop:
        return pc
    text, pc = sim.step(ON_THE_WAY)
    sim.unread(text)
    return pc
