"""Counted nouns as a person writes them: "1 seed", "4 seeds" (the PDP-1 program types its title so too)."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, the noun in the plural (``noun + "s"`` unless given) unless ``n`` is 1."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"
