"""The 50-state map: seats, baselines, the opening board and the race calendar [1.2-1.6, 2].

Seats are numbered once for the whole game: the presidency first, then for each state (in
Appendix A order) its two Senate seats, its House districts and its governor. Every seat id is
also the race id of the race that fills it (`P`, `S-ST-C`, `H-ST-k`, `G-ST`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources

from fairfight.ballot.tables import (
    BASELINE_CAP,
    BASELINE_DEADBAND_TENTHS,
    BASELINE_STEP_TENTHS,
    ELECTORAL_BONUS,
    PRESIDENTIAL_CYCLE,
    SENATE_CLASS_OFFSETS,
    SENATE_CYCLE,
    SENATE_CYCLE_ORIGIN,
    Office,
    Party,
)

__all__ = [
    "GOVERNOR_CYCLES",
    "GameMap",
    "PRESIDENCY_ID",
    "SeatInfo",
    "State",
    "game_map",
    "opening_house_d",
    "opening_party",
    "race_positions",
    "races_by_office",
    "state_tag_sets",
]


PRESIDENCY_ID = "P"
GOVERNOR_CYCLES: dict[str, tuple[int, ...]] = {
    "P": (0,),
    "M": (2,),
    "PM": (0, 2),
    "O1": (1,),
    "O3": (3,),
}
"""Governor cycle code -> the values of year % 4 when the governor is elected."""


@dataclass(frozen=True, slots=True)
class State:
    """One state of Appendix A, with its derived baseline and electoral votes."""

    index: int
    code: str
    house: int
    margin_tenths: int
    senate_classes: tuple[str, str]
    governor_cycle: str
    tags: tuple[str, str]
    electoral_votes: int = field(init=False)
    """EV = House seats + 2 [1.2]."""
    baseline: int = field(init=False)
    """Baseline pips from the 2020 margin, D positive, capped at 3 [1.4]."""

    def __post_init__(self) -> None:
        # Worked out once: every race and every bot estimate reads them.
        object.__setattr__(self, "electoral_votes", self.house + ELECTORAL_BONUS)
        object.__setattr__(self, "baseline", _baseline(self.margin_tenths))

    @property
    def winner_2020(self) -> Party:
        """The party that carried the state in 2020."""
        return Party.D if self.margin_tenths > 0 else Party.R


@cache
def _baseline(margin_tenths: int) -> int:
    """Baseline pips for a 2020 margin in tenths of a point [1.4]."""
    size = abs(margin_tenths)
    if size < BASELINE_DEADBAND_TENTHS:
        return 0
    pips = min(BASELINE_CAP, (size + BASELINE_DEADBAND_TENTHS) // BASELINE_STEP_TENTHS)
    return pips if margin_tenths > 0 else -pips


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat (= the race that fills it): its office, state index (-1 for the presidency)."""

    index: int
    race_id: str
    office: Office
    state: int
    district: int = 0
    senate_class: str = ""


@dataclass(frozen=True, slots=True)
class GameMap:
    """Every state and seat, with lookups the engine needs on every race."""

    states: tuple[State, ...]
    seats: tuple[SeatInfo, ...]
    seat_by_id: dict[str, int]
    state_by_code: dict[str, int]
    state_seats: tuple[tuple[int, ...], ...]
    electoral_total: int = field(init=False)
    """Every state's electoral votes (bots weigh the presidency on every decision)."""

    def __post_init__(self) -> None:
        total = sum(state.electoral_votes for state in self.states)
        object.__setattr__(self, "electoral_total", total)

    def seat(self, race_id: str) -> SeatInfo:
        """The seat with this race id."""
        return self.seats[self.seat_by_id[race_id]]

    def total_electoral_votes(self) -> int:
        """535 with the 2020 apportionment."""
        return self.electoral_total

    def electoral_majority(self) -> int:
        """Electoral votes that win the presidency: more than half."""
        return self.electoral_total // 2 + 1

    def races_in(self, year: int) -> tuple[int, ...]:
        """Seat indexes whose races come up in `year`, in resolution order [2.2, 4]."""
        return _races_in(year)

    def compute_races(self, year: int) -> tuple[int, ...]:
        """The calendar of 2.2, worked out seat by seat (cached by `races_in`)."""
        president = [0] if year % PRESIDENTIAL_CYCLE == 0 else []
        senate: list[int] = []
        house: list[int] = []
        governors: list[int] = []
        for seat in self.seats[1:]:
            if seat.office is Office.SENATE:
                offset = SENATE_CLASS_OFFSETS[seat.senate_class]
                if (year - SENATE_CYCLE_ORIGIN) % SENATE_CYCLE == offset:
                    senate.append(seat.index)
            elif seat.office is Office.HOUSE:
                if year % 2 == 0:
                    house.append(seat.index)
            else:
                cycle = self.states[seat.state].governor_cycle
                if year % PRESIDENTIAL_CYCLE in GOVERNOR_CYCLES[cycle]:
                    governors.append(seat.index)
        return tuple(president + senate + house + governors)


def _load_states() -> tuple[State, ...]:
    text = resources.files("fairfight.ballot").joinpath("data/states.json").read_text("utf-8")
    rows = json.loads(text)["states"]
    return tuple(
        State(
            index=i,
            code=row["code"],
            house=row["house"],
            margin_tenths=row["margin_tenths"],
            senate_classes=(row["senate_classes"][0], row["senate_classes"][1]),
            governor_cycle=row["governor_cycle"],
            tags=(row["tags"][0], row["tags"][1]),
        )
        for i, row in enumerate(rows)
    )


@cache
def game_map() -> GameMap:
    """The map of Appendix A, built once."""
    states = _load_states()
    seats: list[SeatInfo] = [SeatInfo(0, PRESIDENCY_ID, Office.PRESIDENT, -1)]
    per_state: list[tuple[int, ...]] = []
    for state in states:
        start = len(seats)
        for senate_class in state.senate_classes:
            race = f"S-{state.code}-{senate_class}"
            seats.append(SeatInfo(len(seats), race, Office.SENATE, state.index, 0, senate_class))
        for district in range(1, state.house + 1):
            race = f"H-{state.code}-{district}"
            seats.append(SeatInfo(len(seats), race, Office.HOUSE, state.index, district))
        seats.append(SeatInfo(len(seats), f"G-{state.code}", Office.GOVERNOR, state.index))
        per_state.append(tuple(range(start, len(seats))))
    return GameMap(
        states=states,
        seats=tuple(seats),
        seat_by_id={seat.race_id: seat.index for seat in seats},
        state_by_code={state.code: state.index for state in states},
        state_seats=tuple(per_state),
    )


@cache
def opening_house_d(state: State) -> int:
    """D House seats on the opening board: round(n(1/2 + m/200)), halves toward the winner [1.6]."""
    exact = state.house * (Fraction(1, 2) + Fraction(state.margin_tenths, 2000))
    low = math.floor(exact)
    if exact - low == Fraction(1, 2):
        return low + 1 if state.winner_2020 is Party.D else low
    return round(exact)


def opening_party(seat: SeatInfo) -> Party:
    """The party of a seat on the opening board (the presidency is open: D placeholder) [1.6].

    House districts 1..k go to D where k is the state's D count; split Senate delegations give
    the lower-numbered class to the 2020 winner.
    """
    if seat.office is Office.PRESIDENT:
        return Party.D
    state = game_map().states[seat.state]
    winner = state.winner_2020
    if seat.office is Office.HOUSE:
        return Party.D if seat.district <= opening_house_d(state) else Party.R
    if seat.office is Office.GOVERNOR:
        return winner
    if abs(state.margin_tenths) >= BASELINE_DEADBAND_TENTHS:
        return winner
    return winner if seat.senate_class == state.senate_classes[0] else winner.other()


@cache
def _races_in(year: int) -> tuple[int, ...]:
    return game_map().compute_races(year)


@cache
def races_by_office(year: int) -> dict[Office, tuple[int, ...]]:
    """The year's races of each office, in resolution order."""
    found: dict[Office, list[int]] = {}
    for index in game_map().races_in(year):
        found.setdefault(game_map().seats[index].office, []).append(index)
    return {office: tuple(races) for office, races in found.items()}


@cache
@cache
def state_tag_sets() -> tuple[frozenset[str], ...]:
    """Each state's tags as a set, by state index (a card's fit is a set intersection)."""
    return tuple(frozenset(state.tags) for state in game_map().states)


@cache
def race_positions(year: int) -> Mapping[int, int]:
    """Each race of the year by seat index: its place in the year's resolution order (read
    on every step that walks the year's races, so worked out once per year)."""
    return {index: number for number, index in enumerate(game_map().races_in(year))}
