"""The few operations the formulas need beyond `+ - * //` and comparisons, for ints and arrays.

Every formula of the exchange is written once, against an `Ops` value. `INT_OPS` runs it on
Python ints (one clash); `ARRAY_OPS` runs the identical source on numpy int64 arrays (many
clashes at once). Python's `//` and numpy's `//` on integers both floor toward negative
infinity, as the rules require [CB-070].
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["ARRAY_OPS", "ArrayOps", "INT_OPS", "IntOps", "Ops", "Value"]

Value: TypeAlias = Any
"""An int (or bool) for one clash, or an int64 (or bool) numpy array for a batch."""


class IntOps:
    """The helpers on plain Python ints and bools."""

    minimum = staticmethod(min)
    maximum = staticmethod(max)

    @staticmethod
    def clamp(x: Value, low: Value, high: Value) -> Value:
        """x limited to [low, high]."""
        return low if x < low else high if x > high else x

    @staticmethod
    def where(condition: Value, if_true: Value, if_false: Value) -> Value:
        """if_true where the condition holds, else if_false."""
        return if_true if condition else if_false

    both = staticmethod(operator.and_)  # on two bools: a bool
    either = staticmethod(operator.or_)
    negate = staticmethod(operator.not_)

    @staticmethod
    def as_int(flag: Value) -> Value:
        """A truth value as 0 or 1."""
        return 1 if flag else 0

    take = staticmethod(operator.getitem)


class ArrayOps:
    """The same helpers on numpy arrays, elementwise."""

    def __init__(self) -> None:
        self._tables: dict[int, npt.NDArray[np.int64]] = {}

    @staticmethod
    def minimum(a: Value, b: Value) -> Value:
        """The smaller value, elementwise."""
        return np.minimum(a, b)

    @staticmethod
    def maximum(a: Value, b: Value) -> Value:
        """The larger value, elementwise."""
        return np.maximum(a, b)

    @staticmethod
    def where(condition: Value, if_true: Value, if_false: Value) -> Value:
        """if_true where the condition holds, else if_false, elementwise."""
        return np.where(condition, if_true, if_false)

    @staticmethod
    def both(a: Value, b: Value) -> Value:
        """Logical and, elementwise."""
        return np.logical_and(a, b)

    @staticmethod
    def either(a: Value, b: Value) -> Value:
        """Logical or, elementwise."""
        return np.logical_or(a, b)

    @staticmethod
    def negate(a: Value) -> Value:
        """Logical not, elementwise."""
        return np.logical_not(a)

    @staticmethod
    def clamp(x: Value, low: Value, high: Value) -> Value:
        """x limited to [low, high], elementwise."""
        return np.minimum(np.maximum(x, low), high)

    @staticmethod
    def as_int(flag: Value) -> Value:
        """Truth values as 0/1 int64."""
        return np.asarray(flag).astype(np.int64)

    def take(self, table: Sequence[int], index: Value) -> Value:
        """table[index] for every index (the table is converted once and kept)."""
        key = id(table)
        array = self._tables.get(key)
        if array is None:
            array = np.asarray(table, dtype=np.int64)
            self._tables[key] = array
        return array[index]


class Ops(Protocol):
    """What a kernel needs besides the arithmetic operators."""

    def minimum(self, a: Value, b: Value) -> Value: ...
    def maximum(self, a: Value, b: Value) -> Value: ...
    def clamp(self, x: Value, low: Value, high: Value) -> Value: ...
    def where(self, condition: Value, if_true: Value, if_false: Value) -> Value: ...
    def both(self, a: Value, b: Value) -> Value: ...
    def either(self, a: Value, b: Value) -> Value: ...
    def negate(self, a: Value) -> Value: ...
    def as_int(self, flag: Value) -> Value: ...
    def take(self, table: Sequence[int], index: Value) -> Value: ...


INT_OPS: Ops = IntOps()
ARRAY_OPS: Ops = ArrayOps()
