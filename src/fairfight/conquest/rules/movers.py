"""Movers since the last battle: whose title chance moved most, and why, in words.

Pure and standard library only: two forecasts' title chances (faction code to chance) and the
history entries fought between them go in; the movers come out, largest move first, each with
a reason read from the battle record (who beat whom, what changed hands, a rebellion, an
upset, fan power). A faction that did not fight moved because the board around it changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairfight.conquest.rules import tables

__all__ = [
    "BOARD_CHANGED",
    "MOVERS_SHOWN",
    "MOVER_SMALLEST_POINTS",
    "Mover",
    "movers",
    "reason_for",
]

MOVERS_SHOWN = 5
"""Movers listed after a battle."""
MOVER_SMALLEST_POINTS = 0.05
"""A change under this many points is not a move worth a line (it rounds to 0.0 or 0.1)."""
BOARD_CHANGED = "no battle of its own: the board changed"
"""The reason of a faction that moved without fighting."""


@dataclass(frozen=True, slots=True)
class Mover:
    """One faction's move: its title chance before and after, and the reason in words."""

    faction: str
    before: float
    after: float
    reason: str

    @property
    def change_points(self) -> float:
        """After minus before, in percentage points."""
        return (self.after - self.before) * 100


def _regions(count: int) -> str:
    return f"{count} region{'' if count == 1 else 's'}"


def _extras(entry: Mapping[str, Any]) -> str:
    notes = []
    if entry.get("reason") == tables.Reason.FAN_POWER.value:
        notes.append("fan power secured it")
    elif entry.get("secured"):
        notes.append("a full fan pool secured it")
    if entry.get("reason") == tables.Reason.FAN_CLASH.value:
        notes.append("a fan clash")
    if entry.get("upset"):
        notes.append("an upset")
    return f" ({', '.join(notes)})" if notes else ""


def _one_reason(faction: str, entry: Mapping[str, Any]) -> str | None:
    """What `entry` did to `faction`, or None when it did not fight in it."""
    number, winner, loser = entry["number"], entry["winner"], entry["loser"]
    if faction not in (winner, loser):
        return None
    extras = _extras(entry)
    if entry["kind"] == tables.BattleKind.BONUS.value:
        rebel, occupier = entry["attacker"], entry["defender"]
        if faction == rebel:
            if winner == rebel:
                return f"restored by a rebellion against {occupier} in battle {number}{extras}"
            return f"a rebellion against {occupier} failed in battle {number}{extras}"
        if winner == occupier:
            return f"put down a rebellion in {rebel} in battle {number}{extras}"
        return f"lost {rebel} to a rebellion in battle {number}{extras}"
    moved = len(entry.get("changed_hands") or [])
    if faction == winner:
        return f"beat {loser} in battle {number}, taking {_regions(moved)}{extras}"
    return f"lost to {winner} in battle {number} and was absorbed{extras}"


def reason_for(faction: str, entries: Sequence[Mapping[str, Any]]) -> str:
    """The reason in words: every battle the faction fought among `entries`, or that the
    board changed around it."""
    reasons = [r for r in (_one_reason(faction, e) for e in entries) if r is not None]
    return "; ".join(reasons) if reasons else BOARD_CHANGED


def movers(before: Mapping[str, float], after: Mapping[str, float],
           entries: Sequence[Mapping[str, Any]], count: int = MOVERS_SHOWN) -> list[Mover]:
    """The `count` factions whose title chance moved most from `before` to `after` (ties by
    code), with the battles in `entries` (those fought between the two forecasts) as reasons."""
    moves = []
    for code in sorted(set(before) | set(after)):
        old, new = before.get(code, 0.0), after.get(code, 0.0)
        if abs(new - old) * 100 >= MOVER_SMALLEST_POINTS:
            moves.append((-abs(new - old), code, old, new))
    moves.sort()
    return [Mover(code, old, new, reason_for(code, entries))
            for _size, code, old, new in moves[:count]]
