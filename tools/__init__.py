"""Python tooling for the PDP-1: the macro1-compatible cross-assembler, paper tape, FIO-DEC, disassembly."""
