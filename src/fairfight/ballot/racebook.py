"""The Pollster's race book: the year's races grouped as a newcomer sees them [11].

Races that look identical to a newcomer (same state, office, party and opposition) form one
group with one chance table. The grouping of a board is shared by every seat that holds none of
its races; a seat's own races move to the groups where they meet a board generic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from operator import attrgetter, itemgetter

from fairfight.ballot import botkit as kit
from fairfight.ballot import estimates as est
from fairfight.ballot.deck import Card
from fairfight.ballot.geo import game_map, race_positions
from fairfight.ballot.state import GameState
from fairfight.ballot.tables import (
    BOARD,
    BOARD_GENERIC_PART,
    CARD_STRENGTH,
    GROUND_GAME_BONUS,
    OFFICE_HOUSE,
    PARTIES,
    PARTY_D,
    SWITCH_PENALTY,
    Office,
    Party,
)

__all__ = [
    "BOARDS_KEPT",
    "GroupKey",
    "PART_RANGE",
    "RaceBook",
    "RaceGroup",
    "best_values",
    "clear_cache",
    "fitting_seats",
    "group_chance",
    "presidential_part",
    "race_book",
    "race_table",
]


PART_RANGE = range(-SWITCH_PENALTY, CARD_STRENGTH + GROUND_GAME_BONUS + 1)
"""Card parts a newcomer can have (no incumbency): -1..4."""


@dataclass(slots=True)
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
    office: Office = OFFICE_HOUSE
    rank: int = 0
    """Where a fresh grouping puts the group: its first race's calendar place, D before R."""
    values: tuple[float, ...] = ()
    """p*V at each card part (`chances` times `value`)."""
    by_card: dict[int, float] | None = None
    """The presidency's chances by card id, as they are asked (they are read card by card)."""


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
    position: Mapping[int, int]
    by_state: dict[int, list[RaceGroup]] = field(default_factory=dict)
    best: dict[tuple[int, Party], tuple[float, ...]] = field(default_factory=dict)
    worth: dict[tuple[int, int], float] = field(default_factory=dict)
    presidential: list[RaceGroup] = field(default_factory=list)
    best_rows: list[tuple[int, int, tuple[float, ...]]] = field(default_factory=list)
    """(state, party slot, best p*V at each card part), highest last value first."""
    district_groups: dict[int, list[tuple[bool, tuple[float, ...], float]]] = field(
        default_factory=dict
    )
    """The groups each district card may join, by card id (the Pollster's draft asks often)."""

    def __deepcopy__(self, memo: dict[int, object]) -> RaceBook:
        """The book itself: it is built from one board and only remembers answers about it,
        so a copy of the bot holding it (a game copied to play on) shares it, as every seat
        holding none of the board's races shares its grouping."""
        return self

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
        pool = self.groups if only_state is None else self.by_state.get(only_state, [])
        found: list[tuple[int, RaceGroup]] = []
        for group in pool:
            if taken.isdisjoint(group.seats):
                found.append((group.rank, group))
                continue
            seats = [index for index in group.seats if index not in taken]
            if seats:
                rank = 2 * self.position[seats[0]] + (group.party is not PARTY_D)
                found.append((rank, replace(group, seats=seats, rank=rank)))
        found.sort(key=_FIRST)  # ranks differ: one group per (race, party)
        return [group for _, group in found]


@dataclass(slots=True)
class _Board:
    """The year's races grouped for a seat that holds none of them: what every seat shares.

    A seat's own races differ (a holder re-entering its own race meets a board generic), so a
    seat's book moves just those races (`race_book`).
    """

    key: str
    seats: object
    lean: object
    honeymoon: object
    year: int
    found: dict[GroupKey, list[int]]
    rival_keys: dict[int, tuple[GroupKey, GroupKey]]
    held: dict[int, list[int]]
    groups: dict[GroupKey, RaceGroup]
    ordered: list[RaceGroup]
    by_state: dict[int, list[RaceGroup]]
    best: dict[tuple[int, Party], tuple[float, ...]]
    worth: dict[tuple[int, int], float] = field(default_factory=dict)
    """Draft worths asked by any seat holding none of the races (its book is this grouping)."""


BOARDS_KEPT = 8
"""Boards whose grouping is kept: a process serving tables asks about several games' boards
in turn (each seat's page, its bots, the stand-ins), and each game's board stays the same
objects from step to step while the process keeps that game."""
_LAST_BOARD: list[_Board] = []
"""The boards grouped last, newest first."""
"""The last board grouped (both Pollsters of a game ask about the same board)."""


@cache
def _board_keys() -> tuple[tuple[tuple[GroupKey, GroupKey], tuple[GroupKey, GroupKey]], ...]:
    """Every seat's group keys when the board holds it (as a D newcomer, as an R newcomer),
    held as D and held as R: a newcomer meets the board generic, +1 when the board holds the
    seat for the other party. (The presidency's row is never read.)"""
    rows = []
    for info in game_map().seats:
        by_holding = []
        for held_as in PARTIES:
            d_key, r_key = (
                (info.state, info.office, p, est.opponent_of_board_seat(p, held_as, False), None)
                for p in PARTIES
            )
            by_holding.append((d_key, r_key))
        rows.append((by_holding[0], by_holding[1]))
    return tuple(rows)


def _place(index: int) -> int:
    """The first part of a group key: the state, or -2 for the presidency."""
    return game_map().seats[index].state if index else -2


_OFFICE_VALUES: dict[Office, float] = {
    office: float(value) for office, value in kit.OFFICE_VALUE.items()
}


def _group(
    key: GroupKey, seats: list[int], partisans: list[int], position: Mapping[int, int]
) -> RaceGroup:
    _, office, party, other, primary = key
    first = seats[0]
    where = _seat_states()[first]
    shift = (partisans[where] if party is PARTY_D else -partisans[where]) if first else 0
    table, value, row = _race_kind(shift, other, primary, office)
    rank = 2 * position[first] + (party is not PARTY_D)
    return RaceGroup(seats, where, party, other, primary, shift, value, table, office, rank, row)


@cache
def _seat_states() -> tuple[int, ...]:
    """The state of every seat, by seat index (the presidency's -1)."""
    return tuple(info.state for info in game_map().seats)


@cache
def _race_kind(
    shift: int, other: int, primary: int | None, office: Office
) -> tuple[tuple[float, ...], float, tuple[float, ...]]:
    """A kind of race's chance table, its office value and p*V at each card part (kinds
    repeat within a year and across years and games)."""
    table = race_table(shift, other, primary)
    value = _OFFICE_VALUES[office]
    return table, value, tuple(chance * value for chance in table)


_RANK = attrgetter("rank")
_FIRST = itemgetter(0)


def _by_state(groups: list[RaceGroup]) -> dict[int, list[RaceGroup]]:
    found: dict[int, list[RaceGroup]] = {}
    for group in groups:
        if group.seats[0] != 0:
            found.setdefault(group.state, []).append(group)
    return found


def _board(state: GameState) -> _Board:
    """The shared grouping of this board's races, built once per board."""
    last = _last_board(state)
    if last is not None:
        return last
    up = kit.up_this_year(state)
    found: dict[GroupKey, list[int]] = {}
    rival_keys: dict[int, tuple[GroupKey, GroupKey]] = {}
    held: dict[int, list[int]] = {}
    seats = state.seats
    board_keys = _board_keys()
    for index in up:
        holding = seats[index]
        if index and holding.holder == BOARD:
            keys = board_keys[index][holding.party is not PARTY_D]
        else:
            place, office = _place(index), game_map().seats[index].office
            d_side = est.opponent(state, index, PARTIES[0], BOARD)
            r_side = est.opponent(state, index, PARTIES[1], BOARD)
            keys = ((place, office, PARTIES[0], *d_side), (place, office, PARTIES[1], *r_side))
            if holding.holder != BOARD:
                rival_keys[index] = keys
                held.setdefault(holding.holder, []).append(index)
        for key in keys:
            found.setdefault(key, []).append(index)
    partisans = est.partisans(state)
    position = race_positions(state.year)
    groups = {key: _group(key, members, partisans, position) for key, members in found.items()}
    ordered = list(groups.values())
    board = _Board(
        state.key,
        state.seats,
        state.lean,
        state.honeymoon,
        state.year,
        found,
        rival_keys,
        held,
        groups,
        ordered,
        _by_state(ordered),
        best_values(ordered),
    )
    _LAST_BOARD[:] = [board, *_LAST_BOARD[:BOARDS_KEPT - 1]]
    return board


def _last_board(state: GameState) -> _Board | None:
    """A board grouped lately, when `state` is the same board (the same tuples, year and key)."""
    for last in tuple(_LAST_BOARD):
        if (
            last.seats is state.seats
            and last.lean is state.lean
            and last.honeymoon is state.honeymoon
            and last.year == state.year
            and last.key == state.key
        ):
            return last
    return None


def _with_own_races(
    state: GameState, board: _Board, own: list[int], position: Mapping[int, int],
) -> tuple[list[RaceGroup], dict[int, list[RaceGroup]], dict[tuple[int, Party], tuple[float, ...]]]:
    """The shared grouping with the seat's own races moved to the groups where they meet a
    board generic: the groups in order, by state, and the best values by (state, party)."""
    changed: dict[GroupKey, list[int]] = {}
    for index in own:
        place, office = _place(index), game_map().seats[index].office
        for party, old in zip(PARTIES, board.rival_keys[index], strict=True):
            members = changed.get(old)
            if members is None:
                members = changed[old] = list(board.found[old])
            members.remove(index)
            new = (place, office, party, BOARD_GENERIC_PART, None)
            members = changed.get(new)
            if members is None:
                members = changed[new] = list(board.found.get(new, ()))
            members.append(index)
    groups = dict(board.groups)
    partisans = est.partisans(state)
    touched: set[tuple[int, Party]] = set()
    for key, members in changed.items():
        if members:
            members.sort(key=position.__getitem__)
            groups[key] = _group(key, members, partisans, position)
        else:
            del groups[key]
        touched.add((key[0], key[2]))
    ordered = sorted(groups.values(), key=_RANK)
    by_state = dict(board.by_state)
    replaced = {id(board.groups[key]) for key in changed if key in board.groups}
    fresh: dict[int, list[RaceGroup]] = {}
    for key in changed:
        if key[0] >= 0 and key in groups:
            fresh.setdefault(key[0], []).append(groups[key])
    for where in {place for place, _ in touched if place >= 0}:
        kept = [g for g in board.by_state.get(where, ()) if id(g) not in replaced]
        by_state[where] = sorted(kept + fresh.get(where, []), key=_RANK)
    best = dict(board.best)
    for state_index, party in touched:
        best.pop((state_index, party), None)
        best.update(best_values([g for g in by_state.get(state_index, []) if g.party is party]))
    return ordered, by_state, best


def race_book(state: GameState, seat: int) -> RaceBook:
    """This year's races, grouped when they look identical to a newcomer [11].

    The shared grouping is in the order a fresh grouping gives (by first race, D before R);
    the seat's own races move to the groups where they meet a board generic.
    """
    board = _board(state)
    position = race_positions(state.year)
    own = board.held.get(seat, [])
    worth: dict[tuple[int, int], float] = {}
    if not own:
        ordered, by_state, best, worth = board.ordered, board.by_state, board.best, board.worth
    else:
        ordered, by_state, best = _with_own_races(state, board, own, position)
    book = RaceBook(
        state.seats, state.lean, state.honeymoon, state.year, seat, ordered, position, by_state
    )
    book.best = best
    book.worth = worth
    book.presidential = [group for group in ordered[:2] if group.seats[0] == 0]  # ranks 0, 1
    # Rows grow with the card part, so a row's last value is the most it can give: highest
    # first, a card's draft worth stops at the first row that cannot beat what it has.
    rows = [(s, party is not PARTY_D, row) for (s, party), row in best.items()]
    book.best_rows = sorted(rows, key=lambda item: item[2][-1], reverse=True)
    return book


def clear_cache() -> None:
    """Forget the newcomer chance tables remembered across games."""
    race_table.cache_clear()
    _race_kind.cache_clear()


@cache
def race_table(shift: int, other: int, primary: int | None) -> tuple[float, ...]:
    """A newcomer's estimate at every possible card part, for one kind of race."""
    return tuple(est.race_chance(part, shift, other, primary) for part in PART_RANGE)


def presidential_part(card: Card, party: Party) -> int:
    """A presidential candidate's card part: m minus the switch [5.8]."""
    return card.modifier - (SWITCH_PENALTY if party is not card.party else 0)


def group_chance(key: str, group: RaceGroup, card: Card, district: Card | None = None) -> float:
    """A newcomer's win estimate in a group's races (a district card joins its own state's)."""
    if group.seats[0] == 0:
        if group.by_card is None:
            group.by_card = {}
        known = group.by_card.get(card.id)
        if known is None:
            known = est.presidential_p(card, group.party, group.other)
            if group.primary is not None:
                known *= est.primary_p(presidential_part(card, group.party) - group.primary)
            group.by_card[card.id] = known
        return known
    slot = group.party is not PARTY_D
    if district is None:
        part = est.plain_part_table(key)[card.id][group.state][slot]
    else:
        part = est.down_ballot_part(card, group.state, group.party, district)
    return group.chances[part - PART_RANGE[0]]


def fitting_seats(group: RaceGroup, district: Card) -> list[int]:
    """The group's races a district card may join: Senate and governor races of its state, and
    its own House district [4.3]. The group must be of the district card's state."""
    if group.office is not OFFICE_HOUSE:
        return group.seats
    own = _house_seat(district.state, district.district)
    return [own] if own in group.seats else []


@cache
def _house_seat(state_index: int, district: int) -> int:
    gmap = game_map()
    return gmap.seat_by_id[f"H-{gmap.states[state_index].code}-{district}"]


def best_values(groups: list[RaceGroup]) -> dict[tuple[int, Party], tuple[float, ...]]:
    """Per (state, party) of down-ballot groups: the best p*V at each card part."""
    rows: dict[tuple[int, Party], list[tuple[float, ...]]] = {}
    for group in groups:
        if group.seats[0] != 0:
            rows.setdefault((group.state, group.party), []).append(group.values)
    return {
        where: found[0] if len(found) == 1 else tuple(map(max, *found))
        for where, found in rows.items()
    }
