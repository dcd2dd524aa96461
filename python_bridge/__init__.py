"""The bridge between the emulated PDP-1 and the world: reference engine, SIMH wrapper, commands."""
