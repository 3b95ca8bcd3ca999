"""Seeded bot batches under every victory mode (the full 1,000 per mode runs via `simulate`).

A small batch per mode (2 Pollsters + 2 Machines) runs by default, so every test run plays
real games to their end under all six modes; the larger batch needs `FAIRFIGHT_SLOW=1`.
"""

from __future__ import annotations

import importlib
import os

import pytest

from fairfight.ballot.simulate import GameSpec, metrics, run_games
from fairfight.ballot.tables import VictoryMode, named_config

PLAYERS = ("pollster", "pollster", "machine", "machine")
QUICK_GAMES = 8
SLOW_GAMES = 30


def batch(mode: VictoryMode, games: int) -> dict[str, object]:
    config = named_config("as-written-plus", mode.value)
    specs = [GameSpec(config, str(1000 + i), PLAYERS) for i in range(games)]
    summaries = run_games(specs)
    assert all(s["reason"] for s in summaries), "every game must end"
    return metrics(summaries, mode)


def check(result: dict[str, object], mode: VictoryMode, games: int) -> None:
    assert result["games"] == games
    assert 0 < result["contested_even"] < 0.20  # type: ignore[operator]
    assert result["primaries_per_game"] > 0  # type: ignore[operator]
    assert set(result["mean_score_by_bot"]) == {"machine", "pollster"}  # type: ignore[arg-type]
    assert result["largest_hand"] <= 16  # type: ignore[operator]
    shares = result["win_share_by_bot"]
    assert abs(sum(shares.values()) - 1) < 1e-9  # type: ignore[attr-defined]
    ended = result["ended_by"]
    if mode is VictoryMode.AMENDMENT:
        assert ended.get("ratification", 0) > 0  # type: ignore[attr-defined]
    if mode is VictoryMode.POINTS:
        assert set(ended) == {"year-cap"}  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", list(VictoryMode))
def test_quick_batch_per_mode(mode: VictoryMode) -> None:
    check(batch(mode, QUICK_GAMES), mode, QUICK_GAMES)


if os.environ.get("FAIRFIGHT_SLOW"):  # collected only on request, so a default run skips nothing

    @pytest.mark.slow
    @pytest.mark.parametrize("mode", list(VictoryMode))
    def test_thirty_games_per_mode(mode: VictoryMode) -> None:
        check(batch(mode, SLOW_GAMES), mode, SLOW_GAMES)


MODULES = [
    "fairfight.ballot",
    "fairfight.ballot.tables",
    "fairfight.ballot.dice",
    "fairfight.core",
]


def test_package_all_is_sorted_and_complete() -> None:
    module = importlib.import_module("fairfight.ballot")
    exported = list(module.__all__)
    assert exported == sorted(exported)
    for name in exported:
        assert hasattr(module, name), name
    for required in (
        "new_game",
        "advance",
        "requested_seats",
        "Pollster",
        "Machine",
        "Player",
        "verify_record",
        "render_rules",
        "win_chance",
    ):
        assert required in exported
