"""Word-level helpers of the season kernel: a splitmix64 generator, multiply-shift picks and
bitsets of factions or borders (64 members a word, in index order), all compiled by numba.

Counting bits, finding the lowest one and the high half of a 64 x 64-bit product are single
machine instructions; numba has no name for them, so they are written as LLVM intrinsics
(`ctpop`, `cttz`, a 128-bit multiply), which the compiler lowers to those instructions.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import cgutils, types
from numba.extending import intrinsic

__all__ = ["GOLDEN", "ONE", "ZERO", "below", "clear", "copy_into", "count",
           "has_bit", "lowest", "popcount",
           "season_start", "select", "set_bit", "splitmix", "splitmix_next", "splitmix_output",
           "splitmix_state", "swap_bit"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""2^64 over the golden ratio: splitmix64's step."""
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_LOW8 = np.uint64(0xFF)


@intrinsic
def _count_ones(typingctx: Any, word: Any) -> Any:
    """LLVM's ctpop on a uint64 (the popcnt instruction where the machine has it)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _trailing_zeros(typingctx: Any, word: Any) -> Any:
    """LLVM's cttz on a non-zero uint64 (tzcnt or bsf)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _high_product(typingctx: Any, x: Any, n: Any) -> Any:
    """(x * n) >> 64 for two uint64, through one 128-bit product."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))
    return types.uint64(types.uint64, types.uint64), codegen


_SLOW_PDEP = frozenset({"bdver4", "znver1", "znver2"})
"""CPUs (LLVM's names) with BMI2 whose pdep is microcode: AMD before Zen 3 takes tens to
hundreds of cycles, more with more set bits in the mask. On a Zen 1 EPYC the pdep of the
attacker pick (a dense mask) was a sixth of a season's time; counting is a few cycles."""


def _host_has_fast_pdep() -> bool:
    """Whether compiled code should use BMI2's pdep: the machine has it, runs it in hardware,
    and numba compiles for the machine it runs on (not for a CPU named in NUMBA_CPU_NAME)."""
    from llvmlite import binding

    named = getattr(numba.config, "CPU_NAME", None)
    return ((named is None or named == "host")
            and bool(binding.get_host_cpu_features().get("bmi2", False))
            and binding.get_host_cpu_name() not in _SLOW_PDEP)


_PDEP = _host_has_fast_pdep()


@intrinsic
def _deposit(typingctx: Any, source: Any, mask: Any) -> Any:
    """BMI2's pdep: the low bits of `source` laid into the set bits of `mask`, in order."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        word = ir.IntType(64)
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(word, [word, word]), "llvm.x86.bmi.pdep.64")
        return builder.call(function, args)
    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def _copy_bytes(typingctx: Any, target: Any, source: Any) -> Any:
    """memcpy of a whole C-contiguous array onto another of the same dtype and size. Numba's
    `target[:] = source` checks for overlap and copies element by element, three times the
    time of one memcpy for the few kilobytes a season starts from."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        into = context.make_array(signature.args[0])(context, builder, args[0])
        out_of = context.make_array(signature.args[1])(context, builder, args[1])
        width = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        cgutils.raw_memcpy(builder, into.data, out_of.data, into.nitems, width)  # type: ignore[no-untyped-call]
        return context.get_dummy_value()
    if not (isinstance(target, types.Array) and isinstance(source, types.Array)
            and target.layout == source.layout == "C" and target.dtype == source.dtype
            and target.ndim == source.ndim):
        return None
    return types.none(target, source), codegen


@numba.njit(cache=True, inline="always")
def copy_into(target: Any, source: Any) -> None:
    """Copy `source` onto `target`: two C-contiguous arrays of one dtype and shape."""
    if target.shape != source.shape:
        raise ValueError("copy_into: the shapes differ")
    _copy_bytes(target, source)  # type: ignore[call-arg]


@numba.njit(cache=True, inline="always")
def splitmix(state: Any) -> Any:
    """The next splitmix64 output; `state` is a one-element uint64 array, advanced in place."""
    z = state[0] + GOLDEN
    state[0] = z
    return splitmix_output(z)


@numba.njit(cache=True, inline="always")
def splitmix_next(position: Any) -> Any:
    """The generator state after `position` (a uint64 kept in a local, in a register)."""
    return position + GOLDEN


@numba.njit(cache=True, inline="always")
def splitmix_output(z: Any) -> Any:
    """The splitmix64 output at state `z`."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def season_start(key: Any, season: int) -> Any:
    """`splitmix_state` inside compiled code (uint64 arithmetic wraps)."""
    return key + np.uint64(season + 1) * GOLDEN


def splitmix_state(key: int, season: int) -> int:
    """The generator state a forecast season starts from: the forecast key and its number."""
    return (key + (season + 1) * 0x9E3779B97F4A7C15) % (1 << 64)


@numba.njit(cache=True, inline="always")
def below(n: int, x: Any) -> int:
    """(x * n) >> 64, as `core.draws.below`."""
    return int(_high_product(x, np.uint64(n)))  # type: ignore[call-arg]


ONE = np.uint64(1)
ZERO = np.uint64(0)


@numba.njit(cache=True, inline="always")
def popcount(x: Any) -> int:
    """Set bits of a 64-bit word."""
    return int(_count_ones(np.uint64(x)))  # type: ignore[call-arg]


@numba.njit(cache=True, inline="always")
def lowest(x: Any) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return int(_trailing_zeros(np.uint64(x)))  # type: ignore[call-arg]


@numba.njit(cache=True, inline="always")
def _select_in_word(x: Any, k: Any) -> int:
    """Index of the k-th set bit of a word holding more than k: one pdep where the machine
    runs it in hardware, else `_select_by_counts`."""
    if _PDEP:
        return lowest(_deposit(ONE << np.uint64(k), x))  # type: ignore[call-arg]
    return _select_by_counts(x, k)


def _select_in_byte_table() -> npt.NDArray[np.uint8]:
    """Row b, column k: the index of the k-th set bit of the byte b (0 where b has fewer)."""
    table = np.zeros((256, 8), dtype=np.uint8)
    for byte in range(256):
        for k, bit in enumerate(i for i in range(8) if byte >> i & 1):
            table[byte, k] = bit
    return table


_SELECT_IN_BYTE = _select_in_byte_table()


@numba.njit(cache=True, inline="always")
def _select_by_counts(x: Any, k: int) -> int:
    """The same without pdep: halves, quarters and bytes are skipped by their counts, then a
    table gives the bit within the byte (clearing up to seven bits in a loop mispredicted
    its exit about once a pick). Written out step by step: a loop over a tuple of widths
    left numba's small int helpers as calls, not inlined, all through the season loop."""
    base = 0
    low = x & _LOW32
    members = popcount(low)
    if k >= members:
        k -= members
        x >>= np.uint64(32)
        base += 32
    else:
        x = low
    low = x & _LOW16
    members = popcount(low)
    if k >= members:
        k -= members
        x >>= np.uint64(16)
        base += 16
    else:
        x = low
    low = x & _LOW8
    members = popcount(low)
    if k >= members:
        k -= members
        x >>= np.uint64(8)
        base += 8
    else:
        x = low
    return base + int(_SELECT_IN_BYTE[x, k])


@numba.njit(cache=True, inline="always")
def select(bits: Any, row: int, k: int) -> int:
    """Index of the k-th (from 0) set bit of row `row` of a table of bitsets: the k-th member
    in code order. Bitsets are rows of 2-d arrays, read by index: a row taken as its own
    array would cost a reference count per use in compiled code. Every word is counted and
    the one holding the member is kept by selects, not found by an early exit: the loop then
    runs as many times each pick (the row's length), which a branch predictor learns, where
    an exit at a random word was mispredicted about once a pick. -1 when the row has k or
    fewer members."""
    rest, chosen, rank, base = np.uint64(k), ZERO, ZERO, -1
    for w in range(bits.shape[1]):
        word = bits[row, w]
        members = np.uint64(popcount(word))
        if rest < members:  # past the member, `rest` has wrapped round to above any count
            chosen, rank, base = word, rest, w * 64
        rest -= members
    if base < 0:
        return -1
    return base + _select_in_word(chosen, rank)


@numba.njit(cache=True, inline="always")
def count(bits: Any, row: int) -> int:
    """Members of row `row` of a table of bitsets."""
    total = 0
    for w in range(bits.shape[1]):
        total += popcount(bits[row, w])
    return total


@numba.njit(cache=True, inline="always")
def has_bit(bits: Any, row: int, x: int) -> bool:
    return bool(bits[row, x >> 6] & (ONE << np.uint64(x & 63)) != 0)


@numba.njit(cache=True, inline="always")
def set_bit(bits: Any, row: int, x: int) -> None:
    bits[row, x >> 6] |= ONE << np.uint64(x & 63)


@numba.njit(cache=True, inline="always")
def clear(bits: Any, row: int, x: int) -> None:
    bits[row, x >> 6] &= ~(ONE << np.uint64(x & 63))


@numba.njit(cache=True, inline="always")
def swap_bit(bits: Any, row: int, out: int, into: int) -> None:
    """Clear bit `out` and set bit `into` of a row, in one store when they share a word."""
    out_word, into_word = out >> 6, into >> 6
    if out_word == into_word:
        bits[row, into_word] = ((bits[row, into_word] & ~(ONE << np.uint64(out & 63)))
                                | (ONE << np.uint64(into & 63)))
    else:
        bits[row, out_word] &= ~(ONE << np.uint64(out & 63))
        bits[row, into_word] |= ONE << np.uint64(into & 63)
