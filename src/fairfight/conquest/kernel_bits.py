"""Word-level helpers of the season kernel: a splitmix64 generator, multiply-shift picks and
bitsets of factions or borders (64 members a word, in index order), all compiled by numba."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["ONE", "below", "clear", "lowest", "popcount", "season_start", "select", "set_bit",
           "splitmix", "splitmix_state"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@numba.njit(cache=True, inline="always")
def splitmix(state: Any) -> Any:
    """The next splitmix64 output; `state` is a one-element uint64 array, advanced in place."""
    z = state[0] + _GOLDEN
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def season_start(key: Any, season: int) -> Any:
    """`splitmix_state` inside compiled code (uint64 arithmetic wraps)."""
    return key + np.uint64(season + 1) * _GOLDEN


def splitmix_state(key: int, season: int) -> int:
    """The generator state a forecast season starts from: the forecast key and its number."""
    return (key + (season + 1) * 0x9E3779B97F4A7C15) % (1 << 64)


@numba.njit(cache=True, inline="always")
def below(n: int, x: Any) -> int:
    """(x * n) >> 64 for n < 2**32, as `core.draws.below`, without 128-bit integers."""
    m = np.uint64(n)
    high = (x >> np.uint64(32)) * m + (((x & _LOW32) * m) >> np.uint64(32))
    return int(high >> np.uint64(32))


ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@numba.njit(cache=True, inline="always")
def popcount(x: Any) -> int:
    """Set bits of a 64-bit word."""
    x = x - ((x >> ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> np.uint64(56))


@numba.njit(cache=True, inline="always")
def lowest(x: Any) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return popcount((x & (~x + ONE)) - ONE)


@numba.njit(cache=True)
def select(bits: Any, k: int) -> int:
    """Index of the k-th (from 0) set bit of a bitset: the k-th member in code order."""
    for w in range(bits.shape[0]):
        members = popcount(bits[w])
        if k < members:
            x = bits[w]
            for _ in range(k):
                x &= x - ONE
            return w * 64 + lowest(x)
        k -= members
    return -1


@numba.njit(cache=True, inline="always")
def set_bit(bits: Any, x: int) -> None:
    bits[x >> 6] |= ONE << np.uint64(x & 63)


@numba.njit(cache=True, inline="always")
def clear(bits: Any, x: int) -> None:
    bits[x >> 6] &= ~(ONE << np.uint64(x & 63))
