"""The Pollster's option book: groups of identical races, options and the greedy picker [11]."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from fairfight.ballot.rules import CARD_STRENGTH, GROUND_GAME_BONUS, SWITCH_PENALTY, Party
from fairfight.ballot.state import NO_CARD

PART_RANGE = range(-SWITCH_PENALTY, CARD_STRENGTH + GROUND_GAME_BONUS + 1)
"""Card parts a newcomer can have (no incumbency): -1..4."""


@dataclass(slots=True)
class Option:
    """A possible declaration into any free race of a group of identical races."""

    value: float
    chance: float
    office_value: float
    card: int
    party: Party
    seats: list[int]
    district: int = NO_CARD

    @property
    def cards_used(self) -> int:
        """1, or 2 with a district card."""
        return 1 if self.district == NO_CARD else 2


@dataclass(frozen=True, slots=True)
class RaceGroup:
    """Open races that look the same to a newcomer: same state, office kind, party, rivals."""

    seats: list[int]
    state: int
    party: Party
    other: int
    primary: int | None
    shift: int
    value: float
    chances: tuple[float, ...]


class Greedy:
    """Best option first (ties: lower card id, then lower seat); each card and race once."""

    def __init__(self, options: list[Option], taken: set[int], used: set[int]) -> None:
        self.heap: list[tuple[float, int, int, int, int]] = []
        self.options = options
        self.taken = taken
        self.used = used
        self.position = [0] * len(options)
        for number in range(len(options)):
            self._push(number)

    def _push(self, number: int) -> None:
        option = self.options[number]
        while self.position[number] < len(option.seats):
            seat_index = option.seats[self.position[number]]
            if seat_index not in self.taken:
                heapq.heappush(
                    self.heap, (-option.value, option.card, seat_index, option.district, number)
                )
                return
            self.position[number] += 1

    def peek(self) -> tuple[Option, int] | None:
        """The best still-possible option and its race, without taking it."""
        while self.heap:
            _, card, seat_index, district, number = self.heap[0]
            if card in self.used or district in self.used:
                heapq.heappop(self.heap)
            elif seat_index in self.taken:
                heapq.heappop(self.heap)
                self._push(number)
            else:
                return self.options[number], seat_index
        return None
