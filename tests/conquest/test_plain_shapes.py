"""The typed shapes of the engine's plain data (`tables.Board`, `tables.BattleEntry`, ...) are
the shapes the engine really makes: mypy checks the engine against the types, and these
tests check the data of real seasons (regular battles, fan money, rebellions) against them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairfight.conquest.rules import engine, tables
from tests.conquest.helpers import play, star_map


def _fields(shape: type) -> set[str]:
    """Every key a typed record names (required or not)."""
    return set(shape.__annotations__)


def _check_board(board: Mapping[str, Any]) -> None:
    assert set(board) == _fields(tables.Board)
    for faction in board["factions"].values():
        assert set(faction) == _fields(tables.FactionRecord)
    for region in board["regions"].values():
        assert set(region) == _fields(tables.RegionRecord)


def test_a_new_season_has_the_state_world_and_board_shapes() -> None:
    state = engine.new_state(star_map(), "ab" * 32)
    assert set(state) == _fields(tables.SeasonState)
    assert set(state["world"]) == _fields(tables.World)
    for region in state["world"]["regions"].values():
        assert set(region) == _fields(tables.RegionRules)
    _check_board(state["board"])


def test_every_finished_entry_and_side_has_every_field_of_its_shape() -> None:
    """A star season with fan money and a rebellion: regular battles and a bonus round."""
    state, history, ledger = play(star_map(), contributions={1: [("AB", 20)]}, stop_after=2)
    fallen = next(code for code, faction in state["board"]["factions"].items()
                  if not faction["standing"] and faction["pool_state"] == "open")
    for amount in (25, 25):
        ledger.append(engine.check_contribution(state, ledger, fallen, amount))
    while not state["board"]["ended"]:
        state, entry = engine.play_step(state, ledger)
        history.append(entry)
    assert {entry["kind"] for entry in history} == {"regular", "bonus"}
    for entry in history:
        assert set(entry) == _fields(tables.BattleEntry), entry["number"]
        for side in entry["sides"].values():
            assert set(side) == _fields(tables.Side)
    _check_board(state["board"])
    _check_board(engine.pending_board(state, []))


def test_a_missing_field_would_be_seen() -> None:
    """The comparison is exact: a board without one of its fields does not pass."""
    board = dict(engine.new_state(star_map(), "cd" * 32)["board"])
    del board["ended"]
    assert set(board) != _fields(tables.Board)
