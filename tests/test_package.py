"""Package-level promises: public names declared, both entry points work."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

MODULES = [
    "fairfight.core",
    "fairfight.core.draws",
    "fairfight.core.exact",
    "fairfight.core.records",
    "fairfight.core.errors",
    "fairfight.console",
    "fairfight.docs",
]


@pytest.mark.parametrize("name", MODULES)
def test_all_is_sorted_and_complete(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert list(exported) == sorted(exported)
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
