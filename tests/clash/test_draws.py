"""The one draw of a clash [CB-800..CB-840]."""

from __future__ import annotations

import hashlib

from fairfight.clash.draws import draw_r


def _by_hand(key: str, turn: int, initiator: int, ordinal: int) -> int:
    digest = hashlib.sha256(f"{key}:{turn}:{initiator}:{ordinal}".encode("ascii")).digest()
    u = int.from_bytes(digest[:8], "big") % 2**32
    return u * 1000 // 2**32


def test_draw_is_low_32_bits_multiply_shift() -> None:
    for turn in range(3):
        for initiator in (0, 7, 123456):
            for ordinal in range(3):
                assert draw_r("game-key", turn, initiator, ordinal) == _by_hand(
                    "game-key", turn, initiator, ordinal)


def test_draws_are_positional_and_spread() -> None:
    values = [draw_r("k", 1, unit, 0) for unit in range(2000)]
    assert all(0 <= r < 1000 for r in values)
    assert len(set(values)) > 800
    assert draw_r("k", 1, 5, 0) == draw_r("k", 1, 5, 0) != draw_r("k", 1, 5, 1)
