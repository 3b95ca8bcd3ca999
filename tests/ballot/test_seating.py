"""A board's seating, updated from the last board by the seats that changed, equals the seating
counted afresh: for every board of bot games, in play order and between far-apart boards."""

from __future__ import annotations

from dataclasses import astuple

import pytest

from fairfight.ballot import players as game_loop
from fairfight.ballot.bots import make_bots
from fairfight.ballot.engine import advance
from fairfight.ballot.seating import (
    Seating,
    chamber_seats,
    count_seating,
    seating,
    updated_seating,
)
from fairfight.ballot.state import Decision, GameState, Holding
from fairfight.ballot.tables import BOARD, Office, named_config


def _boards(key: str, seats: int, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Holding, ...]]:
    """Every distinct board a bot game passes through, in order."""
    found: list[tuple[Holding, ...]] = []

    def watching(state: GameState, answers: dict[int, Decision]) -> tuple[GameState, list[object]]:
        if not found or found[-1] is not state.seats:
            found.append(state.seats)
        return advance(state, answers)

    monkeypatch.setattr(game_loop, "advance", watching)
    mix = ["pollster", "machine", "pollster", "machine", "pollster"][:seats]
    game_loop.play_game(named_config("as-written-plus"), key, make_bots(mix))
    return found


def _plain(found: Seating) -> tuple[object, ...]:
    """Everything a seating says, with its dicts in a fixed order."""
    return tuple(
        sorted(value.items()) if isinstance(value, dict) else value for value in astuple(found)
    )


def _by_hand(seats: tuple[Holding, ...]) -> dict[str, object]:
    """The counts read straight off the board, seat by seat."""
    held = [index for index, holding in enumerate(seats) if holding.holder != BOARD]
    house = [index for index in chamber_seats(Office.HOUSE) if seats[index].holder != BOARD]
    total: dict[int, int] = {}
    for index in held:
        total[seats[index].holder] = total.get(seats[index].holder, 0) + 1
    return {"held": tuple(held), "house": len(house), "total": total}


@pytest.mark.parametrize(("key", "seats"), [("seating-1", 3), ("seating-2", 4), ("seating-3", 5)])
def test_updated_seating_equals_a_fresh_count(
    key: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    boards = _boards(key, seats, monkeypatch)
    assert len(boards) > 4
    fresh = [count_seating(board) for board in boards]
    for board, found in zip(boards, fresh, strict=True):
        hand = _by_hand(board)
        assert found.held == hand["held"]
        assert sum(n for _, _, n, _ in found.players) == hand["house"]
        assert found.seats_held == hand["total"]
    pairs = [(n, n + 1) for n in range(len(boards) - 1)] + [
        (len(boards) - 1, 0),
        (0, len(boards) // 2),
        (len(boards) // 2, 1),
    ]
    updated = 0
    for before, after in pairs:
        found = updated_seating(fresh[before], boards[before], boards[after])
        if found is not None:
            updated += 1
            assert _plain(found) == _plain(fresh[after])
    assert updated >= len(boards) // 2


def test_the_remembered_seating_follows_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    boards = _boards("seating-4", 4, monkeypatch)
    state = game_loop.new_game(named_config("as-written-plus"), "seating-4", 4)[0]
    for board in [*boards, *reversed(boards)]:
        assert _plain(seating(state.with_changes(seats=board))) == _plain(count_seating(board))
