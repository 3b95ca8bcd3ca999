"""Every benchmark `make bench` runs still imports and has its entry point.

The benches are run by hand, not by the suite, so a module moved or renamed under them went
unnoticed until `make bench` stopped at the first one that could not start. Importing each
one here catches that at once; what a bench measures is checked by running it.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[1] / "bench"
NAMES = sorted(info.name for info in pkgutil.iter_modules([str(BENCH)])
               if info.name.startswith("bench_"))


def test_the_benches_are_found() -> None:
    assert len(NAMES) >= 30, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_each_bench_imports_and_has_a_main(name: str) -> None:
    module = importlib.import_module(f"bench.{name}")
    assert callable(getattr(module, "main", None)), f"bench/{name}.py has no main()"
