"""The one draw of a clash, addressed by the identity of the engagement [CB-800..CB-850]."""

from __future__ import annotations

from fairfight.clash import tables as t
from fairfight.core.draws import hash64

__all__ = [
    "LOW_MASK",
    "draw_r",
]

LOW_MASK = (1 << t.DRAW_LOW_BITS) - 1


def draw_r(key: str, turn: int, initiator: int, ordinal: int) -> int:
    """r in 0..999 for the `ordinal`-th clash the unit `initiator` starts on `turn`.

    The 64-bit hash of (key, turn, initiator, ordinal) is cut to its low 32 bits u, and
    r = u x 1000 >> 32: multiply-shift, never u mod 1000 [CB-840]. The same address always
    gives the same r, whatever else resolves that turn [CB-810].
    """
    u = hash64(key, turn, initiator, ordinal) & LOW_MASK
    return (u * t.DRAWS) >> t.DRAW_LOW_BITS
