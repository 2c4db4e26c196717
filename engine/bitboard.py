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


def nth_bit(mask: int, n: int) -> int:
    """The index of the `n`-th set bit of `mask`, lowest first (`bits(mask)[n]`, without
    listing the others: playouts draw one cell of many)."""
    for _ in range(n):
        mask &= mask - 1
    if not mask:
        raise IndexError(f"mask has fewer than {n + 1} set bits")
    return (mask & -mask).bit_length() - 1
