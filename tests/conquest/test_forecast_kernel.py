"""The compiled season kernel against the exact engine on the engine's own draws, over many
seasons of both maps and boards along each season (open pools, a full one, rebellions
waiting), and its word-level helpers against plain definitions."""

from __future__ import annotations

import numpy as np
import pytest

from fairfight.conquest.forecast import kernel_bits
from fairfight.conquest.rules import scenario
from fairfight.core.draws import hash64
from tests.conquest.forecast_checks import boards_along_a_season, engine_trace, kernel_traces

POINTS = {"north-america": (0, 30, 100), "europe": (0, 15, 30)}
"""Battles played before each board; a europe season has only 38 battles."""
SEASONS = {"north-america": 4, "europe": 12}
"""Seasons scanned per map here; `bench/bench_forecast.py` scans hundreds."""


@pytest.mark.parametrize("map_name", sorted(POINTS))
def test_the_kernel_replays_the_engine_along_many_seasons(map_name: str) -> None:
    map_data = scenario.load_map(map_name)
    boards = rebellions = 0
    for number in range(SEASONS[map_name]):
        key = hash64("kernel-scan", number).to_bytes(8, "big").hex() * 4
        for state, ledger in boards_along_a_season(map_data, key, POINTS[map_name]):
            expected = engine_trace(state, ledger)
            assert kernel_traces([state], [ledger], 200)[0] == expected, (key, ledger)
            boards += 1
            rebellions += sum(1 for battle in expected if battle[3] == -1)
    assert boards == SEASONS[map_name] * len(POINTS[map_name])
    assert rebellions > 0


def test_a_set_bit_is_found_by_pdep_and_by_counting_alike() -> None:
    """The k-th set bit of a word, by the instruction (where the machine has it) and by the
    portable halving, against a plain list of the word's bits."""
    for i in range(300):
        word = hash64("word", i) >> (i % 40)
        members = [b for b in range(64) if word >> b & 1]
        table = np.asarray([[word]], dtype=np.uint64)
        for k, member in enumerate(members):
            assert kernel_bits._select_by_counts(np.uint64(word), k) == member
            assert kernel_bits.select(table, 0, k) == member
        assert kernel_bits.select(table, 0, len(members)) == -1
