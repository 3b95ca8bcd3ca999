"""Title-odds forecasts: the compiled kernel against the exact engine, the secret seed never
read, and the same figures whichever way the seasons are split or run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.forecast.title_odds import (
    forecast,
    run_chunk,
    season_arrays,
    wilson_interval,
)
from fairfight.conquest.rules import engine
from fairfight.conquest.store import season
from fairfight.core.executor import InProcess, LocalProcesses
from tests.conquest import season_digests
from tests.conquest.forecast_checks import engine_trace, kernel_traces
from tests.conquest.helpers import SEED, star_map

NORTH_AMERICA = season_digests.load("north-america")


def _played(map_data: dict[str, Any], key: str, battles: int,
            max_battles: int | None = None) -> dict[str, Any]:
    state = engine.new_state(map_data, key, max_battles)
    for _ in range(battles):
        state, _entry = engine.play_step(state, [])
    return state


@pytest.mark.parametrize("number", range(12))
def test_the_kernel_replays_whole_seasons_of_the_engine(number: int) -> None:
    state = engine.new_state(NORTH_AMERICA, f"{number + 100:064x}")
    assert kernel_traces([state], [[]], 140)[0] == engine_trace(state, [])


def test_the_kernel_replays_pools_secured_wins_and_a_cap() -> None:
    """Mid-season states from the digest policy: open pools of every size, a battle cap."""
    cases = [case for case in season_digests.CASES if case[3]][::3]
    for name, seed, cap, _fans in cases:
        state, ledger = engine.new_state(season_digests.load(name), seed, cap), []
        for _ in range(20):
            if state["board"]["ended"]:
                break
            ledger += season_digests._contributions(state, seed, len(ledger))
            state, _entry = engine.play_step(state, ledger)
        ledger += season_digests._contributions(state, seed, len(ledger))
        assert kernel_traces([state], [ledger], 200)[0] == engine_trace(state, ledger)


def test_the_kernel_replays_rebellions() -> None:
    """Five absorbed factions' funds filled to $50 at once: five bonus rounds in code order,
    some of them won by the rebels (who then fight on)."""
    for key in ("01" * 32, "02" * 32, "03" * 32):
        state = _played(NORTH_AMERICA, key, 40)
        absorbed = sorted(c for c, f in state["board"]["factions"].items() if not f["standing"])
        battle = state["board"]["next_battle"]
        ledger = [{"seq": i + 1, "before_battle": battle, "faction": code, "amount": 50}
                  for i, code in enumerate(absorbed[:5])]
        expected = engine_trace(state, ledger)
        assert sum(1 for battle_ in expected if battle_[3] == -1) == 5
        assert kernel_traces([state], [ledger], 200)[0] == expected


def test_the_forecast_never_reads_the_secret_seed() -> None:
    """The same public board under two different season keys, and under none at all."""
    played = _played(NORTH_AMERICA, "ab" * 32, 30)
    ledger = [{"seq": 1, "before_battle": 31, "faction": "US-TX", "amount": 25}]

    class Sealed(dict[str, Any]):
        def __getitem__(self, name: str) -> Any:
            assert name != "key", "the forecast read the season key"
            return super().__getitem__(name)

    results = []
    for key in ("ab" * 32, "cd" * 32, None):
        state = Sealed(played)
        if key is None:
            del state["key"]
        else:
            state["key"] = key
        results.append(forecast(state, ledger, seasons=600, forecast_seed="s").to_json())
    assert results[0] == results[1] == results[2]
    assert results[0]["as_of_battle"] == 31
    other_seed = forecast(played, ledger, seasons=600, forecast_seed="t").to_json()
    assert other_seed != results[0]


def test_chunks_carry_their_own_seasons() -> None:
    state = engine.new_state(NORTH_AMERICA, SEED)
    arrays = season_arrays(state["world"], state["board"], None)
    whole = run_chunk(arrays, 7, 0, 300)
    parts = [run_chunk(arrays, 7, 0, 100), run_chunk(arrays, 7, 100, 200)]
    assert (whole.titles == parts[0].titles + parts[1].titles).all()
    assert (whole.held == parts[0].held + parts[1].held).all()
    assert whole.battles == parts[0].battles + parts[1].battles == 300 * 135


def test_local_processes_give_the_in_process_figures() -> None:
    state = _played(NORTH_AMERICA, SEED, 60)
    here = forecast(state, [], seasons=5_000, forecast_seed="x", executor=InProcess())
    there = forecast(state, [], seasons=5_000, forecast_seed="x", executor=LocalProcesses(2))
    assert here == there


def test_the_figures_add_up() -> None:
    state = _played(NORTH_AMERICA, SEED, 100)
    result = forecast(state, [], seasons=2_000, forecast_seed="sum")
    standing = [c for c, f in state["board"]["factions"].items() if f["standing"]]
    assert sum(odds.titles for odds in result.factions) == 2_000
    assert sum(odds.regions_held for odds in result.factions) == 2_000 * 136
    assert {odds.faction for odds in result.factions if odds.survived} <= set(standing)
    assert result.mean_battles_left == 135 - 100  # without rebellions: one faction per battle
    leader = result.factions[0]
    low, high = leader.title_interval
    assert low < leader.title_chance < high


def test_a_finished_season_has_a_certain_champion() -> None:
    state = _played(star_map(), SEED, 0)
    while not state["board"]["ended"]:
        state, _entry = engine.play_step(state, [])
    champion = next(c for c, f in state["board"]["factions"].items() if f["standing"])
    result = forecast(state, [], seasons=50, forecast_seed="done")
    assert result.factions[0].faction == champion
    assert result.factions[0].title_chance == 1 and result.battles_left == 0


def test_a_capped_season_crowns_the_biggest_holder() -> None:
    """With a battle cap the title goes to the most regions, then the most population power."""
    state = engine.new_state(NORTH_AMERICA, SEED, max_battles=3)
    result = forecast(state, [], seasons=300, forecast_seed="cap")
    assert result.mean_battles_left == 3
    assert all(odds.expected_regions <= 2 for odds in result.factions)
    assert result.factions[0].titles > 0


def test_wilson_interval_matches_a_hand_computation() -> None:
    """50 of 100: the textbook interval is 0.4038 to 0.5962; 1 of 10: 0.0179 to 0.4042."""
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(1, 10)
    assert (round(low, 4), round(high, 4)) == (0.0179, 0.4042)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_the_command_prints_odds_and_json(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    runner = CliRunner()
    shown = runner.invoke(app, ["forecast", str(path), "--seasons", "500"])
    assert shown.exit_code == 0, shown.output
    assert "title odds before battle 1: 500 simulated seasons" in shown.output
    as_json = runner.invoke(app, ["forecast", str(path), "--seasons", "500", "--json",
                                  "--jobs", "2"])
    assert as_json.exit_code == 0, as_json.output
    assert '"as_of_battle":1' in as_json.output and '"seasons":500' in as_json.output
    bad = runner.invoke(app, ["forecast", str(path), "--seasons", "0"])
    assert bad.exit_code == 2


def test_the_kernel_helpers_match_their_plain_definitions() -> None:
    import numpy as np

    from fairfight.conquest.forecast import kernel_bits
    from fairfight.core.draws import below, hash64

    state = np.asarray([kernel_bits.splitmix_state(12345, 6)], dtype=np.uint64)
    plain = (12345 + 7 * 0x9E3779B97F4A7C15) % (1 << 64)
    for _ in range(20):
        plain = (plain + 0x9E3779B97F4A7C15) % (1 << 64)
        z = plain
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
        assert int(kernel_bits.splitmix(state)) == z ^ (z >> 31)
    for i in range(200):
        x, n = hash64("bits", i), 1 + hash64("n", i) % 5000
        assert kernel_bits.below(n, np.uint64(x)) == below(n, x)
        assert kernel_bits.popcount(np.uint64(x)) == bin(x).count("1")
    words = np.asarray([hash64("w", k) for k in range(3)], dtype=np.uint64)
    members = [k for k in range(192) if int(words[k // 64]) >> (k % 64) & 1]
    table = words.reshape(1, -1)
    assert [kernel_bits.select(table, 0, k) for k in range(len(members))] == members


def test_a_pool_moves_the_title_chance_on_common_seasons() -> None:
    """$50 secures the faction's next battle; on the same seasons its title chance gains
    (the baseline half is exactly the plain forecast). A refused amount is refused."""
    from fairfight.conquest.forecast.title_odds import pool_effect

    state = _played(NORTH_AMERICA, SEED, 120)
    leader = forecast(state, [], seasons=400, forecast_seed="crn").factions[1].faction
    effect = pool_effect(state, [], leader, 50, seasons=2_000, forecast_seed="crn")
    assert effect.without == forecast(state, [], seasons=2_000, forecast_seed="crn")
    assert effect.title_change >= 0
    assert effect.with_pool.odds_of(leader).titles >= effect.without.odds_of(leader).titles
    with pytest.raises(engine.LedgerRefusal):
        pool_effect(state, [], leader, 55, seasons=10, forecast_seed="crn")
