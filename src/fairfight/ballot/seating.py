"""Who sits where on a board, counted once per board: every vote, count and Speaker reads it.

Boards are immutable tuples of holdings and a step replaces only the seats it fills, so the
next board is counted from the last one by the seats that changed; a board that shares little
with the last one is counted afresh.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import compress
from operator import attrgetter, countOf, itemgetter
from typing import Any

from fairfight.ballot.geo import game_map
from fairfight.ballot.state import GameState, Holding
from fairfight.ballot.tables import (
    BOARD,
    OFFICE_GOVERNOR,
    OFFICE_HOUSE,
    OFFICE_PRESIDENT,
    OFFICE_SENATE,
    PARTIES,
    Office,
    Party,
)

__all__ = [
    "CongressGroup",
    "Picker",
    "Seating",
    "chamber_seats",
    "count_seating",
    "seating",
    "updated_seating",
]


CongressGroup = tuple[int, Party, int, int]
"""(state or player, party, House seats, Senate seats): seats that vote alike."""

Picker = Callable[[list[Any]], tuple[Any, ...]]
"""Picks a chamber's seats out of a list indexed by seat (always as a tuple)."""

_MOST_CHANGES = 120
"""Beyond this many changed seats, counting the board afresh is cheaper than updating."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where on one board, counted once: every vote and count of a step reads it.

    Board seats of Congress vote alike by (state, party), player seats by (player, party).
    """

    board: tuple[CongressGroup, ...]
    players: tuple[CongressGroup, ...]
    counts: dict[Office, dict[Party, int]]
    holders: dict[Office, frozenset[int]]
    seats_held: dict[int, int]
    governors: dict[int, int]
    held: tuple[int, ...] = ()
    """Every seat a player holds, by seat index."""


@cache
def chamber_seats(office: Office) -> tuple[int, ...]:
    """Seat indexes of one chamber."""
    return tuple(seat.index for seat in game_map().seats if seat.office is office)


def seating(state: GameState) -> Seating:
    """The board's seating (the last board and its seating are remembered)."""
    last = _LAST_SEATING[0]
    seats = state.seats
    if last is not None and last[0] is seats:
        return last[1]
    found = None if last is None else updated_seating(last[1], last[0], seats)
    if found is None:
        found = count_seating(seats)
    _LAST_SEATING[0] = (seats, found)
    return found


_LAST_SEATING: list[tuple[tuple[Holding, ...], Seating] | None] = [None]


def count_seating(seats: tuple[Holding, ...]) -> Seating:
    """Count a board chamber by chamber with C-level counters: only the groups (a hundred
    (state, party) pairs, a few (player, party) pairs) are walked in Python, never the seats."""
    holder_of = list(map(_HOLDER, seats))
    party_of = list(map(_PARTY, seats))
    counts: dict[Office, dict[Party, int]] = {}
    seats_held: dict[int, int] = {}
    governors: dict[int, int] = {}
    board: dict[tuple[int, Party], list[int]] = {}
    players: dict[tuple[int, Party], list[int]] = {}
    for office in Office:
        take, states = _chamber_states(office)
        chamber_holders, parties = take(holder_of), take(party_of)
        counts[office] = {party: countOf(parties, party) for party in PARTIES}
        on_board = list(map(BOARD.__eq__, chamber_holders))
        mine = Counter(
            compress(zip(chamber_holders, parties, strict=True), map(operator.not_, on_board))
        )
        for (player, _), number in mine.items():
            seats_held[player] = seats_held.get(player, 0) + number
            if office is OFFICE_GOVERNOR:
                governors[player] = governors.get(player, 0) + number
        if office is OFFICE_HOUSE or office is OFFICE_SENATE:
            slot = office is OFFICE_SENATE
            theirs = Counter(compress(zip(states, parties, strict=True), on_board))
            for key, number in theirs.items():
                board.setdefault(key, [0, 0])[slot] = number
            for key, number in mine.items():
                players.setdefault(key, [0, 0])[slot] = number
    return _seating(
        seats,
        tuple((where, party, n[0], n[1]) for (where, party), n in sorted(board.items())),
        tuple((who, party, n[0], n[1]) for (who, party), n in sorted(players.items())),
        counts,
        seats_held,
        governors,
        tuple(compress(range(len(seats)), map(BOARD.__ne__, holder_of))),
    )


def updated_seating(
    old: Seating, before: tuple[Holding, ...], after: tuple[Holding, ...]
) -> Seating | None:
    """The seating of `after` from `old`, the seating of `before`, by the seats that differ;
    None when too many differ."""
    if len(before) != len(after):
        return None
    changed = list(compress(range(len(after)), map(operator.is_not, before, after)))
    if len(changed) > _MOST_CHANGES:
        return None
    counts = {office: dict(parties) for office, parties in old.counts.items()}
    board: dict[tuple[int, Party], list[int]] = {}
    players: dict[tuple[int, Party], list[int]] = {}
    seats_held, governors = dict(old.seats_held), dict(old.governors)
    held = list(old.held)
    offices = _seat_offices()
    for change, seats in ((-1, before), (1, after)):
        for index in changed:
            holder, party = seats[index].holder, seats[index].party
            office, where = offices[index]
            counts[office][party] += change
            congress = office is OFFICE_HOUSE or office is OFFICE_SENATE
            if holder == BOARD:
                if congress:
                    board.setdefault((where, party), [0, 0])[office is OFFICE_SENATE] += change
                continue
            seats_held[holder] = seats_held.get(holder, 0) + change
            if office is OFFICE_GOVERNOR:
                governors[holder] = governors.get(holder, 0) + change
            elif congress:
                players.setdefault((holder, party), [0, 0])[office is OFFICE_SENATE] += change
    for index in changed:
        mine = after[index].holder != BOARD
        if mine != (before[index].holder != BOARD):
            if mine:
                insort(held, index)
            else:
                held.remove(index)
    return _seating(
        after,
        _moved(old.board, board),
        _moved(old.players, players),
        counts,
        {player: number for player, number in seats_held.items() if number},
        {player: number for player, number in governors.items() if number},
        tuple(held),
    )


def _moved(
    groups: tuple[CongressGroup, ...], moves: dict[tuple[int, Party], list[int]]
) -> tuple[CongressGroup, ...]:
    """Groups (sorted by who and party) after some seats moved in or out of them."""
    result = list(groups)
    for (who, party), (house, senate) in moves.items():
        if not house and not senate:
            continue
        at = bisect_left(result, (who, party), key=_WHO_PARTY)
        if at < len(result) and _WHO_PARTY(result[at]) == (who, party):
            house += result[at][2]
            senate += result[at][3]
            if house or senate:
                result[at] = (who, party, house, senate)
            else:
                del result[at]
        else:
            result.insert(at, (who, party, house, senate))
    return tuple(result)


_WHO_PARTY = itemgetter(0, 1)


def _seating(
    seats: tuple[Holding, ...],
    board: tuple[CongressGroup, ...],
    players: tuple[CongressGroup, ...],
    counts: dict[Office, dict[Party, int]],
    seats_held: dict[int, int],
    governors: dict[int, int],
    held: tuple[int, ...],
) -> Seating:
    """A seating from its groups and counts (who holds each office follows from them)."""
    president = seats[0].holder
    holders = {
        OFFICE_PRESIDENT: frozenset(() if president == BOARD else (president,)),
        OFFICE_SENATE: frozenset(who for who, _, _, senate in players if senate),
        OFFICE_HOUSE: frozenset(who for who, _, house, _ in players if house),
        OFFICE_GOVERNOR: frozenset(governors),
    }
    return Seating(
        board,
        players,
        counts,
        {office: holders[office] for office in Office},
        seats_held,
        governors,
        held,
    )


_HOLDER = attrgetter("holder")
_PARTY = attrgetter("party")


@cache
def _chamber_states(office: Office) -> tuple[Picker, tuple[int, ...]]:
    """What picks an office's seats out of a board-long list, and the state of each seat."""
    indexes = chamber_seats(office)
    states = tuple(game_map().seats[index].state for index in indexes)
    if len(indexes) > 1:
        return itemgetter(*indexes), states
    only = indexes[0]
    return (lambda values: (values[only],)), states


@cache
def _seat_offices() -> tuple[tuple[Office, int], ...]:
    """Each seat's office and state, by seat index."""
    return tuple((seat.office, seat.state) for seat in game_map().seats)
