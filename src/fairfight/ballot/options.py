"""The Pollster's options: every (card, race group, district card) priced, and the greedy
picker that takes the best first [11]."""

from __future__ import annotations

import copy
import heapq
import math
from typing import NamedTuple

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot.deck import Card
from fairfight.ballot.racebook import PART_RANGE, RaceGroup, fitting_seats, group_chance
from fairfight.ballot.state import NO_CARD
from fairfight.ballot.tables import PARTY_D, Party

__all__ = [
    "CARD_ORDER",
    "Entry",
    "GROUP_ORDER",
    "Greedy",
    "Option",
    "PricedGreedy",
    "Pricing",
    "priced_options",
]


GROUP_ORDER = 1_000_000
CARD_ORDER = 1_000
"""An option's place in the full list, as one number: group, then card, then plain before its
district options (a hand holds far fewer than 1000 cards, a group far fewer district options)."""

Entry = tuple[float, int, int, int, int, int]
"""A greedy heap entry: (-value, card, seat, district, place in the list, option number); a group
not priced yet is (-best value, -1, group, -1, -1, -1)."""


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


class Pricing:
    """How a declaration prices (card x group x district card or none) [11].

    An option exists when p*V >= `floor`. Its price is p times `worth` (the office value unless
    a bid raises it), less the card spent and, with a district card, less the district card's
    risk; the surplus pass (`charge` off) prices plain options at p*V. Only options priced at
    `least` or more are kept: each card's plain option, then its district options.
    """

    def __init__(
        self,
        key: str,
        candidates: list[Card],
        districts: list[Card],
        floor: float,
        least: float = -math.inf,
        worth: float | None = None,
        charge: bool = True,
    ) -> None:
        assert charge or not districts
        self.key = key
        self.candidates = candidates
        self.floor = floor
        self.least = least
        self.worth = worth
        self.cost = kit.CARD_COST if charge else 0
        rows = est.plain_part_rows(key)
        # Column 2 * state + party slot: every card's newcomer part there, and the highest.
        self.columns = list(zip(*[rows[card.id] for card in candidates], strict=True))
        self.tops = list(map(max, self.columns))
        self.districts: dict[int, list[Card]] = {}
        for district in districts:
            self.districts.setdefault(district.state, []).append(district)
        self.joined: dict[tuple[int, int], list[int]] = {}
        self.joined_tops: dict[tuple[int, bool], int] = {}
        self.ceilings: dict[int, float] | None = None
        """The most any option of each card can be priced at, when the caller knows it: once
        every unused card's ceiling is under `least`, no group is worth pricing."""

    def spent(self, used: set[int]) -> bool:
        """True when no card outside `used` can make an option priced at `least` or more."""
        ceilings, least = self.ceilings, self.least
        return ceilings is not None and all(
            ceilings[card.id] < least for card in self.candidates if card.id not in used
        )

    def raised(self, worth: float) -> Pricing:
        """The same options priced at `worth` instead of their office value (a bid)."""
        raised = copy.copy(self)
        raised.worth = worth
        raised.ceilings = None  # they are for the office values
        return raised

    def bounds(self, groups: list[RaceGroup]) -> list[float | None]:
        """The best price any option of each group can have, None when it has none (chances
        grow with the part, prices with the chance); infinity for the presidency, whose
        chances are read card by card."""
        if not self.candidates:
            return [None] * len(groups)
        floor, least, cost, worth = self.floor, self.least, self.cost, self.worth
        tops, districts, low = self.tops, self.districts, PART_RANGE[0]
        found: list[float | None] = []
        for group in groups:
            if group.seats[0] == 0:
                found.append(math.inf)
                continue
            chances, value, place = group.chances, group.value, group.state
            price_at = value if worth is None else worth
            slot = group.party is not PARTY_D
            best = chances[tops[2 * place + slot] - low]
            bound = None
            if best * value >= floor and (price := best * price_at - cost) >= least:
                bound = price
            for district in districts.get(place, ()):
                if not fitting_seats(group, district):
                    continue
                best = chances[self.joined_top(district, slot)]
                price = best * price_at - cost
                price -= 1 - best
                if best * value >= floor and price >= least:
                    bound = price if bound is None else max(bound, price)
            found.append(bound)
        return found

    def joined_top(self, district: Card, slot: bool) -> int:
        """The highest place of any card in its district's chance tables, district attached."""
        known = self.joined_tops.get((district.id, slot))
        if known is None:
            known = max(self.joined_part(card, district)[slot] for card in self.candidates)
            self.joined_tops[(district.id, slot)] = known
        return known

    def group_options(
        self, group: RaceGroup, used: set[int] | frozenset[int] = frozenset()
    ) -> list[tuple[Option, int]]:
        """The group's options for cards not `used`, in order, each with its place in it."""
        floor, least, cost = self.floor, self.least, self.cost
        seats, party, value = group.seats, group.party, group.value
        price_at = value if self.worth is None else self.worth
        found: list[tuple[Option, int]] = []
        option = tuple.__new__  # Option(...) without its keyword handling: it is built often
        if seats[0] == 0:
            for number, card in enumerate(self.candidates):
                chance = group_chance(self.key, group, card)
                if card.id in used or chance * value < floor:
                    continue
                if (price := chance * price_at - cost) >= least:
                    entry = (price, chance, price_at, card.id, party, seats, NO_CARD)
                    found.append((option(Option, entry), number * CARD_ORDER))
            return found
        chances, place = group.chances, group.state
        slot = party is not PARTY_D
        fitting = [
            (district, fits)
            for district in self.districts.get(place, ())
            if (fits := fitting_seats(group, district))
        ]
        low = PART_RANGE[0]
        column = self.columns[2 * place + slot]
        for number, (card, part) in enumerate(zip(self.candidates, column, strict=True)):
            if card.id in used:
                continue
            chance = chances[part - low]
            if chance * value >= floor and (price := chance * price_at - cost) >= least:
                entry = (price, chance, price_at, card.id, party, seats, NO_CARD)
                found.append((option(Option, entry), number * CARD_ORDER))
            after = number * CARD_ORDER
            for district, fits in fitting:
                chance = chances[self.joined_part(card, district)[slot]]
                if chance * value < floor:
                    continue
                price = chance * price_at - cost
                price -= 1 - chance
                if price >= least:
                    for seat_index in fits:
                        after += 1
                        entry = (price, chance, price_at, card.id, party, [seat_index], district.id)
                        found.append((option(Option, entry), after))
        return found

    def joined_part(self, card: Card, district: Card) -> list[int]:
        """A card's place in its district's chance tables with the district card attached."""
        pair = (card.id, district.id)
        known = self.joined.get(pair)
        if known is None:
            low = PART_RANGE[0]
            known = self.joined[pair] = [part - low for part in est.joined_parts(card, district)]
        return known


def priced_options(pricing: Pricing, groups: list[RaceGroup]) -> list[Option]:
    """Every option of these groups, priced by `pricing`, in group order."""
    return [
        option
        for group, bound in zip(groups, pricing.bounds(groups), strict=True)
        if bound is not None
        for option, _ in pricing.group_options(group)
    ]


class Greedy:
    """Best option first (ties: lower card id, then lower seat); each card and race once."""

    def __init__(self, options: list[Option], taken: set[int], used: set[int]) -> None:
        self.options = options
        self.order = list(range(len(options)))
        self.taken = taken
        self.used = used
        self.position = [0] * len(options)
        self.heap: list[Entry] = [
            (-option.value, option.card, option.seats[0], option.district, number, number)
            for number, option in enumerate(options)
        ]
        self._settle()

    def _settle(self) -> None:
        """Entries whose first race is taken move on to their next race; then heap order."""
        taken = self.taken
        blocked = [entry[5] for entry in self.heap if entry[5] >= 0 and entry[2] in taken]
        if blocked:
            self.heap = [entry for entry in self.heap if entry[5] < 0 or entry[2] not in taken]
            for number in blocked:
                self._push(number)
        heapq.heapify(self.heap)

    def _push(self, number: int) -> None:
        option = self.options[number]
        while self.position[number] < len(option.seats):
            seat_index = option.seats[self.position[number]]
            if seat_index not in self.taken:
                entry = (-option.value, option.card, seat_index, option.district)
                heapq.heappush(self.heap, (*entry, self.order[number], number))
                return
            self.position[number] += 1

    def _expand(self, group: int) -> None:
        """Price a group whose best option may be next (only `PricedGreedy` defers any)."""
        raise AssertionError(f"group {group} was never deferred")

    def peek(self) -> tuple[Option, int] | None:
        """The best still-possible option and its race, without taking it."""
        heap = self.heap
        while heap:
            _, card, seat_index, district, _, number = heap[0]
            if card < 0:
                heapq.heappop(heap)
                self._expand(seat_index)
            elif card in self.used or district in self.used:
                heapq.heappop(heap)
            elif seat_index in self.taken:
                heapq.heappop(heap)
                self._push(number)
            else:
                return self.options[number], seat_index
        return None


class PricedGreedy(Greedy):
    """`Greedy(priced_options(...))`, pricing each group only once its best option could be
    the next one taken: a declaration takes a handful of options out of hundreds.

    Every entry carries the option's place in the full list, so ties break exactly as there.
    """

    def __init__(
        self, pricing: Pricing, groups: list[RaceGroup], taken: set[int], used: set[int]
    ) -> None:
        self.pricing = pricing
        self.groups = groups
        self.options = []
        self.order = []
        self.taken = taken
        self.used = used
        self.position = []
        self.heap = []
        bounds = pricing.bounds(groups)
        for index, bound in enumerate(bounds):
            if bound is None:
                continue
            if bound < math.inf:
                self.heap.append((-bound, -1, index, -1, -1, -1))
                continue
            for number in self._add(index):
                option = self.options[number]
                entry = (-option.value, option.card, option.seats[0], option.district)
                self.heap.append((*entry, self.order[number], number))
        self._settle()

    def _add(self, group: int) -> range:
        """Price a group: its options join the list (the caller puts them on the heap)."""
        start = len(self.options)
        for option, place in self.pricing.group_options(self.groups[group], self.used):
            self.options.append(option)
            self.order.append(group * GROUP_ORDER + place)
            self.position.append(0)
        return range(start, len(self.options))

    def _expand(self, group: int) -> None:
        if self.pricing.spent(self.used):
            self.heap.clear()  # no group left can give an option
            return
        for number in self._add(group):
            self._push(number)
