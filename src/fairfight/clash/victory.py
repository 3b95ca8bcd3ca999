"""The victory conditions a scenario states (`victory:`), with their defaults and limits.

Kept apart from `ending`, which decides the end from a world: the scenario model needs the
conditions, and the world needs the scenario.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from fairfight.core.errors import InputError

__all__ = ["DEFAULT_TURN_LIMIT", "MAX_TURN_LIMIT", "VictoryModel", "check_victory"]

DEFAULT_TURN_LIMIT = 100
"""Turns a game plays at most when its scenario names no limit."""
MAX_TURN_LIMIT = 300
"""The longest turn limit a scenario may set (the web keeps no game longer)."""

_Point = tuple[Annotated[StrictInt, Field(ge=0)], Annotated[StrictInt, Field(ge=0)]]


class VictoryModel(BaseModel):
    """How the scenario's game ends (the defaults: last side standing, or the turn limit)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    last_unit: StrictBool = True
    """The game ends when one side alone has units on the board; that side wins."""
    cities_at_turn: Annotated[StrictInt, Field(ge=1, le=100_000)] | None = None
    """When this turn (by number) has been played, the side holding the most counted cities
    wins; equal counts are a draw. Absent: cities decide only at the turn limit."""
    cities: Annotated[list[_Point], Field(min_length=1, max_length=256)] | None = None
    """The cities that count, as [x, y]; absent, every city on the board counts."""
    turn_limit: Annotated[StrictInt, Field(ge=1, le=MAX_TURN_LIMIT)] = DEFAULT_TURN_LIMIT
    """Turns played at most; then the most counted cities win, then the most strength."""

    def describe(self) -> str:
        """The conditions in words, as the pages state them before the game ends."""
        parts = ["the last side with units on the board wins"] if self.last_unit else []
        if self.cities_at_turn is not None:
            count = len(self.cities or ())
            which = ("the cities" if not count else "the named city" if count == 1
                     else f"the {count} named cities")
            parts.append(f"after turn {self.cities_at_turn} the side holding most of {which} "
                         "wins")
        parts.append(f"at most {self.turn_limit} turns are played")
        return "; ".join(parts)


def check_victory(victory: VictoryModel, city_points: Collection[tuple[int, int]]) -> None:
    """Each counted city must be a city of the board."""
    for i, point in enumerate(victory.cities or ()):
        if tuple(point) not in city_points:
            raise InputError(f"victory.cities[{i}]", f"{list(point)} holds no city")
