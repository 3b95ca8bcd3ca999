"""`python -m fairfight.compile_kernels`: compile every numba kernel into numba's on-disk cache.

The batch kernels (the conquest forecast, the clash batch preview and its monotonicity sweep)
are compiled on their first call and cached beside their modules. A process that finds no
cache compiles them itself, and processes started together on a fresh install (the service's
workers, the test suite's workers) each compile the same kernels at once: about 40 s of one
core apiece on a 2.0 GHz machine. Running this once after installing, before starting them,
leaves each of them only the cache to load. It plays one season of the North America map and
previews no clash at all (empty columns), so it takes the time of the compiles alone.
Without numba (the `fast` extra not installed) it says so and compiles nothing.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairfight.clash.kernel import Columns

__all__ = ["compile_clash_batch", "compile_conquest_forecast", "main"]


def compile_conquest_forecast() -> None:
    """The season kernel, compiled for the arguments every forecast passes it."""
    from fairfight.conquest.forecast.title_odds import forecast
    from fairfight.conquest.rules import engine, scenario

    state = engine.new_state(scenario.load_map("north-america"), "00" * 32)
    forecast(state, [], seasons=1, forecast_seed="compile")


def compile_clash_batch() -> None:
    """The clash batch preview (one fixed signature) and the monotonicity sweep."""
    import numpy as np

    from fairfight.clash import compiled
    from fairfight.clash.batch import OUTPUT_ROWS
    from fairfight.clash.invariants import MONOTONE_FALLING, MONOTONE_RISING

    columns = _empty_columns()
    compiled.preview_rows(columns, np.zeros((len(OUTPUT_ROWS), 0), dtype=np.int32))
    compiled.monotone_steps(columns, MONOTONE_RISING, MONOTONE_FALLING)


def _empty_columns() -> Columns:
    from dataclasses import fields

    import numpy as np

    from fairfight.clash.kernel import Columns

    return Columns(**{item.name: np.zeros(0, dtype=np.int64) for item in fields(Columns)})


def main(argv: list[str] | None = None) -> int:
    """Compile every kernel; `--help` prints what this does, any other argument is refused."""
    given = sys.argv[1:] if argv is None else argv
    if given in (["--help"], ["-h"]):
        print((__doc__ or "").strip())
        return 0
    if given:
        print(f"compile_kernels: takes no arguments (given: {' '.join(given)[:80]})",
              file=sys.stderr)
        return 2
    from fairfight.clash.batch_arrays import compiler_available

    if not compiler_available():
        print("compile_kernels: numba is not installed (the `fast` extra); nothing to compile")
        return 0
    for name, compile_kernel in (("conquest forecast", compile_conquest_forecast),
                                 ("clash batch preview", compile_clash_batch)):
        started = time.perf_counter()
        compile_kernel()
        print(f"compile_kernels: {name} ready in {time.perf_counter() - started:.1f} s",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
