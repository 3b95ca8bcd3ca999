"""What a bot can estimate from public information: win chances, board votes, Speaker value [11].

Chances come from the exact tables (`dice.win_chance`); bots compare them as floats, since a
bot's choice is a heuristic, not a number shown to anyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import chain, combinations

from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.dice import RaceKind, win_chance
from fairfight.ballot.geo import game_map
from fairfight.ballot.state import NO_CARD, Declaration, GameState
from fairfight.ballot.tables import (
    BILL_TAGS,
    BOARD,
    BOARD_GENERIC_PART,
    BOARD_INCUMBENCY_BONUS,
    GROUND_GAME_BONUS,
    INCUMBENCY_BONUS,
    SWITCH_PENALTY,
    TAGS,
    Office,
    Party,
)

__all__ = [
    "BoardGroups",
    "baselines",
    "best_pair",
    "board_groups",
    "clear_cache",
    "down_ballot_part",
    "entry_part",
    "general_p",
    "house_need",
    "joined_parts",
    "median_presidential_edge",
    "opponent",
    "opponent_of_board_seat",
    "pair_votes",
    "pairs_touching",
    "pairs_within",
    "partisan",
    "partisans",
    "plain_part_rows",
    "plain_part_table",
    "player_seats",
    "presidential_edges",
    "presidential_face_p",
    "presidential_p",
    "primary_p",
    "race_chance",
    "race_tags",
    "seated_part",
    "speaker_value",
]


def clear_cache() -> None:
    """Forget every estimate remembered across games (benchmarks measure rebuilding them)."""
    for cached in (
        general_p,
        primary_p,
        presidential_face_p,
        race_chance,
        plain_part_table,
        plain_part_rows,
        _plain_row,
        _joined_parts,
        race_tags,
    ):
        cached.cache_clear()


@cache
def general_p(edge: int) -> float:
    """Table G at any edge, as a float for ranking."""
    return float(win_chance(RaceKind.GENERAL, edge))


@cache
def primary_p(edge: int) -> float:
    """Table P at any edge, as a float for ranking."""
    return float(win_chance(RaceKind.PRIMARY, edge))


@cache
def baselines() -> tuple[int, ...]:
    """Every state's baseline, in map order."""
    return tuple(home.baseline for home in game_map().states)


def partisan(state: GameState, state_index: int) -> int:
    """P(s) = base + lean + honeymoon, added to D in down-ballot generals [5.3]."""
    return baselines()[state_index] + state.lean[state_index] + state.honeymoon[state_index]


def partisans(state: GameState) -> list[int]:
    """P(s) of every state, in map order."""
    return [
        base + lean + honeymoon
        for base, lean, honeymoon in zip(baselines(), state.lean, state.honeymoon, strict=True)
    ]


def down_ballot_part(card: Card, state_index: int, party: Party, district: Card | None) -> int:
    """Card part of a new (non-incumbent) candidate [5.3]."""
    if district is None:
        return _plain_part(card, state_index, party)
    parts = _joined_parts(card.modifier, card.tags, card.printed, state_index, district.tags)
    return parts[party is not Party.D]


def joined_parts(card: Card, district: Card) -> tuple[int, int]:
    """A newcomer's card part with a district card attached, under D and under R [5.3]."""
    return _joined_parts(card.modifier, card.tags, card.printed, district.state, district.tags)


@cache
def _joined_parts(
    modifier: int,
    tags: frozenset[str],
    printed: Party,
    state_index: int,
    district_tags: frozenset[str],
) -> tuple[int, int]:
    """`joined_parts` for a card face and a district card face (both repeat across games)."""
    part = modifier + len(tags & race_tags(state_index, district_tags)) + GROUND_GAME_BONUS
    switched = part - SWITCH_PENALTY
    return (part, switched) if printed is Party.D else (switched, part)


@cache
def race_tags(state_index: int, district_tags: frozenset[str] = frozenset()) -> frozenset[str]:
    """A state's tags with a district card's tags added."""
    return frozenset(game_map().states[state_index].tags) | district_tags


def _plain_part(card: Card, state_index: int, party: Party) -> int:
    tags = game_map().states[state_index].tags
    fit = (tags[0] in card.tags) + (tags[1] in card.tags)
    return card.modifier + fit - (SWITCH_PENALTY if party is not card.party else 0)


@lru_cache(maxsize=8)
def plain_part_table(key: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every candidate card's newcomer part in every state, (under D, under R), by card id."""
    table = []
    for card in build_cards(key):
        if not card.is_candidate:
            break
        table.append(_plain_row(card.tags, card.modifier, card.printed))
    return tuple(table)


@lru_cache(maxsize=8)
def plain_part_rows(key: str) -> tuple[tuple[int, ...], ...]:
    """`plain_part_table` with each card's row flat: (state 0 under D, under R, state 1 ...)."""
    return tuple(tuple(chain.from_iterable(row)) for row in plain_part_table(key))


@cache
def _plain_row(
    tags: frozenset[str], modifier: int, printed: Party
) -> tuple[tuple[int, int], ...]:
    """One card face's newcomer parts in every state (faces repeat, within and across games)."""
    row = []
    for home in game_map().states:
        part = modifier + len(tags.intersection(home.tags))
        switched = part - SWITCH_PENALTY
        row.append((part, switched) if printed is Party.D else (switched, part))
    return tuple(row)


def seated_part(state: GameState, seat_index: int, party: Party | None = None) -> int:
    """The public card part of a seated card re-running on its seat (incumbency included)."""
    cards = build_cards(state.key)
    holding = state.seats[seat_index]
    info = game_map().seats[seat_index]
    running = party or holding.party
    district = cards[holding.district_card] if holding.district_card != NO_CARD else None
    if info.office is Office.PRESIDENT:
        card = cards[holding.card]
        return card.modifier - (SWITCH_PENALTY if running is not card.party else 0)
    part = down_ballot_part(cards[holding.card], info.state, running, district)
    return part + INCUMBENCY_BONUS


def opponent_of_board_seat(party: Party, held_as: Party, presidential: bool) -> int:
    """The board generic's part against a newcomer of `party` in a board seat held as `held_as`."""
    board_inc = held_as is party.other() and not presidential
    return BOARD_GENERIC_PART + (BOARD_INCUMBENCY_BONUS if board_inc else 0)


def opponent(state: GameState, seat_index: int, party: Party, me: int) -> tuple[int, int | None]:
    """(other side's part, same-party incumbent's part or None) for a newcomer in this race."""
    holding = state.seats[seat_index]
    presidential = seat_index == 0
    if holding.holder == BOARD:
        return opponent_of_board_seat(party, holding.party, presidential), None
    if holding.holder == me:
        return BOARD_GENERIC_PART, None
    incumbent = seated_part(state, seat_index)
    if holding.party is party:
        return BOARD_GENERIC_PART, incumbent
    return incumbent, None


@cache
def race_chance(part: int, shift: int, other: int, primary: int | None) -> float:
    """General chance at part + shift - other, times the primary chance against an incumbent."""
    chance = general_p(part + shift - other)
    return chance * primary_p(part - primary) if primary is not None else chance


def presidential_edges(card: Card, party: Party, other: int) -> list[tuple[int, int]]:
    """(edge, electoral votes) per state for a card against a side of part `other` [5.8]."""
    switch = SWITCH_PENALTY if party is not card.party else 0
    rows = []
    for home in game_map().states:
        part = card.modifier + len(card.tags & set(home.tags)) - switch
        rows.append((part + party.sign() * home.baseline - other, home.electoral_votes))
    return rows


def presidential_p(card: Card, party: Party, other: int) -> float:
    """Table P read at the EV-weighted median state edge (the Pollster's estimate) [11]."""
    return presidential_face_p(card.modifier, card.tags, card.printed, party, other)


@cache
def presidential_face_p(
    modifier: int, tags: frozenset[str], printed: Party, party: Party, other: int
) -> float:
    """`presidential_p` for a card face, so games with different keys share the work."""
    card = Card(-1, tags, printed, modifier)
    return primary_p(median_presidential_edge(card, party, other))


def median_presidential_edge(card: Card, party: Party, other: int) -> int:
    """The EV-weighted median of the fifty state edges: the edge of the state that brings
    the running electoral-vote total, states taken from the lowest edge up, to a majority."""
    rows = sorted(presidential_edges(card, party, other))
    half = game_map().electoral_majority()
    running = 0
    for edge, votes in rows:
        running += votes
        if running >= half:
            return edge
    return rows[-1][0]


@cache
def _pairs() -> tuple[tuple[str, ...], ...]:
    return tuple(combinations(TAGS, BILL_TAGS))


BoardGroups = tuple[leg.CongressGroup, ...]


def board_groups(state: GameState) -> BoardGroups:
    """Board seats of Congress grouped by (state, party): (state, party, House, Senate) counts."""
    return leg.seating(state).board


def player_seats(state: GameState, office: Office) -> int:
    """Seats of a chamber held by players (counted yes in the Speaker-value estimate)."""
    groups = leg.seating(state).players
    return sum(house if office is Office.HOUSE else senate for _, _, house, senate in groups)


@cache
def _pair_states() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For every tag: the states carrying it; for every tag pair (in `_pairs` order): the
    states whose two tags are exactly the pair. A bill names two tags and a state has two, so
    a state shares both tags with a pair only when it is one of these [7.1]."""
    states = game_map().states
    assert BILL_TAGS == 2 and all(len(set(home.tags)) == 2 for home in states)
    by_tag = tuple(tuple(home.index for home in states if tag in home.tags) for tag in TAGS)
    exact = tuple(
        tuple(home.index for home in states if set(home.tags) == set(pair)) for pair in _pairs()
    )
    return by_tag, exact


def pair_votes(state: GameState, party: Party) -> dict[tuple[str, ...], int]:
    """Board yes votes in both chambers for every tag pair, counted state by state [7.1].

    Every bot that weighs a bill on a board asks the same question, so the last answer per
    party is remembered with the board (seats, lean, honeymoon) it was counted on.
    """
    last = _LAST_PAIRS.get(party)
    if (
        last is not None
        and last[0] is state.seats
        and last[1] is state.lean
        and last[2] is state.honeymoon
    ):
        return last[3]
    # A board group needing one shared tag votes yes for every pair touching its state, one
    # needing two only for its state's own pair: per tag and per exact pair, counted once.
    always = 0
    one = [0] * len(game_map().states)
    two = [0] * len(one)
    for state_index, seat_party, house_count, senate_count in board_groups(state):
        lean = leg.partisan_lean(state, state_index) * party.sign()
        base = leg.support(0, seat_party is party, lean)
        if base >= 1:
            always += house_count + senate_count
        elif base == 0:
            one[state_index] += house_count + senate_count
        elif base == 1 - BILL_TAGS:
            two[state_index] += house_count + senate_count
    by_tag, exact = _pair_states()
    per_tag = {tag: sum(one[s] for s in found) for tag, found in zip(TAGS, by_tag, strict=True)}
    votes: dict[tuple[str, ...], int] = {}
    for pair, states in zip(_pairs(), exact, strict=True):
        # one[s] counted for both tags of a state that carries the pair: once, and two[s] too
        both = sum(two[s] - one[s] for s in states)
        votes[pair] = always + per_tag[pair[0]] + per_tag[pair[1]] + both
    _LAST_PAIRS[party] = (state.seats, state.lean, state.honeymoon, votes)
    return votes


_LAST_PAIRS: dict[Party, tuple[object, object, object, dict[tuple[str, ...], int]]] = {}


def best_pair(
    state: GameState, party: Party, allowed: Iterable[tuple[str, ...]]
) -> tuple[str, ...]:
    """The tag pair with the most board yes votes; ties to the first in vocabulary order."""
    votes = pair_votes(state, party)
    best: tuple[str, ...] = ()
    for pair in allowed:
        if not best or votes[pair] > votes[best]:
            best = pair
    return best


def pairs_touching(tags: set[str] | frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Tag pairs that include at least one of `tags`, in vocabulary order."""
    return _pairs_touching(frozenset(tags))


@cache
def _pairs_touching(tags: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(pair for pair in _pairs() if tags.intersection(pair))


def pairs_within(tags: set[str] | frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Tag pairs made only of `tags`, in vocabulary order."""
    return _pairs_within(frozenset(tags))


@cache
def _pairs_within(tags: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(pair for pair in _pairs() if tags.issuperset(pair))


def speaker_value(state: GameState, me: int, pair: tuple[str, ...]) -> float:
    """Expected points of authoring this House term's omnibills with `pair` [11]."""
    if not pair:
        return 0.0
    party = leg.majority_party(state, Office.HOUSE)
    house, senate = leg.board_yes(state, party, pair)
    house += player_seats(state, Office.HOUSE)
    senate += player_seats(state, Office.SENATE)
    limits = leg.thresholds()
    chance = 1.0 if house >= limits.house_pass and senate >= limits.senate_pass else 0.0
    president = state.seats[0]
    if president.holder != me and (president.holder != BOARD or president.party is not party):
        chance /= 2
    last = state.config.last_year()
    value = 0.0
    for year in (state.year, state.year + 1):
        if year <= last:
            value += state.config.score.bill * min(state.config.bill_life, last - year + 1) * chance
    return value


def house_need(state: GameState, me: int, party: Party, own_reruns: int) -> int:
    """1 + the most House seats of `party` held by a rival - own re-runs under it [11]."""
    counts = [0] * state.players
    for player, seat_party, house_seats, _ in leg.seating(state).players:
        if player != me and seat_party is party:
            counts[player] += house_seats
    return 1 + max(counts) - own_reruns


def entry_part(state: GameState, entry: Declaration, index: int) -> int:
    """A revealed candidate's down-ballot card part (incumbency if it re-runs its seat)."""
    holding = state.seats[index]
    if holding.holder == entry.player and holding.card == entry.card:
        return seated_part(state, index, entry.party)
    cards = build_cards(state.key)
    district = cards[entry.district_card] if entry.district_card != NO_CARD else None
    return down_ballot_part(cards[entry.card], game_map().seats[index].state, entry.party, district)
