"""Lazy public names for a ruleset package, so `fairfight <ruleset> --help` starts fast.

A package lists its public names in `__all__` and the submodules that define them; the
first use of a name imports those submodules in order until one has it. Type checkers see
the ordinary imports (under TYPE_CHECKING), so nothing changes for code using the package.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["lazy_exports"]


class _LazyPackage(types.ModuleType):
    """A package whose public names win over submodules of the same name.

    Importing `pkg.preview` makes Python set the attribute `pkg.preview` to that submodule;
    where the package exports a function of that name, the function is kept, as an eager
    `from pkg.preview import preview` in `__init__` would have left it.
    """

    _lazy_names: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._lazy_names and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


def lazy_exports(package: str, exported: Sequence[str],
                 submodules: Sequence[str]) -> Callable[[str], Any]:
    """A module `__getattr__` resolving each exported name from the listed submodules."""
    names = frozenset(exported)
    module_object = sys.modules[package]
    module_object.__class__ = _LazyPackage
    module_object.__dict__["_lazy_names"] = names
    missing = object()

    def __getattr__(name: str) -> Any:
        if name in names:
            for submodule in submodules:
                module = importlib.import_module(f"{package}.{submodule}")
                value = module.__dict__.get(name, missing)
                if value is not missing and not isinstance(value, types.ModuleType):
                    module_object.__dict__[name] = value
                    return value
            if name in submodules:  # a submodule exported by name
                value = importlib.import_module(f"{package}.{name}")
                module_object.__dict__[name] = value
                return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
