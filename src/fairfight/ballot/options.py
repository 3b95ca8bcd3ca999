"""The Pollster's options: every (card, race group, district card) priced, and the greedy
picker that takes the best first [11]."""

from __future__ import annotations

import heapq
import math
from typing import NamedTuple

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot.deck import Card
from fairfight.ballot.racebook import PART_RANGE, RaceGroup, fitting_seats, group_chance
from fairfight.ballot.rules import PARTIES, Party
from fairfight.ballot.state import NO_CARD


class Option(NamedTuple):
    """A possible declaration into any free race of a group of identical races.

    A named tuple: a declaration weighs a thousand of them, and only a few are ever taken.
    """

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


class Greedy:
    """Best option first (ties: lower card id, then lower seat); each card and race once."""

    def __init__(self, options: list[Option], taken: set[int], used: set[int]) -> None:
        self.options = options
        self.taken = taken
        self.used = used
        self.position = [0] * len(options)
        self.heap: list[tuple[float, int, int, int, int]] = [
            (-option.value, option.card, option.seats[0], option.district, number)
            for number, option in enumerate(options)
        ]
        blocked = [entry[4] for entry in self.heap if entry[2] in taken] if taken else []
        if blocked:
            self.heap = [entry for entry in self.heap if entry[2] not in taken]
            for number in blocked:
                self._push(number)  # the heap is made whole below
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


def priced_options(
    key: str,
    groups: list[RaceGroup],
    candidates: list[Card],
    districts: list[Card],
    floor: float,
    least: float = -math.inf,
    worth: float | None = None,
    charge: bool = True,
) -> list[Option]:
    """Every (card x group x district card or none) with p*V >= `floor`, priced [11].

    The price is p times `worth` (the office value unless a bid raises it), less the card spent
    and, with a district card, less the district card's risk; the surplus pass (`charge`
    off) prices plain options at p*V. Only options priced at `least` or more are kept, in
    group order, each card's plain option before its district options.
    """
    assert charge or not districts
    parts = est.plain_part_table(key)
    low = PART_RANGE[0]
    cost = kit.CARD_COST if charge else 0
    ids = [card.id for card in candidates]
    # Each card's place in a group's chance table, per (state, party slot); chances grow with
    # the part, so a group whose best card misses the floor or the least price has no option.
    places: dict[tuple[int, bool], tuple[list[int], int]] = {}
    districts_in: dict[int, list[Card]] = {}
    for district in districts:
        districts_in.setdefault(district.state, []).append(district)
    joined: dict[tuple[int, int], list[int]] = {}
    found: list[Option] = []
    add = found.append
    option = tuple.__new__  # Option(...) without the keyword handling: a declaration builds ~1000
    none = NO_CARD
    for group in groups:
        seats = group.seats
        party = group.party
        value = group.value
        price_at = value if worth is None else worth
        if seats[0] == 0:
            for card in candidates:
                chance = group_chance(key, group, card)
                if chance * value >= floor and (price := chance * price_at - cost) >= least:
                    add(option(Option, (price, chance, price_at, card.id, party, seats, none)))
            continue
        chances = group.chances
        place = group.state
        slot = party is not Party.D
        known = places.get((place, slot))
        if known is None:
            row = [parts[card_id][place][slot] - low for card_id in ids]
            known = places[(place, slot)] = (row, max(row, default=0))
        row, top = known
        here = districts_in.get(place)
        if here is None:
            best = chances[top]
            if best * value < floor or best * price_at - cost < least:
                continue
            for card_id, index in zip(ids, row, strict=True):
                chance = chances[index]
                if chance * value >= floor and (price := chance * price_at - cost) >= least:
                    add(option(Option, (price, chance, price_at, card_id, party, seats, none)))
            continue
        fitting = [(d, fits) for d in here if (fits := fitting_seats(group, d))]
        for card, index in zip(candidates, row, strict=True):
            chance = chances[index]
            if chance * value >= floor and (price := chance * price_at - cost) >= least:
                add(option(Option, (price, chance, price_at, card.id, party, seats, none)))
            for district, fits in fitting:
                pair = (card.id, district.id)
                with_district = joined.get(pair)
                if with_district is None:
                    with_district = joined[pair] = [
                        est.down_ballot_part(card, place, p, district) - low for p in PARTIES
                    ]
                chance = chances[with_district[slot]]
                if chance * value < floor:
                    continue
                price = chance * price_at - cost
                price -= 1 - chance
                if price >= least:
                    entry = (price, chance, price_at, card.id, party)
                    for seat_index in fits:
                        add(option(Option, (*entry, [seat_index], district.id)))
    return found
