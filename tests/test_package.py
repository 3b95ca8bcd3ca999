"""Package-level promises: public names declared, both entry points work."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

import fairfight

RULESETS = ["ballot", "clash", "conquest", "warscore"]


def every_module() -> list[str]:
    """Every importable module of the package, except `__main__` entry points."""
    names = ["fairfight"]
    for info in pkgutil.walk_packages(fairfight.__path__, prefix="fairfight."):
        if not info.name.endswith("__main__"):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", ["fairfight.core", *(f"fairfight.{r}" for r in RULESETS)])
def test_each_package_declares_its_public_api(name: str) -> None:
    assert hasattr(importlib.import_module(name), "__all__")


def isort_order(name: str) -> tuple[int, str]:
    """Constants, then classes, then the rest: the other common way to sort `__all__`."""
    if name.isupper():
        return (0, name)
    return (1, name) if name[:1].isupper() else (2, name)


@pytest.mark.parametrize("name", every_module())
def test_all_is_sorted_and_complete(name: str) -> None:
    """Where a module declares `__all__`: sorted, no repeats, every name present, and every
    public function or class defined in the module listed."""
    module = importlib.import_module(name)
    if not hasattr(module, "__all__"):
        return
    exported = list(module.__all__)
    assert exported in (sorted(exported), sorted(exported, key=isort_order))
    assert len(set(exported)) == len(exported)
    for public in exported:
        assert hasattr(module, public), public
    defined_here = {
        attribute
        for attribute, value in vars(module).items()
        if not attribute.startswith("_")
        and callable(value)
        and getattr(value, "__module__", None) == name
    }
    assert defined_here <= set(exported)


def test_python_dash_m_runs_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "fairfight", "version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.strip() == importlib.import_module("fairfight").__version__
