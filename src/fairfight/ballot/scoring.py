"""End-of-year scoring, read fresh off the state: nothing accumulates [9].

`score_lines` is a pure function of a state, so re-scoring a saved state gives the same
numbers; the winner on score and its tie-breaks live here too [10.2].
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.state import NO_CARD, GameState
from fairfight.ballot.tables import BOARD, Office, Party

__all__ = [
    "ScoreLine",
    "bills_held",
    "leader",
    "lean_party",
    "leaning_owner",
    "score_lines",
    "scores",
    "seat_counts",
    "winners_on_score",
]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's points by source at a scoring."""

    presidency: int = 0
    senate: int = 0
    governor: int = 0
    house: int = 0
    bills: int = 0
    leaning_states: int = 0
    amendments: int = 0
    district_cards: int = 0
    hand: int = 0

    @property
    def total(self) -> int:
        """The player's score."""
        return (
            self.presidency
            + self.senate
            + self.governor
            + self.house
            + self.bills
            + self.leaning_states
            + self.amendments
            + self.district_cards
            + self.hand
        )


@cache
def lean_party(lean: int) -> Party | None:
    """The party a lean favours (None at 0) [6.6]."""
    if lean == 0:
        return None
    return Party.D if lean > 0 else Party.R


def leaning_owner(state: GameState, state_index: int) -> int:
    """The player a state leans toward, or BOARD when it leans toward nobody [6.6]."""
    party = lean_party(state.lean[state_index])
    if party is None:
        return BOARD
    counts = [0] * state.players
    for seat_index in game_map().state_seats[state_index]:
        holding = state.seats[seat_index]
        if holding.holder != BOARD and holding.party is party:
            counts[holding.holder] += 1
    best = max(counts)
    if best >= 1 and counts.count(best) == 1:
        return counts.index(best)
    return BOARD


def seat_counts(state: GameState, office: Office) -> list[int]:
    """How many seats of this office each player holds."""
    counts = [0] * state.players
    for info, holding in zip(game_map().seats, state.seats, strict=True):
        if info.office is office and holding.holder != BOARD:
            counts[holding.holder] += 1
    return counts


@dataclass(frozen=True, slots=True)
class _Held:
    """What the players hold on one board, read once: seats by office, seated district cards,
    the tags of their governors' cards and the states leaning toward each player."""

    offices: tuple[dict[Office, int], ...]
    district_cards: tuple[int, ...]
    governor_tags: tuple[frozenset[str], ...]
    leaning: tuple[int, ...]


_OFFICES = tuple(Office)
_GOVERNOR = _OFFICES.index(Office.GOVERNOR)


@cache
def _seat_kinds() -> tuple[tuple[int, int], ...]:
    """Each seat's office (its place in `Office`) and state index, in seat order."""
    return tuple((_OFFICES.index(info.office), info.state) for info in game_map().seats)


_LAST_HELD: list[tuple[object, object, str, int, _Held] | None] = [None]


def _held(state: GameState) -> _Held:
    """The board part of a scoring; the same board is scored for every bot that asks."""
    last = _LAST_HELD[0]
    if (
        last is not None
        and last[0] is state.seats
        and last[1] is state.lean
        and last[2] == state.key
        and last[3] == state.players
    ):
        return last[4]
    cards = build_cards(state.key)
    kinds = _seat_kinds()
    players = state.players
    offices = [[0] * len(_OFFICES) for _ in range(players)]
    district_cards = [0] * players
    governor_tags: list[set[str]] = [set() for _ in range(players)]
    # The leaning-state count of `leaning_owner`, from the held seats only: per state, each
    # player's seats under the party the state leans toward.
    leans = list(map(lean_party, state.lean))
    toward: dict[int, list[int]] = {}
    seats = state.seats
    for index in leg.seating(state).held:
        holding = seats[index]
        player = holding.holder
        office, where = kinds[index]
        offices[player][office] += 1
        if holding.district_card != NO_CARD:
            district_cards[player] += 1
        if office == _GOVERNOR and holding.card != NO_CARD:
            governor_tags[player] |= cards[holding.card].tags
        if index and holding.party is leans[where]:
            counts = toward.get(where)
            if counts is None:
                counts = toward[where] = [0] * players
            counts[player] += 1
    leaning = [0] * state.players
    for counts in toward.values():
        best = max(counts)
        if best >= 1 and counts.count(best) == 1:
            leaning[counts.index(best)] += 1
    held = _Held(
        tuple(dict(zip(_OFFICES, counts, strict=True)) for counts in offices),
        tuple(district_cards),
        tuple(frozenset(tags) for tags in governor_tags),
        tuple(leaning),
    )
    _LAST_HELD[0] = (state.seats, state.lean, state.key, state.players, held)
    return held


_LAST_LINES: list[
    tuple[tuple[object, ...], tuple[str, int], tuple[ScoreLine, ...], tuple[int, ...]] | None
] = [None]


def _scored(state: GameState) -> tuple[tuple[ScoreLine, ...], tuple[int, ...]]:
    """The score lines and totals of a state. Everything a scoring reads is an immutable part
    of the state, and the engine hands the same parts on while they do not change (every vote
    of a session scores the same board), so the last answer is kept with the parts it read."""
    parts = (state.config, state.seats, state.lean, state.bills, state.amendments, state.hands)
    last = _LAST_LINES[0]
    if (
        last is not None
        and last[1] == (state.key, state.players)
        and all(part is known for part, known in zip(parts, last[0], strict=True))
    ):
        return last[2], last[3]
    lines = _score_lines(state)
    totals = tuple(line.total for line in lines)
    _LAST_LINES[0] = (parts, (state.key, state.players), lines, totals)
    return lines, totals


def score_lines(state: GameState) -> tuple[ScoreLine, ...]:
    """Every player's score by source, from the state alone [9]."""
    return _scored(state)[0]


def _score_lines(state: GameState) -> tuple[ScoreLine, ...]:
    """The scoring itself, done afresh."""
    points = state.config.score
    held = _held(state)
    bills = bills_held(state)
    lines = []
    for player in range(state.players):
        offices = held.offices[player]
        amendments = sum(
            1 for amendment in state.amendments if held.governor_tags[player] & set(amendment.tags)
        )
        lines.append(
            ScoreLine(
                presidency=points.presidency * offices[Office.PRESIDENT],
                senate=points.senate * offices[Office.SENATE],
                governor=points.governor * offices[Office.GOVERNOR],
                house=points.house * offices[Office.HOUSE],
                bills=points.bill * bills[player],
                leaning_states=points.leaning_state * held.leaning[player],
                amendments=points.amendment * amendments,
                district_cards=points.district_card * held.district_cards[player],
                hand=points.hand_card * len(state.hands[player]),
            )
        )
    return tuple(lines)


def scores(state: GameState) -> tuple[int, ...]:
    """Every player's current score."""
    return _scored(state)[1]


def bills_held(state: GameState) -> list[int]:
    """Bills on the books held by each player."""
    held = [0] * state.players
    for bill in state.bills:
        if bill.holder != BOARD:
            held[bill.holder] += 1
    return held


def winners_on_score(state: GameState) -> tuple[int, ...]:
    """Highest score; ties by more Senate seats, then more bills held; else shared [10.2]."""
    totals = scores(state)
    senate = seat_counts(state, Office.SENATE)
    held = bills_held(state)
    keys = [(totals[p], senate[p], held[p]) for p in range(state.players)]
    best = max(keys)
    return tuple(p for p in range(state.players) if keys[p] == best)


def leader(state: GameState, totals: tuple[int, ...] | None = None) -> int:
    """The player with the unique top current score, or BOARD when the top is shared [11]."""
    values = totals if totals is not None else scores(state)
    best = max(values)
    return values.index(best) if values.count(best) == 1 else BOARD
