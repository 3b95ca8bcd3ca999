"""The legislature: board voting formula, omnibill passage, holding, veto, impeachment and the
amendment track [7, 8]. Every function reads a state and the players' answers; none mutates.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import cache

from fairfight.ballot.geo import game_map
from fairfight.ballot.seating import CongressGroup as CongressGroup
from fairfight.ballot.seating import Seating as Seating
from fairfight.ballot.seating import chamber_seats as chamber_seats
from fairfight.ballot.seating import seating as seating
from fairfight.ballot.state import Bill, GameState
from fairfight.ballot.tables import (
    AMEND_CALL,
    AMEND_RATIFY,
    BOARD,
    HOUSE_PASS,
    IMPEACH,
    MAJORITY_WEIGHT,
    MINORITY_WEIGHT,
    OFFICE_HOUSE,
    OFFICE_SENATE,
    OVERRIDE,
    PARTY_D,
    PARTY_R,
    SENATE_PASS,
    AmendmentChoice,
    Office,
    Party,
    seats_needed,
)

__all__ = [
    "BoardYes",
    "Tally",
    "Thresholds",
    "amendment_count",
    "amendment_proposer",
    "board_support",
    "board_vetoes",
    "board_votes_yes",
    "board_yes",
    "impeachment_yes",
    "majority_party",
    "overrides",
    "partisan_lean",
    "passes",
    "speaker",
    "support",
    "tally",
    "thresholds",
]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Yes votes needed, computed from the stored fractions [7.4, 7.5, 7.8, 8.1]."""

    house_pass: int
    senate_pass: int
    house_override: int
    senate_override: int
    impeach: int
    amend_call: int
    amend_ratify: int
    amend_block: int


@cache
def thresholds() -> Thresholds:
    """218, 60, 290, 67, 67 and 34/38/13 on the Appendix A map."""
    gmap = game_map()
    house = sum(1 for seat in gmap.seats if seat.office is OFFICE_HOUSE)
    senate = sum(1 for seat in gmap.seats if seat.office is OFFICE_SENATE)
    states = len(gmap.states)
    ratify = seats_needed(AMEND_RATIFY, states)
    return Thresholds(
        house_pass=seats_needed(HOUSE_PASS, house, strictly_more=True),
        senate_pass=seats_needed(SENATE_PASS, senate),
        house_override=seats_needed(OVERRIDE, house),
        senate_override=seats_needed(OVERRIDE, senate),
        impeach=seats_needed(IMPEACH, senate),
        amend_call=seats_needed(AMEND_CALL, states),
        amend_ratify=ratify,
        amend_block=states - ratify + 1,
    )


def majority_party(state: GameState, office: Office) -> Party:
    """More seats; a split Senate goes to the president's party [7.2]."""
    counts = seating(state).counts[office]
    if counts[PARTY_D] == counts[PARTY_R]:
        return state.seats[0].party
    return PARTY_D if counts[PARTY_D] > counts[PARTY_R] else PARTY_R


def partisan_lean(state: GameState, state_index: int) -> int:
    """lean + honeymoon of a state: what the legislature's lean checks read [5.9, 7.1]."""
    return state.lean[state_index] + state.honeymoon[state_index]


def support(overlap: int, same_party: bool, lean_toward: int) -> int:
    """Board support: tag overlap, +1/-1 for the seat's party, the sign of the lean [7.1]."""
    return overlap + (1 if same_party else -1) + (lean_toward > 0) - (lean_toward < 0)


def board_support(state: GameState, seat_index: int, party: Party, tags: tuple[str, ...]) -> int:
    """Support of a board seat for a bill of `party` with `tags` [7.1]."""
    info = game_map().seats[seat_index]
    home = game_map().states[info.state]
    return support(
        len(set(tags) & set(home.tags)),
        state.seats[seat_index].party is party,
        partisan_lean(state, info.state) * party.sign(),
    )


def board_votes_yes(state: GameState, seat_index: int, party: Party, tags: tuple[str, ...]) -> bool:
    """A board seat votes yes iff its support is at least 1 [7.1]."""
    return board_support(state, seat_index, party, tags) >= 1


@dataclass(frozen=True, slots=True)
class Tally:
    """Yes seats per chamber, and the holder that the yes votes give [7.6]."""

    house_yes: int
    senate_yes: int
    weights: tuple[int, ...]

    def holder(self, author: int) -> int:
        """The player with more than half the player yes weight, else the author."""
        total = sum(self.weights)
        for player, weight in enumerate(self.weights):
            if 2 * weight > total:
                return player
        return author


def tally(state: GameState, party: Party, tags: tuple[str, ...], votes: tuple[bool, ...]) -> Tally:
    """Count a bill vote: player seats vote their player's answer, board seats by formula."""
    found = seating(state)
    house, senate = board_yes(state, party, tags)
    house_majority = majority_party(state, OFFICE_HOUSE)
    senate_majority = majority_party(state, OFFICE_SENATE)
    weights = [0] * state.players
    for player, seat_party, house_seats, senate_seats in found.players:
        if not votes[player]:
            continue
        house += house_seats
        senate += senate_seats
        weights[player] += house_seats * _weight(seat_party is house_majority)
        weights[player] += senate_seats * _weight(seat_party is senate_majority)
    return Tally(house, senate, tuple(weights))


def board_yes(state: GameState, party: Party, tags: tuple[str, ...]) -> tuple[int, int]:
    """House and Senate yes seats of the board on a bill [7.1]. The last bill's count is remembered:
    the players' projections of a bill and its vote read the same board."""
    board = (state.seats, state.lean, state.honeymoon)
    last = _LAST_BOARD_YES[0]
    if last is not None and last[1] == (party, tags) and all(map(operator.is_, last[0], board)):
        return last[2]
    bill_tags = set(tags)
    sign = party.sign()
    fits = [len(bill_tags.intersection(home.tags)) for home in game_map().states]
    leans = [partisan_lean(state, index) * sign for index in range(len(fits))]
    house = senate = 0
    for state_index, seat_party, house_seats, senate_seats in seating(state).board:
        if support(fits[state_index], seat_party is party, leans[state_index]) >= 1:
            house += house_seats
            senate += senate_seats
    _LAST_BOARD_YES[0] = (board, (party, tags), (house, senate))
    return house, senate


BoardYes = tuple[tuple[object, ...], tuple[Party, tuple[str, ...]], tuple[int, int]]
"""(seats, lean, honeymoon), (party, tags) of a bill, and the board's House and Senate yes."""
_LAST_BOARD_YES: list[BoardYes | None] = [None]


def _weight(in_majority: bool) -> int:
    """A yes seat's weight toward holding the bill [7.6]."""
    return MAJORITY_WEIGHT if in_majority else MINORITY_WEIGHT


def passes(result: Tally) -> bool:
    """House majority and 60% of the Senate [7.4]."""
    limits = thresholds()
    return result.house_yes >= limits.house_pass and result.senate_yes >= limits.senate_pass


def overrides(result: Tally) -> bool:
    """Two thirds of both chambers [7.5]."""
    limits = thresholds()
    return result.house_yes >= limits.house_override and result.senate_yes >= limits.senate_override


def board_vetoes(state: GameState, bill: Bill) -> bool:
    """A board president vetoes a bill of the other party [7.5]."""
    return state.seats[0].party is not bill.party


def speaker(state: GameState) -> int:
    """Most House seats of the majority party; ties by every seat held, then turn order [7.3].

    "More seats in total" counts all of a player's seats: House, Senate, governorships and the
    presidency.
    """
    majority = majority_party(state, OFFICE_HOUSE)
    found = seating(state)
    of_majority = [0] * state.players
    for player, seat_party, house_seats, _ in found.players:
        if seat_party is majority:
            of_majority[player] += house_seats
    total = [found.seats_held.get(player, 0) for player in range(state.players)]
    order = state.turn_order()
    best = max(order, key=lambda p: (of_majority[p], total[p], -order.index(p)))
    return best if of_majority[best] > 0 else BOARD


def impeachment_yes(state: GameState, votes: tuple[bool, ...]) -> int:
    """Senate yes votes on impeachment: board senators vote against the other party [7.8]."""
    president = state.seats[0]
    count = 0
    for index in chamber_seats(OFFICE_SENATE):
        holding = state.seats[index]
        if holding.holder == BOARD:
            count += holding.party is not president.party
        elif holding.holder != president.holder:
            count += votes[holding.holder]
    return count


def amendment_count(
    state: GameState, tags: tuple[str, ...], choices: tuple[AmendmentChoice, ...]
) -> dict[AmendmentChoice, int]:
    """States for, against and abstaining, each counted through its governor [8.2]."""
    counts = dict.fromkeys(AmendmentChoice, 0)
    gmap = game_map()
    amendment_tags = set(tags)
    for state_index, seat_indexes in enumerate(gmap.state_seats):
        holding = state.seats[seat_indexes[-1]]
        if holding.holder == BOARD:
            shares = not amendment_tags.isdisjoint(gmap.states[state_index].tags)
            counts[AmendmentChoice.FOR if shares else AmendmentChoice.ABSTAIN] += 1
        else:
            counts[choices[holding.holder]] += 1
    return counts


def amendment_proposer(state: GameState) -> int:
    """The player with the most governorships (at least 1); ties by turn order [8.5]."""
    governors = seating(state).governors
    counts = [governors.get(player, 0) for player in range(state.players)]
    order = state.turn_order()
    best = max(order, key=lambda p: (counts[p], -order.index(p)))
    return best if counts[best] > 0 else BOARD
