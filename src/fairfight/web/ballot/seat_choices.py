"""Declaring by choosing: the declarations a seat may make this year as options to pick, each
with its exact chance, grouped by race, the suggested ones picked already.

Priced on the game as the seat knows it (`visible_state`), so an option can hold nothing of
another seat. A year with few races lists every race; a year with hundreds (every House seat
comes up in even years) lists the suggested races and the seats the viewer holds that come up,
and the page offers any other race through a list to pick from.

A listed race carries its suggestion and its strongest options (`SHOWN`), and says how many
more it has; the one race the viewer opens (the page's `?open=`, or the race picked from the
list) carries every card under either party (`with_race_opened`). So the page stays small
(a presidential year's page once carried some 340 options, 14,000 were possible) while every
legal declaration stays a click or two away.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel

from fairfight.ballot.advice import DeclarationChance, declaration_chance, plain_chances
from fairfight.ballot.botkit import candidates_in_hand
from fairfight.ballot.geo import game_map
from fairfight.ballot.seat_view import (
    CardView,
    ChanceView,
    SeatView,
    card_views,
    chance_view,
    visible_state,
)
from fairfight.ballot.state import NO_CARD, Declaration, GameState
from fairfight.ballot.tables import Party

__all__ = [
    "EVERY_RACE_AT_MOST",
    "SHOWN",
    "DeclarationOption",
    "RaceChoices",
    "declaration_choices",
    "option_value",
    "suggested_declarations",
    "with_race_opened",
]

EVERY_RACE_AT_MOST = 400
"""The most options (race × card × party) listed in full; a year with more lists the suggested
races and the viewer's own seats that come up (a midterm has ~500 races: 15 cards × 2 parties
in each would make a page of 15,000 options)."""


SHOWN = 3
"""Options a listed race carries when it is not the opened one: the suggestion (or the
strongest) and the next strongest; "no candidate" comes besides."""


_Pick = tuple[int, str, int]
"""A suggested declaration in a race: (card, party, district card or `NO_CARD`)."""
_PARTIES = tuple(Party)
"""D then R, read once (iterating the enum class itself costs a generator each time)."""
_Entry = tuple[CardView, int, Party, int]
"""A declaration the viewer may make in a race: (card, card id, party, district card or
`NO_CARD`; a re-run's is its seat's)."""
_Ranked = tuple[bool, Fraction, int, str, int, CardView]
"""A race's entry as ranked: (not suggested, chance, card id, party, district card, card)."""


class DeclarationOption(BaseModel):
    """One declaration to pick: a card under a party in the race (with a district card, when
    the suggestion runs one beside it), with its chance."""

    value: str
    """The form's value: `card:party`, or `card:party:district` when a district card from the
    hand runs beside the card (the race is the field's name)."""
    card: CardView
    party: str
    chance: ChanceView
    """Priced as declared: with the district card, when there is one."""
    suggested: bool
    district: CardView | None = None
    """The district card run beside `card` (a re-run's is its seat's), or None."""


class RaceChoices(BaseModel):
    """A race up this year and every declaration of the viewer's in it."""

    race: str
    suggested: bool
    """The suggestion declares in this race (its option is picked already)."""
    held: bool
    """The viewer holds this seat (a re-run is among the options)."""
    options: list[DeclarationOption]
    """The suggested declaration first, then the strongest first (ties: card, then party):
    every one in the opened race, the first `SHOWN` in the others."""
    more: int = 0
    """Options of this race left off the page (the race opened shows them)."""
    opened: bool = False
    """The viewer opened this race: every declaration in it is listed."""


def option_value(card: int, party: str, district: int = NO_CARD) -> str:
    """The form value of a declaration option: a district card from the hand is part of it
    (a re-run's district card is its seat's, so the form need not carry it)."""
    return f"{card}:{party}" if district == NO_CARD else f"{card}:{party}:{district}"


def suggested_declarations(view: SeatView) -> list[ChanceView]:
    """The declarations the page picks for the seat before it chooses: the advice's set for the
    year (`advisor.advise`, the Pollster's choice in this seat), or, should the advice not be to
    declare, the strongest declarations priced one by one."""
    return list(view.advised or view.suggestions)


def _entries(
    state: GameState, you: int, race: str, cards: list[CardView], picked: set[_Pick],
) -> list[_Entry]:
    """Every card the viewer may run in `race` under either party (a re-run with its seat's
    district card), and the suggestion's declaration with a district card from the hand, which
    is listed besides the same card run alone. Plain tuples: a `Declaration` is made only for
    the few entries priced in full (a presidential year lists some 30 cards in dozens of races)."""
    holding = state.seats[game_map().seat_by_id[race]]
    hand = set(state.hands[you])
    with_district = sorted(pick for pick in picked if pick[2] != NO_CARD)
    entries: list[_Entry] = []
    for card in cards:
        rerun = holding.holder == you and holding.card == card.id
        if not (rerun or card.id in hand):
            continue
        seated = holding.district_card if rerun else NO_CARD
        entries += [(card, card.id, party, seated) for party in _PARTIES]
        if not rerun:
            entries += [(card, card.id, Party(party), district)
                        for card_id, party, district in with_district if card_id == card.id]
    return entries


def _options(
    state: GameState, you: int, race: str, cards: list[CardView], picked: set[_Pick],
    shown: int | None,
) -> tuple[list[DeclarationOption], int]:
    """The first `shown` (None: every) declarations of the race, the suggested first, then the
    strongest (ties: card, then party, then district card), and how many there are in all.
    Every one is priced (with its district card) to rank them, the plain ones a race's field
    at a time (`plain_chances`); only the shown are priced in full and dressed. The presidency
    and a race the viewer holds are priced one by one anyway, so those prices are kept for the
    shown ones rather than found twice."""
    index = game_map().seat_by_id[race]
    holding = state.seats[index]
    one_by_one = index == 0 or holding.holder == you
    plain = {} if one_by_one else plain_chances(state, you, index, candidates_in_hand(state, you))
    priced: dict[tuple[int, str, int], DeclarationChance] = {}
    ranked: list[_Ranked] = []
    for card, card_id, party, district in _entries(state, you, race, cards, picked):
        key = (card_id, party.value, district)
        chance = plain.get((card_id, party)) if district == NO_CARD else None
        if chance is None:  # with a district card, the presidency or a race the viewer holds
            priced[key] = full = declaration_chance(
                state, Declaration(you, race, card_id, party, district))
            chance = full.chance
        ranked.append((key not in picked, chance, *key, card))
    _rank(ranked)
    options = []
    for unsuggested, _, card_id, side, district, card in ranked[:shown]:
        key = (card_id, side, district)
        found = priced.get(key) or declaration_chance(
            state, Declaration(you, race, card_id, Party(side), district))
        rerun = holding.holder == you and holding.card == card_id
        options.append(DeclarationOption(
            value=option_value(card_id, side, NO_CARD if rerun else district), card=card,
            party=side, chance=chance_view(found), suggested=not unsuggested,
            district=card_views(state, (district,))[0] if district != NO_CARD else None,
        ))
    return options, len(ranked)


def _rank(ranked: list[_Ranked]) -> None:
    """Sort a race's entries: the suggested first, then the strongest, then card, party and
    district card. Sorted from the last key up, each sort stable; the chances are compared
    through their places among the race's few distinct chances (whole numbers), so each
    distinct fraction is compared a few times rather than every entry against every other."""
    distinct = {(row[1].numerator, row[1].denominator): row[1] for row in ranked}
    place = {key: n for n, key in enumerate(sorted(distinct, key=distinct.__getitem__))}
    ranked.sort(key=lambda row: row[2:5])
    ranked.sort(key=lambda row: place[row[1].numerator, row[1].denominator], reverse=True)
    ranked.sort(key=lambda row: row[0])


def declaration_choices(state: GameState, view: SeatView) -> list[RaceChoices]:
    """The races to choose in, each with its suggestion and strongest declarations of the
    viewer's (the rest counted in `more`)."""
    you = view.you
    known = visible_state(state, you)
    picks = {s.race: (s.card, s.party, s.district_card) for s in suggested_declarations(view)}
    held = _held(known, you)
    if len(view.races_up) * len(view.declarable) * len(Party) <= EVERY_RACE_AT_MOST:
        races = list(view.races_up)
    else:
        races = [r for r in view.races_up if r in picks or r in held]
    return [_race(known, you, race, view.declarable, picks, held, False) for race in races]


def with_race_opened(
    state: GameState, you: int, choices: list[RaceChoices], declarable: list[CardView],
    suggested: list[ChanceView], race: str,
) -> list[RaceChoices]:
    """`choices` with `race` opened: every declaration of the viewer's in it, in its place when
    it is listed, after the others when not. Built from a page already made (its cards and
    suggestion), so opening a race prices that race alone."""
    known = visible_state(state, you)
    picks = {s.race: (s.card, s.party, s.district_card) for s in suggested}
    opened = _race(known, you, race, declarable, picks, _held(known, you), True)
    if race not in {r.race for r in choices}:
        return [*choices, opened]
    return [opened if r.race == race else r for r in choices]


def _held(known: GameState, you: int) -> set[str]:
    gmap = game_map()
    return {
        gmap.seats[i].race_id for i in gmap.races_in(known.year) if known.seats[i].holder == you
    }


def _race(
    known: GameState, you: int, race: str, declarable: list[CardView],
    picks: dict[str, _Pick], held: set[str], opened: bool,
) -> RaceChoices:
    options, every = _options(known, you, race, declarable,
                              {picks[race]} if race in picks else set(), None if opened else SHOWN)
    return RaceChoices(
        race=race, suggested=race in picks, held=race in held, options=options,
        more=every - len(options), opened=opened,
    )
