"""The strongest declarations: one ranking, read the same at the terminal and on the web page.

docs/ballot.md: "the ten strongest choices are listed, each with a different card and a
different race". The list is checked against that definition directly: each pick is the
strongest declaration left once the cards and races of the earlier picks are set aside.
"""

from __future__ import annotations

from functools import cache

import pytest

from fairfight.ballot import advice
from fairfight.ballot.advice import (
    STRONGEST_SHOWN,
    DeclarationChance,
    declaration_chance,
    strongest_declarations,
)
from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.human import TerminalHuman
from fairfight.ballot.session import Session
from fairfight.ballot.state import NO_CARD, Declaration, GameState, Phase
from fairfight.ballot.tables import Party, named_config
from fairfight.web.ballot.seat_page import game_page

SEATS = ("pollster", "machine", "pollster", "machine")


@cache
def declare_states(key: str = "1000", years: int = 5) -> tuple[GameState, ...]:
    """The declare step of the first `years` years of a bot game."""
    bots = make_bots(SEATS)
    state, _ = new_game(named_config("as-written-plus"), key, len(SEATS))
    found: list[GameState] = []
    while state.phase is not Phase.OVER and len(found) < years:
        if state.phase is Phase.DECLARE:
            found.append(state)
        state, _ = advance(state, {s: bots[s].decide(state, s) for s in requested_seats(state)})
    return tuple(found)


def every_new_declaration(state: GameState, seat: int) -> list[DeclarationChance]:
    cards = build_cards(state.key)
    gmap = game_map()
    return [
        declaration_chance(state, Declaration(seat, gmap.seats[index].race_id, card, party))
        for index in gmap.races_in(state.year)
        for card in state.hands[seat]
        if cards[card].is_candidate
        for party in Party
    ]


@pytest.mark.parametrize("year", range(5))
@pytest.mark.parametrize("seat", [0, 1])
def test_each_pick_is_the_strongest_left_with_a_new_card_and_race(year: int, seat: int) -> None:
    state = declare_states()[year]
    picks = strongest_declarations(state, seat)
    place = game_map().seat_by_id
    left = every_new_declaration(state, seat)
    for pick in picks:
        best = min(left, key=lambda d: (-d.chance, d.declaration.card, place[d.declaration.race]))
        assert pick == best
        left = [
            d
            for d in left
            if d.declaration.card != pick.declaration.card
            and d.declaration.race != pick.declaration.race
        ]
    assert len(picks) == STRONGEST_SHOWN or not left
    assert all(p.declaration.district_card == NO_CARD for p in picks)


def test_a_board_district_past_the_first_is_offered_when_it_is_stronger() -> None:
    """A state's board districts are held by either party, so they do not rank alike: the
    page once looked only at district 1 of each state and left these choices out."""
    offered = [
        p.declaration.race for state in declare_states() for p in strongest_declarations(state, 0)
    ]
    assert any(race.startswith("H-") and not race.endswith("-1") for race in offered), offered


def test_the_terminal_and_the_web_page_list_the_same_choices() -> None:
    state = declare_states()[0]
    said: list[str] = []
    TerminalHuman(ask=lambda _: "", say=said.append)._suggest(state, 0)
    session = Session(
        config=state.config,
        key=state.key,
        names=("you", *SEATS[1:]),
        human=0,
        state=state,
        events=[],
        bots={},
    )
    page = game_page("g", session)
    assert page.suggestions, "the page offers no choice in a declare step"
    web = [(s.race, s.card, s.party, s.percent, s.how) for s in page.suggestions]
    picks = strongest_declarations(state, 0)
    entries = [p.declaration for p in picks]
    assert web == [
        (e.race, e.card, e.party.value, p.percent(), p.how)
        for e, p in zip(entries, picks, strict=True)
    ]
    # the terminal writes the exact fraction only beside an exact chance
    assert said[1:] == [
        f"  {e.race} {e.card} {e.party.value}: {p.text()} ({p.how})"
        for e, p in zip(entries, picks, strict=True)
    ]
    for line, priced in zip(said[1:], picks, strict=True):
        assert (str(priced.chance) in line) is priced.exact


def test_the_ranking_prices_every_declaration_as_declaration_chance_does() -> None:
    """The ranking reads each race's field once per party instead of pricing declarations one
    by one; every chance it ranks on must be `declaration_chance`'s, primaries included."""
    state = declare_states()[4]  # 2032: seat 0 holds the presidency, seat 3 a House seat
    cards = build_cards(state.key)
    primaries = 0
    for seat in (1, 3):
        hand = [cards[c] for c in state.hands[seat] if cards[c].is_candidate]
        for index in game_map().races_in(state.year):
            race = game_map().seats[index].race_id
            for chance, card_ids, party in advice._race_chances(state, seat, index, hand):
                for card in card_ids:  # the cards of one part share the chance
                    priced = declaration_chance(state, Declaration(seat, race, card, party))
                    assert chance == priced.chance
                    primaries += "primary" in priced.how
    assert primaries > 0
