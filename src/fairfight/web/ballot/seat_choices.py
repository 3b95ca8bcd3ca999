"""Declaring by choosing: the declarations a seat may make this year as options to pick, each
with its exact chance, grouped by race, the suggested ones picked already.

Priced on the game as the seat knows it (`visible_state`), so an option can hold nothing of
another seat. A year with few races lists every race; a year with hundreds (every House seat
comes up in even years) lists the suggested races and the seats the viewer holds that come up,
every card and party in each, and the page offers any other race through a list to pick from.
"""

from __future__ import annotations

from pydantic import BaseModel

from fairfight.ballot.advice import declaration_chance
from fairfight.ballot.geo import game_map
from fairfight.ballot.seat_view import CardView, ChanceView, SeatView, chance_view, visible_state
from fairfight.ballot.state import Declaration, GameState
from fairfight.ballot.tables import Party

__all__ = [
    "EVERY_RACE_AT_MOST",
    "DeclarationOption",
    "RaceChoices",
    "declaration_choices",
    "option_value",
    "suggested_declarations",
]

EVERY_RACE_AT_MOST = 400
"""The most options (race × card × party) listed in full; a year with more lists the suggested
races and the viewer's own seats that come up (a midterm has ~500 races: 15 cards × 2 parties
in each would make a page of 15,000 options)."""


class DeclarationOption(BaseModel):
    """One declaration to pick: a card under a party in the race, with its chance."""

    value: str
    """The form's value: `card:party` (the race is the field's name)."""
    card: CardView
    party: str
    chance: ChanceView
    suggested: bool


class RaceChoices(BaseModel):
    """A race up this year and every declaration of the viewer's in it."""

    race: str
    suggested: bool
    """The suggestion declares in this race (its option is picked already)."""
    held: bool
    """The viewer holds this seat (a re-run is among the options)."""
    options: list[DeclarationOption]
    """The suggested declaration first, then the strongest first (ties: card, then party)."""


def option_value(card: int, party: str) -> str:
    """The form value of a declaration option."""
    return f"{card}:{party}"


def suggested_declarations(view: SeatView) -> list[ChanceView]:
    """The declarations the page picks for the seat before it chooses: the advice's set for the
    year (`advisor.advise`, the Pollster's choice in this seat), or, should the advice not be to
    declare, the strongest declarations priced one by one."""
    return list(view.advised or view.suggestions)


def _options(
    state: GameState, you: int, race: str, cards: list[CardView], picked: set[tuple[int, str]]
) -> list[DeclarationOption]:
    holding = state.seats[game_map().seat_by_id[race]]
    runnable = [
        card for card in cards
        if card.id in state.hands[you] or (holding.holder == you and holding.card == card.id)
    ]
    ranked = []
    for card in runnable:
        for party in Party:
            rerun = holding.holder == you and holding.card == card.id
            entry = Declaration(you, race, card.id, party,
                                holding.district_card if rerun else -1)
            priced = declaration_chance(state, entry)
            option = DeclarationOption(
                value=option_value(card.id, party.value), card=card, party=party.value,
                chance=chance_view(priced), suggested=(card.id, party.value) in picked,
            )
            ranked.append((not option.suggested, -priced.chance, card.id, party.value, option))
    ranked.sort(key=lambda row: row[:4])
    return [row[-1] for row in ranked]


def declaration_choices(state: GameState, view: SeatView) -> list[RaceChoices]:
    """The races to choose in, each with every declaration of the viewer's (card × party)."""
    you = view.you
    known = visible_state(state, you)
    suggested = suggested_declarations(view)
    picks = {s.race: (s.card, s.party) for s in suggested}
    gmap = game_map()
    held = {
        gmap.seats[i].race_id for i in gmap.races_in(state.year)
        if known.seats[i].holder == you
    }
    if len(view.races_up) * len(view.declarable) * len(Party) <= EVERY_RACE_AT_MOST:
        races = list(view.races_up)
    else:
        races = [r for r in view.races_up if r in picks or r in held]
    return [
        RaceChoices(
            race=race, suggested=race in picks, held=race in held,
            options=_options(known, you, race, view.declarable,
                             {picks[race]} if race in picks else set()),
        )
        for race in races
    ]
