"""Population power in the season kernel: floor(N ** 0.35 * 10^6) as libm's pow gives it,
mostly without calling pow.

The kernel's power of N people is `floor(pow(N, 0.35) * 1e6)`, a whole number. Away from
a whole number the floor does not depend on how N ** 0.35 is computed, so a cheaper estimate
does: N = (k + t) 2^s with k of 10 bits, k ** 0.35 and 2^(0.35 s) from tables, and
(1 + t/k) ** 0.35 from the first terms of its binomial series. The estimate is within a few
units in the last place of the exact value, and pow's within one; when the estimate lies
nearer a whole number than `_MARGIN` of itself (about 1 call in 10,000), the kernel calls
pow as before. Either way the power is the same float, bit for bit, as
`floor(pow(N, 0.35) * 1e6)`.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, localcontext
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types
from numba.extending import intrinsic

from fairfight.conquest.rules import tables

__all__ = ["population_power"]

_EXPONENT = float(tables.POWER_EXPONENT)
_SCALE = float(tables.POWER_SCALE)
_LEAD_BITS = 9
"""N's leading 10 bits index the table: k from 512 to 1023, so t/k is below 2^-9."""
_LEAD_LOW = 1 << _LEAD_BITS
_SHIFTS = 64 - _LEAD_BITS
"""Rows of the scale table: 2^s for every s an int64 headcount can need."""
_EXACT_FROM = 1 << 52
"""At and above 2^52 headcounts are left to pow (their float may not be exact)."""
_MARGIN = 2.0**-44
"""Relative distance to a whole number below which pow decides: the estimate and pow's value
differ by under 2^-48 of it (tables and products round to 2^-53 each, the series' terms past
u^4 stay below 2^-50, pow is within 2^-52; 20 million headcounts scanned differed by at most
1.2e-15), so both lie on the same side of any whole number farther than the margin."""


def _series() -> tuple[float, ...]:
    """Coefficients of (1 + u) ** 0.35 for u^1 .. u^4."""
    exponent, term, out = tables.POWER_EXPONENT, Decimal(1), []
    with localcontext() as context:
        context.prec = 40
        for n in range(1, 5):
            term = term * (Decimal(exponent.numerator) / exponent.denominator - (n - 1)) / n
            out.append(float(term))
    return tuple(out)


def _exact_rows(rows_of: Callable[[Decimal], list[tuple[float, float]]]
                ) -> npt.NDArray[np.float64]:
    """A table whose rows `rows_of` computes from the exponent, in 40 digits, each entry then
    rounded once to the nearest double."""
    exponent = tables.POWER_EXPONENT
    with localcontext() as context:
        context.prec = 40
        return np.asarray(rows_of(Decimal(exponent.numerator) / exponent.denominator),
                          dtype=np.float64)


def _lead_table() -> npt.NDArray[np.float64]:
    """Row k - 512: k ** 0.35 and 1 / k, each the double nearest the exact value."""
    return _exact_rows(lambda power: [(float(Decimal(k) ** power), float(Decimal(1) / k))
                                      for k in range(_LEAD_LOW, 2 * _LEAD_LOW)])


def _shift_table() -> npt.NDArray[np.float64]:
    """Row s: 2^(0.35 s) times the scale 10^6, and 2^-s."""
    return _exact_rows(lambda power: [
        (float(Decimal(2) ** (power * s) * tables.POWER_SCALE), 2.0**-s)
        for s in range(_SHIFTS)])


_C1, _C2, _C3, _C4 = _series()
_LEAD = _lead_table()
_SHIFT = _shift_table()


@intrinsic
def _leading_zeros(typingctx: Any, word: Any) -> Any:
    """LLVM's ctlz on a non-zero uint64 (lzcnt or bsr)."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@numba.njit(cache=True, inline="always")
def _by_pow(people: int) -> Any:
    return np.floor(people ** _EXPONENT * _SCALE)


@numba.njit(cache=True, inline="always")
def population_power(people: int) -> Any:
    """floor(pow(people, 0.35) * 1e6), the same float, through the estimate where it is
    decisive and pow elsewhere (see the module's docstring)."""
    if people < _LEAD_LOW or people >= _EXACT_FROM:
        return _by_pow(people)
    shift = 63 - int(_leading_zeros(np.uint64(people))) - _LEAD_BITS  # type: ignore[call-arg]
    lead = people >> shift
    rest = people - (lead << shift)
    u = float(rest) * (_LEAD[lead - _LEAD_LOW, 1] * _SHIFT[shift, 1])
    square = u * u  # powers side by side, not nested: a shorter chain of dependent steps
    series = (1.0 + u * _C1) + square * (_C2 + u * _C3) + (square * square) * _C4
    estimate = _LEAD[lead - _LEAD_LOW, 0] * _SHIFT[shift, 0] * series
    margin = estimate * _MARGIN
    low = np.floor(estimate - margin)
    if low != np.floor(estimate + margin):
        return _by_pow(people)
    return low
