"""What a seat is told while it declares: each declaration's exact chance, and the strongest ones.

The terminal and the web page show these same values and only format them, so the two can
never rank or price a declaration differently. Every value says whether it is an exact count
(`exact`) and how it was found (`method`), so no estimate can pass for an exact fraction.
These price one declaration at a time; the advice that plays the whole year, as the Pollster
does, is `advisor.advise`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from fairfight.ballot import estimates as est
from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.dice import RaceKind, win_chance
from fairfight.ballot.geo import game_map
from fairfight.ballot.presidency import (
    PresidentialSide,
    board_side,
    card_side,
    presidential_chance,
)
from fairfight.ballot.race_fields import RaceField, board_fields, chance_at
from fairfight.ballot.racebook import presidential_part
from fairfight.ballot.rules_page import chance_text
from fairfight.ballot.state import NO_CARD, Declaration, GameState
from fairfight.ballot.tables import BOARD, Party

__all__ = [
    "DeclarationChance",
    "EXACT_DOWN_BALLOT",
    "EXACT_PRESIDENCY",
    "HONEYMOON_UNCOUNTED",
    "STRONGEST_SHOWN",
    "declaration_chance",
    "down_ballot_method",
    "plain_chances",
    "presidency_chance",
    "presidential_general",
    "strongest_declarations",
]

EXACT_DOWN_BALLOT = "exact: tables G and P (every die counted, ties half)"
"""The method of a down-ballot chance: the race tables, exact fractions [12]."""
EXACT_PRESIDENCY = (
    "exact: every national, state and candidate die of the 50 state contests counted over the "
    "electoral votes"
)
"""The method of a presidential chance: `presidency.presidential_chance` [5.8]."""
HONEYMOON_UNCOUNTED = (
    "estimate: tables G and P at today's P(s); this year's presidential winner may add a "
    "honeymoon pip in the states it carries before this race is rolled, which is not counted"
)
"""The method of a down-ballot chance in a presidential year [5.9]."""

STRONGEST_SHOWN = 10
"""How many of the strongest declarations the terminal and the web page list."""


@dataclass(frozen=True, slots=True)
class DeclarationChance:
    """A declaration, its chance against a stated field, and how it was found."""

    declaration: Declaration
    chance: Fraction
    how: str
    """The field and the edges read, e.g. `edge +3 (table G)`."""
    exact: bool = True
    """True when `chance` is an exact count of the dice for that field; False for an estimate
    (then `method` names it, and it must never be shown as an exact fraction)."""
    method: str = EXACT_DOWN_BALLOT
    """How the chance was found."""

    def percent(self) -> str:
        """The chance as a percentage with one decimal (never a false 100.0 or 0.0)."""
        return chance_text(self.chance)

    def text(self, percent: str | None = None) -> str:
        """The chance in words: `87.9% = 82063/93312` when exact, `about 87.9% (estimate)`
        otherwise, so an estimate never reads as an exact fraction. `percent` is `percent()`
        when the caller already wrote it (a presidential chance is a long fraction)."""
        shown = self.percent() if percent is None else percent
        if self.exact:
            return f"{shown}% = {self.chance}"
        return f"about {shown}% (estimate)"


def declaration_chance(state: GameState, decl: Declaration) -> DeclarationChance:
    """The table chance of a declaration against the current field (board or incumbent)."""
    gmap = game_map()
    index = gmap.seat_by_id[decl.race]
    cards = build_cards(state.key)
    card = cards[decl.card]
    holding = state.seats[index]
    other, primary = est.opponent(state, index, decl.party, decl.player)
    if index == 0:
        return presidency_chance(state, decl)
    info = gmap.seats[index]
    rerun = holding.holder == decl.player and holding.card == decl.card
    if rerun:
        part = est.seated_part(state, index, decl.party)
    else:
        district = cards[decl.district_card] if decl.district_card != NO_CARD else None
        part = est.down_ballot_part(card, info.state, decl.party, district)
    edge = part + est.partisan(state, info.state) * decl.party.sign() - other
    chance = win_chance(RaceKind.GENERAL, edge)
    how = f"edge {edge:+d} (table G)"
    if primary is not None:
        chance *= win_chance(RaceKind.PRIMARY, part - primary)
        how += f", primary edge {part - primary:+d} against the incumbent (table P)"
    return DeclarationChance(decl, chance, how, *down_ballot_method(state))


def down_ballot_method(state: GameState) -> tuple[bool, str]:
    """(exact, method) of a down-ballot chance this year: exact from the tables, except in a
    presidential year, when the new president's honeymoon may still move P(s) [5.9]."""
    if 0 in game_map().races_in(state.year):
        return False, HONEYMOON_UNCOUNTED
    return True, EXACT_DOWN_BALLOT


def presidency_chance(state: GameState, decl: Declaration) -> DeclarationChance:
    """A presidential declaration's exact chance against the current field: a same-party
    player incumbent beaten in the primary (table P), then the general against the other
    party's incumbent card or a board generic, counted exactly [5.5, 5.8]."""
    card = build_cards(state.key)[decl.card]
    holding = state.seats[0]
    mine = card_side(card, decl.party)
    rival: PresidentialSide = board_side(holding, decl.party.other())
    chance = Fraction(1)
    how = ""
    opposed = "a board generic"
    if holding.holder not in (BOARD, decl.player):
        seated = build_cards(state.key)[holding.card]
        if holding.party is decl.party:
            edge = mine.part - presidential_part(seated, holding.party)
            chance = win_chance(RaceKind.PRIMARY, edge)
            how = f"primary edge {edge:+d} against the incumbent (table P), then "
        else:
            rival = card_side(seated, holding.party)
            opposed = "the incumbent's card"
    general = presidential_general(mine, rival, decl.party)
    how += f"the general against {opposed}, 50 states counted exactly"
    return DeclarationChance(decl, chance * general, how, True, EXACT_PRESIDENCY)


def presidential_general(
    mine: PresidentialSide, rival: PresidentialSide, party: Party
) -> Fraction:
    """The exact chance that `mine`, running under `party`, wins the presidential general."""
    if party is Party.D:
        return presidential_chance(mine, rival)
    return 1 - presidential_chance(rival, mine)


def strongest_declarations(
    state: GameState, seat: int, limit: int = STRONGEST_SHOWN
) -> list[DeclarationChance]:
    """The strongest new declarations of `seat`, each with a different card and a different race.

    Every candidate card of the hand is priced in every race up this year under either party,
    with no district card; the highest exact chance comes first (ties: the lower card id, then
    the race's place on the map), and a card or race already listed is passed over. Ranked on
    the bare chances (`_race_chances`); only the listed ones are priced in full.
    """
    cards = build_cards(state.key)
    hand = [cards[c] for c in state.hands[seat] if cards[c].is_candidate]
    gmap = game_map()
    used_cards: set[int] = set()
    used_races: set[int] = set()
    picks: list[DeclarationChance] = []
    for _, card_id, rows in _ranked(state, seat, hand):
        if len(picks) == limit:
            break
        if card_id in used_cards:
            continue
        for index, party in rows:
            if index not in used_races:
                race = gmap.seats[index].race_id
                picks.append(declaration_chance(state, Declaration(seat, race, card_id, party)))
                used_cards.add(card_id)
                used_races.add(index)
                break
    return picks


def _ranked(
    state: GameState, seat: int, hand: list[Card]
) -> Iterator[tuple[Fraction, int, list[tuple[int, Party]]]]:
    """Every declaration of `hand` this year, the highest chance first, as (chance, card, its
    (race index, party) at that chance): ties go to the lower card id, then the race's place
    on the map, then D before R. A year's thousands of declarations share a few dozen
    chances, so they are bucketed by chance, the races of one field (`race_fields`, one per
    board for every seat) with the cards of one part as one entry, and a bucket is spread by
    card and sorted only when the ranking reaches it (the picks are made in the first few; a
    card already picked is passed over whole)."""
    buckets: dict[tuple[int, int], list[tuple[tuple[int, ...], Party, tuple[int, ...]]]] = {}
    chances: dict[tuple[int, int], Fraction] = {}

    def bucket(chance: Fraction) -> list[tuple[tuple[int, ...], Party, tuple[int, ...]]]:
        key = (chance.numerator, chance.denominator)  # whole numbers hash fast; a Fraction not
        found = buckets.get(key)
        if found is None:
            buckets[key] = found = []
            chances[key] = chance
        return found

    board = board_fields(state)
    own = board.held.get(seat, frozenset())
    by_part: dict[tuple[int, Party], list[tuple[int, tuple[int, ...]]]] = {}
    for group in board.groups:
        races = group.races if own.isdisjoint(group.races) else tuple(
            index for index in group.races if index not in own)
        if not races:
            continue
        for chance, card_ids, party in _field_chances(
                hand, group.home, group.party, group.field, by_part):
            bucket(chance).append((races, party, card_ids))
    presidency = [0] if 0 in game_map().races_in(state.year) else []
    for index in presidency + sorted(own):  # priced one card at a time
        for chance, card_ids, party in _race_chances(state, seat, index, hand, by_part):
            bucket(chance).append(((index,), party, card_ids))
    for key in sorted(buckets, key=chances.__getitem__, reverse=True):
        yield from _spread(chances[key], buckets[key])


def _spread(
    chance: Fraction, entries: list[tuple[tuple[int, ...], Party, tuple[int, ...]]]
) -> Iterator[tuple[Fraction, int, list[tuple[int, Party]]]]:
    """One bucket of equal chances by card (the lowest id first), each card's races in map
    order, D before R in a race."""
    by_card: dict[int, list[tuple[int, Party]]] = {}
    for races, party, card_ids in entries:
        for card_id in card_ids:
            by_card.setdefault(card_id, []).extend((index, party) for index in races)
    for card_id in sorted(by_card):
        rows = by_card[card_id]
        rows.sort(key=_map_order)
        yield chance, card_id, rows


def _map_order(row: tuple[int, Party]) -> tuple[int, bool]:
    """A (race, party) row's place: the race's place on the map, then D before R."""
    return row[0], row[1] is not Party.D


def plain_chances(
    state: GameState, seat: int, index: int, hand: list[Card]
) -> dict[tuple[int, Party], Fraction]:
    """`declaration_chance`'s chance of every card of `hand` under either party in race
    `index` with no district card, by (card, party): the race's field read once per party."""
    return {
        (card_id, party): chance
        for chance, card_ids, party in _race_chances(state, seat, index, hand)
        for card_id in card_ids
    }


def _race_chances(
    state: GameState, seat: int, index: int, hand: list[Card],
    by_part: dict[tuple[int, Party], list[tuple[int, tuple[int, ...]]]] | None = None,
) -> list[tuple[Fraction, tuple[int, ...], Party]]:
    """(chance, cards, party) of every card of `hand` under either party in race `index`, no
    district card: `declaration_chance`'s chance, with the race's field read once per board
    (`race_fields`, shared by every seat) and the cards of one part in the race's state priced
    once (a midterm prices ~15,000 declarations, from a few dozen chances). `by_part` keeps
    each state's grouping of the hand by part across the races of a year."""
    rows: list[tuple[Fraction, tuple[int, ...], Party]] = []
    holding = state.seats[index]
    home = game_map().seats[index].state
    groups = {} if by_part is None else by_part
    fields = None
    for party in Party:
        if index == 0 or holding.holder == seat:  # the presidency, or a re-run among the cards
            race = game_map().seats[index].race_id
            rows += [(declaration_chance(state, Declaration(seat, race, card.id, party)).chance,
                      (card.id,), party) for card in hand]
            continue
        if fields is None:
            fields = board_fields(state).by_race
        rows += _field_chances(hand, home, party, fields[(index, party)], groups)
    return rows


def _field_chances(
    hand: list[Card], home: int, party: Party, field: RaceField,
    groups: dict[tuple[int, Party], list[tuple[int, tuple[int, ...]]]],
) -> list[tuple[Fraction, tuple[int, ...], Party]]:
    """(chance, cards, party) of the hand's cards of each part in a race of `field` in `home`."""
    shift, primary = field
    return [
        (chance_at(part + shift, None if primary is None else part - primary), card_ids, party)
        for part, card_ids in _cards_by_part(hand, home, party, groups)
    ]


def _cards_by_part(
    hand: list[Card], home: int, party: Party,
    groups: dict[tuple[int, Party], list[tuple[int, tuple[int, ...]]]],
) -> list[tuple[int, tuple[int, ...]]]:
    """The hand's cards grouped by their newcomer part in state `home` under `party` (each
    group in hand order), kept in `groups` for the state's other races."""
    found = groups.get((home, party))
    if found is None:
        parts: dict[int, list[int]] = {}
        for card in hand:
            parts.setdefault(est.down_ballot_part(card, home, party, None), []).append(card.id)
        groups[(home, party)] = found = [(part, tuple(ids)) for part, ids in parts.items()]
    return found
