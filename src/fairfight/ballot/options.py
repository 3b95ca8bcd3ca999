"""The Pollster's option book: groups of identical races, options and the greedy picker [11]."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field, replace
from functools import cache

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot.deck import Card
from fairfight.ballot.geo import game_map
from fairfight.ballot.rules import (
    BOARD,
    CARD_STRENGTH,
    GROUND_GAME_BONUS,
    SWITCH_PENALTY,
    Office,
    Party,
)
from fairfight.ballot.state import NO_CARD, GameState

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
    """Open races that look the same to a newcomer: same state, office, party, rivals.

    A state's Senate and governor races are separate groups: they are worth different points
    (Senate 4, governor 3) [11].
    """

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
        for number, option in enumerate(options):
            for place, seat_index in enumerate(option.seats):
                if seat_index not in taken:
                    self.position[number] = place
                    entry = (-option.value, option.card, seat_index, option.district, number)
                    self.heap.append(entry)
                    break
            else:
                self.position[number] = len(option.seats)
        heapq.heapify(self.heap)

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


GroupKey = tuple[int, Office, Party, int, "int | None"]
"""Races look identical to a newcomer with the same state, office, party and opposition."""


@dataclass(slots=True)
class RaceBook:
    """Every race up this year grouped for one seat, built once per board (not per question).

    The board (seats, lean, honeymoon) does not change between the draft and the declaration,
    so the same book answers every draft pick and the declaration of a year, and remembers
    what a card is worth this year once it has been asked.
    """

    seats: object
    lean: object
    honeymoon: object
    year: int
    seat: int
    groups: list[RaceGroup]
    position: dict[int, int]
    by_state: dict[int, list[RaceGroup]] = field(default_factory=dict)
    best: dict[tuple[int, Party], list[float]] = field(default_factory=dict)
    worth: dict[tuple[int, int], float] = field(default_factory=dict)

    def fits(self, state: GameState, seat: int) -> bool:
        """True while the board the book was built from is still the state's board."""
        return (
            self.seats is state.seats
            and self.lean is state.lean
            and self.honeymoon is state.honeymoon
            and self.year == state.year
            and self.seat == seat
        )

    def open_groups(self, taken: set[int], only_state: int | None = None) -> list[RaceGroup]:
        """The groups without the `taken` races (and only one state's, if asked).

        The order is the one a fresh grouping of the remaining races gives: by the first race
        of each group in calendar order, D before R.
        """
        if not taken:
            return self.groups if only_state is None else self.by_state.get(only_state, [])
        found: list[tuple[int, int, RaceGroup]] = []
        for group in self.groups:
            if only_state is not None and group.state != only_state:
                continue
            seats = [index for index in group.seats if index not in taken]
            if not seats:
                continue
            chosen = group if len(seats) == len(group.seats) else replace(group, seats=seats)
            found.append((self.position[seats[0]], group.party is not Party.D, chosen))
        found.sort(key=lambda item: (item[0], item[1]))
        return [group for _, _, group in found]


def race_book(state: GameState, seat: int) -> RaceBook:
    """This year's races, grouped when they look identical to a newcomer [11]."""
    gmap = game_map()
    up = kit.up_this_year(state)
    found: dict[GroupKey, list[int]] = {}
    board_sides = {
        party: {
            held_as: est.opponent_of_board_seat(party, held_as, presidential=False)
            for held_as in Party
        }
        for party in Party
    }
    for index in up:
        info = gmap.seats[index]
        holding = state.seats[index]
        place = info.state if index else -2
        for party in Party:
            if index and holding.holder == BOARD:
                other, primary = board_sides[party][holding.party], None
            else:
                other, primary = est.opponent(state, index, party, seat)
            key = (place, info.office, party, other, primary)
            found.setdefault(key, []).append(index)
    groups = []
    for (_, _, party, other, primary), seats in found.items():
        info = gmap.seats[seats[0]]
        shift = est.partisan(state, info.state) * party.sign() if seats[0] else 0
        table = race_table(shift, other, primary)
        value = float(kit.OFFICE_VALUE[info.office])
        groups.append(RaceGroup(seats, info.state, party, other, primary, shift, value, table))
    position = {index: number for number, index in enumerate(up)}
    book = RaceBook(state.seats, state.lean, state.honeymoon, state.year, seat, groups, position)
    for group in groups:
        if group.seats[0] != 0:
            book.by_state.setdefault(group.state, []).append(group)
    book.best = best_values(groups)
    return book


@cache
def race_table(shift: int, other: int, primary: int | None) -> tuple[float, ...]:
    """A newcomer's estimate at every possible card part, for one kind of race."""
    return tuple(est.race_chance(part, shift, other, primary) for part in PART_RANGE)


def presidential_part(card: Card, party: Party) -> int:
    """A presidential candidate's card part: m minus the switch [5.8]."""
    return card.modifier - (SWITCH_PENALTY if party is not card.party else 0)


def group_chance(key: str, group: RaceGroup, card: Card, district: Card | None = None) -> float:
    """A newcomer's win estimate in a group's races."""
    if group.seats[0] == 0:
        chance = est.presidential_p(card, group.party, group.other)
        if group.primary is not None:
            chance *= est.primary_p(presidential_part(card, group.party) - group.primary)
        return chance
    if district is None:
        part = est.plain_part_table(key)[card.id][group.state][group.party is not Party.D]
    else:
        part = est.down_ballot_part(card, group.state, group.party, district)
    return group.chances[part - PART_RANGE[0]]


def best_values(groups: list[RaceGroup]) -> dict[tuple[int, Party], list[float]]:
    """Per (state, party) of down-ballot groups: the best p*V at each card part."""
    best: dict[tuple[int, Party], list[float]] = {}
    for group in groups:
        if group.seats[0] == 0:
            continue
        row = [chance * group.value for chance in group.chances]
        current = best.get((group.state, group.party))
        if current is None:
            best[(group.state, group.party)] = row
        else:
            for number, value in enumerate(row):
                if value > current[number]:
                    current[number] = value
    return best
