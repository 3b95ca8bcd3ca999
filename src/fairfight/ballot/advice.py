"""What a seat is told while it declares: each declaration's exact chance, and the strongest ones.

The terminal and the web page show these same values and only format them, so the two can
never rank or price a declaration differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fairfight.ballot import estimates as est
from fairfight.ballot.deck import build_cards
from fairfight.ballot.dice import RaceKind, win_chance
from fairfight.ballot.geo import game_map
from fairfight.ballot.racebook import presidential_part
from fairfight.ballot.rules import Party
from fairfight.ballot.rules_page import percent
from fairfight.ballot.state import NO_CARD, Declaration, GameState

__all__ = [
    "STRONGEST_SHOWN",
    "DeclarationChance",
    "declaration_chance",
    "strongest_declarations",
]

STRONGEST_SHOWN = 10
"""How many of the strongest declarations the terminal and the web page list."""


@dataclass(frozen=True, slots=True)
class DeclarationChance:
    """A declaration, its exact table chance against the current field, and how it was read."""

    declaration: Declaration
    chance: Fraction
    how: str
    """The tables and edges read, e.g. `edge +3 (table G)`."""

    def percent(self) -> str:
        """The chance as a percentage with one decimal, as the rules page prints the tables."""
        return percent(self.chance)


def declaration_chance(state: GameState, decl: Declaration) -> DeclarationChance:
    """The table chance of a declaration against the current field (board or incumbent)."""
    gmap = game_map()
    index = gmap.seat_by_id[decl.race]
    cards = build_cards(state.key)
    card = cards[decl.card]
    holding = state.seats[index]
    other, primary = est.opponent(state, index, decl.party, decl.player)
    if index == 0:
        edge = est.median_presidential_edge(card, decl.party, other)
        chance = win_chance(RaceKind.PRIMARY, edge)
        how = f"EV-weighted median state edge {edge:+d} (table P)"
        if primary is not None:
            part = presidential_part(card, decl.party)
            chance *= win_chance(RaceKind.PRIMARY, part - primary)
            how += f", primary edge {part - primary:+d} against the incumbent (table P)"
        return DeclarationChance(decl, chance, how)
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
    return DeclarationChance(decl, chance, how)


def strongest_declarations(
    state: GameState, seat: int, limit: int = STRONGEST_SHOWN
) -> list[DeclarationChance]:
    """The strongest new declarations of `seat`, each with a different card and a different race.

    Every candidate card of the hand is priced in every race up this year under either party,
    with no district card; the highest exact chance comes first (ties: the lower card id, then
    the race's place on the map), and a card or race already listed is passed over.
    """
    cards = build_cards(state.key)
    hand = [cards[c] for c in state.hands[seat] if cards[c].is_candidate]
    gmap = game_map()
    ranked: list[tuple[Fraction, int, int, DeclarationChance]] = []
    for index in gmap.races_in(state.year):
        race = gmap.seats[index].race_id
        for card in hand:
            for party in Party:
                priced = declaration_chance(state, Declaration(seat, race, card.id, party))
                ranked.append((-priced.chance, card.id, index, priced))
    ranked.sort(key=lambda row: row[:3])
    used_cards: set[int] = set()
    used_races: set[str] = set()
    picks: list[DeclarationChance] = []
    for _, card_id, _, priced in ranked:
        if len(picks) == limit:
            break
        race = priced.declaration.race
        if card_id in used_cards or race in used_races:
            continue
        picks.append(priced)
        used_cards.add(card_id)
        used_races.add(race)
    return picks
