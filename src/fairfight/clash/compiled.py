"""The batch preview compiled by numba from the kernel's own source: one clash at a time.

`kernel.prepare` and `kernel.exchange` are compiled as they are written: their code objects
are rebound to globals where the record classes are named tuples, and `ops` is a numba class
with the helpers of `ops.IntOps`. So the compiled preview runs the very formulas of the
scalar resolution [CB-2140]; only the loop and the early-exit bisection are written here, the
same as `preview.threshold_draw` (a threshold the r = 0 or r = 999 draw settles skips its
search).
"""

from __future__ import annotations

import collections
import functools
import threading
import types
from dataclasses import fields
from typing import Any

import numba
import numpy as np
from numba.core.datamodel.models import OpaqueModel
from numba.core.extending import (
    NativeValue,
    overload_method,
    register_model,
    typeof_impl,
    unbox,
)

from fairfight.clash import kernel
from fairfight.clash import tables as t
from fairfight.clash.kernel import Columns, Exchange, Prepared
from fairfight.clash.parallel import Int32Array, Int64Array
from fairfight.clash.preview import band_values

__all__ = ["COLUMN_NAMES", "JitOps", "monotone_steps", "preview_rows"]

COLUMN_NAMES = tuple(item.name for item in fields(Columns))
if len(COLUMN_NAMES) != 40:
    raise ImportError("clash.compiled: `_columns_of` lists 40 columns; update it with Columns")


class JitOps:
    """`ops.IntOps` for compiled code: a value with no data whose helpers numba inlines."""


class _JitOpsType(numba.types.Opaque):
    def __init__(self) -> None:
        super().__init__(name="JitOps")


_JIT_OPS_TYPE = _JitOpsType()


@typeof_impl.register(JitOps)
def _typeof_ops(value: JitOps, context: Any) -> _JitOpsType:
    return _JIT_OPS_TYPE


register_model(_JitOpsType)(OpaqueModel)


@unbox(_JitOpsType)  # type: ignore[untyped-decorator, no-untyped-call]
def _unbox_ops(typ: Any, obj: Any, c: Any) -> Any:
    return NativeValue(c.context.get_dummy_value())  # type: ignore[no-untyped-call]


@overload_method(_JitOpsType, "minimum")
def _minimum(ops, a, b):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, a, b: a if a < b else b


@overload_method(_JitOpsType, "maximum")
def _maximum(ops, a, b):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, a, b: a if a > b else b


@overload_method(_JitOpsType, "clamp")
def _clamp(ops, x, low, high):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, x, low, high: low if x < low else high if x > high else x


@overload_method(_JitOpsType, "where")
def _where(ops, condition, if_true, if_false):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, condition, if_true, if_false: if_true if condition else if_false


@overload_method(_JitOpsType, "both")
def _both(ops, a, b):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, a, b: bool(a) and bool(b)


@overload_method(_JitOpsType, "either")
def _either(ops, a, b):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, a, b: bool(a) or bool(b)


@overload_method(_JitOpsType, "negate")
def _negate(ops, a):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, a: not a


@overload_method(_JitOpsType, "as_int")
def _as_int(ops, flag):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, flag: 1 if flag else 0


@overload_method(_JitOpsType, "take")
def _take(ops, table, index):  # type: ignore[no-untyped-def]  # numba compares signatures
    return lambda ops, table, index: table[index]


def _record(cls: type) -> Any:
    return collections.namedtuple(cls.__name__, [item.name for item in fields(cls)])


_ColumnsRecord = _record(Columns)
_GLOBALS: dict[str, Any] = dict(vars(kernel))
_GLOBALS.update(Prepared=_record(Prepared), Exchange=_record(Exchange))
for _name in ("power_terms", "contribution", "resolve_terms", "resolve", "_distinct_roles",
              "prepare", "exchange"):
    _source = getattr(kernel, _name)
    _GLOBALS[_name] = numba.njit(cache=True, error_model="numpy", inline="always")(
        types.FunctionType(_source.__code__, _GLOBALS, _name, _source.__defaults__))
_prepare, _exchange = _GLOBALS["prepare"], _GLOBALS["exchange"]
_band_values = numba.njit(cache=True, error_model="numpy", inline="always")(
    types.FunctionType(band_values.__code__, _GLOBALS, "band_values", band_values.__defaults__))


@numba.njit(cache=True, error_model="numpy", inline="always")
def _columns_of(columns: Any, i: int) -> Any:
    """One clash's columns as the record `prepare` reads (fields in `COLUMN_NAMES` order)."""
    return _ColumnsRecord(columns[0][i], columns[1][i], columns[2][i], columns[3][i],
                          columns[4][i], columns[5][i], columns[6][i], columns[7][i],
                          columns[8][i], columns[9][i], columns[10][i], columns[11][i],
                          columns[12][i], columns[13][i], columns[14][i], columns[15][i],
                          columns[16][i], columns[17][i], columns[18][i], columns[19][i],
                          columns[20][i], columns[21][i], columns[22][i], columns[23][i],
                          columns[24][i], columns[25][i], columns[26][i], columns[27][i],
                          columns[28][i], columns[29][i], columns[30][i], columns[31][i],
                          columns[32][i], columns[33][i], columns[34][i], columns[35][i],
                          columns[36][i], columns[37][i], columns[38][i], columns[39][i])


@numba.njit(cache=True, error_model="numpy", inline="always")
def _holds(which: int, p: Any, x: Any) -> bool:
    """The monotone predicates of the three thresholds: breaks, lead holds, lead survives."""
    if which == 0:
        return bool(x.defender_breaks)
    if which == 1:
        return not x.attacker_shock_reaches_resolve
    return bool(x.la < p.lead_strength)


@numba.njit(cache=True, error_model="numpy", inline="always")
def _threshold(ops: Any, p: Any, which: int, low_draw: Any, high_draw: Any) -> int:
    """Least draw where the predicate holds (1000: never), from the band draws first."""
    if _holds(which, p, low_draw):
        return 0
    if not _holds(which, p, high_draw):
        return t.DRAWS
    low, high = 1, t.HIGH_DRAW
    while low < high:
        middle = (low + high) // 2
        if _holds(which, p, _exchange(ops, p, middle)):
            high = middle
        else:
            low = middle + 1
    return low


_ANY_COLUMN = numba.types.Array(numba.types.int64, 1, "A", readonly=True, aligned=False)
"""Any int64 column (contiguous or a strided view, writable or not) converts to this type, so
one compiled loop reads every column where it lies: a view into a row-major table is read in
place rather than copied, and its fields of one clash share a few cache lines."""
_ALL_COLUMNS = numba.types.UniTuple(_ANY_COLUMN, len(COLUMN_NAMES))  # type: ignore[no-untyped-call]
_FILL_SIGNATURE = numba.void(_JIT_OPS_TYPE, _ALL_COLUMNS,
                             numba.types.Array(numba.types.int32, 2, "A"))


@numba.njit(cache=True, error_model="numpy", nogil=True)
def _fill(ops: Any, columns: Any, out: Any) -> None:
    """Each clash: Steps 1-4 once, the three band draws, then the three thresholds; each
    threshold is its own call with a constant predicate, so a probe computes only the part of
    the exchange that predicate reads (the defender's losses, or the lead's). It runs without
    the interpreter lock, so a batch's threads preview side by side."""
    for i in range(columns[0].shape[0]):
        c = _columns_of(columns, i)
        p = _prepare(ops, c)
        low = _exchange(ops, p, 0)
        median = _exchange(ops, p, t.MEDIAN_DRAW)
        high = _exchange(ops, p, t.HIGH_DRAW)
        out[0, i], out[1, i], out[2, i] = p.a, p.d, p.volatility
        out[3, i], out[4, i] = p.resolve_attacker, p.resolve_defender
        out[5, i], out[6, i], out[7, i] = _band_values(ops, low.ld, median.ld, high.ld)
        out[8, i], out[9, i], out[10, i] = _band_values(ops, low.la, median.la, high.la)
        out[11, i], out[12, i], out[13, i] = _band_values(
            ops, low.shock_defender, median.shock_defender, high.shock_defender)
        out[14, i] = _threshold(ops, p, 0, low, high)
        out[15, i] = _threshold(ops, p, 1, low, high)
        out[16, i] = _threshold(ops, p, 2, low, high)


def preview_rows(columns: Columns, out: Int32Array) -> None:
    """Fill `out` (the rows of `batch.OUTPUT_ROWS` x n) with the previews of the columns.

    int64 columns are passed as they are, strided or not (only other dtypes are converted).
    """
    arrays: tuple[Int64Array, ...] = tuple(
        np.asarray(getattr(columns, name), dtype=np.int64) for name in COLUMN_NAMES)
    _one_signature()(JitOps(), arrays, out)


_COMPILING = threading.Lock()
"""Two requests previewing at once in a fresh process must not both compile: the second
compile would come after `disable_compile` and fail."""


def _one_signature() -> Any:
    """`_fill` compiled (or loaded from numba's cache) for `_FILL_SIGNATURE` alone, on first
    use, so that importing this module for the sweep compiles nothing it does not run."""
    with _COMPILING:
        return _compiled_fill()


@functools.cache
def _compiled_fill() -> Any:
    _fill.compile(_FILL_SIGNATURE)
    _fill.disable_compile()  # other column types convert to this signature
    return _fill


_MONOTONE_RISING = ("s", "a_eff", "share_a", "ld", "shock_defender")
_MONOTONE_FALLING = ("d_eff", "share_d", "la", "shock_attacker")


@numba.njit(cache=True, error_model="numpy")
def _steps(ops: Any, columns: Any, out: Any) -> None:
    """Per clash, the draw steps where each CB-2150 quantity moves the wrong way."""
    for i in range(columns[0].shape[0]):
        p = _prepare(ops, _columns_of(columns, i))
        before = _exchange(ops, p, 0)
        for r in range(1, t.DRAWS):
            x = _exchange(ops, p, r)
            out[0, i] += x.s < before.s
            out[1, i] += x.a_eff < before.a_eff
            out[2, i] += x.share_a < before.share_a
            out[3, i] += x.ld < before.ld
            out[4, i] += x.shock_defender < before.shock_defender
            out[5, i] += x.d_eff > before.d_eff
            out[6, i] += x.share_d > before.share_d
            out[7, i] += x.la > before.la
            out[8, i] += x.shock_attacker > before.shock_attacker
            before = x


def monotone_steps(columns: Columns, rising: tuple[str, ...],
                   falling: tuple[str, ...]) -> Int64Array:
    """`invariants.monotone_violations` compiled: counts of shape (9, clashes), rising
    quantities first, in the order the caller names them (checked against this kernel's)."""
    if (rising, falling) != (_MONOTONE_RISING, _MONOTONE_FALLING):
        raise ValueError("monotone_steps: the quantities differ from the compiled sweep's")
    arrays = tuple(np.ascontiguousarray(getattr(columns, name), dtype=np.int64)
                   for name in COLUMN_NAMES)
    out: Int64Array = np.zeros((len(rising) + len(falling), arrays[0].shape[0]),
                               dtype=np.int64)
    _steps(JitOps(), arrays, out)
    return out
