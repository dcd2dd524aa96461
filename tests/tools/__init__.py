"""Tests of the assembler (tools.macro), the tapes (tools.papertape, tools.tape), FIO-DEC and the disassembler."""
