"""`python -m fairfight.compile_kernels` leaves numba's cache ready for the real callers.

The warm-up is only worth running if a process started after it loads every kernel it uses
from the cache, which holds when the warm-up compiled the very signatures the forecast, the
batch preview and the sweep pass. A fresh process here counts its cache misses.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("numba")

PROBE = """
import json
import numpy as np
from fairfight.clash import compiled
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.corpus import oracle_specs
from fairfight.clash.invariants import sweep_counts
from fairfight.conquest.forecast import kernel
from fairfight.conquest.forecast.title_odds import forecast
from fairfight.conquest.rules import engine, scenario

state = engine.new_state(scenario.load_map("north-america"), "ab" * 32)
forecast(state, [], seasons=20, forecast_seed="probe")
columns = columns_from_specs(oracle_specs()[:3])
preview_batch(columns)
sweep_counts(np.arange(3, dtype=np.int64))
print(json.dumps({name: [sum(d.stats.cache_hits.values()), sum(d.stats.cache_misses.values())]
                  for name, d in (("forecast", kernel.run_seasons), ("preview", compiled._fill),
                                  ("sweep", compiled._steps))}))
"""


def test_after_the_warm_up_a_new_process_compiles_no_kernel() -> None:
    warm = subprocess.run([sys.executable, "-m", "fairfight.compile_kernels"],
                          capture_output=True, text=True, check=True)
    assert "conquest forecast ready" in warm.stdout and "clash batch preview ready" in warm.stdout
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                           check=True)
    counts = __import__("json").loads(probe.stdout.strip().splitlines()[-1])
    assert counts == {name: [1, 0] for name in ("forecast", "preview", "sweep")}, counts


def test_arguments_are_refused_in_one_line_and_help_says_what_it_does() -> None:
    from fairfight.compile_kernels import main

    refused = subprocess.run([sys.executable, "-m", "fairfight.compile_kernels", "--jobs", "2"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.splitlines() == [
        "compile_kernels: takes no arguments (given: --jobs 2)"]
    assert main(["--help"]) == 0
