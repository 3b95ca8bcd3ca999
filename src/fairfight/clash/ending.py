"""How a game ends: decided from the world alone (and the resignations), integers only.

Every page, the live stream and the JSON read the one answer `game_end` gives, so a seat, the
hot-seat screen and the replay can never disagree about who won, why, or when. The summary
compares the world with the scenario it started from: units and strength lost per side,
cities held, turns played. The conditions themselves are the scenario's (`victory`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass
from typing import Any

from fairfight.clash.vocabulary import EndReason
from fairfight.clash.world import World

__all__ = ["GameEnd", "SideSummary", "game_end", "side_summaries"]


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side at the end (or now): what it lost since the scenario began, what it holds."""

    side: str
    units_lost: int
    units_left: int
    strength_lost: int
    strength_left: int
    cities: int


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The end of a game: who won (None: a draw), why, after which turn, and the summary."""

    winner: str | None
    reason: EndReason
    turn: int
    """The last turn played."""
    turns_played: int
    words: str
    sides: tuple[SideSummary, ...]

    def to_json(self) -> dict[str, Any]:
        """Plain data for the JSON answers and the live stream."""
        return {"winner": self.winner, "reason": self.reason.value, "turn": self.turn,
                "turns_played": self.turns_played, "words": self.words,
                "sides": [asdict(side) for side in self.sides]}


def _alliances(world: World) -> list[str]:
    return list(dict.fromkeys(world.sides.values()))


def _counted_cities(world: World) -> list[int]:
    chosen = world.scenario.victory.cities
    if chosen is None:
        return sorted(world.city_owner)
    return [world.board.index(x, y) for x, y in chosen]


def side_summaries(world: World) -> tuple[SideSummary, ...]:
    """Per side: units and strength lost since the scenario began, and the counted cities
    it holds."""
    counted = _counted_cities(world)
    result = []
    for side in _alliances(world):
        began = [u for u in world.scenario.units if world.sides[u.player] == side]
        now = [u for u in world.units.values() if world.sides[u.player] == side]
        held = sum(1 for tile in counted
                   if (owner := world.city_owner.get(tile)) is not None
                   and world.sides[owner] == side)
        result.append(SideSummary(
            side=side, units_lost=len(began) - len(now), units_left=len(now),
            strength_lost=sum(u.strength for u in began) - sum(u.strength for u in now),
            strength_left=sum(u.strength for u in now), cities=held))
    return tuple(result)


def _best(sides: tuple[SideSummary, ...], by_strength: bool) -> str | None:
    """The side alone at the top by cities (then strength), or None when the top is shared."""
    def key(s: SideSummary) -> tuple[int, int]:
        return s.cities, s.strength_left if by_strength else 0

    top = max(key(s) for s in sides)
    leaders = [s.side for s in sides if key(s) == top]
    return leaders[0] if len(leaders) == 1 else None


def _decide(world: World, resigned: Collection[str],
            sides: tuple[SideSummary, ...]) -> tuple[EndReason, str | None, str] | None:
    """(reason, winner, why in words) when one condition ends the game, checked in the order
    of `EndReason`."""
    victory = world.scenario.victory
    alliances = _alliances(world)
    out = {a for a in alliances
           if all(p in resigned for p, side in world.sides.items() if side == a)}
    if out and len(out) >= len(alliances) - 1:
        left = [a for a in alliances if a not in out]
        winner = left[0] if left else None
        return EndReason.RESIGNATION, winner, f"{', '.join(sorted(out))} resigned"
    alive = [s.side for s in sides if s.units_left]
    if victory.last_unit and len(alive) <= 1:
        winner = alive[0] if alive else None
        gone = [s.side for s in sides if not s.units_left]
        verb = "has" if len(gone) == 1 else "have"
        return (EndReason.LAST_UNIT, winner,
                f"{', '.join(gone)} {verb} no unit left on the board")
    held = ", ".join(f"{s.side} {s.cities}" for s in sides)
    if victory.cities_at_turn is not None and world.turn > victory.cities_at_turn:
        return (EndReason.CITIES, _best(sides, False),
                f"cities held after turn {victory.cities_at_turn}: {held}")
    if world.turn - world.scenario.turn >= victory.turn_limit:
        strength = ", ".join(f"{s.side} {s.strength_left}" for s in sides)
        return (EndReason.TURN_LIMIT, _best(sides, True),
                f"turn limit of {victory.turn_limit} reached; cities held: {held}; "
                f"strength on the board: {strength}")
    return None


def game_end(world: World, resigned: Collection[str] = ()) -> GameEnd | None:
    """The end of the game in this world with these players resigned, or None while it goes
    on: resignation, then the last side standing, then the cities' turn, then the turn
    limit."""
    sides = side_summaries(world)
    decided = _decide(world, resigned, sides)
    if decided is None:
        return None
    reason, winner, why = decided
    played = world.turn - world.scenario.turn
    outcome = f"{winner} wins" if winner is not None else "a draw"
    return GameEnd(winner=winner, reason=reason, turn=world.turn - 1, turns_played=played,
                   words=f"{outcome}: {why}", sides=sides)
