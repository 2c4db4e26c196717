"""Helpers shared by the games' bitboards (sets of cells as Python ints)."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The indices of the set bits of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
