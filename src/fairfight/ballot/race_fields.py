"""What every seat's ranking of a year's declarations reads from the board alone, kept per board.

A seat's page at the declare step ranks every candidate card of its hand in every race up this
year (some 480 in a presidential year). What a race's newcomer runs against (the partisan shift,
the other side's part, a same-party incumbent's part) is the same for every seat but the race's
holder, so it is found once per board and shared by the seats of the table, and the races whose
newcomers meet the same field in the same state are ranked as one. Nothing here reads a hand:
a seat's cards are joined to these fields on its own request only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from fairfight.ballot import estimates as est
from fairfight.ballot.dice import RaceKind, win_chance
from fairfight.ballot.geo import game_map
from fairfight.ballot.state import GameState, Holding
from fairfight.ballot.tables import BOARD, Party

__all__ = [
    "FIELDS_KEPT",
    "BoardFields",
    "FieldGroup",
    "RaceField",
    "board_fields",
    "chance_at",
    "clear_cache",
    "race_field",
]

FIELDS_KEPT = 8
"""Boards whose fields are kept per process (as `racebook.BOARDS_KEPT` keeps groupings): the
seats of a table read the same board, and a process serves several tables in turn."""

RaceField = tuple[int, int | None]
"""A newcomer's field in a race: (the partisan shift less the other side's part, the
same-party incumbent's part or None)."""


@dataclass(frozen=True, slots=True)
class FieldGroup:
    """The races up this year (no presidency) whose newcomers of `party` meet one field in one
    state, in map order: their chances are the same for every card."""

    home: int
    party: Party
    field: RaceField
    races: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardFields:
    """The fields of one board, found again by the board's own tuples (kept here, so no other
    board can take their place in memory)."""

    seats: tuple[Holding, ...]
    lean: tuple[int, ...]
    honeymoon: tuple[int, ...]
    year: int
    key: str
    by_race: dict[tuple[int, Party], RaceField] = field(default_factory=dict)
    groups: tuple[FieldGroup, ...] = ()
    held: dict[int, frozenset[int]] = field(default_factory=dict)
    """The races up this year held by each player seat (priced as re-runs for that seat)."""

    def same_board(self, state: GameState) -> bool:
        """`state` reads this very board: the same tuples, year and deck key."""
        return (self.seats is state.seats and self.lean is state.lean
                and self.honeymoon is state.honeymoon and self.year == state.year
                and self.key == state.key)


_KEPT: list[BoardFields] = []


def board_fields(state: GameState) -> BoardFields:
    """The fields of `state`'s board, kept or found now (every race up but the presidency)."""
    for kept in tuple(_KEPT):
        if kept.same_board(state):
            return kept
    by_race: dict[tuple[int, Party], RaceField] = {}
    members: dict[tuple[int, Party, RaceField], list[int]] = {}
    held: dict[int, set[int]] = {}
    gmap = game_map()
    for index in gmap.races_in(state.year):
        if index == 0:
            continue
        holder = state.seats[index].holder
        if holder != BOARD:
            held.setdefault(holder, set()).add(index)
        home = gmap.seats[index].state
        for party in Party:
            by_race[(index, party)] = found = race_field(state, index, party)
            members.setdefault((home, party, found), []).append(index)
    made = BoardFields(
        state.seats, state.lean, state.honeymoon, state.year, state.key, by_race,
        tuple(FieldGroup(home, party, found, tuple(races))
              for (home, party, found), races in members.items()),
        {holder: frozenset(races) for holder, races in held.items()},
    )
    _KEPT[:] = [made, *_KEPT[:FIELDS_KEPT - 1]]
    return made


def race_field(state: GameState, index: int, party: Party) -> RaceField:
    """A newcomer's field in race `index` under `party`, for any seat but the race's holder
    (the holder's own race is priced as a re-run, so the seat asking never changes it:
    `est.opponent` reads the seat only to spot the holder)."""
    other, primary = est.opponent(state, index, party, BOARD)
    shift = est.partisan(state, game_map().seats[index].state) * party.sign()
    return shift - other, primary


@cache
def chance_at(general_edge: int, primary_edge: int | None) -> Fraction:
    """Table G at `general_edge`, times table P at `primary_edge` against an incumbent."""
    chance = win_chance(RaceKind.GENERAL, general_edge)
    if primary_edge is not None:
        chance *= win_chance(RaceKind.PRIMARY, primary_edge)
    return chance


def clear_cache() -> None:
    """Forget the kept boards (tests and benchmarks start cold)."""
    _KEPT.clear()
