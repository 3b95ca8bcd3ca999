"""One least-recently-used cache capped by bytes, for every in-process cache of the service.

A cache capped by entry count holds as much memory as its largest entries allow; capped by
bytes, its share of the server's memory is a number an operator can add up (docs/operations.md,
"Memory"). Each cache says how an entry is weighed (`size_of`), once, when it is stored: the
exact length of a PNG, or `deep_size`, an estimate of what a structured value holds. Pages
and the pool threads use the caches at once, so every step holds the cache's lock; weighing
and building values happen outside it.
"""

from __future__ import annotations

import enum
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar, overload

__all__ = ["ByteCappedCache", "deep_size"]

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
_D = TypeVar("_D")
_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, enum.Enum)
"""Objects that belong to the program, not to a value (classes, functions, enum members):
`deep_size` does not count them."""
_ABSENT = object()
"""What `get` answers in `get_or_make` for a key not kept (a kept value may be None)."""
_ATOM_KINDS = (str, bytes, bytearray, int, float, complex)
"""Values that hold nothing else (`bool` is an `int`)."""
_ATOMS = frozenset({*_ATOM_KINDS, bool, type(None)})
_CONTAINERS = frozenset({tuple, list, set, frozenset, dict})


def deep_size(value: object, shared: Iterable[object] = ()) -> int:
    """Bytes `value` holds, estimated: `sys.getsizeof` of it and of everything it reaches
    through containers (tuple, list, set, dict), instance dictionaries and slots (dataclasses,
    pydantic models), each object counted once. What is reached only through `shared` (parts
    a cache charges to another entry) is left out; other parts common to several values
    (interned strings, small numbers) are counted in each, so the estimate errs high."""
    seen = {id(part) for part in shared}
    pending: list[object] = [value]
    total = 0
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if type(item) in _ATOMS:
            total += sys.getsizeof(item)
            continue
        if isinstance(item, _SHARED):
            continue
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, tuple | list | set | frozenset):
            pending.extend(item)
        if type(item) not in _CONTAINERS and not isinstance(item, _ATOM_KINDS):
            pending.extend(_attributes(item))
    return total


def _attributes(item: object) -> list[object]:
    """An instance's own dictionary (counted as an object) and its filled slots."""
    found: list[object] = []
    own = getattr(item, "__dict__", None)
    if isinstance(own, dict):
        found.append(own)
    for kind in type(item).__mro__:
        slots = kind.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(item, name):
                found.append(getattr(item, name))
    return found


class ByteCappedCache(Generic[_K, _V]):
    """Values by key, the least recently used dropped first while their bytes pass
    `max_bytes`; an entry heavier than the whole budget is not kept at all. An entry weighs
    `size_of(value)`, plus `key_size_of(key)` for a cache whose keys are large themselves."""

    def __init__(self, max_bytes: int, size_of: Callable[[_V], int],
                 key_size_of: Callable[[_K], int] | None = None) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes: a budget is 0 bytes or more, not {max_bytes}")
        self.max_bytes = max_bytes
        self.size_of = size_of
        self.key_size_of = key_size_of
        self._entries: OrderedDict[_K, tuple[_V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes_used(self) -> int:
        """The bytes the kept entries weigh, never over `max_bytes`."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def get(self, key: _K) -> _V | None: ...
    @overload
    def get(self, key: _K, default: _D) -> _V | _D: ...

    def get(self, key: _K, default: object = None) -> object:
        """The value kept for `key` (now the most recently used), or `default`."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return default
            self._entries.move_to_end(key)
            return found[0]

    def get_or_make(self, key: _K, make: Callable[[], _V]) -> _V:
        """The value kept for `key`, or `make()` kept and returned (made outside the lock: two
        threads may both make it, and the second one kept wins, which is harmless for the
        pure views these caches hold)."""
        found = self.get(key, _ABSENT)
        if found is _ABSENT:
            made = make()
            self.put(key, made)
            return made
        return found  # type: ignore[return-value]

    def put(self, key: _K, value: _V) -> bool:
        """Keep `value` for `key` (replacing what was kept), dropping the least recently used
        until the budget holds; False when the entry alone is heavier than the budget (then
        nothing is kept for `key`)."""
        size = self.size_of(value) + (0 if self.key_size_of is None else self.key_size_of(key))
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return False
            self._entries[key] = (value, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped
            return True
