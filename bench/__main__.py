"""Run every `bench/bench_*.py` module's `main()` in name order: `python -m bench [NAME ...]`."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(selected: list[str]) -> None:
    folder = Path(__file__).parent
    names = sorted(
        info.name for info in pkgutil.iter_modules([str(folder)]) if info.name.startswith("bench_")
    )
    for name in names:
        if selected and name.removeprefix("bench_") not in selected:
            continue
        print(f"== {name.removeprefix('bench_')}", flush=True)
        importlib.import_module(f"bench.{name}").main()


if __name__ == "__main__":
    main(sys.argv[1:])
