"""What a card is worth to the Pollster this year: its best EV, a district card's gain, and the
most any of its options can be priced at [11].

Every figure is remembered in the year's race book, so the draft asks each card once a year and
the declaration reads the same figures again.
"""

from __future__ import annotations

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot.deck import Card
from fairfight.ballot.options import Pricing
from fairfight.ballot.racebook import PART_RANGE, RaceBook, fitting_seats, group_chance
from fairfight.ballot.state import NO_CARD
from fairfight.ballot.tables import PARTIES, PARTY_D

__all__ = [
    "NO_WORTH",
    "card_worth",
    "district_gain",
    "option_ceilings",
]


NO_WORTH = -9.0
"""A card with no race worth entering: below any EV a race can give."""


def card_worth(key: str, book: RaceBook, card: Card) -> float:
    """A candidate's best EV over this year's races, less the card (the draft's measure)."""
    known = book.worth.get((card.id, NO_CARD))
    if known is None:
        known = book.worth[(card.id, NO_CARD)] = _best_ev(key, book, card)
    return known


def _best_ev(key: str, book: RaceBook, card: Card) -> float:
    top = NO_WORTH
    parts = est.plain_part_table(key)[card.id]
    low = PART_RANGE[0]
    for group in book.presidential:
        top = max(top, group_chance(key, group, card) * group.value)
    for state_index, slot, row in book.best_rows:
        if row[-1] <= top:
            break  # no later row can give more (rows grow with the part)
        value = row[parts[state_index][slot] - low]
        if value > top:
            top = value
    return max(NO_WORTH, top - kit.CARD_COST)


def district_gain(key: str, book: RaceBook, card: Card, district: Card) -> float:
    """The best EV gain of attaching `district` to `card` in its state's races (0 at least).

    The gain is measured against the same card in the same race under the same party without
    the district card, never against the other party's option [11]: that is the same group of
    races, so each group the district card fits is compared with itself.
    """
    known = book.worth.get((card.id, district.id))
    if known is not None:
        return known
    low = PART_RANGE[0]
    plain_parts = est.plain_part_table(key)[card.id][district.state]
    with_district = est.joined_parts(card, district)
    gain = 0.0
    for slot, chances, value in _district_groups(book, district):
        plain = chances[plain_parts[slot] - low] * value - kit.CARD_COST
        chance = chances[with_district[slot] - low]
        ev = chance * value - kit.CARD_COST
        ev -= 1 - chance
        gain = max(gain, ev - plain)
    book.worth[(card.id, district.id)] = gain
    return gain


def _district_groups(
    book: RaceBook, district: Card
) -> list[tuple[bool, tuple[float, ...], float]]:
    """(party slot, chances, value) of each group `district` may join."""
    found = book.district_groups.get(district.id)
    if found is None:
        found = book.district_groups[district.id] = [
            (group.party is not PARTY_D, group.chances, group.value)
            for group in book.open_groups(set(), district.state)
            if fitting_seats(group, district)
        ]
    return found


def option_ceilings(key: str, book: RaceBook, pricing: Pricing) -> dict[int, float]:
    """The most an option of each candidate can be priced at this year: its best EV, or better
    with a district card of the hand (the best p*V of the district's state at the joined part,
    less the card). No option of a card is ever priced above it."""
    rows = [
        (district, slot, row)
        for places in pricing.districts.values()
        for district in places
        for slot, party in enumerate(PARTIES)
        if (row := book.best.get((district.state, party))) is not None
    ]
    found: dict[int, float] = {}
    for card in pricing.candidates:
        most = card_worth(key, book, card)
        for district, slot, row in rows:
            most = max(most, row[pricing.joined_part(card, district)[slot]] - kit.CARD_COST)
        found[card.id] = most
    return found
